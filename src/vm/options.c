// SPDX-License-Identifier: GPL-2.0
/*
 * options.c: ./vm's settings, one row each (options.h), and what is made
 * from the rows: getopt_long's table, the grouped --help and the
 * completion's --list-options (args.c parses ./vm's command line with them). A new option is a row here (and, if
 * rapido.conf may set it, its key's row in confkeys[]) plus the device or
 * results hook that resolves it through vm_opt_setting() (lookup.h).
 */
#include <stdlib.h>
#include <string.h>

#include "confkeys.h"
#include "err.h"
#include "options.h"
#include "rapido.h"
#include "strbuf.h"
#include "verdict.h"
#include "version.h"

#define FIELD(f) .off = offsetof(struct vm_opts, f)

const char *const vm_option_groups[VGRP_N] = {
	[VGRP_RUN] = "Running",
	[VGRP_MACHINE] = "Machine",
	[VGRP_KERNEL] = "Kernel and image",
	[VGRP_DEVICES] = "Devices",
	[VGRP_NETWORK] = "Network",
	[VGRP_CONSOLE] = "Console and debugging",
	[VGRP_TESTS] = "Tests and verdicts (CI)",
	[VGRP_RESULTS] = "Results files",
	[VGRP_KNOWN] = "Known failures and re-runs (with --results)",
	[VGRP_COMMANDS] = "Other commands",
	[VGRP_HIDDEN] = NULL,
};

static void link_hook(struct vm_opts *o, const struct vm_option *row, const char *arg)
{
	o->links = xrealloc(o->links, (o->n_links + 1) * sizeof(*o->links));
	o->links[o->n_links].listen = !strcmp(row->name, "--link-listen");
	o->links[o->n_links++].hostport = arg;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage:\n"
		" vm [options] [IMAGE] [-- QEMU-ARGS...]\n"
		"\n"
		"Boot IMAGE (default: the last ./cut output) in qemu and exit with the\n"
		"guest's status. A setting's default comes from rapido.conf (or the\n"
		"environment) under the key each option names, else the table's.\n"
		"\n");
	vm_options_help(vm_options, f);
	verdict_help(f);
	fprintf(f, "\n"
		"Interactive consoles: leaving is no verdict: the shell's exit gives 0 (the\n"
		"profile's status if it failed before the prompt), and so does Ctrl-a x, which\n"
		"quits qemu; Ctrl-a c toggles qemu's monitor.\n");
}

static void help_hook(struct vm_opts *o, const struct vm_option *row, const char *arg)
{
	(void)o, (void)row, (void)arg;
	usage(stdout);
	close_stdout();
	exit(0);
}

static void version_hook(struct vm_opts *o, const struct vm_option *row, const char *arg)
{
	(void)o, (void)row, (void)arg;
	version_print("vm");
	exit(0);
}

static void list_hook(struct vm_opts *o, const struct vm_option *row, const char *arg)
{
	(void)o, (void)row, (void)arg;
	vm_options_list(vm_options, stdout);
	close_stdout();
	exit(0);
}

