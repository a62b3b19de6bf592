// SPDX-License-Identifier: GPL-2.0
/*
 * check.c: resolve a cut before dracut runs. Every missing binary, module,
 * helper, config key and kconfig symbol is reported by name, all at once,
 * so one run tells the user everything to fix.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "confget.h"
#include "confkeys.h"
#include "ceph.h"
#include "cephpaths.h"
#include "cut.h"
#include "elfdyn.h"
#include "err.h"
#include "io.h"
#include "fsinfo.h"
#include "globq.h"
#include "guestmods.h"
#include "guestpath.h"
#include "rapido.h"
#include "run.h"
#include "shwords.h"
#include "size.h"
#include "strbuf.h"
#include "toolver.h"

static int problems;

static void problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void problem(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", err_prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	problems++;
}

/*
 * A bins entry is a program found in PATH, or an absolute path: a program,
 * or a shared library that a program loads with dlopen(), which no ldd run
 * finds (NSS's soft token for libecryptfs). dracut --install copies such
 * a library without resolving what it links: the profile lists those too.
 */
static char *find_bin(const char *name)
{
	unsigned char magic[4];
	struct stat st;
	ssize_t n;
	int fd;

	if (name[0] != '/' || !strstr(name, ".so"))
		return find_in_path(name);
	/* a profile's name: a FIFO there is no library, and must not hang ./cut */
	fd = open_regular(name, 0, &st);
	if (fd < 0)
		return NULL;
	n = read(fd, magic, sizeof(magic));
	close(fd);
	return n == 4 && !memcmp(magic, "\177ELF", 4) ? xstrdup(name) : NULL;
}

/* A program for the image: the host's, or from a foreign ARCH's sysroot. */
static char *plan_bin(struct cut_plan *p, const char *name)
{
	return p->sysroot ? cut_sysroot_find(p, name) : find_bin(name);
}

/* path is in the image: with a sysroot, so must its libraries be (dracut cannot ask ldd) */
static void add_bin(struct cut_plan *p, const char *path)
{
	char *err;

	if (strv_contains(&p->bins, path))
		return;
	strv_push(&p->bins, path);
	if (p->sysroot && cut_sysroot_libs(p, path, "program", &err)) {
		problem("%s", err);
		free(err);
	}
}

/* A missing bins entry, with where to get it */
static void missing_bin(struct cut_plan *p, const char *name, const char *when)
{
	char *hint;

	if (!p->sysroot) {
		/* the profile's own #@ packages, else the table install-deps reads */
		char *tab = NULL, *text = NULL, *path;
		const char *pkg = profile_package(&p->prof, name);

		if (!pkg) {
			path = xasprintf("%s/autorun/packages", p->rapido_dir);
			if (!read_file(path, &text, NULL))
				pkg = tab = packages_table_lookup(text, name);
			free(text);
			free(path);
		}
		/* install-deps is rapido deps once installed (no host/ on the user's PATH) */
		if (pkg)
			problem("%s: host binary '%s' not found in PATH (needed by profile %s%s; "
				"Debian package %s: apt-get install %s, or %s %s)",
				p->prof.path, name, p->prof.name, when, pkg, pkg,
				rapido_installed() ? "rapido deps --install" : "host/install-deps",
				p->prof.name);
		else
			problem("%s: host binary '%s' not found in PATH (needed by profile %s%s)",
				p->prof.path, name, p->prof.name, when);
		free(tab);
		return;
	}
	hint = cut_sysroot_bin_hint(p, name);
	problem("%s: %s binary '%s' is not in the sysroot %s (needed by profile %s%s; %s)",
		p->prof.path, p->arch->name, name, p->sysroot, p->prof.name, when, hint);
	free(hint);
}

static void add_optional_bin(struct cut_plan *p, const char *name)
{
	char *path = plan_bin(p, name);

	if (path)
		add_bin(p, path);
	free(path);
}

/*
 * A program goes into the image at its host path: under a directory the
 * guest init mounts over (a tmpfs on /tmp), the guest would never see it.
 */
static int hidden_in_guest(const char *path, const char *from)
{
	static const char *const dirs[] = GUEST_MOUNTED_DIRS;

	for (const char *const *d = dirs; *d; d++) {
		if (cut_path_under(path, *d)) {
			problem("%s: %s is under %s, which the guest mounts a file system on: the"
				" image would hold it where no one sees it (copy it elsewhere,"
				" e.g. /usr/local/bin or your home, and give that path)",
				from, path, *d);
			return 1;
		}
	}
	return 0;
}

/*
 * --bins and CUT_EXTRA_BINS: host programs any profile can be given, with
 * their libraries (the bins layer: the profile's own programs' machinery)
 */
