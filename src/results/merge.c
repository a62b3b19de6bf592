// SPDX-License-Identifier: GPL-2.0
/*
 * merge.c: rapido results merge OUT DIR... (./vm --merge-results, its
 * alias): the result directories of N shards (or any runs) into one
 * junit.xml, results.tap and summary.txt in OUT, a testsuite per
 * directory; rapido results known DIR... is the same without OUT: each
 * run classified against the known failures, its verdict on stdout, the
 * known-failures file refreshed. The merge fails (exit 1) when any run
 * failed (verdict.h: its exit status, unknown too, or a failed test), a
 * directory has no readable results.txt, or a shard of a split is
 * missing or there twice; each is named. A test found in two directories
 * is named too: shards of one split never overlap, so that means two
 * different splits were merged.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "io.h"
#include "known.h"
#include "merge.h"
#include "rapido.h"
#include "results.h"
#include "verbs.h"
#include "verdict.h"

/* argv0: "--merge-results", "merge" or "known"; out: the merge's OUT */
static noreturn void usage_merge(const char *argv0, int out)
{
	fprintf(stderr, "Usage: %s%s [--known-failures FILE]... [--strict] "
		"[--flaky=pass|fail] [--write-known-failures FILE] %sDIR...\n",
		results_verb_prog(argv0), argv0, out ? "OUT " : "");
	usage_die(VM_EXIT_FAILED, NULL);
}

/* The known-failure options before the dirs (OUT first for a merge). Returns the first's index. */
static int merge_opts(int argc, char **argv, struct known_cli *cli, int out)
{
	enum { OPT_KNOWN = 256 };
	static const struct option longopts[] = {
		KNOWN_LONGOPTS(OPT_KNOWN),
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		if (c < OPT_KNOWN || c >= OPT_KNOWN + KNOWN_NOPTS)
			usage_merge(argv[0], out);
		known_cli_opt(cli, c, OPT_KNOWN, optarg);
	}
	return optind;
}

/*
 * Classify each suite against the known failures (known.h) again: a run
 * whose status was 0 or a 1 that only failed tests made (meta tests-only)
 * gets the status the classification gives; any other is kept.
 */
static void merge_classify(struct rsuite *v, size_t n, const struct known_opts *o)
{
	for (size_t i = 0; i < n; i++) {
		char *who = text_oneline(v[i].name);
		int raw = v[i].exit;

		v[i].exit = known_exit(&v[i], o, raw, raw == 1 && v[i].tests_only, who);
		if (v[i].exit != raw) {
			free(v[i].cause);
			v[i].cause = v[i].exit ? xstrdup("a test failed that no known failure excuses")
					       : NULL;
		}
		free(who);
	}
}

/* A flaky test's failures and runs added up over every merged run, on f. */
static void merge_flaky_totals(FILE *f, const struct rsuite *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t a = 0; a < v[i].n; a++) {
			const struct rtest *t = &v[i].t[a];
			unsigned int fails = 0, runs = 0;
			const struct rtest *first = NULL;
			char *name;

			if (t->hidden || t->cls != OUTCOME_FLAKY)
				continue;
			/* once per name: at its first flaky appearance */
			for (size_t j = 0; j <= i && !first; j++)
				for (size_t b = 0; b < v[j].n && !first; b++) {
					const struct rtest *u = &v[j].t[b];

					if (!u->hidden && u->cls == OUTCOME_FLAKY && !strcmp(u->name, t->name))
						first = u;
				}
			if (first != t)
				continue;
			for (size_t j = 0; j < n; j++)
				for (size_t b = 0; b < v[j].n; b++) {
					const struct rtest *u = &v[j].t[b];

					if (u->hidden || u->kernel || strcmp(u->name, t->name))
						continue;
					fails += u->fails;
					runs += u->runs ? u->runs : 1;
				}
			name = text_oneline(t->name);
			fprintf(f, "flaky: %s: %u failure%s in %u runs\n", name, fails,
				fails == 1 ? "" : "s", runs);
			free(name);
		}
}

struct test_ref {
	const char *name;
	size_t suite;
};

static int test_ref_cmp(const void *a, const void *b)
{
	const struct test_ref *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->suite > y->suite) - (x->suite < y->suite);
}

/*
 * Warn about guest tests (not kernel splats, nor ./vm's own "rapido: ..."
 * testcases, which each run may have) seen in more than one suite:
 * sorted by name, so n log n (two dirs of 30k tests took seconds with a
 * pairwise check).
 */
unsigned int merge_check_overlap(const struct rsuite *v, size_t n)
{
	struct test_ref *refs;
	size_t total = 0, k = 0;
	unsigned int dups = 0;

	for (size_t i = 0; i < n; i++)
		total += v[i].n;
	refs = xmalloc((total ? total : 1) * sizeof(*refs));
	for (size_t i = 0; i < n; i++)
		for (size_t a = 0; a < v[i].n; a++)
			if (!v[i].t[a].kernel && strncmp(v[i].t[a].name, "rapido:", 7))
				refs[k++] = (struct test_ref){ v[i].t[a].name, i };
	qsort(refs, k, sizeof(*refs), test_ref_cmp);
	for (size_t a = 0; a < k;) {
		size_t b = a + 1;

		for (; b < k && !strcmp(refs[a].name, refs[b].name); b++) {
			char *t, *x, *y;

			/* once per other suite: a test retried within one run is no overlap */
			if (refs[b].suite == refs[b - 1].suite)
				continue;
			t = text_oneline(refs[a].name);
			x = text_oneline(v[refs[a].suite].name);
			y = text_oneline(v[refs[b].suite].name);
			warn("test '%s' is in both %s and %s", t, x, y);
			dups++;
			free(t);
			free(x);
			free(y);
		}
		a = b;
	}
	free(refs);
	return dups;
}