const struct vm_option vm_options[] = {
	{ "--batch", 'b', VOPT_FLAG, NULL, .group = VGRP_RUN, FIELD(batch),
	  .help = "run the autorun scripts and power off (no shell)" },
	{ "--timeout", 't', VOPT_STR, "SECS", "VM_TIMEOUT", .group = VGRP_RUN,
	  .help = "end after SECS seconds from ./vm's start, qemu killed, whatever step is "
		  "stuck; 0: never" },
	{ "--dry-run", 'n', VOPT_FLAG, NULL, .group = VGRP_RUN, FIELD(dry_run),
	  .help = "print the qemu command line, one argument per line" },

	{ "--accel", 0, VOPT_STR, "MODE", "QEMU_ACCEL", .group = VGRP_MACHINE,
	  .help = "auto, kvm or tcg" },
	{ "--cpus", 0, VOPT_STR, "N", "VM_CPUS", "the profile's", VGRP_MACHINE,
	  .help = "virtual CPUs" },
	{ "--memory", 0, VOPT_STR, "SIZE", "VM_MEMORY", "the profile's", VGRP_MACHINE,
	  .help = "memory, e.g. 1G" },

	{ "--append", 0, VOPT_LIST, "ARGS", .group = VGRP_KERNEL, FIELD(append),
	  .help = "add ARGS to the kernel command line (after QEMU_EXTRA_KERNEL_PARAMS; "
		  "printk.time=1 comes last; the whole line at most 2047 bytes, no rapido.* keys)" },

	{ "--share", 0, VOPT_PATHS, "DIR", "VIRTFS_SHARE_PATH", .group = VGRP_DEVICES,
	  FIELD(shares), .complete = VCOMP_DIR,
	  .help = "share host DIR with the guest (9p) at /host" },
	{ "--virtiofs", 0, VOPT_LIST, "DIR[:TAG[:ro]]", "VM_VIRTIOFS", .group = VGRP_DEVICES,
	  FIELD(virtiofs), .complete = VCOMP_DIR,
	  .help = "share host DIR over virtiofs (virtiofsd, started and stopped by ./vm) as TAG "
		  "(default virtiofsN; the guest mounts it: mount -t virtiofs TAG DIR); ro: read-only "
		  "(repeatable)" },
	{ "--mpath", 0, VOPT_LIST, "FILE", "QEMU_MPATH_DISKS", .group = VGRP_DEVICES,
	  FIELD(mpath), .complete = VCOMP_FILE,
	  .help = "attach FILE as a multipath disk: one SCSI LUN seen through several paths "
		  "(repeatable)" },
	{ "--mpath-paths", 0, VOPT_STR, "N", "QEMU_MPATH_PATHS", .group = VGRP_DEVICES,
	  .help = "paths per multipath disk" },
	{ "--rbd", 0, VOPT_LIST, "POOL/IMAGE", "QEMU_RBD_DISKS", .group = VGRP_DEVICES, FIELD(rbd),
	  .help = "attach a Ceph RBD image as a virtio disk (serial rbdN) through qemu's rbd "
		  "driver, with CEPH_CONF and CEPH_KEYRING (repeatable)" },

	{ "--net", 0, VOPT_STR, "MODE", "NET", .group = VGRP_NETWORK,
	  .help = "eth0: tap (bridge, TAP_DEVS), user (no root) or none; unset: tap with --tap, "
		  "user with --hostfwd" },
	{ "--tap", 0, VOPT_STR, "NAME", .group = VGRP_NETWORK, FIELD(tap),
	  .help = "use TAP device NAME for eth0 (implies --net tap)" },
	{ "--hostfwd", 0, VOPT_LIST, "SPEC", "USER_HOSTFWD", .group = VGRP_NETWORK, FIELD(hostfwd),
	  .help = "user mode: forward a host port, e.g. tcp:127.0.0.1:2222-:22 (implies --net user)" },
	{ "--link-listen", 0, VOPT_HOOK, "HOST:PORT", .group = VGRP_NETWORK, .hook = link_hook,
	  .help = "VM-to-VM link: wait for a peer on HOST:PORT (addresses from LINK_SUBNET)" },
	{ "--link-connect", 0, VOPT_HOOK, "HOST:PORT", .group = VGRP_NETWORK, .hook = link_hook,
	  .help = "VM-to-VM link: connect to a listening peer" },

	{ "--verbose", 'v', VOPT_FLAG, NULL, .group = VGRP_CONSOLE, FIELD(verbose),
	  .help = "on a terminal, show the kernel's boot log too (the log file always has it)" },
	{ "--quiet", 'q', VOPT_FLAG, NULL, .group = VGRP_CONSOLE, FIELD(quiet),
	  .help = "--batch: show no console but kernel reports (BUG, WARNING, Oops); "
		  "interactive: no boot log, as on a terminal" },
	{ "--log", 0, VOPT_PATH, "PATH", .group = VGRP_CONSOLE, FIELD(log), .complete = VCOMP_FILE,
	  .help = "also write the console to PATH (default VM_LOG_DIR/vmN.log)" },
	{ "--gdb", 0, VOPT_OPTIONAL, "HOST:PORT", .group = VGRP_CONSOLE, FIELD(gdb),
	  .help = "gdb stub (default 127.0.0.1, port 1233+N for VM N); turns KASLR off and "
		  "prints the gdb command" },
	{ "--gdb-wait", 0, VOPT_FLAG, NULL, .group = VGRP_CONSOLE, FIELD(gdb_wait),
	  .help = "with --gdb: stop the CPUs until gdb continues" },

	{ "--shard", 0, VOPT_STR, "I/N", "VM_SHARD", .group = VGRP_TESTS,
	  .help = "run shard I of N of the profile's tests" },
	{ "--jobs", 0, VOPT_STR, "N", "VM_JOBS", .group = VGRP_TESTS,
	  .help = "with --batch and --results DIR: the tests as N shards (--shard I/N) in N VMs "
		  "at once, each with its own VM number, results in DIR/shard-I, merged into DIR as "
		  "--merge-results does; N x the memory must fit in MemAvailable; exits 0 only if "
		  "every shard ran and passed, else the highest shard's status (at least 1); "
		  "SIGINT/SIGTERM stop every VM, exit 128+SIG; 0: one VM" },
	{ "--serial-tests", 0, VOPT_PATH, "FILE", "VM_SERIAL_TESTS", .group = VGRP_TESTS,
	  .complete = VCOMP_FILE,
	  .help = "with --jobs: tests (names or globs, one a line, '#' comments) run in one VM "
		  "after the others, in DIR/serial, as xfstests' unreliable_in_parallel group "
		  "always is" },
	{ "--splats", 0, VOPT_STR, "LIST", "VM_SPLATS", .group = VGRP_TESTS,
	  .help = "kernel report kinds that fail a passing run: all, kinds, -KIND to leave one "
		  "out, e.g. all,-warning; none (only that word) turns detection off, an empty or "
		  "all-negative list is refused; a report while a test runs fails that test, "
		  "naming its first line and its lines in console.log" },
	{ "--splats-allow", 0, VOPT_PATH, "FILE", "VM_SPLATS_ALLOW", .group = VGRP_TESTS,
	  .complete = VCOMP_FILE,
	  .help = "kernel reports that fail nothing but are listed: lines of REGEX # REASON, "
		  "REGEX (POSIX extended) matched against a report's first line" },
	{ "--test-timeout", 0, VOPT_STR, "SECS", "VM_TEST_TIMEOUT", "the profile's #@ test-timeout",
	  VGRP_TESTS,
	  .help = "with --results: a test running longer gets the guest's blocked and all task "
		  "stacks (sysrq w, t) in its output and is an error (no progress after SECS s); "
		  "the VM is stopped, the planned tests not yet run are errors too, and without a "
		  "plan a failed testcase says later tests may not have run; 0: none" },
	{ "--test-timeout-dump", 0, VOPT_YES, NULL, "VM_TEST_TIMEOUT_DUMP", .group = VGRP_TESTS,
	  .help = "with --test-timeout: first write a vmcore of the guest (DIR/vmcore)" },

	{ "--results", 0, VOPT_PATH, "DIR", "VM_RESULTS_DIR", .group = VGRP_RESULTS,
	  .complete = VCOMP_DIR,
	  .help = "per-test results in DIR: junit.xml, results.tap (KTAP), results.txt (records "
		  "as they came), console.log, files/ (the guest's $RAPIDO_RESULTS_DIR, over 9p, "
		  "emptied first)" },

	{ "--known-failures", 0, VOPT_PATHS, "FILE", "VM_KNOWN_FAILURES", .group = VGRP_KNOWN,
	  FIELD(known.files), .complete = VCOMP_FILE,
	  .help = "failures in FILE are not new: such a test is skipped as \"known failure: "
		  "REASON\" in junit.xml, \"not ok ... # TODO\" in KTAP (repeatable). A line: "
		  "TEST-OR-GLOB [KERNEL-GLOB or MIN..MAX] [until=YYYY-MM-DD] [# REASON]; xfstests "
		  "-E exclude files and kdevops expunge lists as they are" },
	{ "--rerun-failures", 0, VOPT_STR, "N", "VM_RERUN_FAILURES", .group = VGRP_KNOWN,
	  .help = "re-run a failed test up to N times in the same guest; one that passes then "
		  "is flaky, with its rate (with --results: ./vm counts the runs)" },
	{ "--flaky", 0, VOPT_STR, "=pass|fail", .group = VGRP_KNOWN, FIELD(known.flaky),
	  .help = "whether a flaky test fails the run (default pass)" },
	{ "--strict", 0, VOPT_FLAG, NULL, .group = VGRP_KNOWN, FIELD(known.strict),
	  .help = "also fail on fixed tests (a known failure passed) and on expired entries" },
	{ "--write-known-failures", 0, VOPT_PATH, "FILE", .group = VGRP_KNOWN, FIELD(known.write),
	  .complete = VCOMP_FILE,
	  .help = "write or refresh FILE from this run: comments kept, the failures it lacks "
		  "added, its entries whose tests passed commented out as fixed. Each test ends as "
		  "pass, fail (new), known-fail, fixed, flaky, skip or error (did not finish). A "
		  "status 1 that failed tests alone made becomes 0 when none is new: no fail, no "
		  "error (nor, --strict, fixed or expired)" },

	{ "--compare-results", 0, VOPT_COMMAND, "A B", .group = VGRP_COMMANDS,
	  .complete = VCOMP_DIR,
	  .help = "alias of rapido results compare (kept for a while): print the tests whose "
		  "verdict changed from result directory A to B; exits 1 "
		  "if B regressed (must be the first option)" },
	{ "--merge-results", 0, VOPT_COMMAND, "OUT DIR...", .group = VGRP_COMMANDS,
	  .complete = VCOMP_DIR,
	  .help = "alias of rapido results merge (kept for a while): merge result directories "
		  "(shards) into OUT: junit.xml, results.tap, "
		  "summary.txt; exits 1 if any run failed, its status is unknown or a shard of its "
		  "split is missing (must be the first option; it takes the known-failure options "
		  "too, before OUT)" },
	{ "--version", 0, VOPT_HOOK, NULL, .group = VGRP_COMMANDS, .hook = version_hook,
	  .help = "print the version, and dracut's and qemu's" },
	{ "--help", 'h', VOPT_HOOK, NULL, .group = VGRP_COMMANDS, .hook = help_hook,
	  .help = "display this help" },
	/* the shell completion's source (scripts/completion/rapido.bash) */
	{ "--list-options", 0, VOPT_HOOK, NULL, .group = VGRP_HIDDEN, .hook = list_hook },
	{ .name = NULL }	/* the end */
};

