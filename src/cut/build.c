// SPDX-License-Identifier: GPL-2.0
/*
 * build.c: a cut as layers (docs/CACHE.md): the trees, then the modules
 * and bins layers, each found in the cache or built (one dracut run for
 * whatever dracut must build), the helpers, then the image: head + tail
 * naming the cached layers, or head + layers + tail when standalone.
 * Everything is written in a work directory next to the image and
 * renamed into place. Two layers only some boots need carry a condition
 * in rapido/layers, which ./vm reads: the modules the init loads on
 * demand (kmods.c), and the shared libraries, when no program of the
 * image asks for the dynamic loader (libs_when()).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpio.h"
#include "elfdyn.h"
#include "err.h"
#include "guestmods.h"
#include "io.h"
#include "layer.h"
#include "layers.h"
#include "fsinfo.h"
#include "protocol.h"
#include "run.h"
#include "strbuf.h"

/* dracut's archive, split: L_LIBS is the shared libraries of what would be the bins layer */
enum { L_MODULES, L_BINS, L_LIBS, N_SPLIT };

/* This run's private directory (work.c) and cut.c's exit path for a signal. */
static struct cut_work *work;
static void (*cleanup)(void);

/* A signal taken while no dracut ran: stop here, clean, die of it. */
static void stop_if_signalled(void)
{
	int sig = cut_signal_pending();

	if (sig)
		cut_die_signal(sig, cleanup);
}

static void work_create(const struct cut_plan *p)
{
	char *copy = xstrdup(p->output), *outdir = dirname(copy);
	int rc;

	if (p->make_outdir && mkdir(outdir, 0755) < 0 && errno != EEXIST)
		die_errno("cannot create %s", outdir);
	cut_work_reap_stale(p->output);
	rc = cut_work_create(work, p->output);
	if (rc)
		cut_die_write(rc, "cannot create a temporary directory next to", p->output);
	free(copy);
	stop_if_signalled();
}

/* The program an argv runs: past env(1) and its VAR=value words, dracut. */
static const char *run_name(const struct strv *argv)
{
	size_t i = 0;

	if (argv->n && !strcmp(argv->v[0], "env"))
		for (i = 1; i + 1 < argv->n && strchr(argv->v[i], '='); i++)
			;
	return argv->v[i];
}

/* One dracut run, in its own process group (child.c): a signal to cut stops all of it. */
static void run_dracut(const struct cut_opts *o, const struct cut_plan *p, struct strv *argv)
{
	struct cut_child_result r;
	const char *name = run_name(argv);
	int rc;

	rc = cut_child_run(strv_argv(argv), o->verbose, &r);
	if (rc)
		die_err(rc, "cannot run %s", name);
	if (r.stop_sig)
		cut_die_signal(r.stop_sig, cleanup);
	if (!WIFEXITED(r.status) || WEXITSTATUS(r.status)) {
		char *copy = xstrdup(p->output);
		char *how = WIFEXITED(r.status) ? xasprintf("exit status %d", WEXITSTATUS(r.status)) :
			xasprintf("signal %d", WTERMSIG(r.status));

		if (!o->verbose && r.len)
			fprintf(stderr, "---- dracut output%s ----\n%s%s---- end of dracut output ----\n",
				r.truncated ? " (its end)" : "", r.tail,
				r.tail[r.len - 1] == '\n' ? "" : "\n");
		if (WIFEXITED(r.status) && WEXITSTATUS(r.status) == 127)
			die("%s could not be run (is dracut-core installed? make deps)", name);
		/* dracut's tools say ENOSPC in words; the file system is ours to name */
		if (r.space_err)
			die("dracut failed (%s): %s on %s; no image written", how,
			    cut_space_text(r.space_err), fs_describe(dirname(copy)));
		die("dracut failed (%s); no image written", how);
	}
	cut_child_result_free(&r);
	stop_if_signalled();
}

/* where dracut's bash module puts bash: "inst /bin/bash", under usr/ when /bin links there */
static const char *const bash_names[] = { "usr/bin/bash", "bin/bash" };
#define N_BASH_NAMES (sizeof(bash_names) / sizeof(bash_names[0]))

struct split_ctx {
	const struct cut_plan *p;
	int want[N_SPLIT];
	FILE *deps[N_SPLIT];
	int bash_dropped[N_BASH_NAMES];	/* the dynamic bash left out for the static one */
	size_t libs;			/* files that went to L_LIBS */
};