static void extra_bins(const struct cut_opts *o, struct cut_plan *p)
{
	const char *origin = NULL, *v = conf_value(&p->conf, "CUT_EXTRA_BINS", &origin);
	struct strv words = STRV_INIT;
	char *err = NULL;

	if (v && shwords_split(v, &words, &err) < 0)
		problem("CUT_EXTRA_BINS (%s): %s", origin ? origin : "rapido.conf", err);
	for (int opt = 0; opt < 2; opt++) {
		const struct strv *l = opt ? &o->bins : &words;

		for (size_t i = 0; i < l->n; i++) {
			char *path = plan_bin(p, l->v[i]);

			if (!path) {
				problem("host binary '%s' not found in PATH (from %s)", l->v[i],
					opt ? "--bins" : "CUT_EXTRA_BINS");
				continue;
			}
			if (hidden_in_guest(path, opt ? "--bins" : "CUT_EXTRA_BINS")) {
				free(path);
				continue;
			}
			add_bin(p, path);
			free(path);
		}
	}
	free(err);
	strv_free(&words);
}

static void resolve_bins(const struct cut_opts *o, struct cut_plan *p)
{
	static const char *const base[] = { "bash" };
	struct strv all = STRV_INIT;

	for (size_t i = 0; i < sizeof(base) / sizeof(base[0]); i++)
		strv_push(&all, base[i]);
	strv_push_all(&all, &p->prof.bins);
	if (p->modprobe)
		strv_push(&all, "modprobe");
	for (size_t i = 0; i < all.n; i++) {
		char *path = plan_bin(p, all.v[i]);

		if (!path) {
			missing_bin(p, all.v[i], "");
			continue;
		}
		add_bin(p, path);
		free(path);
	}
	for (size_t i = 0; i < p->prof.bins_opt.n; i++)
		add_optional_bin(p, p->prof.bins_opt.v[i]);
	extra_bins(o, p);
	/*
	 * "KEY=bin": only when rapido.conf sets KEY (e.g. xfstests' tools with
	 * FSTESTS_SRC); "KEY=VALUE=bin": only when KEY is VALUE (mkfs.f2fs with
	 * FSTESTS_FS=f2fs), so another value's programs stay out of the image
	 */
	for (int opt = 0; opt < 2; opt++) {
		const struct strv *l = opt ? &p->prof.bins_opt_if : &p->prof.bins_if;

		for (size_t i = 0; i < l->n; i++) {
			char *key = xstrdup(l->v[i]), *want = strchr(key, '='), *bin = strrchr(key, '=');
			const char *v;
			char *path;

			*want++ = '\0';
			*bin++ = '\0';
			if (bin == want)
				want = NULL;
			v = conf_value(&p->conf, key, NULL);
			if (v && (want ? !strcmp(v, want) : *v != '\0')) {
				if (opt) {
					add_optional_bin(p, bin);
				} else if (!(path = plan_bin(p, bin))) {
					char *when = want ? xasprintf(" with %s=%s", key, want) :
							    xasprintf(" when %s is set", key);

					missing_bin(p, bin, when);
					free(when);
				} else {
					add_bin(p, path);
					free(path);
				}
			}
			free(key);
		}
	}
	strv_free(&all);
}

/* where the status record goes through a virtio serial port (arch.h), loaded at every boot */
static const char *const status_modules[] = { "virtio_pci", "virtio_console" };

/*
 * "${KEY}" among modules-on-demand: the modules KEY's words name (kunit's
 * KUNIT_MODULES), in the image and loaded by the profile; the user named
 * each one, so one the kernel lacks is a problem, not left out
 */
static void demand_key_modules(struct cut_plan *p, const char *entry)
{
	size_t len = strlen(entry);
	char *key = xstrndup(entry + 2, len > 3 ? len - 3 : 0), *err = NULL;
	const char *val = conf_value(&p->conf, key, NULL);
	struct strv words = STRV_INIT;

	if (val && shwords_split(val, &words, &err) < 0)
		problem("%s: %s (modules-on-demand of profile %s)", key, err, p->prof.name);
	for (size_t i = 0; i < words.n; i++) {
		const char *m = words.v[i];
		int has = kernel_has_module(&p->kern, m);

		if (!has)
			problem("kernel module '%s' not found for kernel %s (in %s; %s names it for "
				"profile %s)", m, p->kern.release,
				p->kern.moddir ? p->kern.moddir : "no module directory", key, p->prof.name);
		else if (has == 2 && !strv_contains(&p->modules, m) &&
			 !strv_contains(&p->extra_modules, m))
			strv_push(&p->extra_modules, m);
	}
	free(err);
	strv_free(&words);
	free(key);
}

