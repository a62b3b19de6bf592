// SPDX-License-Identifier: GPL-2.0
/* ktapread.c: TAP and KTAP streams into pass/fail/skip records (see ktapread.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err.h"
#include "ktapread.h"
#include "strbuf.h"

struct krec {
	enum ktap_verdict verdict;
	char *name, *reason, *output;
	uint64_t usecs;
};

/* One level of subtests; level 0 is the stream itself. */
struct klevel {
	size_t indent;
	char *name;		/* from "# Subtest: NAME", else the parent's result names it */
	long plan;		/* -1: no plan line */
	unsigned long count;	/* results at this level */
	int numbered;		/* every result so far carried the number count + 1 */
	int failed;		/* a failed record in it (the parent then adds none) */
	struct krec *recs;	/* records kept until the parent's result names the level */
	size_t nrecs, caprecs;
};

struct ktapread {
	ktap_emit_fn emit;
	void *arg;
	struct klevel *lv;
	size_t depth, cap;	/* lv[depth] is the innermost open level */
	struct strbuf out;	/* the output of the next result */
	char *subtest;		/* a "# Subtest:" name for the next level opened */
	uint64_t last;
	int seen, bailed, err;
};

static void level_push(struct ktapread *r, size_t indent)
{
	struct klevel *l;

	if (r->depth + 1 >= r->cap) {
		r->cap = r->cap ? r->cap * 2 : 8;
		r->lv = xrealloc(r->lv, r->cap * sizeof(*r->lv));
	}
	l = &r->lv[++r->depth];
	memset(l, 0, sizeof(*l));
	l->indent = indent;
	l->plan = -1;
	l->numbered = 1;
	l->name = r->subtest;
	r->subtest = NULL;
}

static void rec_free(struct krec *k)
{
	free(k->name);
	free(k->reason);
	free(k->output);
}

/* Hand a finished record to the level it belongs to: kept, or emitted at level 0. */
static void level_take(struct ktapread *r, size_t depth, struct krec *k)
{
	struct klevel *l = &r->lv[depth];

	if (k->verdict == KTAP_FAIL)
		l->failed = 1;
	if (depth == 0) {
		struct ktap_record pub = { k->verdict, k->name, k->reason, k->output, k->usecs };

		if (!r->err) {
			int rc = r->emit(&pub, r->arg);

			if (rc < 0)
				r->err = rc;
		}
		rec_free(k);
		return;
	}
	if (l->nrecs == l->caprecs) {
		l->caprecs = l->caprecs ? l->caprecs * 2 : 8;
		l->recs = xrealloc(l->recs, l->caprecs * sizeof(*l->recs));
	}
	l->recs[l->nrecs++] = *k;
}

static void record(struct ktapread *r, size_t depth, enum ktap_verdict v, char *name,
		   const char *reason, uint64_t now)
{
	struct krec k = { v, name, xstrdup(reason), xstrdup(r->out.s ? r->out.s : ""), 0 };

	k.usecs = now >= r->last ? now - r->last : 0;
	r->last = now;
	strbuf_reset(&r->out);
	level_take(r, depth, &k);
}

/* A level's plan not met: a failed record "plan" in it, naming what never came */
static void plan_check(struct ktapread *r, size_t depth, uint64_t now)
{
	struct klevel *l = &r->lv[depth];
	char *why;

	if (l->plan < 0 || (unsigned long)l->plan == l->count)
		return;
	if (l->numbered && l->count < (unsigned long)l->plan)
		why = xasprintf("plan 1..%ld: %lu reported, %lu..%ld never did", l->plan, l->count,
				l->count + 1, l->plan);
	else
		why = xasprintf("plan 1..%ld: %lu reported", l->plan, l->count);
	record(r, depth, KTAP_FAIL, xstrdup("plan"), why, now);
	free(why);
}

/*
 * Close the innermost level (depth > 0): its plan is checked, its records
 * move to its parent named NAME/..., and the level is gone.
 */
static void level_pop(struct ktapread *r, const char *name, uint64_t now)
{
	struct klevel *l = &r->lv[r->depth];
	size_t parent = r->depth - 1;

	if (!r->bailed)
		plan_check(r, r->depth, now);
	for (size_t i = 0; i < l->nrecs; i++) {
		struct krec *k = &l->recs[i];
		char *full = *k->name ? xasprintf("%s/%s", name, k->name) : xstrdup(name);

		free(k->name);
		k->name = full;
		level_take(r, parent, k);
	}
	if (l->failed)
		r->lv[parent].failed = 1;
	free(l->recs);
	free(l->name);
	r->depth--;
}

/* The name of the innermost level when its own result does not give one */
static char *level_fallback_name(struct ktapread *r)
{
	struct klevel *l = &r->lv[r->depth];

	return l->name ? xstrdup(l->name) : xasprintf("subtest %lu", r->lv[r->depth - 1].count + 1);
}