/* The dynamic bash dracut copied, when the guest gets the static one in its place. */
static int swapped_bash(struct split_ctx *s, const char *name, mode_t mode)
{
	if (!s->p->static_bash || !S_ISREG(mode))
		return 0;
	for (size_t i = 0; i < N_BASH_NAMES; i++)
		if (!strcmp(name, bash_names[i])) {
			s->bash_dropped[i] = 1;
			return 1;
		}
	return 0;
}

/*
 * The static bash, under each name the dynamic one had. The libraries
 * dracut resolved for the dynamic bash go to the libs layer, which every
 * boot gets where a program of the image is dynamic, and else only a
 * boot with a share (libs_when(): simple's 2.4 MiB, which the kernel
 * would unpack on every boot; a host program run from a share, a
 * reproducer built on the host, needs the loader and the C library). No
 * bash in dracut's archive (a stub dracut's empty one, in the tests):
 * nothing to swap, and the image is what dracut made.
 */
static void add_static_bash(const struct split_ctx *s, struct cpio_writer *w)
{
	const char *path = s->p->static_bash;

	for (size_t i = 0; i < N_BASH_NAMES; i++) {
		char *err = NULL;

		if (!s->bash_dropped[i])
			continue;
		if (cut_add_program(w, bash_names[i], path, "", 0, &err))
			die("%s (the guest's bash, CUT_BASH; CUT_BASH=dynamic leaves dracut's)", err);
		cut_dep_note(s->deps[L_BINS], path);
	}
}

static int is_module_path(const char *name)
{
	return cut_path_under(name, "usr/lib/modules") || cut_path_under(name, "lib/modules") ||
	       cut_path_under(name, "usr/lib/firmware") || cut_path_under(name, "lib/firmware");
}

/* Where an image file came from on the host (modules: the kernel's module directory). */
static char *host_path(const struct cut_plan *p, const char *name)
{
	const char *rel = NULL;

	if (p->kern.moddir) {
		const char *r = p->kern.release;
		size_t rl = strlen(r);

		if (!strncmp(name, "usr/lib/modules/", 16) && !strncmp(name + 16, r, rl) &&
		    name[16 + rl] == '/')
			rel = name + 16 + rl;
		else if (!strncmp(name, "lib/modules/", 12) && !strncmp(name + 12, r, rl) &&
			 name[12 + rl] == '/')
			rel = name + 12 + rl;
	}
	if (rel)
		return xasprintf("%s%s", p->kern.moddir, rel);
	/* a foreign ARCH's dracut copies from its sysroot */
	return xasprintf("%s/%s", p->sysroot ? p->sysroot : "", name);
}

/*
 * Files dracut makes in the image rather than copies (ldconfig's cache,
 * depmod's indexes): their inputs are tracked, and the host's own copies
 * change on every package install.
 */
static int generated(const char *name)
{
	const char *base = strrchr(name, '/');

	if (!strcmp(name, "etc/ld.so.cache"))
		return 1;
	return base && !strncmp(base + 1, "modules.", 8) && is_module_path(name);
}

/* usr, usr/lib: the kernel makes no parent directories, so each layer carries its own */
static int is_module_parent(const char *name)
{
	static const char *const dirs[] = { "usr/lib/modules", "lib/modules", "usr/lib/firmware",
					    "lib/firmware" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t l = strlen(name);

		if (!strncmp(dirs[i], name, l) && dirs[i][l] == '/')
			return 1;
	}
	return 0;
}

/*
 * A shared library, by its name in the archive: under lib/, usr/lib
 * (lib64, x86_64-linux-gnu, ...), NAME.so or NAME.so.DIGITS... (libc.so.6,
 * ld-linux-x86-64.so.2, libc.so, a linker script), a file or a link. Only
 * the dynamic loader reads one, for a program that asks for it.
 */
int cut_is_shared_lib(const char *name)
{
	const char *base = strrchr(name, '/'), *so;

	if (strncmp(name, "usr/lib", 7) && strncmp(name, "lib", 3))
		return 0;
	base = base ? base + 1 : name;
	so = strstr(base, ".so");
	return so && (so[3] == '\0' || (so[3] == '.' && so[4] >= '0' && so[4] <= '9'));
}

/*
 * Does the program at path (busybox, a helper: ./cut copies them as they
 * are) ask for the dynamic loader? One that cannot be read is taken to
 * (the libraries then stay in every boot).
 */
