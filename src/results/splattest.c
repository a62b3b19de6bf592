// SPDX-License-Identifier: GPL-2.0
/*
 * splattest.c: a kernel report fails the test that ran while the console
 * showed it (splattest.h). collect.c notes each test's console lines as
 * its start and end records arrive (the results port and the console are
 * read by one loop, in the order qemu writes them); a report whose first
 * line falls in a test's lines is that test's. Reports outside every test
 * stay run-level testcases only ("kernel: TITLE"), as reports in a test
 * do too, so the run's count of splats is what it was.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "hash.h"
#include "io.h"
#include "pct.h"
#include "protocol.h"
#include "splattest.h"

/* An allow file is a short list; this bounds a wrong path's damage. */
#define ALLOW_MAX (4u << 20)

void splat_allow_free(struct splat_allow *a)
{
	for (size_t i = 0; i < a->n; i++) {
		regfree(&a->v[i].re);
		free(a->v[i].pattern);
		free(a->v[i].reason);
	}
	free(a->v);
	free(a->path);
	memset(a, 0, sizeof(*a));
}

static void err_add(char **err, const char *fmt, const char *path, unsigned int line,
		    const char *what)
{
	char *msg = xasprintf(fmt, path, line, what), *all;

	all = *err ? xasprintf("%s\n%s", *err, msg) : xstrdup(msg);
	free(*err);
	free(msg);
	*err = all;
}

/* One line, NUL-terminated and without its newline: 0, 1 for an entry, or -EINVAL. */
static int parse_line(struct splat_allow *a, const char *path, unsigned int lineno, char *l,
		      char **err)
{
	char *hash = NULL, *end, *reason;
	struct splat_allow_entry *e;
	char msg[256];
	int rc;

	while (isspace((unsigned char)*l))
		l++;
	if (!*l || *l == '#')
		return 0;
	/* the last whitespace followed by '#': a regex may hold '#' itself */
	for (char *p = l + 1; *p; p++)
		if (*p == '#' && isspace((unsigned char)p[-1]))
			hash = p;
	reason = hash ? hash + 1 : NULL;
	while (reason && isspace((unsigned char)*reason))
		reason++;
	if (!reason || !*reason) {
		err_add(err, "%s:%u: no reason for '%s': expected REGEX # REASON (a bug URL, why "
			"it is harmless)", path, lineno, l);
		return -EINVAL;
	}
	end = hash;
	while (end > l && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
	end = reason + strlen(reason);
	while (end > reason && isspace((unsigned char)end[-1]))
		*--end = '\0';
	a->v = xrealloc(a->v, (a->n + 1) * sizeof(*a->v));
	e = &a->v[a->n];
	rc = regcomp(&e->re, l, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		char *what;

		regerror(rc, &e->re, msg, sizeof(msg));
		regfree(&e->re);
		what = xasprintf("'%s': %s", l, msg);
		err_add(err, "%s:%u: bad regular expression %s", path, lineno, what);
		free(what);
		return -EINVAL;
	}
	e->pattern = xstrdup(l);
	e->reason = xstrdup(reason);
	e->line = lineno;
	a->n++;
	return 1;
}

int splat_allow_parse(struct splat_allow *a, const char *path, const char *text, char **err)
{
	char *copy = xstrdup(text), *line = copy;
	unsigned int lineno = 0;
	struct sha256 h;
	int bad = 0;

	memset(a, 0, sizeof(*a));
	a->path = xstrdup(path);
	*err = NULL;
	sha256_init(&h);
	sha256_update(&h, text, strlen(text));
	sha256_hex(&h, a->sha256);
	while (line) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		lineno++;
		if (parse_line(a, path, lineno, line, err) < 0)
			bad = 1;
		line = nl ? nl + 1 : NULL;
	}
	free(copy);
	if (!bad)
		return 0;
	splat_allow_free(a);
	return -EINVAL;
}