static size_t rows(const struct vm_option *t)
{
	size_t n = 0;

	while (t[n].name)
		n++;
	return n;
}

_Static_assert(sizeof(vm_options) / sizeof(vm_options[0]) <= VM_OPTS_GIVEN,
	       "struct vm_opts' given[] has a slot for each row");

/* One value that overrides a key: kept in given[], read by the key (vm_opt_setting). */
static int by_key(const struct vm_option *r)
{
	return r->key && (r->kind == VOPT_STR || r->kind == VOPT_PATH || r->kind == VOPT_YES ||
			  r->kind == VOPT_OPTIONAL);
}

static int takes_arg(const struct vm_option *r)
{
	return r->arg && r->kind != VOPT_FLAG && r->kind != VOPT_YES;
}

void vm_getopt_build(const struct vm_option *t, struct vm_getopt *g)
{
	size_t n = rows(t), k = 0;
	struct strbuf s = STRBUF_INIT;

	strbuf_reset(&s);
	g->longopts = xcalloc(n + 1, sizeof(*g->longopts));
	g->row = xcalloc(n, sizeof(*g->row));
	for (size_t i = 0; i < n; i++) {
		const struct vm_option *r = &t[i];

		g->row[i] = r;
		if (r->short_name) {
			strbuf_addc(&s, r->short_name);
			if (takes_arg(r))
				strbuf_addc(&s, ':');
		}
		/* a command is only ever the first argument (vm.c): later, an unknown option */
		if (r->kind == VOPT_COMMAND)
			continue;
		g->longopts[k].name = r->name + 2;
		g->longopts[k].has_arg = r->kind == VOPT_OPTIONAL ? optional_argument :
					 takes_arg(r) ? required_argument : no_argument;
		g->longopts[k].val = VM_GETOPT_BASE + (int)i;
		k++;
	}
	g->optstring = s.s;
}