static int asks_loader(const char *path)
{
	struct elf_deps d;
	int rc = elf_read_deps_path(path, &d), yes;

	if (rc == -ENOEXEC) {
		/* a script, a data file: a program it runs is an entry of its own */
		char magic[SELFMAG];
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		/* but an ELF file the reader refuses (the kernel may still run it) asks */
		yes = fd >= 0 && pread(fd, magic, SELFMAG, 0) == SELFMAG &&
		      !memcmp(magic, ELFMAG, SELFMAG);
		if (fd >= 0)
			close(fd);
		return yes;
	}
	if (rc)
		return 1;
	yes = d.interp != NULL;
	elf_deps_free(&d);
	return yes;
}

/* An ELF file of a layer past this is not read: taken to ask for the loader. */
#define LOADER_SCAN_MAX (256 << 20)

/* cpio_walk: the first regular file of the layer that asks for the loader, "/NAME" in *arg. */
static int find_loader(int fd, const char *name, mode_t mode, off_t data, uint64_t size, void *arg)
{
	char **loader = arg, magic[SELFMAG], *buf;
	int asks = 1;

	if (!S_ISREG(mode) || size < SELFMAG || pread(fd, magic, SELFMAG, data) != SELFMAG ||
	    memcmp(magic, ELFMAG, SELFMAG))
		return 0;	/* a script, a data file: a program it runs is an entry of its own */
	if (size <= LOADER_SCAN_MAX) {
		buf = xmalloc(size);
		if (pread_full(fd, buf, size, data) == (ssize_t)size)
			asks = elf_asks_loader(buf, size) != 0;	/* a broken ELF: may still run */
		free(buf);
	}
	if (!asks)
		return 0;
	*loader = xasprintf("/%s", name);
	return 1;
}

/*
 * The first program of the layer file at path that asks for the dynamic
 * loader ("/usr/bin/perl"), or "none": every ELF file it holds read, the
 * interpreters dracut adds for scripts too (perl for a perl script).
 */
static char *layer_loader(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;
	char *loader = NULL;

	if (fd < 0)
		die_errno("%s", path);
	rc = cpio_walk(fd, find_loader, &loader);
	close(fd);
	if (rc < 0)
		die_err(rc, "reading the layer %s", path);
	return loader ? loader : xstrdup("none");
}

static int route(const char *name, mode_t mode, void *arg)
{
	struct split_ctx *s = arg;
	int to = is_module_path(name) ? L_MODULES : L_BINS;

	/* dracut's record of its own command line: the only bytes a split run changes */
	if (!strcmp(name, "usr/lib/dracut/build-parameter.txt"))
		return 0;
	if (S_ISDIR(mode) && is_module_parent(name))
		return (s->want[L_MODULES] ? 1 << L_MODULES : 0) | (s->want[L_BINS] ? 1 << L_BINS : 0);
	if (!s->want[to])
		return 0;
	if (to == L_BINS && swapped_bash(s, name, mode))
		return 0;
	/* the libs layer has no directories: the bins layer, unpacked before it, has them all */
	if (to == L_BINS && (S_ISREG(mode) || S_ISLNK(mode)) && cut_is_shared_lib(name)) {
		to = L_LIBS;
		s->libs++;
	}
	if ((S_ISREG(mode) || S_ISLNK(mode)) && !generated(name)) {
		char *host = host_path(s->p, name);

		cut_dep_note(s->deps[to], host);
		free(host);
	}
	return 1 << to;
}

/*
 * The libs layer's key: the bins layer's, of which it is a part, and that
 * layer's bytes. Which libraries dracut resolves follows from the programs
 * the bins layer holds, some of which its key does not cover (the
 * interpreter dracut adds for a #! script, an alternatives link's
 * target): a bins layer built again with other programs under the same
 * key must not find the libraries of the old ones (a program then exits
 * 127 in the guest). Known only once the bins layer is: after its lookup
 * or its build.
 */
static void libs_key(const struct cut_layer *bins, struct cut_layer *ly)
{
	char xxh[17];
	struct sha256 s;

	snprintf(xxh, sizeof(xxh), "%016" PRIx64, bins->xxh);
	sha256_init(&s);
	sha256_update(&s, CACHE_FORMAT " libs of ", sizeof(CACHE_FORMAT " libs of "));
	sha256_update(&s, bins->key, strlen(bins->key) + 1);
	sha256_update(&s, xxh, sizeof(xxh));
	sha256_hex(&s, ly->key);
	ly->kind = "libs";
	free(ly->desc);
	ly->desc = xasprintf("the shared libraries of: %s", bins->desc);
}