static void resolve_modules(struct cut_plan *p)
{
	size_t prof_mods;

	for (size_t i = 0; i < p->prof.modules.n; i++) {
		const char *m = p->prof.modules.v[i];
		int has = kernel_has_module(&p->kern, m);

		if (!has && !p->kern.moddir && p->kern.from_src)
			problem("kernel module '%s' not found for kernel %s: not built in "
				"(KERNEL_SRC/modules.builtin), and KERNEL_INSTALL_MOD_PATH is not set "
				"for loadable modules (needed by profile %s)",
				m, p->kern.release, p->prof.name);
		else if (!has)
			problem("kernel module '%s' not found for kernel %s (in %s; needed by profile %s)",
				m, p->kern.release, p->kern.moddir ? p->kern.moddir : "no module directory",
				p->prof.name);
		else if (has == 2)
			strv_push(&p->modules, m);
	}
	for (size_t i = 0; i < p->prof.modules_opt.n; i++)
		if (kernel_has_module(&p->kern, p->prof.modules_opt.v[i]) == 2)
			strv_push(&p->modules, p->prof.modules_opt.v[i]);
	prof_mods = p->modules.n;
	for (size_t i = 0; p->arch->status_port && i < sizeof(status_modules) / sizeof(status_modules[0]); i++) {
		const char *m = status_modules[i];
		int has = kernel_has_module(&p->kern, m);

		if (!has)
			problem("kernel module '%s' not found for kernel %s (in %s): on %s the guest's exit "
				"status goes through a virtio serial port", m, p->kern.release,
				p->kern.moddir ? p->kern.moddir : "no module directory", p->arch->name);
		else if (has == 2 && !strv_contains(&p->modules, m))
			strv_push(&p->modules, m);
	}
	/*
	 * In the image but not in rapido/modules: the profile loads the one
	 * its configuration needs (fstests_local: only FSTESTS_FS's module),
	 * or its tests do (xfstests modprobes dm targets and loop itself).
	 */
	for (size_t i = 0; i < p->prof.modules_demand.n; i++) {
		const char *m = p->prof.modules_demand.v[i];

		if (m[0] == '$' && m[1] == '{') {
			demand_key_modules(p, m);
			continue;
		}
		if (kernel_has_module(&p->kern, m) == 2 && !strv_contains(&p->modules, m) &&
		    !strv_contains(&p->extra_modules, m))
			strv_push(&p->extra_modules, m);
	}
	/*
	 * Every image can mount a host share (./vm --share), bring up a NIC,
	 * keep a shell on the virtio console, ...: the init loads these
	 * (guestmods.h) only when the kernel command line asks, and they go
	 * into a layer of their own that ./vm adds only then (kmods.c); the
	 * lists every boot loads (pvpanic, qemu_fw_cfg) go with the profile's.
	 */
	/* every boot's lists first (no kernel parameter): a module in both kinds is every boot's */
	for (int demand = 0; demand < 2; demand++) {
		struct strv *to = demand ? &p->ondemand_modules : &p->extra_modules;

		for (const struct guestmods_feature *f = guestmods_features; f->mods; f++) {
			if ((f->kparam != NULL) != demand)
				continue;
			for (const char *const *m = f->mods; *m; m++)
				if (kernel_has_module(&p->kern, *m) == 2 &&
				    !strv_contains(&p->modules, *m) &&
				    !strv_contains(&p->extra_modules, *m) &&
				    !strv_contains(&p->ondemand_modules, *m))
					strv_push(to, *m);
		}
	}
	/*
	 * The init loads modules itself (tools/init/modload.c), so kmod's
	 * modprobe (with libcrypto, libzstd and liblzma: 6 MiB that every
	 * boot unpacks, 0.1 s under TCG) is in the image only for the
	 * profile's own modules, which its scripts and tests may modprobe,
	 * and where the init must leave the loading to it (compressed
	 * modules: the kernel may not decompress them itself).
	 */
	p->modprobe = prof_mods || p->prof.modules_demand.n ||
		      (p->kern.compressed && (p->modules.n || p->extra_modules.n ||
					      p->ondemand_modules.n));
}

static void resolve_helpers(struct cut_plan *p)
{
	/* a foreign architecture's helpers are cross-compiled into build/ARCH */
	const char *dir = p->sysroot ? p->arch->name : "guest";

	strv_push(&p->helpers, "init");
	/* results.sh's rapido_test_tap reads TAP with it, in every image */
	strv_push(&p->helpers, "ktap");
	/* ./vmctl N exec runs commands through it, in every image */
	strv_push(&p->helpers, "exec");
	strv_push_all(&p->helpers, &p->prof.helpers);
	for (size_t i = 0; i < p->helpers.n; i++) {
		char *path = xasprintf("%s/build/%s/rapido-%s", p->rapido_dir, dir, p->helpers.v[i]);

		if (access(path, X_OK) < 0 && p->sysroot)
			problem("helper %s: %s (run make ARCHES=%s; it needs %s-gcc: make deps ARCHES=%s)",
				path, strerror(errno), p->arch->name, p->arch->triplet, p->arch->name);
		else if (access(path, X_OK) < 0)
			problem("helper %s: %s (run make)", path, strerror(errno));
		free(p->helpers.v[i]);
		p->helpers.v[i] = path;
	}
}

