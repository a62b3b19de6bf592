// SPDX-License-Identifier: GPL-2.0
/*
 * knowncli.c: the known-failure options as given (known.h), turned into
 * settings without rapido.conf: what ./vm --merge-results takes, and
 * what ./vm's own settings (knownopt.c) start from.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "known.h"

void known_cli_opt(struct known_cli *cli, int c, int base, const char *arg)
{
	switch (c - base) {
	case 0:
		strv_push(&cli->files, path_arg_or_die("--known-failures", arg));
		break;
	case 1:
		cli->rerun = arg;
		break;
	case 2:
		cli->flaky = arg;
		break;
	case 3:
		cli->write = path_arg_or_die("--write-known-failures", arg);
		break;
	default:
		cli->strict = 1;
		break;
	}
}

void known_load_or_die(struct known_opts *o, const char *path)
{
	char *err;

	if (known_load(&o->set, path, &err))
		die("known failures: %s", err);
}

void known_opts_init_or_die(struct known_opts *o, const struct known_cli *cli)
{
	memset(o, 0, sizeof(*o));
	known_set_init(&o->set);
	o->today = known_today();
	o->strict = cli->strict;
	o->write = cli->write;
	for (size_t i = 0; i < cli->files.n; i++)
		known_load_or_die(o, cli->files.v[i]);
	if (!cli->flaky || !strcmp(cli->flaky, "pass"))
		o->flaky_fail = 0;
	else if (!strcmp(cli->flaky, "fail"))
		o->flaky_fail = 1;
	else
		die("--flaky: expected pass or fail, got '%s'", cli->flaky);
}

void known_opts_free(struct known_opts *o)
{
	known_set_free(&o->set);
}

void known_cli_free(struct known_cli *cli)
{
	strv_free(&cli->files);
}

void known_help(FILE *f)
{
	fputs("     --known-failures FILE  failures in FILE are not new: such a test is\n"
	      "                          skipped as \"known failure: REASON\" in junit.xml,\n"
	      "                          \"not ok ... # TODO\" in KTAP (repeatable; default\n"
	      "                          VM_KNOWN_FAILURES). A line: TEST-OR-GLOB [KERNEL-GLOB\n"
	      "                          or MIN..MAX] [until=YYYY-MM-DD] [# REASON]; xfstests\n"
	      "                          -E exclude files and kdevops expunge lists as they are\n"
	      "     --rerun-failures N re-run a failed test up to N times in the same guest;\n"
	      "                          one that passes then is flaky, with its rate\n"
	      "                          (with --results: ./vm counts the runs)\n"
	      "                          (default VM_RERUN_FAILURES, 0)\n"
	      "     --flaky=pass|fail  whether a flaky test fails the run (default pass)\n"
	      "     --strict           also fail on fixed tests (a known failure passed) and on\n"
	      "                          expired entries\n"
	      "     --write-known-failures FILE  write or refresh FILE from this run: comments\n"
	      "                          kept, the failures it lacks added, its entries whose\n"
	      "                          tests passed commented out as fixed\n"
	      "                          Each test ends as pass, fail (new), known-fail, fixed,\n"
	      "                          flaky, skip or error (did not finish). A status 1 that\n"
	      "                          failed tests alone made becomes 0 when none is new:\n"
	      "                          no fail, no error (nor, --strict, fixed or expired)\n", f);
}