/*
 * Split dracut's archive into the wanted layers, in the cache if it takes
 * them; the libs layer goes with the bins layer, and is none (kind NULL)
 * when no library was in it. The bins layer's record says which (apart)
 * and whether a program of it asks for the loader.
 */
static void split_layers(const struct cut_plan *p, struct cut_cache *c, const char *raw,
			 const int need[N_SPLIT], struct cut_layer ly[N_SPLIT])
{
	static struct cpio_writer w[N_SPLIT];

	for (int attempt = 0; ; attempt++) {
		struct split_ctx s = { .p = p };
		struct cut_sink out[N_SPLIT] = { { .path = NULL }, { .path = NULL },
						 { .path = NULL } };
		char *dtext[N_SPLIT] = { NULL, NULL, NULL }, *bad;
		size_t dlen[N_SPLIT];
		int in, rc, werr[N_SPLIT] = { 0, 0, 0 };

		for (int i = 0; i < N_SPLIT; i++) {
			if (!need[i])
				continue;
			s.want[i] = 1;
			cut_sink_open(&out[i], c, attempt == 0, work, ly[i].kind);
			cpio_init(&w[i], out[i].fd);
			w[i].hash = &out[i].x;
			s.deps[i] = open_memstream(&dtext[i], &dlen[i]);
			if (!s.deps[i])
				die_errno("open_memstream");
		}
		in = open(raw, O_RDONLY | O_CLOEXEC);
		if (in < 0)
			die_errno("%s", raw);
		rc = cpio_split(in, w, route, &s, &bad);
		close(in);
		if (rc == -EMLINK)
			die("dracut's archive %s holds a hard link (%s), which cannot be split into layers",
			    raw, bad);
		if (rc)
			die_err(rc, "reading dracut's archive %s", raw);
		if (need[L_BINS] && p->static_bash)
			add_static_bash(&s, &w[L_BINS]);
		for (int i = 0; i < N_SPLIT; i++) {
			if (!need[i])
				continue;
			werr[i] = cut_sink_close(&out[i], cpio_finish(&w[i]));
			fclose(s.deps[i]);
		}
		if (cut_sink_retry(c, out, werr, N_SPLIT)) {
			for (int i = 0; i < N_SPLIT; i++)
				free(dtext[i]);
			continue;
		}
		for (int i = 0; i < N_SPLIT; i++)
			if (werr[i])
				cut_die_write(werr[i], "writing a layer in", out[i].path);
		if (need[L_BINS]) {
			ly[L_BINS].apart = s.libs;
			free(ly[L_BINS].loader);
			ly[L_BINS].loader = layer_loader(out[L_BINS].path);
		}
		for (int i = 0; i < N_SPLIT; i++) {
			if (!need[i])
				continue;
			ly[i].deps = dtext[i];
			if (i == L_LIBS && !s.libs) {
				cut_sink_drop(&out[i]);
				ly[i].kind = NULL;
				continue;
			}
			/* the bins layer, kept just before, has its bytes' hash now */
			if (i == L_LIBS)
				libs_key(&ly[L_BINS], &ly[L_LIBS]);
			cut_sink_keep(&out[i], c, &ly[i]);
		}
		return;
	}
}

static off_t file_size(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		die_errno("%s", path);
	return st.st_size;
}

/*
 * Which file holds dracut's archive: the sink its "compressor" wrote, out
 * left empty; a dracut that ignored the --compress wrote out itself.
 */
static const char *archive_of(const char *out, const char *sink)
{
	off_t o = file_size(out), s = sink ? file_size(sink) : 0;

	if (o && s)
		die("dracut wrote both %s and %s: cannot tell its archive", out, sink);
	if (!o && !s)
		die("dracut exited 0 but wrote no archive (%s%s%s empty); no image written", out,
		    sink ? " and " : "", sink ? sink : "");
	return s ? sink : out;
}

/*
 * While dracut sets up and copies, rapido-ldd asks the loader ahead about
 * the binaries and the libraries they need, on the other core, keeping the
 * answers in the work directory, where dracut's rapido-ldd finds them
 * (src/ldd/answers.c). Best effort: without it, each is asked in turn.
 */
static void ldd_ahead(const struct cut_plan *p, const struct strv *libs, const char *ldd,
		      struct strv *env)
{
	char *dir = cut_work_path(work, "ldd");
	struct strv argv = STRV_INIT;