/* Close levels indented deeper than INDENT that no result closes: their parents never reported. */
static void close_unfinished(struct ktapread *r, size_t indent, uint64_t now)
{
	while (r->depth > 0 && r->lv[r->depth].indent > indent) {
		char *name = level_fallback_name(r);

		level_pop(r, name, now);
		if (!r->bailed) {
			struct klevel *p = &r->lv[r->depth];

			p->count++;
			p->numbered = 0;
			record(r, r->depth, KTAP_FAIL, name,
			       "no result line: the stream ended or moved on inside its subtests", now);
		} else {
			free(name);
		}
	}
}

/* A line at INDENT opening a deeper level when it is indented more than the current one */
static void enter(struct ktapread *r, size_t indent, uint64_t now)
{
	if (!r->seen) {
		r->seen = 1;
		r->lv[0].indent = indent;
		return;
	}
	if (indent > r->lv[r->depth].indent)
		level_push(r, indent);
	else
		close_unfinished(r, indent, now);
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* WORD is a directive at S: SKIP, TODO, XFAIL, TIMEOUT or ERROR, any case, then a non-letter */
static const char *directive_at(const char *s)
{
	static const char *const words[] = { "SKIP", "TODO", "XFAIL", "TIMEOUT", "ERROR" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t n = strlen(words[i]);

		if (!strncasecmp(s, words[i], n) && !isalpha((unsigned char)s[n]))
			return words[i];
	}
	return NULL;
}

static char *trimmed(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

/*
 * "(not )ok [N] [- ]DESCRIPTION[ # [DIRECTIVE] [DATA]]" at S. The
 * description ends at a "#" followed by a space, the end, or a directive;
 * any other "#" is part of it (ktap.rst forbids "#" in descriptions, but
 * "fix #123" is common, and dropping it would lose the result).
 */
static void result_line(struct ktapread *r, size_t indent, const char *s, uint64_t now)
{
	int notok = starts(s, "not ");
	const char *p = s + (notok ? 6 : 2), *hash, *dir = NULL, *data = "";
	unsigned long num = 0;
	int has_num = 0;
	char *desc, *reason, *name;
	struct klevel *cur;
	size_t child_depth = 0;
	enum ktap_verdict v;

	while (*p == ' ' || *p == '\t')
		p++;
	if (isdigit((unsigned char)*p)) {
		char *end;

		num = strtoul(p, &end, 10);
		has_num = 1;
		p = end;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (p[0] == '-' && (p[1] == ' ' || p[1] == '\0'))
		p++;
	for (hash = strchr(p, '#'); hash; hash = strchr(hash + 1, '#')) {
		const char *a = hash + 1;

		if (*a == '\0' || isspace((unsigned char)*a))
			break;
		if (directive_at(a))
			break;
	}
	desc = trimmed(p, hash ? (size_t)(hash - p) : strlen(p));
	if (hash) {
		const char *a = hash + 1;

		while (isspace((unsigned char)*a))
			a++;
		dir = directive_at(a);
		if (dir) {
			a += strlen(dir);
			while (isspace((unsigned char)*a))
				a++;
		}
		data = a;
	}

	/* the level this result belongs to; a deeper one it closes is its subtests */
	if (!r->seen) {
		r->seen = 1;
		r->lv[0].indent = indent;
	} else if (indent > r->lv[r->depth].indent) {
		level_push(r, indent);
	} else {
		while (r->depth > 1 && r->lv[r->depth - 1].indent > indent)
			close_unfinished(r, r->lv[r->depth - 1].indent, now);
		if (r->depth > 0 && r->lv[r->depth].indent > indent)
			child_depth = r->depth;
	}
	cur = &r->lv[child_depth ? child_depth - 1 : r->depth];
	cur->count++;
	if (!has_num || num != cur->count)
		cur->numbered = 0;

	if (dir && (!strcmp(dir, "SKIP") || !strcmp(dir, "TODO") ||
		    (!strcmp(dir, "XFAIL") && notok))) {
		v = KTAP_SKIP;
		reason = *data ? xasprintf("%s%s%s", strcmp(dir, "SKIP") ? dir : "",
					   strcmp(dir, "SKIP") ? ": " : "", data) : xstrdup(dir);
	} else if (notok) {
		v = KTAP_FAIL;
		reason = dir || *data ? xasprintf("not ok: %s%s%s", dir ? dir : "",
						  dir && *data ? " " : "", data) : xstrdup("not ok");
	} else {
		v = KTAP_PASS;
		reason = xstrdup("");
	}
	name = *desc ? xstrdup(desc) : xasprintf("test %lu", cur->count);
	if (child_depth) {
		int kids_failed;

		if (!r->lv[child_depth].name && *desc)
			r->lv[child_depth].name = xstrdup(desc);
		kids_failed = r->lv[child_depth].failed;
		level_pop(r, r->lv[child_depth].name ? r->lv[child_depth].name : name, now);
		/* the parent's result sums its subtests up: it only adds what they do not say */
		if (v == KTAP_FAIL && !kids_failed)
			record(r, r->depth, KTAP_FAIL, name, *data || dir ? reason :
			       "not ok, though its subtests passed", now);
		else
			free(name);
		strbuf_reset(&r->out);
	} else {
		record(r, r->depth, v, name, reason, now);
	}
	free(reason);
	free(desc);
}

static void plan_line(struct ktapread *r, size_t indent, const char *s, uint64_t now)
{
	char *end;
	long n = strtol(s + 3, &end, 10);
	struct klevel *l;

	enter(r, indent, now);
	l = &r->lv[r->depth];
	if (l->plan < 0)
		l->plan = n;
	while (isspace((unsigned char)*end))
		end++;
	/* "1..0 # SKIP why": the whole stream skipped (a subtest's parent says so itself) */
	if (n == 0 && r->depth == 0 && *end == '#') {
		end++;
		while (isspace((unsigned char)*end))
			end++;
		if (directive_at(end) && !strcmp(directive_at(end), "SKIP")) {
			end += 4;
			while (isspace((unsigned char)*end))
				end++;
			record(r, 0, KTAP_SKIP, xstrdup(""), *end ? end : "SKIP", now);
		}
	}
}

static int is_plan(const char *s)
{
	const char *p = s + 3;

	if (!starts(s, "1..") || !isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == '\0' || isspace((unsigned char)*p);
}

struct ktapread *ktapread_new(ktap_emit_fn emit, void *arg, uint64_t now_usecs)
{
	struct ktapread *r = xcalloc(1, sizeof(*r));

	r->emit = emit;
	r->arg = arg;
	r->cap = 8;
	r->lv = xcalloc(r->cap, sizeof(*r->lv));
	r->lv[0].plan = -1;
	r->lv[0].numbered = 1;
	r->last = now_usecs;
	strbuf_reset(&r->out);
	return r;
}

int ktapread_line(struct ktapread *r, const char *line, size_t len, uint64_t now)
{
	char *text;
	const char *s;
	size_t indent = 0;

	if (r->err || r->bailed)
		return r->err;
	if (len && line[len - 1] == '\r')
		len--;
	text = xstrndup(line, len);
	s = text;
	/* a tab: to the next multiple of 8, as a terminal shows it */
	for (; *s == ' ' || *s == '\t'; s++)
		indent = *s == ' ' ? indent + 1 : (indent / 8 + 1) * 8;
	if (starts(s, "KTAP version ") || starts(s, "TAP version ")) {
		enter(r, indent, now);
	} else if (starts(s, "# Subtest:")) {
		const char *n = s + 10;
		struct klevel *l = &r->lv[r->depth];

		while (isspace((unsigned char)*n))
			n++;
		/* KUnit: after the level's version line; TAP 14: before its indented lines */
		if (r->seen && indent > l->indent) {
			level_push(r, indent);
			free(r->lv[r->depth].name);	/* a pending name: this one is nearer */
			r->lv[r->depth].name = xstrdup(n);
		} else if (r->depth > 0 && indent == l->indent && !l->name && !l->count) {
			l->name = xstrdup(n);
		} else {
			free(r->subtest);
			r->subtest = xstrdup(n);
		}
	} else if (is_plan(s)) {
		plan_line(r, indent, s, now);
	} else if (starts(s, "ok") && (s[2] == '\0' || isspace((unsigned char)s[2]))) {
		result_line(r, indent, s, now);
	} else if (starts(s, "not ok") && (s[6] == '\0' || isspace((unsigned char)s[6]))) {
		result_line(r, indent, s, now);
	} else if (starts(s, "Bail out!")) {
		const char *why = s + 9;

		while (isspace((unsigned char)*why))
			why++;
		r->seen = 1;
		record(r, r->depth, KTAP_FAIL, xstrdup("bail-out"), *why ? why : "Bail out!", now);
		r->bailed = 1;
		while (r->depth > 0) {
			char *name = level_fallback_name(r);

			level_pop(r, name, now);
			free(name);
		}
	} else if (*s == '#') {
		s++;
		if (*s == ' ')
			s++;
		strbuf_adds(&r->out, s);
		strbuf_addc(&r->out, '\n');
	} else if (*s) {
		/* an unknown line (ktap.rst): output, it changes no result */
		strbuf_adds(&r->out, text);
		strbuf_addc(&r->out, '\n');
	}
	free(text);
	return r->err;
}

int ktapread_end(struct ktapread *r, uint64_t now)
{
	if (r->err)
		return r->err;
	if (!r->bailed) {
		close_unfinished(r, r->lv[0].indent, now);
		if (r->seen)
			plan_check(r, 0, now);
		else
			record(r, 0, KTAP_FAIL, xstrdup(""), "no TAP or KTAP result, plan or version line", now);
	}
	r->bailed = 1;	/* nothing more is read */
	return r->err;
}

void ktapread_free(struct ktapread *r)
{
	if (!r)
		return;
	while (r->depth > 0) {
		struct klevel *l = &r->lv[r->depth--];

		for (size_t i = 0; i < l->nrecs; i++)
			rec_free(&l->recs[i]);
		free(l->recs);
		free(l->name);
	}
	free(r->lv[0].recs);
	free(r->lv);
	free(r->subtest);
	strbuf_free(&r->out);
	free(r);
}