void vm_getopt_free(struct vm_getopt *g)
{
	free(g->longopts);
	free(g->optstring);
	free(g->row);
	memset(g, 0, sizeof(*g));
}

/* row r's field in o: its given[] slot (row i of table t), else r->off */
static void *field(const struct vm_option *t, const struct vm_option *r, struct vm_opts *o)
{
	return by_key(r) ? (void *)&o->given[r - t] : (void *)((char *)o + r->off);
}

static void fill(const struct vm_option *t, const struct vm_option *r, struct vm_opts *o,
		 const char *arg)
{
	switch (r->kind) {
	case VOPT_FLAG:
		*(int *)field(t, r, o) = 1;
		break;
	case VOPT_YES:
		*(const char **)field(t, r, o) = "yes";
		break;
	case VOPT_STR:
		*(const char **)field(t, r, o) = arg;
		break;
	case VOPT_PATH:
		*(const char **)field(t, r, o) = path_arg_or_die(r->name, arg);
		break;
	case VOPT_LIST:
		strv_push(field(t, r, o), arg);
		break;
	case VOPT_PATHS:
		strv_push(field(t, r, o), path_arg_or_die(r->name, arg));
		break;
	case VOPT_OPTIONAL:
		*(const char **)field(t, r, o) = arg ? arg : "";
		break;
	case VOPT_HOOK:
		r->hook(o, r, arg);
		break;
	case VOPT_COMMAND:
		die("internal error: %s is a command", r->name);
	}
}

