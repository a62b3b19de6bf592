// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c: rapido results compare A B (./vm --compare-results, its
 * alias): the tests whose verdict changed
 * from result directory A (a baseline) to B, read from each
 * DIR/results.txt. A test's verdict is known.h's class (pass, fail,
 * error, skip, flaky when its re-runs both passed and failed; known-fail
 * and fixed once classified with known failures), or from its runs. B regressed, and the
 * exit status is 1, when a test that did not fail in A fails in B (a new
 * failure, a new test that fails too), a test of A is gone from B
 * (vanished: a lost shard, a test that stopped being run), or B's run
 * failed where A's passed. Fixes, newly flaky, newly skipped and new
 * passing tests are printed and fail nothing. A kernel report is compared
 * by its first line with the numbers taken out (PIDs, addresses, offsets
 * differ from run to run).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "err.h"
#include "known.h"
#include "rapido.h"
#include "results.h"
#include "verbs.h"

/* in the order a name's runs fold: a later, worse one wins */
enum cverdict { CV_NONE, CV_PASS, CV_FIXED, CV_SKIP, CV_KNOWN, CV_FLAKY, CV_FAIL, CV_ERROR };

static const char *const cv_names[] = {
	[CV_NONE] = "absent", [CV_PASS] = "pass", [CV_FIXED] = "fixed", [CV_SKIP] = "skip",
	[CV_KNOWN] = "known-fail", [CV_FLAKY] = "flaky", [CV_FAIL] = "fail", [CV_ERROR] = "error",
};

/* known.h's class of a test, once classified */
static enum cverdict from_class(const struct rtest *r)
{
	switch (r->cls) {
	case RC_PASS: return CV_PASS;
	case RC_FIXED: return CV_FIXED;
	case RC_SKIP: return CV_SKIP;
	case RC_KNOWN: return CV_KNOWN;
	case RC_FLAKY: return CV_FLAKY;
	case RC_ERROR: return CV_ERROR;
	case RC_FAIL: return CV_FAIL;
	default: break;
	}
	return r->state == RT_PASS ? CV_PASS : r->state == RT_SKIP ? CV_SKIP :
	       r->error ? CV_ERROR : CV_FAIL;
}

struct centry {
	char *name;
	enum cverdict v;
	const char *reason;	/* the last failure's, else NULL */
};

struct ctable {
	struct centry *e;
	size_t n;
};

static int failing(enum cverdict v)
{
	return v == CV_FAIL || v == CV_ERROR;
}

/* "kernel: WARNING: CPU: 0 PID: 12 at f.c:3 g+0x1a/0x40" -> numbers as '#' */
static char *kernel_key(const char *name)
{
	char *out = xmalloc(strlen(name) + 1), *o = out;

	for (const char *p = name; *p;) {
		if (p[0] == '0' && p[1] == 'x' && isxdigit((unsigned char)p[2])) {
			p += 2;
			while (isxdigit((unsigned char)*p))
				p++;
			*o++ = '#';
		} else if (isdigit((unsigned char)*p)) {
			while (isdigit((unsigned char)*p))
				p++;
			*o++ = '#';
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

static int centry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct centry *)a)->name, ((const struct centry *)b)->name);
}

/* One entry per test name, its runs folded into one verdict, sorted by name. */
static void table_build(struct ctable *t, const struct rsuite *s)
{
	size_t k = 0;

	t->e = xcalloc(s->n + 1, sizeof(*t->e));
	for (size_t i = 0; i < s->n; i++) {
		const struct rtest *r = &s->t[i];
		enum cverdict v = from_class(r);

		/* a tolerated or allowed kernel report fails nothing: not a verdict; an
		 * earlier run of a re-run test is counted in its last */
		if ((r->kernel && r->state != RT_FAIL) || r->hidden)
			continue;
		t->e[k].name = r->kernel ? kernel_key(r->name) : xstrdup(r->name);
		t->e[k].v = v;
		t->e[k].reason = failing(v) ? r->reason : NULL;
		k++;
	}
	qsort(t->e, k, sizeof(*t->e), centry_cmp);
	t->n = 0;
	for (size_t i = 0; i < k; i++) {
		struct centry *last = t->n ? &t->e[t->n - 1] : NULL;

		if (last && !strcmp(last->name, t->e[i].name)) {
			enum cverdict a = last->v, b = t->e[i].v;

			if (a == CV_FLAKY || b == CV_FLAKY || (a == CV_PASS && failing(b)) ||
			    (failing(a) && b == CV_PASS))
				last->v = CV_FLAKY;
			else if (b > a)
				last->v = b;
			if (!last->reason)
				last->reason = t->e[i].reason;
			free(t->e[i].name);
			continue;
		}
		t->e[t->n++] = t->e[i];
	}
}

