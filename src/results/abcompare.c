// SPDX-License-Identifier: GPL-2.0
/* abcompare.c: two runs compared test by test (see abcompare.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "abcompare.h"
#include "err.h"
#include "known.h"

/* in the order a name's runs fold: a later, worse one wins */
static int rank(enum outcome v)
{
	static const int r[OUTCOME_N] = {
		[OUTCOME_NONE] = 0, [OUTCOME_PASS] = 1, [OUTCOME_FIXED] = 2, [OUTCOME_SKIP] = 3,
		[OUTCOME_KNOWN] = 4, [OUTCOME_FLAKY] = 5, [OUTCOME_FAIL] = 6, [OUTCOME_ERROR] = 7,
	};

	return r[v];
}

/* known.h's class of a test once classified, else its state */
static enum outcome outcome_of(const struct rtest *r)
{
	if (r->cls != OUTCOME_NONE)
		return r->cls;
	return r->state == RT_PASS ? OUTCOME_PASS : r->state == RT_SKIP ? OUTCOME_SKIP :
	       r->error ? OUTCOME_ERROR : OUTCOME_FAIL;
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

static int abentry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct abentry *)a)->name, ((const struct abentry *)b)->name);
}

void abrun_of_suite(struct abrun *t, const struct rsuite *s)
{
	size_t k = 0;

	t->e = xcalloc(s->n + 1, sizeof(*t->e));
	t->exit = s->exit;
	t->cause = s->cause ? xstrdup(s->cause) : NULL;
	for (size_t i = 0; i < s->n; i++) {
		const struct rtest *r = &s->t[i];
		enum outcome v = outcome_of(r);

		/* a tolerated or allowed kernel report fails nothing: not a verdict; an
		 * earlier run of a re-run test is counted in its last */
		if ((r->kernel && r->state != RT_FAIL) || r->hidden)
			continue;
		t->e[k].name = r->kernel ? kernel_key(r->name) : xstrdup(r->name);
		t->e[k].v = v;
		t->e[k].reason = outcome_failing(v) && r->reason ? xstrdup(r->reason) : NULL;
		k++;
	}
	qsort(t->e, k, sizeof(*t->e), abentry_cmp);
	t->n = 0;
	for (size_t i = 0; i < k; i++) {
		struct abentry *last = t->n ? &t->e[t->n - 1] : NULL;

		if (last && !strcmp(last->name, t->e[i].name)) {
			enum outcome a = last->v, b = t->e[i].v;

			if (a == OUTCOME_FLAKY || b == OUTCOME_FLAKY ||
			    (a == OUTCOME_PASS && outcome_failing(b)) ||
			    (outcome_failing(a) && b == OUTCOME_PASS))
				last->v = OUTCOME_FLAKY;
			else if (rank(b) > rank(a))
				last->v = b;
			if (!last->reason) {
				last->reason = t->e[i].reason;
				t->e[i].reason = NULL;
			}
			free(t->e[i].name);
			free(t->e[i].reason);
			continue;
		}
		t->e[t->n++] = t->e[i];
	}
}

int abrun_load(struct abrun *r, const char *path, char **err)
{
	struct known_opts none = { 0 };
	struct rsuite s;
	int rc;

	memset(r, 0, sizeof(*r));
	rsuite_init(&s);
	rc = rsuite_load(&s, path, err);
	if (rc) {
		rsuite_free(&s);
		return rc < 0 ? rc : -EINVAL;
	}
	/* re-runs folded, flaky and errors named as ./vm does (no known failures given) */
	(void)known_classify(&s, &none);
	abrun_of_suite(r, &s);
	rsuite_free(&s);
	return 0;
}

void abrun_free(struct abrun *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->e[i].name);
		free(r->e[i].reason);
	}
	free(r->e);
	free(r->cause);
	memset(r, 0, sizeof(*r));
}

static const struct abentry *abrun_find(const struct abrun *r, const char *name)
{
	struct abentry key = { .name = (char *)name };

	return r->n ? bsearch(&key, r->e, r->n, sizeof(*r->e), abentry_cmp) : NULL;
}

/* NAME's outcome in r, OUTCOME_NONE ("absent") when r has no such test */
static enum outcome abrun_get(const struct abrun *r, const char *name)
{
	const struct abentry *e = abrun_find(r, name);

	return e ? e->v : OUTCOME_NONE;
}

const char *ab_kind_name(enum abkind k)
{
	static const char *const names[] = {
		[AB_VANISHED] = "vanished", [AB_NEW_TEST_FAILS] = "new failure (new test)",
		[AB_APPEARED] = "appeared", [AB_NEW_FAILURE] = "new failure", [AB_FIXED] = "fixed",
		[AB_NEWLY_FLAKY] = "newly flaky", [AB_CHANGED] = "changed",
	};

	return names[k];
}

/* What changed for one test (x or y NULL: absent there); -1 for nothing. */
static int kind_of(const struct abentry *x, const struct abentry *y)
{
	if (!y)
		return AB_VANISHED;
	if (!x)
		return outcome_failing(y->v) ? AB_NEW_TEST_FAILS : AB_APPEARED;
	if (outcome_failing(y->v) && !outcome_failing(x->v))
		return AB_NEW_FAILURE;
	if (outcome_failing(x->v) && (y->v == OUTCOME_PASS || y->v == OUTCOME_FIXED))
		return AB_FIXED;
	if (y->v == OUTCOME_FLAKY && x->v != OUTCOME_FLAKY)
		return AB_NEWLY_FLAKY;
	return x->v != y->v ? AB_CHANGED : -1;
}

