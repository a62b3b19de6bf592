// SPDX-License-Identifier: GPL-2.0
/*
 * provenance.c: what a run was, for DIR/run.json and the JUnit
 * <properties> (meta prov.KEY records): the kernel release, the sha256 of
 * its config, KERNEL_SRC's `git describe --dirty` and commit; the profile
 * and its image's layer keys; the allow file's hash; qemu's version and
 * ./vm's own (git describe when it was built); the host, the start time,
 * the shard and the accelerator. A flat object of strings, in this order:
 * what is unknown is "" (a kernel without a config beside it, a tree that
 * is no git checkout), never left out, so a reader needs no cases.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>

#include "err.h"
#include "hash.h"
#include "io.h"
#include "layers.h"
#include "provenance.h"
#include "run.h"
#include "splattest.h"
#include "strbuf.h"
#include "known.h"
#include "resctx.h"
#include "utf8.h"
#include "version.h"

/* A helper's output is one short line; a wedged one is killed. */
#define HELPER_SECS 10
#define CONFIG_MAX (64u << 20)

void prov_add(struct prov *p, const char *key, const char *value)
{
	strv_push(&p->keys, key);
	strv_push(&p->vals, value ? value : "");
}

void prov_free(struct prov *p)
{
	strv_free(&p->keys);
	strv_free(&p->vals);
}

/* The first line argv prints on stdout, or NULL; its complaints (not a git tree) are not ./vm's. */
static char *first_line_of(char *const argv[])
{
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	char *line = run_first_line(argv, devnull, HELPER_SECS);

	if (devnull >= 0)
		close(devnull);
	if (line && !*line) {
		free(line);
		line = NULL;
	}
	return line;
}

/* path's sha256 in hex ("" if it cannot be read) */
static void file_sha256(const char *path, char hex[65])
{
	char *text = NULL;
	size_t len;
	struct sha256 h;

	hex[0] = '\0';
	if (path && !read_regular_file(path, 0, CONFIG_MAX, &text, &len, NULL)) {
		sha256_init(&h);
		sha256_update(&h, text, len);
		sha256_hex(&h, hex);
		free(text);
	}
}

static void add_file_sha256(struct prov *p, const char *key, const char *path)
{
	char hex[65];

	file_sha256(path, hex);
	prov_add(p, key, hex);
}

/* the known-failure files read (known.h), and their hashes: space-separated, in order */
static void add_known(struct prov *p, const struct results_ctx *c)
{
	const struct known_set *ks = &c->known->set;
	struct strbuf paths = STRBUF_INIT, sums = STRBUF_INIT;

	/* hashed as known_load read them: a file changed since is not what decided */
	for (size_t i = 0; i < ks->n_files; i++) {
		if (i) {
			strbuf_addc(&paths, ' ');
			strbuf_addc(&sums, ' ');
		}
		strbuf_adds(&paths, ks->files[i]);
		strbuf_adds(&sums, ks->sha256[i]);
	}
	prov_add(p, "known_failures", paths.s);
	prov_add(p, "known_failures_sha256", sums.s);
	strbuf_free(&paths);
	strbuf_free(&sums);
}

/* KERNEL_SRC/.config; else config-REL beside the kernel (/boot/vmlinuz-REL). */
static char *kernel_config(const struct results_ctx *c)
{
	const char *slash = c->kernel ? strrchr(c->kernel, '/') : NULL;

	if (c->kernel_src)
		return xasprintf("%s/.config", c->kernel_src);
	if (!c->release || !c->kernel)
		return NULL;
	return slash ? xasprintf("%.*s/config-%s", (int)(slash - c->kernel), c->kernel, c->release) :
		xasprintf("config-%s", c->release);
}

