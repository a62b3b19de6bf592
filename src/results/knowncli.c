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
	/* ./vm's --flaky has no skip: a test ends as something */
	if (cli->flaky && flaky_parse(cli->flaky, 0, &o->flaky))
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