size_t ab_changes(const struct abrun *a, const struct abrun *b, struct abchange **out)
{
	size_t i = 0, j = 0, n = 0;

	*out = xcalloc(a->n + b->n + 1, sizeof(**out));
	while (i < a->n || j < b->n) {
		int c = i >= a->n ? 1 : j >= b->n ? -1 : strcmp(a->e[i].name, b->e[j].name);
		const struct abentry *x = c <= 0 ? &a->e[i] : NULL, *y = c >= 0 ? &b->e[j] : NULL;
		int k = kind_of(x, y);

		if (k >= 0) {
			(*out)[n].kind = (enum abkind)k;
			(*out)[n].a = x;
			(*out)[n].b = y;
			(*out)[n].regress = k == AB_VANISHED || k == AB_NEW_TEST_FAILS ||
					    k == AB_NEW_FAILURE;
			n++;
		}
		i += c <= 0;
		j += c >= 0;
	}
	return n;
}

unsigned int ab_compare(const struct abrun *a, const struct abrun *b, FILE *out)
{
	unsigned int regress = 0, count[AB_CHANGED + 1] = { 0 };
	struct abchange *ch;
	size_t n = ab_changes(a, b, &ch);

	for (size_t i = 0; i < n; i++) {
		const struct abentry *e = ch[i].b ? ch[i].b : ch[i].a;
		char *name = text_oneline(e->name), *reason = NULL;

		if (ch[i].b && ch[i].b->reason)
			reason = text_oneline(ch[i].b->reason);
		fprintf(out, "%s: %s: %s -> %s%s%s\n", ab_kind_name(ch[i].kind), name,
			outcome_name(ch[i].a ? ch[i].a->v : OUTCOME_NONE),
			outcome_name(ch[i].b ? ch[i].b->v : OUTCOME_NONE), reason ? ": " : "",
			reason ? reason : "");
		free(name);
		free(reason);
		count[ch[i].kind]++;
		regress += (unsigned int)ch[i].regress;
	}
	free(ch);
	if (a->exit == 0 && b->exit != 0) {
		char *cause = text_oneline(b->cause);

		fprintf(out, "run failed: exit status %d -> %d%s%s\n", a->exit, b->exit,
			*cause ? ": " : "", cause);
		free(cause);
		regress++;
	}
	count[AB_NEW_FAILURE] += count[AB_NEW_TEST_FAILS];
	fprintf(out, "compare: %u new failure%s, %u fixed, %u newly flaky, %u appeared, %u vanished: "
		"%s\n", count[AB_NEW_FAILURE], count[AB_NEW_FAILURE] == 1 ? "" : "s",
		count[AB_FIXED], count[AB_NEWLY_FLAKY], count[AB_APPEARED] + count[AB_NEW_TEST_FAILS],
		count[AB_VANISHED], regress ? "regressed" : "no regression");
	return regress;
}

const char *abrun_word(const struct abrun *r, const char *name, char *buf, size_t len)
{
	if (!strcmp(name, AB_EXIT) && !r->n) {
		snprintf(buf, len, "exit %d", r->exit);
		return buf;
	}
	return outcome_name(abrun_get(r, name));
}

void ab_differs(const struct abrun *a, const struct abrun *b, struct strv *out)
{
	struct abchange *ch;
	size_t n = ab_changes(a, b, &ch);
	char wa[32], wb[32];

	for (size_t i = 0; i < n; i++)
		strv_push(out, (ch[i].b ? ch[i].b : ch[i].a)->name);
	free(ch);
	if (strcmp(abrun_word(a, AB_EXIT, wa, sizeof(wa)), abrun_word(b, AB_EXIT, wb, sizeof(wb))) &&
	    !strv_contains(out, AB_EXIT))
		strv_push(out, AB_EXIT);
	strv_sort(out);
}

/* the one state NAME had in every run (into buf), or NULL */
static const char *steady(const char *name, const struct abrun *rs, size_t n, char *buf, size_t len)
{
	char other[32];

	if (!n)
		return NULL;
	snprintf(buf, len, "%s", abrun_word(&rs[0], name, other, sizeof(other)));
	for (size_t i = 1; i < n; i++)
		if (strcmp(abrun_word(&rs[i], name, other, sizeof(other)), buf))
			return NULL;
	return buf;
}

int ab_holds(const char *name, const struct abrun *as, size_t na, const struct abrun *bs,
	     size_t nb, char *sa, char *sb, size_t len, char **why)
{
	int a_ok = steady(name, as, na, sa, len) != NULL, b_ok = steady(name, bs, nb, sb, len) != NULL;

	*why = NULL;
	if (!a_ok || !b_ok) {
		*why = xasprintf("%s varied over %zu runs of %s", name, !a_ok ? na : nb,
				 !a_ok ? "A" : "B");
		return 0;
	}
	if (!strcmp(sa, sb)) {
		*why = xasprintf("%s: %s on both over the re-runs", name, sa);
		return 0;
	}
	return 1;
}