static void add_kernel(struct prov *p, const struct results_ctx *c)
{
	char *config = kernel_config(c), *describe = NULL, *commit = NULL;

	prov_add(p, "kernel_release", c->release);
	prov_add(p, "kernel", c->kernel);
	prov_add(p, "kernel_config", config);
	add_file_sha256(p, "kernel_config_sha256", config);
	if (c->kernel_src) {
		char *d[] = { "git", "-C", (char *)c->kernel_src, "describe", "--always", "--dirty",
			      "--tags", NULL };
		char *h[] = { "git", "-C", (char *)c->kernel_src, "rev-parse", "HEAD", NULL };

		describe = first_line_of(d);
		commit = first_line_of(h);
	}
	prov_add(p, "kernel_src", c->kernel_src);
	prov_add(p, "kernel_src_describe", describe);
	prov_add(p, "kernel_src_commit", commit);
	free(describe);
	free(commit);
	free(config);
}

/* The image's layers as "KIND:KEY" words; "" for an image of one piece. */
static void add_layers(struct prov *p, const struct results_ctx *c)
{
	struct img_layers l = { 0 };
	enum img_form form;
	off_t head_len;
	char *err = NULL, *words = xstrdup("");
	struct stat st;
	int fd = c->image ? open_regular(c->image, 0, &st) : -1;

	if (fd >= 0 && !img_probe(fd, c->image, &l, &head_len, &form, &err)) {
		for (size_t i = 0; i < l.n; i++) {
			char *w = xasprintf("%s%s%s:%s", words, *words ? " " : "", l.v[i].kind,
					    l.v[i].key ? l.v[i].key : "");

			free(words);
			words = w;
		}
		img_layers_free(&l);
	}
	free(err);
	if (fd >= 0)
		close(fd);
	prov_add(p, "image", c->image);
	prov_add(p, "image_layers", words);
	free(words);
}

void prov_collect(struct prov *p, const struct results_ctx *c, const char *start)
{
	char *qv[] = { (char *)c->qemu, "--version", NULL }, *qemu, shard[32] = "";
	struct utsname u;

	memset(p, 0, sizeof(*p));
	prov_add(p, "rapido_version", rapido_version);
	add_kernel(p, c);
	prov_add(p, "profile", c->profile);
	add_layers(p, c);
	prov_add(p, "splats_allow", c->splat_allow ? c->splat_allow->path : NULL);
	prov_add(p, "splats_allow_sha256", c->splat_allow ? c->splat_allow->sha256 : NULL);
	add_known(p, c);
	prov_add(p, "qemu", c->qemu);
	qemu = c->qemu ? first_line_of(qv) : NULL;
	prov_add(p, "qemu_version", qemu);
	free(qemu);
	prov_add(p, "host", uname(&u) ? NULL : u.nodename);
	prov_add(p, "start", start);
	if (c->shard_n)
		snprintf(shard, sizeof(shard), "%u/%u", c->shard_i, c->shard_n);
	prov_add(p, "shard", shard);
	/* auto: not decided yet (--jobs: each VM's run.json has its own) */
	prov_add(p, "accel", c->accel ? c->accel : "auto");
}

char *prov_json(const struct prov *p)
{
	json_t *o = json_object();
	char *text, *out;

	if (!o)
		die("out of memory");
	for (size_t i = 0; i < p->keys.n; i++) {
		/* JSON strings are UTF-8: a path's other bytes become U+FFFD */
		char *k = utf8_fix(p->keys.v[i]), *v = utf8_fix(p->vals.v[i]);

		/* (so json_string() fails only for want of memory) */
		if (json_object_set_new(o, k, json_string(v)))
			die("out of memory");
		free(k);
		free(v);
	}
	/* two spaces a level, the keys in the order added */
	text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (!text)
		die("out of memory");
	out = xasprintf("%s\n", text);
	free(text);
	return out;
}

int prov_write(const struct prov *p, const char *dir, char **err)
{
	char *path = xasprintf("%s/run.json", dir), *text = prov_json(p);
	int rc = write_file_atomic(path, text, strlen(text), 0644);

	if (rc)
		*err = xasprintf("%s: %s", path, strerror(-rc));
	free(path);
	free(text);
	return rc;
}
