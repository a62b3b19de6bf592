// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c: rapido results compare A B (./vm --compare-results, its
 * alias): the tests whose verdict changed from result directory A (a
 * baseline) to B, read from each DIR/results.txt; exit status 1 when B
 * regressed. The comparison is abcompare.h's, the one ./bisect --compare
 * makes too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abcompare.h"
#include "err.h"
#include "rapido.h"
#include "verbs.h"

int cmd_results_compare(int argc, char **argv)
{
	const char *what = argv[0];
	struct abrun r[2];
	char *err;
	unsigned int regress;

	if (argc != 3 || !strcmp(argv[1], "--help")) {
		fprintf(stderr, "Usage: %s%s A B\n"
			"Print the tests whose verdict changed from result directory A to B;\n"
			"exit 1 if B regressed (a new failure, a vanished test, a failed run).\n",
			results_verb_prog(argv[0]), argv[0]);
		usage_die(VM_EXIT_FAILED, NULL);
	}
	for (int i = 0; i < 2; i++) {
		char *path = xasprintf("%s/results.txt", path_arg_or_die(what, argv[1 + i]));

		if (abrun_load(&r[i], path, &err))
			die("%s: %s", what, err);
		free(path);
	}
	regress = ab_compare(&r[0], &r[1], stdout);
	abrun_free(&r[0]);
	abrun_free(&r[1]);
	close_stdout();
	return regress ? 1 : 0;
}