static void table_free(struct ctable *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->e[i].name);
	free(t->e);
}

static unsigned int change(FILE *out, const char *what, const struct centry *a,
			   const struct centry *b, int regress)
{
	const struct centry *e = b ? b : a;
	char *name = text_oneline(e->name), *reason = NULL;

	if (b && b->reason)
		reason = text_oneline(b->reason);
	fprintf(out, "%s: %s: %s -> %s%s%s\n", what, name, cv_names[a ? a->v : CV_NONE],
		cv_names[b ? b->v : CV_NONE], reason ? ": " : "", reason ? reason : "");
	free(name);
	free(reason);
	return (unsigned int)regress;
}

unsigned int compare_suites(const struct rsuite *sa, const struct rsuite *sb, FILE *out)
{
	struct ctable a, b;
	unsigned int regress = 0, fixed = 0, flaky = 0, appeared = 0, vanished = 0, failed = 0;
	size_t i = 0, j = 0;

	table_build(&a, sa);
	table_build(&b, sb);
	while (i < a.n || j < b.n) {
		int c = i >= a.n ? 1 : j >= b.n ? -1 : strcmp(a.e[i].name, b.e[j].name);
		const struct centry *x = c <= 0 ? &a.e[i] : NULL, *y = c >= 0 ? &b.e[j] : NULL;

		if (!y) {
			regress += change(out, "vanished", x, NULL, 1);
			vanished++;
		} else if (!x) {
			appeared++;
			if (failing(y->v)) {
				failed++;
				regress += change(out, "new failure (new test)", NULL, y, 1);
			} else {
				change(out, "appeared", NULL, y, 0);
			}
		} else if (failing(y->v) && !failing(x->v)) {
			failed++;
			regress += change(out, "new failure", x, y, 1);
		} else if (failing(x->v) && (y->v == CV_PASS || y->v == CV_FIXED)) {
			fixed++;
			change(out, "fixed", x, y, 0);
		} else if (y->v == CV_FLAKY && x->v != CV_FLAKY) {
			flaky++;
			change(out, "newly flaky", x, y, 0);
		} else if (x->v != y->v) {
			change(out, "changed", x, y, 0);
		}
		i += c <= 0;
		j += c >= 0;
	}
	if (sa->exit == 0 && sb->exit != 0) {
		char *cause = text_oneline(sb->cause);

		fprintf(out, "run failed: exit status %d -> %d%s%s\n", sa->exit, sb->exit,
			*cause ? ": " : "", cause);
		free(cause);
		regress++;
	}
	fprintf(out, "compare: %u new failure%s, %u fixed, %u newly flaky, %u appeared, %u vanished: "
		"%s\n", failed, failed == 1 ? "" : "s", fixed, flaky, appeared, vanished,
		regress ? "regressed" : "no regression");
	table_free(&a);
	table_free(&b);
	return regress;
}

int cmd_results_compare(int argc, char **argv)
{
	const char *what = argv[0];
	struct rsuite s[2];
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
		struct known_opts none = { 0 };

		rsuite_init(&s[i]);
		if (rsuite_load(&s[i], path, &err))
			die("%s: %s", what, err);
		/* re-runs folded, flaky and errors named as ./vm does (no known failures given) */
		(void)known_classify(&s[i], &none);
		free(path);
	}
	regress = compare_suites(&s[0], &s[1], stdout);
	rsuite_free(&s[0]);
	rsuite_free(&s[1]);
	close_stdout();
	return regress ? 1 : 0;
}
