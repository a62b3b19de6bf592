/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options.h: ./vm's settings, one row each (options.c), as kvmtool's
 * OPT_* table: the option's names, the rapido.conf key it overrides (whose
 * type, range and default confkeys[] holds: written once, read by ./vm and
 * ./cut --check-conf alike), its help group and text, and the field of
 * struct vm_opts it fills or the hook that does. getopt_long's table,
 * --help, the man page (help2man reads --help), --list-options (the shell
 * completion) and the lookup by key (vm_opt_setting, lookup.h) all come
 * from the rows; tests/unit/vm-options.c and vm-options.sh check that
 * nothing else names an option.
 */
#ifndef RAPIDO_VM_OPTIONS_H
#define RAPIDO_VM_OPTIONS_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "settings.h"

enum vm_opt_kind {
	VOPT_FLAG,	/* int field = 1 */
	VOPT_YES,	/* const char * field = "yes": the option of a no|yes key */
	VOPT_STR,	/* const char * field = the argument (checked when resolved) */
	VOPT_PATH,	/* const char * field = the argument, an empty one refused */
	VOPT_LIST,	/* struct strv field: each argument appended (repeatable) */
	VOPT_PATHS,	/* struct strv field: each argument, as VOPT_PATH */
	VOPT_OPTIONAL,	/* const char * field = the argument, "" without one: --gdb[=HOST:PORT] */
	VOPT_HOOK,	/* hook(o, row, arg); arg NULL for an option without one */
	VOPT_COMMAND,	/* a command of its own: only as the first argument (vm.c) */
};

/* What the shell completes after the option; an ENUM key completes its words. */
enum vm_opt_complete { VCOMP_NONE, VCOMP_FILE, VCOMP_DIR };

/* The --help groups, in their order (vm_option_groups[] holds the titles). */
enum vm_opt_group {
	VGRP_RUN, VGRP_MACHINE, VGRP_KERNEL, VGRP_DEVICES, VGRP_NETWORK, VGRP_CONSOLE,
	VGRP_TESTS, VGRP_RESULTS, VGRP_KNOWN, VGRP_COMMANDS, VGRP_HIDDEN, VGRP_N
};
extern const char *const vm_option_groups[VGRP_N];

struct vm_option {
	const char *name;	/* "--cpus": messages and sources name it as written */
	char short_name;	/* 'b' for -b; 0: none */
	enum vm_opt_kind kind;
	const char *arg;	/* the argument in --help ("SECS"); NULL: none; '=' first: "=pass|fail" */
	const char *key;	/* the rapido.conf key it overrides (confkeys[]); NULL: none */
	const char *also;	/* --help: what comes between the key and its default */
	enum vm_opt_group group;
	const char *help;	/* one paragraph; --help wraps it and appends the key */
	/*
	 * offsetof(struct vm_opts, FIELD), for an option without a key or a
	 * list; one value that overrides a key needs no field (given[])
	 */
	size_t off;
	void (*hook)(struct vm_opts *o, const struct vm_option *row, const char *arg);
	enum vm_opt_complete complete;
};

/* ./vm's rows, ended by a NULL name. */
extern const struct vm_option vm_options[];

/* getopt_long's array and optstring made from table t (malloc'd: vm_getopt_free). */
struct vm_getopt {
	struct option *longopts;
	char *optstring;
	const struct vm_option **row;	/* getopt_long's val - VM_GETOPT_BASE: the row */
};
#define VM_GETOPT_BASE 0x100
void vm_getopt_build(const struct vm_option *t, struct vm_getopt *g);
void vm_getopt_free(struct vm_getopt *g);

/*
 * Parse argv (up to argc, the qemu arguments already cut off) by table t
 * into o; returns optind. An unknown option, a missing argument or an
 * empty path is a usage error (exit VM_EXIT_FAILED).
 */
int vm_options_parse(const struct vm_option *t, int argc, char **argv, struct vm_opts *o);

/* The options of table t, group by group, wrapped for --help. */
void vm_options_help(const struct vm_option *t, FILE *f);

/*
 * One line an option name (long and short) for the shell completion
 * (--list-options): NAME, TAB, none|required|optional, TAB, what follows
 * it: file, dir, words:W1 W2... (an ENUM key's), or none.
 */
void vm_options_list(const struct vm_option *t, FILE *f);

/* Table t's row that overrides KEY, or NULL. */
const struct vm_option *vm_option_by_key(const struct vm_option *t, const char *key);

/* What the option of row (of table t) that overrides a key with one value was given, or NULL. */
const char *vm_option_given(const struct vm_option *t, const struct vm_option *row,
			    const struct vm_opts *o);

#endif
