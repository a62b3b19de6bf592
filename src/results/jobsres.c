// SPDX-License-Identifier: GPL-2.0
/*
 * jobsres.c: the results of ./vm --jobs N (jobsres.h): DIR made fresh
 * and its run.json, the tests the shards left to the serial VM read and
 * checked against what it ran, every VM's results merged into DIR as
 * rapido results merge does, and DIR/results.txt as one run's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "collect.h"
#include "err.h"
#include "io.h"
#include "jobsres.h"
#include "pct.h"
#include "provenance.h"
#include "rapido.h"
#include "resctx.h"
#include "results.h"
#include "tree.h"
#include "verbs.h"

/*
 * Make DIR a results dir as fresh as one VM's (resdir.c), without the
 * shard and serial dirs of an earlier run.
 */
void results_jobs_prepare(const struct results_ctx *c)
{
	const char *dir = c->dir;
	char *failed, *path;
	struct dirent *e;
	DIR *d;
	int rc;

	results_dir_fresh(dir, c->dir_where);
	d = opendir(dir);
	if (!d)
		die_errno("--results: %s", dir);
	while ((errno = 0, e = readdir(d))) {
		unsigned int k;
		char end;

		if (strcmp(e->d_name, JOBS_SERIAL_DIR) && sscanf(e->d_name, "shard-%u%c", &k, &end) != 1)
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		rc = remove_tree(path, &failed);
		if (rc)
			die_err(rc, "--results: cannot remove %s of an earlier run", failed);
		free(path);
	}
	if (errno)
		die_errno("--results: %s", dir);
	closedir(d);
}

/* DIR/run.json: what the run was, as one VM's says it; each VM's own is in its dir. */
void results_jobs_provenance(const struct results_ctx *c, const char *ts)
{
	char jobs[16], *err;
	struct prov p;

	prov_collect(&p, c, ts);
	snprintf(jobs, sizeof(jobs), "%u", c->jobs);
	prov_add(&p, "jobs", jobs);
	if (prov_write(&p, c->dir, &err)) {
		warn("--jobs: %s", err);
		free(err);
	}
	prov_free(&p);
}

/*
 * The guest wrote
 * the file: a regular file or nothing, never read through a link (9p's
 * mapped model makes none; a dir restored from elsewhere might hold one).
 */
void results_deferred_read(const char *dir, unsigned int shard, struct results_deferred **v,
			   size_t *n)
{
	char *path = xasprintf("%s/files/%s", dir, JOBS_DEFERRED_FILE), *text;
	struct stat st;
	int rc = read_regular_file(path, O_NOFOLLOW, 64u << 20, &text, NULL, &st);

	if (rc == -ENOENT) {
		free(path);
		return;
	}
	if (rc)
		die("--jobs: %s: %s", path, file_strerror(rc, &st));
	for (char *p = text, *nl; p && *p; p = nl) {
		nl = strchr(p, '\n');
		if (nl)
			*nl++ = '\0';
		pct_unescape_field(p);
		if (!*p)
			continue;
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = (struct results_deferred){ xstrdup(p), shard };
	}
	free(text);
	free(path);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

unsigned int results_deferred_check(const char *dir, const struct results_deferred *v, size_t n,
				    unsigned int shards)
{
	char *path = xasprintf("%s/results.txt", dir), *err, **names;
	struct rsuite s;
	unsigned int lost = 0;

	rsuite_init(&s);
	if (rsuite_load(&s, path, &err))
		free(err);	/* the merge names an unreadable results.txt */
	names = xcalloc(s.n + 1, sizeof(*names));
	for (size_t i = 0; i < s.n; i++)
		names[i] = s.t[i].name;
	qsort(names, s.n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		if (bsearch(&v[i].name, names, s.n, sizeof(*names), name_cmp))
			continue;
		char *t = text_oneline(v[i].name);

		warn("--jobs: test '%s': shard %u/%u left it to the serial VM, which did not run it",
		     t, v[i].shard, shards);
		free(t);
		lost++;
	}
	free(names);
	rsuite_free(&s);
	free(path);
	return lost;
}

void results_deferred_free(struct results_deferred *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

int results_jobs_merge(const char *dir, const struct results_job *v, size_t n)
{
	struct strv argv = STRV_INIT;
	int rc;

	strv_push(&argv, "--merge-results");
	strv_push(&argv, dir);
	for (size_t i = 0; i < n; i++)
		if (v[i].ran)
			strv_push(&argv, v[i].dir);
	rc = cmd_results_merge((int)argv.n, argv.v);
	strv_free(&argv);
	return rc;
}

/* Append "R1 meta KEY VALUE" to f. */
static void meta_line(FILE *f, const char *key, const char *value)
{
	char *v = pct_field(value);

	fprintf(f, "R1 meta %s %s\n", key, v);
	free(v);
}

/*
 * DIR/results.txt (what rapido results compare reads): the records of every VM that ran, in order,
 * as one suite (the profile's), their own meta records left out, then the
 * run's: its time, tests-only when every VM failed for failed tests only
 * (or not at all) and nothing was lost, and its exit status, last.
 */
void results_jobs_records(const struct results_ctx *c, const struct results_job *v, size_t n,
			  int rc, int clean, const char *ts, double secs)
{
	char *path = xasprintf("%s/results.txt", c->dir), *out = NULL, num[32];
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int tests_only = clean, err;

	if (!f)
		die_errno("open_memstream");
	meta_line(f, "suite", c->profile);
	meta_line(f, "kernel", c->release);
	meta_line(f, "timestamp", ts);
	for (size_t i = 0; i < n; i++) {
		char *p = xasprintf("%s/results.txt", v[i].dir), *text;
		int seen = 0;

		if (!v[i].ran) {
			free(p);
			continue;
		}
		err = read_regular_file(p, O_NOFOLLOW, RESULTS_TXT_MAX, &text, NULL, NULL);
		if (err) {
			free(p);
			tests_only = 0;	/* the merge named it */
			continue;
		}
		for (char *l = text, *nl; l && *l; l = nl) {
			nl = strchr(l, '\n');
			if (nl)
				*nl++ = '\0';
			if (!strcmp(l, "R1 meta tests-only 1"))
				seen = 1;
			if (*l && strncmp(l, "R1 meta ", 8))
				fprintf(f, "%s\n", l);
		}
		tests_only &= !v[i].code || (v[i].code == VM_EXIT_TESTS_FAILED && seen);
		free(text);
		free(p);
	}
	snprintf(num, sizeof(num), "%.3f", secs);
	meta_line(f, "time", num);
	if (rc && !tests_only)
		meta_line(f, "cause", "a VM of --jobs failed, or a test was lost: its status and "
			  "its DIR are named on stderr");
	if (tests_only)
		meta_line(f, "tests-only", "1");
	snprintf(num, sizeof(num), "%d", rc);
	meta_line(f, "exit", num);
	if (fclose(f))
		die_errno("open_memstream");
	if (len > RESULTS_TXT_MAX)
		warn("--jobs: %s: %zu bytes, more than --compare-results reads (%u)", path, len,
		     RESULTS_TXT_MAX);
	err = write_file_atomic(path, out, len, 0644);
	if (err)
		die_err(err, "--jobs: cannot write %s", path);
	free(out);
	free(path);
}
