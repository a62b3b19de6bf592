// SPDX-License-Identifier: GPL-2.0
/*
 * merge.c: ./vm --merge-results OUT DIR...: the result directories of N
 * shards (or any runs) into one junit.xml, results.tap and summary.txt in
 * OUT, a testsuite per directory. A test found in two directories is
 * named: shards of one split never overlap, so that means two different
 * splits were merged.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "io.h"
#include "rapido.h"
#include "results.h"
#include "vm.h"

static void usage_merge(void)
{
	fprintf(stderr, "Usage: vm --merge-results OUT DIR...\n");
	usage_die(VM_EXIT_FAILED, NULL);
}

/* Warn about guest tests (not kernel splats) seen in more than one suite. */
static unsigned int check_overlap(const struct rsuite *v, size_t n)
{
	unsigned int dups = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t a = 0; a < v[i].n; a++) {
			if (v[i].t[a].kernel)
				continue;
			for (size_t j = i + 1; j < n; j++)
				for (size_t b = 0; b < v[j].n; b++)
					if (!v[j].t[b].kernel && !strcmp(v[i].t[a].name, v[j].t[b].name)) {
						warn("test '%s' is in both %s and %s", v[i].t[a].name,
						     v[i].name ? v[i].name : "?", v[j].name ? v[j].name : "?");
						dups++;
					}
		}
	return dups;
}

int cmd_merge_results(int argc, char **argv)
{
	struct rsuite *v;
	struct rcount all = { 0 };
	char *err, *sum, *text = NULL, *path;
	size_t len = 0, n;
	FILE *f;
	int rc;

	if (argc < 3)
		usage_merge();
	n = (size_t)argc - 2;
	v = xcalloc(n, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		char *txt = xasprintf("%s/results.txt", argv[2 + i]);

		rsuite_init(&v[i]);
		if (rsuite_load(&v[i], txt, &err))
			die("%s (is %s a ./vm --results directory?)", err, argv[2 + i]);
		if (!v[i].name)
			v[i].name = xstrdup(argv[2 + i]);
		free(txt);
	}
	check_overlap(v, n);
	if (mkdir(argv[1], 0755) < 0 && errno != EEXIST)
		die_errno("cannot create %s", argv[1]);
	if (results_write_reports(argv[1], v, n, &err))
		die("%s", err);

	f = open_memstream(&text, &len);
	if (!f)
		die_errno("open_memstream");
	for (size_t i = 0; i < n; i++) {
		struct rcount c;

		rsuite_count(&v[i], &c);
		sum = results_summary(&c);
		fprintf(f, "%s: %s (exit status %d)\n", v[i].name, sum, v[i].exit);
		free(sum);
		all.tests += c.tests;
		all.pass += c.pass;
		all.fail += c.fail;
		all.skip += c.skip;
		all.kernel += c.kernel;
	}
	sum = results_summary(&all);
	fprintf(f, "total: %s\n", sum);
	free(sum);
	if (fclose(f))
		die_errno("open_memstream");
	path = xasprintf("%s/summary.txt", argv[1]);
	rc = write_file_atomic(path, text, len, 0644);
	if (rc)
		die_err(rc, "cannot write %s", path);
	fputs(text, stdout);
	close_stdout();
	free(path);
	free(text);
	/* a CI merge job fails when any shard had a failure or a bad exit status */
	rc = all.fail ? 1 : 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].exit != 0)
			rc = 1;
		rsuite_free(&v[i]);
	}
	free(v);
	return rc;
}