int vm_options_parse(const struct vm_option *t, int argc, char **argv, struct vm_opts *o)
{
	struct vm_getopt g;
	size_t n = rows(t);
	int c;

	vm_getopt_build(t, &g);
	while ((c = getopt_long(argc, argv, g.optstring, g.longopts, NULL)) != -1) {
		const struct vm_option *r = NULL;

		if (c >= VM_GETOPT_BASE && (size_t)(c - VM_GETOPT_BASE) < n)
			r = g.row[c - VM_GETOPT_BASE];
		for (size_t i = 0; !r && c != '?' && i < n; i++)
			if (t[i].short_name == c)
				r = &t[i];
		if (!r) {
			vm_getopt_free(&g);
			usage_die(VM_EXIT_FAILED, NULL);
		}
		fill(t, r, o, optarg);
	}
	vm_getopt_free(&g);
	return optind;
}

/* What --help says of the key: " (default: KEY, else ALSO, else DEFAULT)". */
static void key_note(const struct vm_option *r, struct strbuf *b)
{
	const struct confkey *k = confkey_find(r->key);

	strbuf_addf(b, " (default: %s", r->key);
	if (r->also)
		strbuf_addf(b, ", else %s", r->also);
	if (k && k->def)
		strbuf_addf(b, ", else %s", k->def);
	strbuf_addc(b, ')');
}

