// SPDX-License-Identifier: GPL-2.0
/*
 * verbs.c: rapido results merge|compare|known: finished runs' result dirs
 * merged, compared and classified against known failures, no VM booted.
 * ./vm --merge-results and --compare-results are aliases of the first two
 * (kept for a while); both run the same cmd_results_VERB.
 */
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "rapido.h"
#include "verbs.h"

/* One row a verb: its name, its arguments and its help lines (--help, and so rapido(1)). */
static const struct verb {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *args;
	const char *help;
} verbs[] = {
	{ "merge", cmd_results_merge, "[KNOWN-OPTIONS] OUT DIR...",
	  "merge result directories (shards) into OUT: junit.xml,\n"
	  "results.tap, summary.txt (printed too); exits 1 if\n"
	  "any run failed, its status is unknown or a shard of\n"
	  "its split is missing (./vm --merge-results)" },
	{ "compare", cmd_results_compare, "A B",
	  "print the tests whose verdict changed from result\n"
	  "directory A to B; exits 1 if B regressed: a new\n"
	  "failure, a vanished test, a failed run\n"
	  "(./vm --compare-results)" },
	{ "known", cmd_results_known, "[KNOWN-OPTIONS] DIR...",
	  "classify each run against the known failures as\n"
	  "merge does and print merge's summary, writing no\n"
	  "OUT: with --write-known-failures, refresh a list\n"
	  "from finished runs; exits as merge does" },
};
#define N_VERBS (sizeof(verbs) / sizeof(verbs[0]))

static void usage(FILE *f)
{
	fputs("Usage:\n", f);
	for (size_t i = 0; i < N_VERBS; i++)
		fprintf(f, " rapido results %s %s\n", verbs[i].name, verbs[i].args);
	fputs("\n"
	      "Merge, compare and classify the result directories of finished runs\n"
	      "(./vm --results DIR); no VM is booted.\n"
	      "\n"
	      "Verbs:\n", f);
	for (size_t i = 0; i < N_VERBS; i++) {
		const char *h = verbs[i].help;

		fprintf(f, " %-22s ", verbs[i].name);
		/* the help's lines, the later ones under the first */
		for (const char *nl; (nl = strchr(h, '\n')); h = nl + 1)
			fprintf(f, "%.*s\n%26s", (int)(nl - h), h, "");
		fprintf(f, "%s\n", h);
	}
	fputs("\n"
	      "Known-failure options (merge, known; before OUT or the first DIR):\n"
	      "     --known-failures FILE  failures in FILE are not new (repeatable)\n"
	      "     --flaky=pass|fail  whether a flaky test fails the run (default pass)\n"
	      "     --strict           also fail on fixed tests and on expired entries\n"
	      "     --write-known-failures FILE  write or refresh FILE from the runs\n"
	      "\n"
	      "Options:\n"
	      " -h, --help             display this help\n"
	      "\n"
	      "Exit status: 0 no failure (no regression), 1 a run failed (B regressed),\n"
	      "125 a wrong call or an unreadable directory (compare).\n", f);
}

int cmd_results(int argc, char **argv)
{
	err_prog = "rapido results";
	/* the statuses of the ./vm aliases: a wrong call is 125 there too */
	err_exit_status = VM_EXIT_FAILED;
	if (argc < 2)
		usage_die(VM_EXIT_FAILED, "a verb is needed: merge, compare or known");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		close_stdout();
		return 0;
	}
	for (size_t i = 0; i < N_VERBS; i++) {
		if (strcmp(argv[1], verbs[i].name))
			continue;
		if (argc > 2 && (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help"))) {
			usage(stdout);
			close_stdout();
			return 0;
		}
		return verbs[i].run(argc - 1, argv + 1);
	}
	usage_die(VM_EXIT_FAILED, "unknown verb '%s' (merge, compare or known)", argv[1]);
}
