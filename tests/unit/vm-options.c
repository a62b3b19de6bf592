// SPDX-License-Identifier: GPL-2.0
/*
 * vm-options.c: ./vm's option table (src/vm/options.c) is the one source of
 * its options: getopt's table, --help's groups and lines and the
 * completion's --list-options are made from the rows (a row added to a
 * table shows up in all of them and fills its field), every key a row
 * names is in confkeys[] (its type, range and default; --help shows that
 * default), and rapido.conf.example names each row's option beside its
 * key. Each check also runs on a broken copy, which it must refuse.
 * Runs from the top of the tree (tests/run cds there).
 */
#include <stdlib.h>
#include <string.h>

#include "confkeys.h"
#include "err.h"
#include "io.h"
#include "options.h"
#include "strv.h"
#include "tap.h"

/* s with each line break and the indent after it made one space (a wrapped text unwrapped) */
static char *unwrapped(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	while (*s) {
		if (*s == '\n' && s[1] == ' ') {
			*o++ = ' ';
			s += strspn(s + 1, " ") + 1;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

/* What f printed (fn(t, f)), malloc'd. */
static char *printed(void (*fn)(const struct vm_option *, FILE *), const struct vm_option *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		die_errno("open_memstream");
	fn(t, f);
	fclose(f);
	return buf;
}

/* The option names --help's lines start with (" -b, --batch", "     --cpus"). */
static void help_names(const char *help, struct strv *out)
{
	for (const char *l = help; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		const char *p = l;
		char *name;
		size_t n;

		if (p[0] == ' ' && p[1] == '-' && p[2] != '-' && p[3] == ',')
			p += 5;
		else if (!strncmp(p, "     --", 7))
			p += 5;
		else
			continue;
		n = strcspn(p, " =[\n");
		name = xstrndup(p, n);
		strv_push(out, name);
		free(name);
	}
}

/*
 * The rows of t --help lacks or lists twice, and the names it lists that
 * are no row's, into bad; 0 if none.
 */
static size_t help_check(const struct vm_option *t, const char *help, struct strv *bad)
{
	struct strv names = STRV_INIT;
	size_t before = bad->n;

	help_names(help, &names);
	for (const struct vm_option *r = t; r->name; r++) {
		size_t seen = 0;

		for (size_t i = 0; i < names.n; i++)
			seen += !strcmp(names.v[i], r->name);
		if (seen != (r->group != VGRP_HIDDEN))
			strv_pushf(bad, "%s: %zu times in --help", r->name, seen);
	}
	for (size_t i = 0; i < names.n; i++) {
		int found = 0;

		for (const struct vm_option *r = t; r->name && !found; r++)
			found = !strcmp(r->name, names.v[i]);
		if (!found)
			strv_pushf(bad, "%s: in --help, no row's", names.v[i]);
	}
	strv_free(&names);
	return bad->n - before;
}

/*
 * rapido.conf.example against t: each row's key has a "#KEY=" line, and
 * the comment above it (past the key lines of one block: VM_CPUS and
 * VM_MEMORY share one) or the line itself names the row's option.
 */
static size_t example_check(const struct vm_option *t, const char *text, struct strv *bad)
{
	struct strv lines = STRV_INIT;
	size_t before = bad->n;
	char *copy = xstrdup(text), *save, *l;

	for (l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		strv_push(&lines, l);
	for (const struct vm_option *r = t; r->name; r++) {
		char *want;
		size_t i;
		int named = 0;

		if (!r->key)
			continue;
		want = xasprintf("#%s=", r->key);
		for (i = 0; i < lines.n && strncmp(lines.v[i], want, strlen(want)); i++)
			;
		free(want);
		if (i == lines.n) {
			strv_pushf(bad, "%s (%s): no #%s= line", r->key, r->name, r->key);
			continue;
		}
		named = strstr(lines.v[i], r->name) != NULL;
		while (i > 0 && lines.v[i - 1][0] == '#' && lines.v[i - 1][1] != ' ')
			i--;	/* the block's other keys */
		while (!named && i > 0 && !strncmp(lines.v[i - 1], "# ", 2)) {
			const char *p = strstr(lines.v[--i], r->name);
			size_t n = strlen(r->name);

			/* --test-timeout is not --test-timeout-dump */
			named = p && (p[n] == '\0' || !strchr("abcdefghijklmnopqrstuvwxyz-", p[n]));
		}
		if (!named)
			strv_pushf(bad, "%s: its comment in rapido.conf.example does not name %s",
				   r->key, r->name);
	}
	strv_free(&lines);
	free(copy);
	return bad->n - before;
}

static void show(struct strv *bad)
{
	for (size_t i = 0; i < bad->n; i++)
		printf("#   %s\n", bad->v[i]);
	strv_free(bad);
}

static void test_table(void)
{
	struct strv bad = STRV_INIT;
	struct vm_getopt g;
	char *help = printed(vm_options_help, vm_options), *flat = unwrapped(help);

	for (const struct vm_option *r = vm_options; r->name; r++) {
		const struct confkey *k = r->key ? confkey_find(r->key) : NULL;

		if (strncmp(r->name, "--", 2))
			strv_pushf(&bad, "%s: not a long option", r->name);
		if (r->key && !k)
			strv_pushf(&bad, "%s: its key %s is not in confkeys[]", r->name, r->key);
		if (r->group != VGRP_HIDDEN && !r->help)
			strv_pushf(&bad, "%s: no help text", r->name);
		if (k && k->def && r->group != VGRP_HIDDEN) {
			char *note = xasprintf("else %s)", k->def);

			if (!strstr(flat, note))
				strv_pushf(&bad, "%s: --help lacks its key's default (%s)", r->name, note);
			free(note);
		}
		for (const struct vm_option *q = vm_options; q < r; q++)
			if (!strcmp(q->name, r->name) || (r->short_name && q->short_name == r->short_name) ||
			    (r->key && q->key && !strcmp(q->key, r->key)))
				strv_pushf(&bad, "%s: its name, short name or key is %s's too", r->name,
					   q->name);
	}
	if (!tap_ok(!bad.n, "each row: a long name, its key in confkeys[] with the default --help "
		    "shows, no name or key twice"))
		show(&bad);
	strv_free(&bad);

	vm_getopt_build(vm_options, &g);
	for (const struct vm_option *r = vm_options; r->name; r++) {
		const struct option *lo = g.longopts;

		while (lo->name && strcmp(lo->name, r->name + 2))
			lo++;
		if (r->kind == VOPT_COMMAND ? lo->name != NULL : lo->name == NULL)
			strv_pushf(&bad, "%s: %s getopt's table", r->name,
				   lo->name ? "a command in" : "not in");
		if (r->short_name && !strchr(g.optstring, r->short_name))
			strv_pushf(&bad, "-%c: not in the optstring %s", r->short_name, g.optstring);
	}
	for (const struct option *lo = g.longopts; lo->name; lo++) {
		const struct vm_option *r = g.row[lo->val - VM_GETOPT_BASE];

		if (strcmp(r->name + 2, lo->name))
			strv_pushf(&bad, "getopt's --%s: row %s", lo->name, r->name);
	}
	vm_getopt_free(&g);
	if (!tap_ok(!bad.n, "getopt's long options and optstring are the rows, and only they"))
		show(&bad);
	strv_free(&bad);

	if (!tap_ok(!help_check(vm_options, help, &bad), "--help lists each row once, and no other option"))
		show(&bad);
	strv_free(&bad);
	free(help);
	free(flat);
}

/* A table of three rows, one new: it shows up in getopt's table, --help and --list-options. */
static void test_new_row(void)
{
	static const struct vm_option t[] = {
		{ "--batch", 'b', VOPT_FLAG, NULL, .group = VGRP_RUN, .help = "batch",
		  .off = offsetof(struct vm_opts, batch) },
		{ "--frobnicate", 'F', VOPT_STR, "N", "VM_CPUS", .group = VGRP_DEVICES,
		  .help = "frobnicate N things" },
		{ "--frob-files", 0, VOPT_PATHS, "FILE", .group = VGRP_DEVICES, .help = "files",
		  .off = offsetof(struct vm_opts, mpath), .complete = VCOMP_FILE },
		{ .name = NULL }
	};
	char *argv[] = { "vm", "--frobnicate", "5", "-b", "--frob-files", "a", "--frob-files=b",
			 "img", NULL };
	struct vm_opts o = { 0 };
	struct strv bad = STRV_INIT;
	char *help = printed(vm_options_help, t), *list = printed(vm_options_list, t);
	int ind;

	ind = vm_options_parse(t, 8, argv, &o);
	tap_ok(ind == 7 && o.batch && o.mpath.n == 2 && !strcmp(o.mpath.v[1], "b"),
	       "new rows' options fill their fields (-b: batch, --frob-files: mpath)");
	tap_ok(vm_option_by_key(t, "VM_CPUS") == &t[1] && o.given[1] &&
	       !strcmp(vm_option_given(t, &t[1], &o), "5"),
	       "  the lookup by its key finds --frobnicate and what it was given, without a field");
	tap_ok(!help_check(t, help, &bad) && strstr(help, "Devices:\n -F, --frobnicate N") &&
	       strstr(help, "frobnicate N things (default: VM_CPUS, else 1)"),
	       "  --help lists it in its group, with its key and the key's default");
	show(&bad);
	tap_ok(strstr(list, "--frobnicate\trequired\tnone\n-F\trequired\tnone\n") &&
	       strstr(list, "--frob-files\trequired\tfile\n") && strstr(list, "--batch\tnone\tnone\n"),
	       "  --list-options lists it, and its short name");
	vm_opts_free(&o);
	free(help);
	free(list);
	optind = 1;
}

/* A broken copy: a row --help lacks, a line no row has; an example that does not name the option. */
static void test_broken(void)
{
	static const struct vm_option t[] = {
		{ "--batch", 'b', VOPT_FLAG, NULL, .group = VGRP_RUN, .help = "batch" },
		{ "--shard", 0, VOPT_STR, "I/N", "VM_SHARD", .group = VGRP_TESTS, .help = "shard" },
		{ "--frobnicate", 0, VOPT_STR, "N", "VM_CPUS", .group = VGRP_TESTS, .help = "f" },
		{ .name = NULL }
	};
	struct strv bad = STRV_INIT;
	const char *help = "Running:\n -b, --batch            batch\n     --bogus  what\n";

	size_t n = help_check(t, help, &bad);

	tap_ok(n == 3, "a --help without two rows, with a line no row has: refused (%zu)", n);
	strv_free(&bad);
	tap_ok(example_check(t, "# Run shard I of N (./vm --shard I/N).\n#VM_SHARD=\n"
			     "# CPUs.\n#VM_CPUS=1\n", &bad) == 1 && strstr(bad.v[0], "--frobnicate"),
	       "an example whose VM_CPUS comment does not name the row's option: refused");
	strv_free(&bad);
	tap_ok(example_check(t, "# Run shard I of N.\n#VM_SHARD=\n", &bad) == 2,
	       "  nor one without the option by VM_SHARD and without VM_CPUS");
	strv_free(&bad);
}

static void test_example(void)
{
	struct strv bad = STRV_INIT;
	char *text;

	if (read_file("rapido.conf.example", &text, NULL))
		die("rapido.conf.example: cannot read it (run from the top of the tree)");
	if (!tap_ok(!example_check(vm_options, text, &bad),
		    "rapido.conf.example: each row's key, its comment naming the row's option"))
		show(&bad);
	strv_free(&bad);
	free(text);
}

int main(void)
{
	test_table();
	test_new_row();
	test_broken();
	test_example();
	return tap_done();
}
