// SPDX-License-Identifier: GPL-2.0
/*
 * answers.c: ldd's answers computed ahead. When dracut has a layer to
 * build, ./cut starts `rapido-ldd --answers DIR FILE...` (the binaries
 * and libraries it asks dracut to install) beside it: while dracut's bash
 * sets itself up and copies the binaries, this asks the loader about each
 * FILE, and about each library those answers name, on the other core, and
 * keeps every answer in DIR. dracut-install's `rapido-ldd COPY` later
 * (RAPIDO_LDD_ANSWERS=DIR) prints the kept answer for its copy instead of
 * running the loader twice.
 *
 * A copy in dracut's tree has other paths than the file it was copied
 * from, so an answer is kept under what the answer depends on: the file's
 * bytes and size, the loader, and the LD_ environment; and only for a file
 * whose answer cannot depend on where it lies (no $ORIGIN in its run path,
 * no slash in a needed name). Anything else is asked anew, as without
 * answers. DIR is the cut's own (its work directory): nothing in it
 * outlives the cut, so no answer can go stale.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfdyn.h"
#include "err.h"
#include "hash.h"
#include "io.h"
#include "ldd.h"

extern char **environ;

/* The LD_ variables of the environment, sorted (dracut's and ./cut's orders differ). */
static void hash_ld_env(struct xxh64 *x)
{
	struct strv ld = STRV_INIT;

	for (char **e = environ; *e; e++)
		if (!strncmp(*e, "LD_", 3))
			strv_push(&ld, *e);
	strv_sort(&ld);
	for (size_t i = 0; i < ld.n; i++)
		xxh64_update(x, ld.v[i], strlen(ld.v[i]) + 1);
	strv_free(&ld);
}

/* Can the loader's answer for this file depend on the file's own place? */
static int placed(const struct elf_deps *d)
{
	if (d->runpath && strstr(d->runpath, "ORIGIN"))
		return 1;
	for (size_t i = 0; i < d->needed.n; i++)
		if (strchr(d->needed.v[i], '/'))
			return 1;
	return 0;
}

int ldd_answer_key(int fd, const char *rtld, char key[64])
{
	struct xxh64 content, rest;
	struct elf_deps d;
	char buf[1 << 16];
	uint64_t size = 0;
	ssize_t n;
	int where;

	if (elf_read_deps(fd, &d))
		return -1;
	where = placed(&d);
	elf_deps_free(&d);
	if (where)
		return -1;
	xxh64_init(&content, 0);
	while ((n = pread(fd, buf, sizeof(buf), (off_t)size)) > 0) {
		xxh64_update(&content, buf, (size_t)n);
		size += (uint64_t)n;
	}
	if (n < 0)
		return -1;
	xxh64_init(&rest, 1);
	xxh64_update(&rest, rtld, strlen(rtld) + 1);
	hash_ld_env(&rest);
	snprintf(key, 64, "%016llx-%016llx-%llx", (unsigned long long)xxh64_digest(&content),
		 (unsigned long long)xxh64_digest(&rest), (unsigned long long)size);
	return 0;
}

/* dir/key.0 and dir/key.1: the answer and ldd's exit status */
static char *answer_path(const char *dir, const char *key, int status)
{
	return xasprintf("%s/%s.%d", dir, key, status);
}

int ldd_answer_print(const char *dir, const char *key)
{
	for (int status = 0; status <= 1; status++) {
		char *path = answer_path(dir, key, status), *text;
		size_t len;
		int rc = read_file(path, &text, &len);

		free(path);
		if (rc)
			continue;
		rc = write_all(STDOUT_FILENO, text, len);
		free(text);
		/* a failed write is ldd's failure too (its printf would fail) */
		return rc ? 1 : status;
	}
	return -1;
}

/* The library paths an answer names: "NAME => PATH (ADDR)" and "PATH (ADDR)" lines. */
static void answer_libs(const char *text, struct strv *queue)
{
	const char *p = text;

	while (*p) {
		const char *e = strchr(p, '\n'), *path, *end;

		if (!e)
			e = p + strlen(p);
		path = memmem(p, (size_t)(e - p), "=> /", 4);
		path = path ? path + 3 : (*p == '\t' && p[1] == '/' ? p + 1 : NULL);
		if (path) {
			end = memmem(path, (size_t)(e - path), " (", 2);
			if (!end)
				end = e;
			strv_pushf(queue, "%.*s", (int)(end - path), path);
		}
		p = *e ? e + 1 : e;
	}
}

/* Ask about one file: its answer kept (when it has a key), the libraries it names queued. */
static int prefetch_one(const char *dir, const char *file, const struct strv *rtlds,
			struct strv *queue)
{
	char key[64], *tmp = xasprintf("%s/.answer-XXXXXX", dir), *text = NULL;
	struct stat st;
	int fd = open_regular(file, 0, &st), out = -1, rc = 0;
	const char *rtld;
	size_t len;

	if (fd < 0 || !(rtld = ldd_pick_rtld(fd, rtlds)))
		goto done;
	out = mkostemp(tmp, O_CLOEXEC);
	if (out < 0) {
		rc = 1;
		goto done;
	}
	rc = ldd_trace(rtld, file, out);
	if (rc >= 0 && !read_file(tmp, &text, &len)) {
		answer_libs(text, queue);
		if (!ldd_answer_key(fd, rtld, key)) {
			char *path = answer_path(dir, key, rc);

			if (rename(tmp, path) == 0) {
				free(path);
				rc = 0;
				goto done;
			}
			free(path);
		}
	}
	rc = 0;
	unlink(tmp);
done:
	if (out >= 0)
		close(out);
	if (fd >= 0)
		close(fd);
	free(text);
	free(tmp);
	return rc;
}

int ldd_answers_prefetch(const char *dir, char **files, int n)
{
	struct strv queue = STRV_INIT, seen = STRV_INIT, rtlds = STRV_INIT;
	int rc = 0;

	if (ldd_rtlds(&rtlds))
		return 0;
	for (int i = 0; i < n; i++)
		strv_push(&queue, files[i]);
	/* breadth first: the named files, then the libraries their answers name, and so on */
	for (size_t i = 0; i < queue.n && !rc; i++) {
		struct stat st;
		char *id;

		if (stat(queue.v[i], &st))
			continue;
		id = xasprintf("%llx:%llx", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
		if (strv_contains(&seen, id)) {
			free(id);
			continue;
		}
		strv_push(&seen, id);
		free(id);
		rc = prefetch_one(dir, queue.v[i], &rtlds, &queue);
	}
	strv_free(&queue);
	strv_free(&seen);
	strv_free(&rtlds);
	return rc;
}