/*
 * The guest's bash (bash.c): the static one where the host has it,
 * CUT_BASH forcing either. The dynamic bash (bins) is still what dracut
 * copies and resolves; the bins layer swaps the static one in for it.
 */
static void resolve_bash(const struct cut_opts *o, struct cut_plan *p)
{
	const char *origin = NULL, *v = "auto";
	char *bash = NULL, *msg = NULL;
	int rc;

	/* the key's words and its default, as --check-conf takes them (confkeys.c) */
	if (conf_enum(&p->conf, "CUT_BASH", &v, &origin, &msg) < 0) {
		problem("%s", msg);
		free(msg);
		return;
	}

	for (size_t i = 0; i < p->bins.n && !bash; i++) {
		const char *base = strrchr(p->bins.v[i], '/');

		if (base && !strcmp(base, "/bash"))
			bash = p->bins.v[i];
	}
	rc = cut_bash_resolve(v, bash, !!p->sysroot, &p->static_bash, &msg);
	if (rc < 0)
		problem("CUT_BASH=%s (%s): %s", v, origin ? origin : "rapido.conf", msg);
	else if (msg && !o->quiet)
		warn("%s: the guest gets the dynamic bash (CUT_BASH=auto)", msg);
	free(msg);
}

/*
 * The guest shell's busybox (Debian's busybox-static): the host's, when it
 * is static (a dynamic one would need its libraries resolved like a bins
 * entry). A foreign ARCH's image gets none: the host's is no program there.
 * Without it the image is still whole, its shell only poorer: a warning.
 * CUT_BUSYBOX names another (it must be there), or none when empty.
 */
static void resolve_busybox(const struct cut_opts *o, struct cut_plan *p)
{
	const char *origin = NULL, *v = conf_value(&p->conf, "CUT_BUSYBOX", &origin);
	struct elf_deps d = { 0 };
	char *path;
	int rc;

	if (p->sysroot || (v && !*v))
		return;
	if (v && *v != '/') {
		problem("CUT_BUSYBOX=%s (%s): an absolute path expected, or empty for none", v,
			origin ? origin : "rapido.conf");
		return;
	}
	path = v ? xstrdup(v) : find_in_path("busybox");
	if (!path) {
		if (!o->quiet)
			warn("no busybox in PATH: the guest shell has only the profile's programs "
			     "(apt-get install busybox-static, or host/install-deps)");
		return;
	}
	rc = elf_read_deps_path(path, &d);
	if (v && (rc || d.interp)) {
		problem("CUT_BUSYBOX=%s (%s): %s: a static busybox expected", v,
			origin ? origin : "rapido.conf", rc ? err_str(rc) : "not a static program");
		free(path);
	} else if (rc || d.interp) {
		if (!o->quiet)
			warn("%s: %s: the guest shell gets no busybox (apt-get install busybox-static)",
			     path, rc ? err_str(rc) : "not a static program");
		free(path);
	} else {
		p->busybox = path;
	}
	elf_deps_free(&d);
}

/*
 * #@ shell-bins: programs for a person at the guest's shell (the profile
 * never runs them, so the harness's PATH without busybox is no matter).
 * Busybox's applet of the name serves where the image has busybox, and
 * the host's program, with the C library and the rest under it, stays
 * out: simple's uname, cat, rm, sleep and dmesg were 2.8 MiB of its
 * image with libc and libtinfo, unpacked by the kernel on every boot.
 * Else (no busybox, a foreign ARCH's image, an applet this busybox was
 * built without) the host's, as bins-optional. Its applets are asked
 * once, of the busybox the image gets.
 */
static void resolve_shell_bins(struct cut_plan *p)
{
	const struct strv *want = &p->prof.shell_bins;
	char *argv[] = { p->busybox, "--list", NULL }, *list = NULL, *save = NULL;
	struct strv applets = STRV_INIT;
	int st;

	if (!want->n)
		return;
	if (p->busybox) {
		st = run_capture(argv, -1, 30, &list);
		if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
			problem("%s --list: %s (the guest shell's busybox)", p->busybox,
				st < 0 ? strerror(-st) : "failed (is it a busybox?)");
			free(list);
			return;
		}
		/* only those the busybox layer links (helpers.c) */
		for (char *a = strtok_r(list, "\n", &save); a; a = strtok_r(NULL, "\n", &save))
			if (cut_busybox_applet_linked(a))
				strv_push(&applets, a);
	}
	for (size_t i = 0; i < want->n; i++)
		if (!strv_contains(&applets, want->v[i]))
			add_optional_bin(p, want->v[i]);
	strv_free(&applets);
	free(list);
}

