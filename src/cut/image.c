// SPDX-License-Identifier: GPL-2.0
/*
 * image.c: rapido's own archives, the head and the tail of the image.
 *
 * head:
 *	rapido/vm.conf		what ./vm needs: architecture, kernel, release, cpus, memory
 *	rapido/layers		the layers between head and tail (src/image/layers.h)
 * tail (/init and the helpers are a cached layer before it, helpers.c):
 *	rapido/env		KEY=value lines the guest init puts in the environment
 *	rapido/modules		modules the init loads, one per line
 *	rapido/autorun.sh	sources lib, then the profile and the extras in order, each
 *				part's status kept (autorun/lib/rapido.sh: the first failure wins)
 *	rapido/lib/NAME.sh	autorun/lib, shared guest shell functions
 *	rapido/autorun/NN-*	the profile script, then each -x / -f extra
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confget.h"
#include "cpio.h"
#include "cut.h"
#include "err.h"
#include "io.h"
#include "layers.h"

struct membuf {
	char *s;
	size_t len;
	FILE *f;
};

static void mb_open(struct membuf *m)
{
	m->s = NULL;
	m->len = 0;
	m->f = open_memstream(&m->s, &m->len);
	if (!m->f)
		die_errno("open_memstream");
}

static void mb_close(struct membuf *m)
{
	if (fclose(m->f))
		die_errno("open_memstream");
}

static void kv_quoted(FILE *f, const char *k, const char *v)
{
	fprintf(f, "%s=", k);
	shell_quote(f, v);
	fputc('\n', f);
}

static int add_path_file(struct cpio_writer *w, const char *name, const char *path, char **err)
{
	char *text;
	size_t len;
	int rc = read_file(path, &text, &len);

	if (rc) {
		*err = xasprintf("%s: %s", path, err_str(rc));
		return rc;
	}
	cpio_add_file(w, name, 0755, text, len);
	free(text);
	return 0;
}

/*
 * A -f script, checked again as it is read (it may have changed since the
 * checks): a regular file of at most CUT_EXTRA_MAX bytes (read_regular_file:
 * a fifo put in its place does not hang the open).
 */
static int add_extra_file(struct cpio_writer *w, const char *name, const char *path, char **err)
{
	struct stat st;
	size_t len;
	char *text;
	int rc = read_regular_file(path, 0, CUT_EXTRA_MAX, &text, &len, &st);

	if (rc == -EFBIG) {
		*err = xasprintf("-f %s: more than the %d bytes a -f script may have", path, CUT_EXTRA_MAX);
		return -EINVAL;
	}
	if (rc) {
		*err = xasprintf("-f %s: %s", path, file_strerror(rc, &st));
		return -EINVAL;
	}
	cpio_add_file(w, name, 0755, text, len);
	free(text);
	return 0;
}

/* The text of a file, "" when it cannot be read (its own copy into the image says why). */
static char *text_or_empty(const char *path)
{
	char *text;

	return read_file(path, &text, NULL) ? xstrdup("") : text;
}

/*
 * The library, every file of it in the image; a batch autorun sources only
 * what the profile and extras reach (libpick.c), an interactive shell all.
 */