#define HELP_WIDTH 79
#define HELP_COL 24	/* where a row's text starts */
#define HELP_MORE 26	/* where its further lines start */

/* left, then text wrapped at HELP_WIDTH, its first line at HELP_COL, the rest at HELP_MORE */
static void wrap(FILE *f, const char *left, const char *text)
{
	size_t col = strlen(left);
	const char *p = text;

	fputs(left, f);
	if (col + 2 > HELP_COL) {
		fputs("  ", f);
		col += 2;
	} else {
		for (; col < HELP_COL; col++)
			fputc(' ', f);
	}
	for (int first = 1; *p; first = 0) {
		size_t len = strcspn(p, " ");

		if (!first && col + 1 + len > HELP_WIDTH) {
			fprintf(f, "\n%*s", HELP_MORE, "");
			col = HELP_MORE;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, len, f);
		col += len;
		p += len;
		p += strspn(p, " ");
	}
	fputc('\n', f);
}

void vm_options_help(const struct vm_option *t, FILE *f)
{
	struct strbuf left = STRBUF_INIT, text = STRBUF_INIT;

	for (int g = 0; g < VGRP_N; g++) {
		int shown = 0;

		if (!vm_option_groups[g])
			continue;
		for (const struct vm_option *r = t; r->name; r++) {
			if (r->group != (enum vm_opt_group)g)
				continue;
			if (!shown++)
				fprintf(f, "%s:\n", vm_option_groups[g]);
			strbuf_reset(&left);
			if (r->short_name)
				strbuf_addf(&left, " -%c, %s", r->short_name, r->name);
			else
				strbuf_addf(&left, "     %s", r->name);
			if (r->arg && r->kind == VOPT_OPTIONAL)
				strbuf_addf(&left, "[=%s]", r->arg);
			else if (r->arg)
				strbuf_addf(&left, "%s%s", r->arg[0] == '=' ? "" : " ", r->arg);
			strbuf_reset(&text);
			strbuf_adds(&text, r->help);
			if (r->key)
				key_note(r, &text);
			wrap(f, left.s, text.s);
		}
		if (shown)
			fputc('\n', f);
	}
	strbuf_free(&left);
	strbuf_free(&text);
}

static void list_one(FILE *f, const struct vm_option *r, const char *name)
{
	const struct confkey *k = r->key ? confkey_find(r->key) : NULL;

	fprintf(f, "%s\t%s\t", name, r->kind == VOPT_OPTIONAL ? "optional" :
		takes_arg(r) ? "required" : "none");
	if (k && k->kind == CONFKEY_ENUM && takes_arg(r)) {
		fputs("words:", f);
		for (size_t i = 0; k->words[i]; i++)
			fprintf(f, "%s%s", i ? " " : "", k->words[i]);
	} else {
		fputs(r->complete == VCOMP_FILE ? "file" : r->complete == VCOMP_DIR ? "dir" : "none",
		      f);
	}
	fputc('\n', f);
}

void vm_options_list(const struct vm_option *t, FILE *f)
{
	for (const struct vm_option *r = t; r->name; r++) {
		char s[3] = { '-', r->short_name, 0 };

		if (!vm_option_groups[r->group])
			continue;
		list_one(f, r, r->name);
		if (r->short_name)
			list_one(f, r, s);
	}
}

const struct vm_option *vm_option_by_key(const struct vm_option *t, const char *key)
{
	for (; t->name; t++)
		if (t->key && !strcmp(t->key, key))
			return t;
	return NULL;
}

const char *vm_option_given(const struct vm_option *t, const struct vm_option *r,
			    const struct vm_opts *o)
{
	return by_key(r) ? o->given[r - t] : NULL;
}