/* A directory without usable results: a failed suite of its own that says why. */
static void load_failed(struct rsuite *s, const char *dir, const char *err)
{
	struct rtest *t;
	char *name = xasprintf("rapido: no results: %s", err);

	s->name = xstrdup(dir);
	s->cause = xstrdup(err);
	t = rsuite_add_test(s, name);
	t->state = RT_FAIL;
	t->reason = xstrdup(err);
	free(name);
}

/*
 * Load dirs[0..n) as suites (a dir without usable results: a failed suite
 * saying so, counted in *problems), check and classify them.
 */
static struct rsuite *merge_load(char **dirs, size_t *n, const struct known_opts *ko,
				 unsigned int *problems)
{
	struct rsuite *v = xcalloc(*n, sizeof(*v));
	int private = 0;
	char *err;

	for (size_t i = 0; i < *n; i++) {
		char *txt = xasprintf("%s/results.txt", dirs[i]);
		struct stat st;

		/*
		 * a run of an image holding a secret wrote its results for its
		 * owner only (vm.c): so are the reports merged from them, whose
		 * outputs may repeat it
		 */
		if (!private && stat(txt, &st) == 0 && !(st.st_mode & 077)) {
			umask(umask_now() | 077);
			private = 1;
		}
		rsuite_init(&v[i]);
		if (rsuite_load(&v[i], txt, &err)) {
			char *shown = text_oneline(err), *dir = text_oneline(dirs[i]);

			warn("%s (is %s a ./vm --results directory?)", shown, dir);
			free(dir);
			rsuite_free(&v[i]);
			rsuite_init(&v[i]);
			load_failed(&v[i], dirs[i], shown);
			free(shown);
			free(err);
			(*problems)++;
		}
		if (!v[i].name)
			v[i].name = xstrdup(dirs[i]);
		free(txt);
	}
	merge_check_overlap(v, *n);
	*problems += verdict_check_shards(&v, n, dirs);
	merge_classify(v, *n, ko);
	return v;
}

/* Each run's line, the flaky rates and the total: summary.txt's text (malloc'd). */
static char *merge_summary(const struct rsuite *v, size_t n, size_t *len)
{
	struct rcount all = { 0 };
	char *text = NULL, *sum;
	FILE *f = open_memstream(&text, len);

	if (!f)
		die_errno("open_memstream");
	for (size_t i = 0; i < n; i++) {
		struct rcount c;
		char *name = text_oneline(v[i].name), *cause = text_oneline(v[i].cause);

		rsuite_count(&v[i], &c);
		sum = results_summary(&c, 0);
		if (v[i].exit >= 0)
			fprintf(f, "%s: %s (exit status %d)\n", name, sum, v[i].exit);
		else
			fprintf(f, "%s: %s (exit status unknown: %s)\n", name, sum, cause);
		free(sum);
		free(name);
		free(cause);
		all.tests += c.tests;
		all.pass += c.pass;
		all.fail += c.fail;
		all.skip += c.skip;
		all.kernel += c.kernel;
		all.known += c.known;
		all.flaky += c.flaky;
		all.fixed += c.fixed;
	}
	merge_flaky_totals(f, v, n);
	sum = results_summary(&all, 0);
	fprintf(f, "total: %s\n", sum);
	free(sum);
	if (fclose(f))
		die_errno("open_memstream");
	return text;
}

/*
 * merge (out: argv's first after the options is OUT) or known (no OUT):
 * argv[0] is "--merge-results", "merge" or "known".
 */
static int merge_main(int argc, char **argv, int out)
{
	struct rsuite *v;
	struct known_cli cli = { 0 };
	struct known_opts ko;
	char *err, *text, *path, **dirs;
	size_t len = 0, n;
	unsigned int problems = 0;
	int rc, first = merge_opts(argc, argv, &cli, out);

	if (cli.rerun)
		usage_die(VM_EXIT_FAILED, "%s: --rerun-failures is a run's option", argv[0]);
	known_opts_init_or_die(&ko, &cli);
	if (argc - first < 1 + out)
		usage_merge(argv[0], out);
	for (int i = first; i < argc; i++)
		path_arg_or_die(argv[0], argv[i]);
	dirs = argv + first + out;
	n = (size_t)(argc - first - out);
	v = merge_load(dirs, &n, &ko, &problems);
	for (size_t i = 0; i < n; i++)
		verdict_add_case(&v[i]);
	text = merge_summary(v, n, &len);
	if (out) {
		const char *dir = argv[first];

		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			die_errno("cannot create %s", dir);
		if (results_write_reports(dir, v, n, &err))
			die("%s", err);
		path = xasprintf("%s/summary.txt", dir);
		rc = write_file_atomic(path, text, len, 0644);
		if (rc)
			die_err(rc, "cannot write %s", path);
		free(path);
	}
	fputs(text, stdout);
	close_stdout();
	free(text);
	if (ko.write) {
		if (known_write(ko.write, v, n, ko.today, &err)) {
			warn("--write-known-failures: %s", err);
			free(err);
			problems++;
		}
	}
	/* a CI merge job fails when any run failed, or one is missing or unreadable */
	rc = problems ? 1 : 0;
	for (size_t i = 0; i < n; i++) {
		if (verdict_suite_failed(&v[i]))
			rc = 1;
		rsuite_free(&v[i]);
	}
	free(v);
	known_opts_free(&ko);
	known_cli_free(&cli);
	return rc;
}

int cmd_results_merge(int argc, char **argv)
{
	return merge_main(argc, argv, 1);
}

int cmd_results_known(int argc, char **argv)
{
	return merge_main(argc, argv, 0);
}