static void check_conf(struct cut_plan *p)
{
	struct strv bad = STRV_INIT;

	for (size_t i = 0; i < p->prof.conf.n; i++) {
		const char *k = p->prof.conf.v[i];
		const char *v = conf_value(&p->conf, k, NULL);

		if (!v || !*v)
			problem("config key %s is not set (needed by profile %s; see rapido.conf.example)",
				k, p->prof.name);
	}
	/* the profile's own types: a bad value found now, not in guest shell after a boot */
	confkey_types_check(&p->conf, &p->prof.types, &bad);
	for (size_t i = 0; i < bad.n; i++)
		problem("%s", bad.v[i]);
	strv_free(&bad);
}

/*
 * #@ memory-use KEY FACTOR: KEY MiB times FACTOR in RAM disks must leave
 * the guest PROFILE_MEMORY_RESERVE of the memory it will boot with
 * (VM_MEMORY, else the profile's memory, else VM_MEMORY's default), or
 * the kernel's OOM killer takes the autorun halfway. Checked before a
 * boot, where the value is still the user's to change; ./vm --memory may
 * change the memory after, which the profile checks in the guest.
 */
static void check_memory_use(struct cut_plan *p)
{
	const char *mem_origin = NULL, *mem_text = conf_value(&p->conf, "VM_MEMORY", &mem_origin);
	const struct confkey *mem_key = confkey_find("VM_MEMORY");
	uint64_t mem = p->prof.memory;
	char mem_from[512];

	/* the one default, VM_MEMORY's row in confkeys.c, as ./vm takes it */
	if (!mem && (!mem_key || !mem_key->def || parse_size(mem_key->def, &mem)))
		die("internal error: VM_MEMORY has no default size in confkeys.c");

	snprintf(mem_from, sizeof(mem_from), "%s", p->prof.memory ? "the profile's memory" :
		 "VM_MEMORY's default");
	if (mem_text && *mem_text && !parse_size(mem_text, &mem))
		snprintf(mem_from, sizeof(mem_from), "VM_MEMORY=%s, %s", mem_text, mem_origin);
	for (size_t i = 0; i < p->prof.memory_use.n; i++) {
		const char *e = p->prof.memory_use.v[i], *eq = strchr(e, '=');
		char *key = xstrndup(e, (size_t)(eq - e));
		const char *origin = NULL, *v = conf_value(&p->conf, key, &origin);
		unsigned long long factor = strtoull(eq + 1, NULL, 10), mib, max;

		/* unset: the profile's default, which fits its own memory */
		char *end = NULL;

		mib = v ? strtoull(v, &end, 10) : 0;
		/* a value its conf-type refuses is check_conf's to name */
		if (v && *v && !*end) {
			/* no more memory than the reserve: no RAM disk fits */
			max = mem > PROFILE_MEMORY_RESERVE ?
				((mem - PROFILE_MEMORY_RESERVE) >> 20) / factor : 0;
			if (mib > max)
				problem("%s: %s=%s: %llu x %llu MiB of RAM disks leave less than %llu MiB of "
					"the guest's %llu MiB (%s) to the kernel and the tests: at most "
					"%s=%llu with that memory (or raise VM_MEMORY)",
					origin, key, v, factor, mib, PROFILE_MEMORY_RESERVE >> 20,
					(unsigned long long)(mem >> 20), mem_from, key, max);
		}
		free(key);
	}
}

/* #@ virtiofs: ./vm will start a virtiofsd: one must be there (VIRTIOFSD's, or a known place) */
static void check_virtiofsd(struct cut_plan *p)
{
	const char *v = conf_value(&p->conf, "VIRTIOFSD", NULL);
	struct virtiofsd_tool t;

	if (!p->prof.virtiofs.n)
		return;
	if (toolver_virtiofsd(v && *v ? v : NULL, &t))
		problem("virtiofsd not found%s%s (./vm shares %s over virtiofs for profile %s; Debian "
			"13: apt-get install virtiofsd; Debian 12: apt-get install qemu-system-common)",
			v && *v ? ": VIRTIOFSD=" : "", v && *v ? v : "", p->prof.virtiofs.v[0],
			p->prof.name);
	free(t.path);
}