static int add_guest_lib(struct cpio_writer *w, const struct cut_opts *o, const struct cut_plan *p,
			 FILE *autorun, char **err)
{
	char *dir = xasprintf("%s/autorun/lib", p->rapido_dir);
	struct strv names = STRV_INIT, texts = STRV_INIT, libs = STRV_INIT;
	int rc, *picked;

	cpio_add_dir(w, "rapido/lib", 0755);
	rc = strv_list_dir(&names, dir, ".sh");
	if (rc == -ENOENT) {
		rc = 0;
	} else if (rc) {
		*err = xasprintf("%s: %s", dir, strerror(-rc));
		free(dir);
		return rc;
	}
	/* what the autorun itself calls (add_autorun), the profile, the extras */
	strv_push(&texts, "_rapido_autorun_begin _rapido_part _rapido_part_done _rapido_autorun_end");
	{
		char *t = text_or_empty(p->prof.path);

		strv_push(&texts, t);
		free(t);
	}
	for (size_t i = 0; i < o->n_extras; i++) {
		char *t = o->extras[i].is_file ? text_or_empty(o->extras[i].arg) :
			xstrdup(o->extras[i].arg);

		strv_push(&texts, t);
		free(t);
	}
	for (size_t i = 0; i < names.n; i++) {
		char *src = xasprintf("%s/%s", dir, names.v[i]), *t = text_or_empty(src);

		strv_push(&libs, t);
		free(t);
		free(src);
	}
	picked = xcalloc(names.n + 1, sizeof(*picked));
	cut_lib_pick((const char *const *)strv_argv(&texts), texts.n,
		     (const char *const *)strv_argv(&libs), libs.n, picked);
	/*
	 * One library a line, and what only an interactive shell sources
	 * behind one test for each run of such lines, not one a line: the 25
	 * tests of simple's batch autorun were 0.8 ms of TCG on every boot
	 * (3.9 against 3.1 ms, instrumented boots, medians of 8, load 1-2)
	 */
	for (size_t i = 0; i < names.n && !rc; i++) {
		char *src = xasprintf("%s/%s", dir, names.v[i]);
		char *dst = xasprintf("rapido/lib/%s", names.v[i]);
		int opens = !picked[i] && (i == 0 || picked[i - 1]);
		int closes = !picked[i] && (i + 1 == names.n || picked[i + 1]);

		rc = add_path_file(w, dst, src, err);
		fprintf(autorun, "%ssource /rapido/lib/%s%s\n",
			opens ? "if [ \"${RAPIDO_BATCH:-0}\" != 1 ]; then " : "", names.v[i],
			closes ? "; fi" : "");
		free(src);
		free(dst);
	}
	free(picked);
	strv_free(&names);
	strv_free(&texts);
	strv_free(&libs);
	free(dir);
	return rc;
}

/* One part of the autorun: sourced in the main shell (not in a function: its declares stay global) */
static void autorun_part(FILE *autorun, const char *name)
{
	fprintf(autorun, "_rapido_part %s\nsource /%s\n_rapido_part_done $?\n", name + strlen("rapido/"), name);
}

static int add_autorun(struct cpio_writer *w, const struct cut_opts *o, const struct cut_plan *p,
		       FILE *autorun, char **err)
{
	char *name;
	int rc;

	cpio_add_dir(w, "rapido/autorun", 0755);
	fprintf(autorun, "_rapido_autorun_begin\n");
	name = xasprintf("rapido/autorun/00-%s.sh", p->prof.name);
	rc = add_path_file(w, name, p->prof.path, err);
	autorun_part(autorun, name);
	free(name);
	for (size_t i = 0; i < o->n_extras && !rc; i++) {
		const struct cut_extra *x = &o->extras[i];

		name = xasprintf("rapido/autorun/%02zu-%s.sh", i + 1, x->is_file ? "file" : "cmd");
		if (x->is_file) {
			rc = add_extra_file(w, name, x->arg, err);
		} else {
			char *body = xasprintf("%s\n", x->arg);

			cpio_add_file(w, name, 0755, body, strlen(body));
			free(body);
		}
		autorun_part(autorun, name);
		free(name);
	}
	fprintf(autorun, "_rapido_autorun_end\n");
	return rc;
}