	if (mkdir(dir, 0700) < 0) {
		free(dir);
		return;
	}
	strv_push(&argv, ldd);
	strv_push(&argv, "--answers");
	strv_push(&argv, dir);
	strv_push_all(&argv, &p->bins);
	if (libs)
		strv_push_all(&argv, libs);
	if (cut_child_spawn(strv_argv(&argv)) > 0)
		strv_pushf(env, "RAPIDO_LDD_ANSWERS=%s", dir);
	strv_free(&argv);
	free(dir);
}

/*
 * Find or build the modules and bins layers (and the libs layer split
 * from the bins layer); exists[i]: the image has that layer.
 */
static void dracut_layers(const struct cut_opts *o, const struct cut_plan *p, struct cut_cache *c,
			  const struct strv *libs, const int exists[2], struct cut_layer ly[N_SPLIT])
{
	int need[N_SPLIT] = { 0, 0, 0 };
	enum cut_dracut_part part;
	struct strv argv = STRV_INIT;
	char *raw, *tmpdir, *ldd, *sink, *dd;
	double start;
	int fd;

	for (int i = 0; i < 2; i++) {
		if (!exists[i])
			continue;
		need[i] = !cut_cache_lookup(c, &ly[i]);
		/* the bins layer's libraries: built again with it if they are gone */
		if (i == L_BINS && !need[i] && !ly[i].apart)
			ly[L_LIBS].kind = NULL;
		else if (i == L_BINS && !need[i]) {
			libs_key(&ly[L_BINS], &ly[L_LIBS]);
			need[i] = !cut_cache_lookup(c, &ly[L_LIBS]);
		}
		if (!need[i]) {
			char *size = cut_mib(ly[i].size);

			cut_progress("%s layer: in the cache (%s)", ly[i].kind, size);
			free(size);
		}
	}
	need[L_LIBS] = need[L_BINS];
	if (!need[0] && !need[1])
		return;
	part = need[0] && need[1] ? DRACUT_ALL : need[0] ? DRACUT_MODULES : DRACUT_BINS;
	cut_progress_slow("dracut: building the %s", part == DRACUT_ALL ? "modules and bins layers" :
			  part == DRACUT_MODULES ? "modules layer" : "bins layer");
	start = cut_progress_secs();
	raw = cut_work_file_or_die(work, "dracut", &fd);
	close(fd);
	/* dracut's tree goes in the work directory too: removed even after a kill */
	tmpdir = cut_work_path(work, "tmp");
	if (mkdir(tmpdir, 0700) < 0 && errno != EEXIST)
		cut_die_write(-errno, "creating", tmpdir);
	/*
	 * dracut-install runs ldd on every ELF file of the image: rapido-ldd
	 * answers as ldd would, with two loader runs instead of up to seven
	 * programs (and fewer still with the answers asked ahead). Not in the
	 * argv the key and --dry-run see: it changes no byte of the layer.
	 */
	ldd = cut_dracut_ldd(p);
	if (ldd) {
		strv_push(&argv, "env");
		strv_pushf(&argv, "DRACUT_LDD=%s", ldd);
		/* a modules-only run installs no binaries: nothing to ask ahead */
		if (part != DRACUT_MODULES)
			ldd_ahead(p, libs, ldd, &argv);
		free(ldd);
	}
	sink = cut_work_file_or_die(work, "archive", &fd);
	close(fd);
	/* dracut would take a missing "compressor" for none and pick gzip itself */
	dd = find_in_path("dd");
	if (!dd || !cut_dracut_sink_ok(sink)) {
		unlink(sink);
		free(sink);
		sink = NULL;
	}
	free(dd);
	cut_dracut_argv(o, p, raw, part, libs, tmpdir, sink, &argv);
	run_dracut(o, p, &argv);
	split_layers(p, c, archive_of(raw, sink), need, ly);
	{
		uint64_t bins = ly[1].size + (ly[L_LIBS].kind ? ly[L_LIBS].size : 0);
		char *size[2] = { need[0] ? cut_mib(ly[0].size) : NULL,
				  need[1] ? cut_mib(bins) : NULL };

		cut_progress("dracut: done in %.1f s: %s%s%s%s%s%s", cut_progress_secs() - start,
			     need[0] ? "modules layer " : "", need[0] ? size[0] : "",
			     need[0] && need[1] ? ", " : "", need[1] ? "bins layer " : "",
			     need[1] ? size[1] : "",
			     (!need[0] || ly[0].cached) && (!need[1] || ly[1].cached) ?
			     ", stored in the cache" : "");
		free(size[0]);
		free(size[1]);
	}
	unlink(raw);
	if (sink)
		unlink(sink);
	free(tmpdir);
	strv_free(&argv);
	free(raw);
	free(sink);
}