static void check_kconfig(const struct cut_opts *o, struct cut_plan *p)
{
	struct strv missing = STRV_INIT;
	int rc;

	if (!p->prof.kconfig.n)
		return;
	rc = kernel_check_kconfig(&p->kern, &p->prof.kconfig, &missing);
	if (rc) {
		if (o->ignore_kconfig)
			warn("cannot check kconfig symbols: %s: %s", p->kern.config ? p->kern.config :
			     "no kernel config found", strerror(-rc));
		else
			problem("cannot check the kconfig symbols profile %s needs: %s: %s "
				"(--ignore-kconfig goes on anyway)", p->prof.name,
				p->kern.config ? p->kern.config : "no kernel config found", strerror(-rc));
		return;
	}
	for (size_t i = 0; i < missing.n; i++) {
		if (o->ignore_kconfig)
			warn("%s: %s (ignored)", p->kern.config, missing.v[i]);
		else
			problem("%s: %s (profile %s; --ignore-kconfig goes on anyway)",
				p->kern.config, missing.v[i], p->prof.name);
	}
	strv_free(&missing);
}

const char *cut_file_type(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "regular file";
	case S_IFDIR: return "directory";
	case S_IFCHR: return "character device";
	case S_IFBLK: return "block device";
	case S_IFIFO: return "fifo";
	case S_IFSOCK: return "socket";
	case S_IFLNK: return "symbolic link";
	default: return "special file";
	}
}

/* -f /dev/zero would be read until memory ran out: each must be a sane script file */
static void check_extras(const struct cut_opts *o)
{
	for (size_t i = 0; i < o->n_extras; i++) {
		const char *f = o->extras[i].arg;
		struct stat st;

		if (!o->extras[i].is_file)
			continue;
		if (stat(f, &st) < 0)
			problem("-f %s: %s", f, strerror(errno));
		else if (!S_ISREG(st.st_mode))
			problem("-f %s: is a %s, not a regular file", f, cut_file_type(st.st_mode));
		else if (st.st_size > CUT_EXTRA_MAX)
			problem("-f %s: %lld bytes, more than the %d a -f script may have",
				f, (long long)st.st_size, CUT_EXTRA_MAX);
		else if (access(f, R_OK) < 0)
			problem("-f %s: %s", f, strerror(errno));
	}
}

/*
 * Everything that would make writing the image fail, found before dracut
 * spends its minute: the image is a file name (not a directory, device or
 * fifo, which the final rename() would replace) in a directory where
 * the run can create its files.
 */
static void check_output(const struct cut_opts *o, struct cut_plan *p)
{
	const char *out = p->output, *conf_out = conf_str(&p->conf, "DRACUT_OUT", NULL);
	int is_default = !o->output && !(conf_out && *conf_out);
	const char *src = o->output ? "-o " : is_default ? "image " : "DRACUT_OUT ";
	char *copy, *dir;
	struct stat st;
	size_t len = strlen(out);

	if (!len) {
		problem("-o '': expected the image's file name");
		return;
	}
	if (stat(out, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			problem("%s%s: is a directory; expected the image's file name (such as %.*s/myinitrd)",
				src, out, (int)(out[len - 1] == '/' ? len - 1 : len), out);
			return;
		}
		if (!S_ISREG(st.st_mode)) {
			problem("%s%s: is a %s, not a regular file; expected the image's file name",
				src, out, cut_file_type(st.st_mode));
			return;
		}
	} else if (errno != ENOENT) {
		problem("%s%s: %s", src, out, strerror(errno));
		return;
	} else if (out[len - 1] == '/') {
		problem("%s%s: expected the image's file name, not a directory", src, out);
		return;
	}
	copy = xstrdup(out);
	dir = dirname(copy);
	if (stat(dir, &st) < 0 && errno == ENOENT && is_default) {
		/* the default initrds/ of a fresh checkout: made on the way */
		char *parent = xstrdup(dir);

		p->make_outdir = 1;
		if (access(dirname(parent), W_OK | X_OK) < 0)
			problem("cannot create %s: %s", dir, strerror(errno));
		free(parent);
	} else if (stat(dir, &st) < 0) {
		problem("%s: %s (the directory for the image %s)", dir, strerror(errno), out);
	} else if (!S_ISDIR(st.st_mode)) {
		problem("%s: is a %s, not a directory (the image %s goes there)", dir,
			cut_file_type(st.st_mode), out);
	} else {
		/*
		 * Permission bits do not say it: root passes access(W_OK) on
		 * /proc or /sys, where mkdir fails (ENOENT, EPERM). Make and
		 * remove the run's own work directory, IMAGE.cut-XXXXXX, as
		 * the build will: a probe killed midway is then reaped as any
		 * stale run's (work.c). A dry run leaves nothing either.
		 */
		struct cut_work probe;
		int rc = cut_work_create(&probe, out);

		if (rc) {
			char *fs = fs_describe(dir);

			problem("cannot write in %s: %s, on %s; the image %s cannot go there", dir,
				strerror(-rc), fs, out);
			free(fs);
		} else {
			cut_work_remove(&probe);
		}
	}
	free(copy);
}