static int write_env(const struct cut_plan *p, FILE *f, char **err)
{
	const struct strv *lists[] = { &p->prof.conf, &p->prof.conf_opt };

	fprintf(f, "RAPIDO_PROFILE=%s\n", p->prof.name);
	fprintf(f, "RAPIDO_KERNEL_RELEASE=%s\n", p->kern.release);
	for (size_t l = 0; l < 2; l++) {
		for (size_t i = 0; i < lists[l]->n; i++) {
			const char *k = lists[l]->v[i];
			const char *v = conf_value(&p->conf, k, NULL);

			if (!v)
				continue;
			if (strchr(v, '\n')) {
				*err = xasprintf("config key %s: a newline in the value cannot be passed to the guest", k);
				return -EINVAL;
			}
			fprintf(f, "%s=%s\n", k, v);
		}
	}
	return 0;
}

int cut_write_head(const struct cut_plan *p, const char *layers, int fd, char **err)
{
	static struct cpio_writer w;
	struct membuf vmconf;
	int rc;

	*err = NULL;
	cpio_init(&w, fd);
	cpio_add_dir(&w, "rapido", 0755);

	/* vm.conf comes first: ./vm reads it without scanning the whole image */
	mb_open(&vmconf);
	fprintf(vmconf.f, "# written by ./cut for ./vm\n");
	kv_quoted(vmconf.f, "PROFILE", p->prof.name);
	kv_quoted(vmconf.f, "ARCH", p->arch->name);
	kv_quoted(vmconf.f, "KERNEL_IMAGE", p->kern.image);
	kv_quoted(vmconf.f, "KERNEL_RELEASE", p->kern.release);
	if (p->prof.cpus)
		fprintf(vmconf.f, "CPUS=%u\n", p->prof.cpus);
	if (p->prof.memory)
		fprintf(vmconf.f, "MEMORY=%lluM\n", (unsigned long long)(p->prof.memory >> 20));
	if (p->prof.test_timeout)
		fprintf(vmconf.f, "TEST_TIMEOUT=%u\n", p->prof.test_timeout);
	if (p->prof.results)
		fprintf(vmconf.f, "RESULTS=yes\n");
	for (size_t i = 0; i < p->prof.virtiofs.n; i++)
		kv_quoted(vmconf.f, "VIRTIOFS", p->prof.virtiofs.v[i]);
	mb_close(&vmconf);
	cpio_add_file(&w, "rapido/vm.conf", 0644, vmconf.s, vmconf.len);
	free(vmconf.s);
	cpio_add_file(&w, IMG_LAYERS_NAME, 0644, layers, strlen(layers));

	rc = cpio_finish(&w);
	if (rc)
		*err = xasprintf("writing image: %s", strerror(-rc));
	return rc;
}

int cut_write_tail(const struct cut_opts *o, const struct cut_plan *p, int fd, char **err)
{
	static struct cpio_writer w;
	struct membuf env, mods, autorun;
	int rc;

	*err = NULL;
	cpio_init(&w, fd);
	cpio_add_dir(&w, "rapido", 0755);

	mb_open(&env);
	rc = write_env(p, env.f, err);
	mb_close(&env);
	cpio_add_file(&w, "rapido/env", 0644, env.s, env.len);
	free(env.s);
	if (rc)
		return rc;

	mb_open(&mods);
	for (size_t i = 0; i < p->modules.n; i++)
		fprintf(mods.f, "%s\n", p->modules.v[i]);
	mb_close(&mods);
	cpio_add_file(&w, "rapido/modules", 0644, mods.s, mods.len);
	free(mods.s);

	mb_open(&autorun);
	fprintf(autorun.f, "# written by ./cut: guest library, profile %s, then the extras in order\n",
		p->prof.name);
	rc = add_guest_lib(&w, o, p, autorun.f, err);
	if (!rc)
		rc = add_autorun(&w, o, p, autorun.f, err);
	mb_close(&autorun);
	if (!rc)
		cpio_add_file(&w, "rapido/autorun.sh", 0644, autorun.s, autorun.len);
	free(autorun.s);
	if (rc)
		return rc;

	rc = cpio_finish(&w);
	if (rc)
		*err = xasprintf("writing image: %s", strerror(-rc));
	return rc;
}