static int copy_fd(int out, int in, uint64_t len)
{
	off_t off = 0;

	while (len) {
		ssize_t n = sendfile(out, in, &off, len > (1 << 30) ? (1 << 30) : len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		len -= (uint64_t)n;
	}
	return 0;
}

/* The size written, and what the image file leaves in the cache. */
static void report_written(const struct cut_plan *p, const struct img_layers *l,
			   const char *cache_dir)
{
	uint64_t in_cache = 0;
	struct stat st;
	char *size, *layers;

	if (stat(p->output, &st) < 0)
		return;
	for (size_t i = 0; i < l->n; i++)
		in_cache += l->v[i].size;
	size = cut_mib((uint64_t)st.st_size);
	layers = cut_mib(in_cache);
	if (cache_dir)
		cut_progress("wrote %s: %s in %.1f s (its %zu layer%s, %s, stay in the cache)",
			     p->output, size, cut_progress_secs(), l->n, l->n == 1 ? "" : "s", layers);
	else
		cut_progress("wrote %s: %s in %.1f s (standalone)", p->output, size,
			     cut_progress_secs());
	free(size);
	free(layers);
}

/*
 * The secret trees go after the tail, as archives of their own: part of the
 * image's own bytes (rapido/layers counts them in the tail's size), so they
 * are in every form of the image and in no cache.
 */
static int append_secrets(int tail, const struct cut_layer *sv, size_t ns)
{
	for (size_t i = 0; i < ns; i++) {
		int fd = open(sv[i].path, O_RDONLY | O_CLOEXEC), rc;

		if (fd < 0)
			return -errno;
		rc = copy_fd(tail, fd, sv[i].size);
		close(fd);
		if (rc)
			return rc;
	}
	return 0;
}

static void write_image(const struct cut_opts *o, const struct cut_plan *p, struct cut_layer *v,
			size_t n, const struct cut_layer *sv, size_t ns, const char *cache_dir)
{
	struct img_layers l = { 0 };
	int tail = memfd_create("rapido-tail", MFD_CLOEXEC), fd, rc;
	char *err, *text, *tmp;
	off_t tail_len;

	if (tail < 0)
		die_errno("memfd_create");
	if (cut_write_tail(o, p, tail, &err))
		die("%s", err);
	rc = append_secrets(tail, sv, ns);
	if (rc)
		die_err(rc, "adding the secret files to the image's tail");
	tail_len = lseek(tail, 0, SEEK_END);
	if (tail_len < 0)
		die_errno("memfd");
	for (size_t i = 0; i < n; i++)
		img_layers_add_when(&l, v[i].kind, v[i].size, v[i].xxh, v[i].key, v[i].path,
				    v[i].when);
	l.tail = (uint64_t)tail_len;
	text = img_layers_format(&l);

	/*
	 * Born with its final mode: an image holding a secret is never
	 * readable by others, not even for a moment; any other follows the umask.
	 */
	tmp = cut_work_path(work, "image");
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, p->secret ? 0600 : 0666);
	if (fd < 0)
		cut_die_write(-errno, "cannot create", tmp);
	rc = cut_write_head(p, text, fd, &err);
	if (rc == -ENOSPC || rc == -EDQUOT)
		cut_die_write(rc, "writing", tmp);
	if (rc)
		die("%s: %s", tmp, err);
	for (size_t i = 0; !cache_dir && i < l.n; i++) {
		rc = img_layer_copy(&l.v[i], fd);
		if (rc == -EBADMSG)
			die("%s layer %s changed while this cut used it; cut again", l.v[i].kind,
			    l.v[i].path);
		if (rc == -ENOSPC || rc == -EDQUOT)
			cut_die_write(rc, "writing", tmp);
		if (rc)
			die_err(rc, "copying %s layer %s into %s", l.v[i].kind, l.v[i].path, tmp);
	}
	rc = copy_fd(fd, tail, (uint64_t)tail_len);
	if (!rc && cache_dir)
		rc = img_write_locator(fd, cache_dir);
	if (rc)
		cut_die_write(rc, "writing", tmp);
	if (close(fd) < 0)
		cut_die_write(-errno, "writing", tmp);
	stop_if_signalled();
	if (rename(tmp, p->output) < 0)
		die_errno("rename %s to %s", tmp, p->output);
	report_written(p, &l, cache_dir);
	close(tail);
	free(tmp);
	free(text);
	img_layers_free(&l);
}