/*
 * An image holding a secret's value is made readable by its owner only: a
 * key the profile marks `#@ secret:`, or one the registry knows is secret
 * (CIFS_PASS in a user's profile that does not say so), that the profile
 * passes to the guest, as a value or as a "#@ files:" tree.
 */
static void note_secrets(struct cut_plan *p)
{
	const struct strv *lists[] = { &p->prof.conf, &p->prof.conf_opt };

	for (size_t l = 0; l < 2; l++) {
		for (size_t i = 0; i < lists[l]->n; i++) {
			const char *k = lists[l]->v[i], *v = conf_value(&p->conf, k, NULL);

			if (v && *v && confkey_secret(k, &p->prof.secret))
				p->secret = 1;
		}
	}
	for (size_t i = 0; i < p->n_trees; i++)
		p->secret |= p->trees[i].secret;
}

/*
 * A "#@ files:" source with a glob pattern in it (a versioned directory:
 * /usr/lib/python3.[0-9]*, the interpreter's standard library, whose name
 * is python3.11 on Debian 12 and python3.13 on Debian 13): the one path it
 * matches, newly allocated, in *src, and *dest the same where DEST is the
 * pattern itself. own is the profile's part (a relative one joined to the
 * checkout, whose path may hold a '[' too, but is no pattern). No match,
 * or more than one, is a problem named here.
 */
static int files_glob(const struct cut_plan *p, const char *own, char **src, char **dest)
{
	char *pat, *dir;
	glob_t g;
	int rc;

	/* the pattern is the profile's own part: the checkout's path is taken as it is */
	if (!strpbrk(own, "*?["))
		return 0;
	if (own[0] == '/') {
		pat = xstrdup(own);
	} else {
		dir = glob_quote(p->rapido_dir);
		pat = xasprintf("%s/%s", dir, own);
		free(dir);
	}
	rc = glob(pat, 0, NULL, &g);
	free(pat);
	if (rc || g.gl_pathc != 1) {
		problem("%s: %s (files entry of profile %s: the pattern must name one path)", *src,
			rc == GLOB_NOMATCH ? "no such file or directory" :
			rc ? "cannot read the directories" :
			"more than one path matches", p->prof.name);
		globfree(&g);
		return -1;
	}
	if (!strcmp(*dest, *src)) {
		free(*dest);
		*dest = xstrdup(g.gl_pathv[0]);
	}
	free(*src);
	*src = xstrdup(g.gl_pathv[0]);
	globfree(&g);
	return 0;
}

/*
 * The trees of "#@ files:" (profile.c parsed them): ${FSTESTS_SRC}:/fstests
 * is left out when the key is unset; autorun/configfs/lio.spec:/rapido/...
 * is relative to the rapido directory; a glob pattern names one path
 * (files_glob).
 */
static void resolve_files(struct cut_plan *p)
{
	p->trees = xcalloc(p->prof.n_files + 1, sizeof(*p->trees));
	for (size_t i = 0; i < p->prof.n_files; i++) {
		const struct profile_file *f = &p->prof.files[i];
		struct cut_tree *t = &p->trees[p->n_trees];
		const char *val = f->key ? conf_value(&p->conf, f->key, NULL) : "";
		char *src;

		/* a ${KEY} tree whose key is unset is left out; a plain path never is */
		if (f->key && (!val || !*val))
			continue;
		src = xasprintf("%s%s", val, f->path);
		/* a relative source is part of the rapido checkout */
		t->src = src[0] == '/' ? xstrdup(src) : xasprintf("%s/%s", p->rapido_dir, src);
		t->dest = xstrdup(f->dest);
		t->secret = f->key && confkey_secret(f->key, &p->prof.secret);
		/* a pattern is the profile's own: a ${KEY} value is a path as it is */
		if (!f->key && files_glob(p, src, &t->src, &t->dest)) {
			free(t->src);
			free(t->dest);
			free(src);
			continue;
		}
		p->n_trees++;
		/* the tree's layer (tree.c) also finds its programs' libraries */
		if (access(t->src, R_OK) < 0)
			problem("%s: %s (files entry of profile %s)", t->src, strerror(errno),
				p->prof.name);
		free(src);
	}
	/* the array has room for this one: n_files + 1 */
	if (p->prof.kernel_config) {
		struct cut_tree *t = &p->trees[p->n_trees];

		if (!p->kern.config || access(p->kern.config, R_OK) < 0) {
			problem("kernel %s: no readable config (%s) for the image's /boot (kernel-config: "
				"yes in profile %s)", p->kern.release,
				p->kern.config ? p->kern.config : "none found", p->prof.name);
			return;
		}
		t->src = xstrdup(p->kern.config);
		t->dest = xasprintf("/boot/config-%s", p->kern.release);
		p->n_trees++;
	}
}