int splat_allow_load(struct splat_allow *a, const char *path, char **err)
{
	char *text;
	size_t len;
	struct stat st;
	int rc = read_regular_file(path, 0, ALLOW_MAX, &text, &len, &st);

	if (rc) {
		*err = rc == -EFBIG ? xasprintf("%s: larger than %u MiB: not an allow file", path,
						ALLOW_MAX >> 20) :
			xasprintf("%s: %s", path, file_strerror(rc, &st));
		return rc;
	}
	if (memchr(text, '\0', len)) {
		*err = xasprintf("%s: holds a NUL byte: not a text file of REGEX # REASON lines",
				 path);
		free(text);
		return -EINVAL;
	}
	rc = splat_allow_parse(a, path, text, err);
	free(text);
	return rc;
}

const struct splat_allow_entry *splat_allow_match(const struct splat_allow *a, const char *title)
{
	for (size_t i = 0; a && i < a->n; i++)
		if (!regexec(&a->v[i].re, title, 0, NULL, 0))
			return &a->v[i];
	return NULL;
}

/* "R1 KIND F1 F2 F3" with each field %-escaped, then " RUN" if run (a splat record's), into out. */
static void push_record(struct strv *out, const char *kind, const char *f1, const char *f2,
			const char *f3, size_t run)
{
	char *a = pct_field(f1), *b = pct_field(f2), *c = pct_field(f3);

	if (run)
		strv_pushf(out, REC_PREFIX "%s %s %s %s %zu", kind, a, b, c, run);
	else
		strv_pushf(out, REC_PREFIX "%s %s %s %s", kind, a, b, c);
	free(a);
	free(b);
	free(c);
}

/*
 * Which run of its name s->t[k] is, from 1: a test re-run (--rerun-failures)
 * has a start record per run, and a report belongs to the run it came in,
 * not to the last one.
 */
static size_t run_of(const struct rsuite *s, size_t k)
{
	size_t run = 0;

	for (size_t i = 0; i <= k; i++)
		run += !s->t[i].kernel && !strcmp(s->t[i].name, s->t[k].name);
	return run;
}

/* Did test t run while the console showed line? */
static int ran_at(const struct rtest *t, unsigned long line)
{
	return !t->kernel && t->con_from && t->con_from <= line && (!t->con_to || line <= t->con_to);
}

void splat_records(const struct rsuite *s, const struct splat_scan *sc, unsigned int mask,
		   const struct splat_allow *a, struct strv *out, unsigned int *counted,
		   unsigned int warn_vm)
{
	*counted = 0;
	for (size_t i = 0; i < sc->n; i++) {
		const struct splat *sp = &sc->v[i];
		const char *kind = splat_kind_name(sp->kind);
		const struct splat_allow_entry *e = splat_allow_match(a, sp->title);
		int counts = (mask & (1u << sp->kind)) && !e;
		char *title = xasprintf("kernel: %s", sp->title), *where, *reason, *text;
		const char *during = NULL;

		where = sp->first_line == sp->last_line ?
			xasprintf("console.log line %lu", sp->first_line) :
			xasprintf("console.log lines %lu-%lu", sp->first_line, sp->last_line);
		for (size_t k = 0; k < s->n; k++) {
			if (!counts || !ran_at(&s->t[k], sp->first_line))
				continue;
			reason = xasprintf("kernel %s: %s (%s)", kind, sp->title, where);
			text = xasprintf("--- kernel %s report, %s ---\n%s", kind, where, sp->text);
			push_record(out, REC_SPLAT, s->t[k].name, reason, text, run_of(s, k));
			free(reason);
			free(text);
			if (!during)
				during = s->t[k].name;
		}
		if (e) {
			reason = xasprintf("kernel %s, allowed by %s:%u: %s", kind, a->path, e->line,
					   e->reason);
			push_record(out, REC_ALLOWED, title, reason, sp->text, 0);
			if (warn_vm)
				warn("vm%u: kernel %s (allowed by %s:%u: %s): %s (%s)", warn_vm, kind,
				     a->path, e->line, e->reason, sp->title, where);
			free(reason);
		} else {
			push_record(out, counts ? REC_KERNEL : REC_TOLERATED, title, kind, sp->text, 0);
			if (warn_vm)
				warn("vm%u: kernel %s%s: %s (%s%s, %s)", warn_vm, kind,
				     counts ? "" : " (tolerated: VM_SPLATS)", sp->title,
				     during ? "during test " : "outside any test", during ? during : "",
				     where);
		}
		*counted += (unsigned int)counts;
		free(title);
		free(where);
	}
}