/*
 * "/lib/multipath" -> "/usr/lib/multipath" where the root (host, or a
 * foreign ARCH's sysroot) has /lib -> usr/lib, as dracut's bins layer does.
 * A tree layer that made "lib" a directory would have the kernel's unpacker
 * replace that layer's symlink with it (clean_path()), hiding /lib/modules.
 */
static char *merged_usr_dest(const struct cut_plan *p, const char *dest)
{
	size_t n = strcspn(dest + 1, "/");
	char *top = xasprintf("%s/%.*s", p->sysroot ? p->sysroot : "", (int)n, dest + 1);
	char target[256];
	ssize_t len = readlink(top, target, sizeof(target) - 1);

	free(top);
	if (dest[0] != '/' || len <= 0 || target[0] == '/' || strstr(target, ".."))
		return xstrdup(dest);
	target[len] = '\0';
	return xasprintf("/%s%s", target, dest + 1 + n);
}

/*
 * Which boots need the libs layer. Every boot where a program of the
 * image asks for the dynamic loader: one in the bins layer (its record
 * says), busybox, a helper, or a tree (a suite's programs, which are
 * not read here). Else none of the image's own programs loads a library,
 * and only a host program run from a share does (./vm --share,
 * --virtiofs): NULL, or the kernel parameters of those boots; *why names
 * what kept them in every boot (NULL: nothing).
 */
static char *libs_when(const struct cut_plan *p, const struct cut_layer *bins, char **why)
{
	const char *prog = NULL;

	*why = NULL;
	if (!bins->loader)
		*why = xstrdup("its bins layer's record does not say whether a program asks for the "
			       "dynamic loader");
	else if (strcmp(bins->loader, "none"))
		prog = bins->loader;
	else if (p->n_trees)
		*why = xstrdup("a #@ files: tree's programs may ask for the dynamic loader");
	else if (p->busybox && asks_loader(p->busybox))
		prog = p->busybox;
	for (size_t i = 0; !prog && !*why && i < p->helpers.n; i++)
		if (asks_loader(p->helpers.v[i]))
			prog = p->helpers.v[i];
	if (prog)
		*why = xasprintf("%s asks for the dynamic loader", prog);
	return *why ? NULL : xstrdup(KP_SHARES "," KP_VIRTIOFS);
}

/* The on-demand modules' layer: the kernel parameters that have the init load them (guestmods.h). */
static char *ondemand_when(void)
{
	struct strbuf b = STRBUF_INIT;

	for (const struct guestmods_feature *f = guestmods_features; f->mods; f++)
		if (f->kparam)
			strbuf_addf(&b, "%s%s", b.len ? "," : "", f->kparam);
	return b.s;
}

/*
 * v[] holds the image's layers in order; the trees, built first, wait at
 * v[LAYERS_BEFORE_TREES] on until the modules, ondemand, bins and libs
 * layers go before them.
 */
#define LAYERS_BEFORE_TREES 4