/*
 * #@ suite: a suite profile cut without its suite runs none of its tests:
 * said now, on one line, rather than found after a boot (a kernel
 * developer's first hour: ./cut fstests_xfs with no FSTESTS_SRC); a notice,
 * as the alias's is, so -q leaves it out
 */
static void note_suite(const struct cut_opts *o, const struct cut_plan *p)
{
	const struct strv *keys = &p->prof.suite_keys;
	struct strbuf names = STRBUF_INIT;

	for (size_t i = 0; i < keys->n; i++) {
		const char *v = conf_value(&p->conf, keys->v[i], NULL);

		if (v && *v)
			return;
	}
	if (!keys->n || o->quiet)
		return;
	for (size_t i = 0; i < keys->n; i++)
		strbuf_addf(&names, "%s%s", i ? " and " : "", keys->v[i]);
	warn("%s: %s is not in the image: %s %s unset (set %s in rapido.conf or the environment; "
	     "docs/profiles.md, %s); without it: %s", p->prof.name, p->prof.suite_name, names.s,
	     keys->n == 1 ? "is" : "are", keys->n == 1 ? "it" : "one", p->prof.name,
	     p->prof.suite_without);
	strbuf_free(&names);
}

void cut_plan_or_die(const struct cut_opts *o, struct cut_plan *p)
{
	char *err;
	int rc;

	memset(p, 0, sizeof(*p));
	problems = 0;
	p->rapido_dir = xstrdup(cut_rapido_dir());
	rapido_conf_load_or_die(&p->conf);
	/* the Ceph profiles' files: entries name the ./ceph-local cluster by default */
	ceph_conf_defaults(&p->conf);
	cut_profile_load_or_die(p->rapido_dir, o->profile, &p->prof);
	if (arch_from_conf(&p->conf, &p->arch, &err))
		die("%s", err);
	if (arch_foreign(p->arch)) {
		struct stat st;
		char *boot, *mods;

		p->sysroot = arch_sysroot(&p->conf, p->arch);
		if (!p->sysroot)
			die("ARCH=%s: SYSROOT is not set, and its default needs a cache directory "
			    "(XDG_CACHE_HOME or HOME, absolute)", p->arch->name);
		/* st holds nothing when stat failed: then errno says why */
		int src = stat(p->sysroot, &st), serr = errno;

		if (src < 0 || !S_ISDIR(st.st_mode)) {
			const char *why = src < 0 ? (serr == ENOENT ? "does not exist" : strerror(serr)) :
						    "not a directory";

			die("ARCH=%s: sysroot %s: %s; unpack the guest's userspace and kernel there: "
			    "host/sysroot %s %s bash coreutils kmod, then the same with --kernel "
			    "(make deps ARCHES=%s does both; SYSROOT names another directory)",
			    p->arch->name, p->sysroot, why, p->arch->name, p->sysroot, p->arch->name);
		}
		boot = xasprintf("%s/boot", p->sysroot);
		mods = xasprintf("%s/lib/modules", p->sysroot);
		rc = kernel_locate(&p->conf, p->arch, boot, mods, &p->kern, &err);
		free(boot);
		free(mods);
	} else {
		rc = kernel_locate(&p->conf, p->arch, "/boot", "/lib/modules", &p->kern, &err);
	}
	if (rc)
		die("%s", err);
	p->output = o->output ? xstrdup(o->output) : rapido_default_image(&p->conf);

	check_output(o, p);
	check_extras(o);
	check_conf(p);
	check_memory_use(p);
	check_virtiofsd(p);
	/*
	 * a dry run checks, it builds nothing; nor does a cut already
	 * refused (a required key unset is named, not the build's complaint)
	 */
	if (!o->dry_run && !problems)
		cut_prepare(p);
	resolve_modules(p);
	resolve_bins(o, p);
	resolve_bash(o, p);
	resolve_helpers(p);
	resolve_busybox(o, p);
	resolve_shell_bins(p);
	resolve_files(p);
	note_secrets(p);
	check_kconfig(o, p);
	if (problems)
		die("%d problem%s found; no image written", problems, problems == 1 ? "" : "s");
	note_suite(o, p);
}

void cut_plan_free(struct cut_plan *p)
{
	conf_free(&p->conf);
	profile_free(&p->prof);
	kernel_free(&p->kern);
	free(p->rapido_dir);
	free(p->sysroot);
	free(p->busybox);
	free(p->static_bash);
	free(p->output);
	strv_free(&p->bins);
	strv_free(&p->modules);
	strv_free(&p->extra_modules);
	strv_free(&p->ondemand_modules);
	strv_free(&p->helpers);
	for (size_t i = 0; i < p->n_trees; i++) {
		free(p->trees[i].src);
		free(p->trees[i].dest);
	}
	free(p->trees);
}