void cut_build(const struct cut_opts *o, struct cut_plan *p, struct cut_work *w,
	       void (*on_stop)(void))
{
	struct cut_cache c;
	struct cut_cache none = { .dir = NULL, .lock_fd = -1 };
	struct cut_layer dl[N_SPLIT] = { { 0 }, { 0 }, { 0 } }, km[2] = { { 0 }, { 0 } }, *v, *sv;
	size_t ntrees = 0, nsecrets = 0, n = 0;
	int exists[2] = { p->modules.n || p->extra_modules.n || p->ondemand_modules.n, 1 };
	int dracut_exists[2] = { 0, 1 }, kmods, standalone;
	struct strv libs = STRV_INIT;
	char *err, *libs_why = NULL;
	int rc;

	work = w;
	cleanup = on_stop;
	cut_cache_open(&c, &p->conf, o->no_cache);
	work_create(p);
	v = xcalloc(p->n_trees + LAYERS_BEFORE_TREES + 2, sizeof(*v));
	sv = xcalloc(p->n_trees + 1, sizeof(*sv));

	/*
	 * trees first: the libraries their programs need belong to the bins
	 * layer; the cached ones, then the secret ones, which are never looked
	 * up in nor stored into the cache
	 */
	for (int secret = 0; secret < 2; secret++)
		for (size_t i = 0; i < p->n_trees; i++) {
			const struct cut_tree *tr = &p->trees[i];
			struct cut_layer *t = secret ? &sv[nsecrets] :
					      &v[LAYERS_BEFORE_TREES + ntrees];
			char *dest;
			int rc;

			if (tr->secret != secret)
				continue;
			dest = merged_usr_dest(p, tr->dest);
			rc = cut_tree_layer(secret ? &none : &c, tr->src, dest, work, t, &err);
			free(dest);
			if (rc)
				die("%s", err);
			if (secret)
				nsecrets++;
			else
				ntrees++;
			for (size_t k = 0; k < t->libs.n; k++)
				if (!strv_contains(&libs, t->libs.v[k]))
					strv_push(&libs, t->libs.v[k]);
		}
	strv_sort(&libs);
	/*
	 * the modules layer: ./cut's own (kmods.c), with the on-demand
	 * modules apart, or dracut's with --dracut-modules, which holds them
	 */
	kmods = exists[L_MODULES] && !o->dracut_modules;
	dracut_exists[L_MODULES] = exists[L_MODULES] && !kmods;
	if (kmods) {
		if (cut_kmods_layer(&c, p, work, km, &err))
			die("%s", err);
		dl[L_MODULES] = km[0];
		stop_if_signalled();
	} else if (exists[L_MODULES]) {
		cut_dracut_key(o, p, DRACUT_MODULES, NULL, &dl[L_MODULES]);
	}
	cut_dracut_key(o, p, DRACUT_BINS, &libs, &dl[L_BINS]);
	/* its key once the bins layer's bytes are known (libs_key) */
	dl[L_LIBS].kind = "libs";
	dracut_layers(o, p, &c, &libs, dracut_exists, dl);

	/*
	 * image order: modules, ondemand, bins, libs, trees, busybox,
	 * helpers; the tail (scripts) after them all
	 */
	if (exists[L_MODULES])
		v[n++] = dl[L_MODULES];
	if (km[1].kind) {
		km[1].when = ondemand_when();
		v[n++] = km[1];
	}
	v[n++] = dl[L_BINS];
	if (dl[L_LIBS].kind) {
		dl[L_LIBS].when = libs_when(p, &dl[L_BINS], &libs_why);
		v[n++] = dl[L_LIBS];
	} else {
		cut_layer_free(&dl[L_LIBS]);
	}
	for (size_t i = 0; i < ntrees; i++)
		v[n++] = v[LAYERS_BEFORE_TREES + i];
	if (p->busybox) {
		struct cut_layer bl = { 0 };

		if (cut_busybox_layer(&c, p, work, &bl, &err))
			die("%s", err);
		v[n++] = bl;
	}
	{
		struct cut_layer hl = { 0 };	/* v[n] may hold a tree's copy moved down */

		if (cut_helpers_layer(&c, p, work, &hl, &err))
			die("%s", err);
		v[n++] = hl;
	}
	standalone = o->standalone || !c.dir;
	for (size_t i = 0; i < n; i++)
		standalone |= !v[i].cached;
	write_image(o, p, v, n, sv, nsecrets, standalone ? NULL : c.dir);

	cut_progress_done();
	if (!o->quiet) {
		printf("%s: profile %s, kernel %s", p->output, p->prof.name, p->kern.release);
		if (o->verbose || standalone)
			printf(" (%s)", standalone ? "standalone" : "layers in the cache");
		printf("\n");
	}
	for (size_t i = 0; o->verbose && i < n; i++)
		printf("  %-8s %-6s %s%s%s%s\n", v[i].kind, v[i].built ? "built" : "cached", v[i].desc,
		       v[i].when ? " (only a boot with " : "", v[i].when ? v[i].when : "",
		       v[i].when ? ")" : "");
	if (o->verbose && libs_why)
		printf("  every boot has the libs layer: %s\n", libs_why);
	free(libs_why);
	for (size_t i = 0; o->verbose && i < nsecrets; i++)
		printf("  %-8s %-6s %s\n", "secret", "image", sv[i].desc);
	cut_cache_close(&c);
	cut_tmp_cleanup();
	rc = cut_work_remove(work);
	if (rc)
		warn_err(rc, "cannot remove this run's temporary directory");
	for (size_t i = 0; i < n; i++)
		cut_layer_free(&v[i]);
	for (size_t i = 0; i < nsecrets; i++)
		cut_layer_free(&sv[i]);
	free(v);
	free(sv);
	strv_free(&libs);
	work = NULL;
}
