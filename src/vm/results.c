// SPDX-License-Identifier: GPL-2.0
/* results.c: the per-test results model: records in, counts and report files out (see results.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "io.h"
#include "results.h"

/* a record's output field is bounded on the guest side too; this guards ./vm */
#define FIELDS_MAX 8

void rsuite_init(struct rsuite *s)
{
	memset(s, 0, sizeof(*s));
	s->exit = -1;
}

static void rtest_free(struct rtest *t)
{
	free(t->name);
	free(t->reason);
	free(t->output);
}

void rsuite_free(struct rsuite *s)
{
	for (size_t i = 0; i < s->n; i++)
		rtest_free(&s->t[i]);
	free(s->t);
	free(s->name);
	free(s->shard);
	free(s->kernel);
	free(s->timestamp);
	memset(s, 0, sizeof(*s));
}

char *rec_escape(const char *s)
{
	char *out, *p;

	if (!s || !*s)
		return xstrdup("-");
	if (!strcmp(s, "-"))
		return xstrdup("%2d");
	out = p = xmalloc(strlen(s) * 3 + 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c == '%' || c == 0x7f)
			p += sprintf(p, "%%%02x", c);
		else
			*p++ = (char)c;
	}
	*p = '\0';
	return out;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void rec_unescape(char *s)
{
	char *w = s;

	if (!strcmp(s, "-")) {
		*s = '\0';
		return;
	}
	for (char *r = s; *r; r++) {
		int hi, lo;

		if (*r == '%' && (hi = hexval(r[1])) >= 0 && (lo = hexval(r[2])) >= 0) {
			*w++ = (char)(hi * 16 + lo);
			r += 2;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

static struct rtest *rtest_add(struct rsuite *s, const char *name)
{
	struct rtest *t;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->t = xrealloc(s->t, s->cap * sizeof(*s->t));
	}
	t = &s->t[s->n++];
	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	return t;
}

/* The test an end record is about: the last one of that name still running, else a new one. */
static struct rtest *rtest_for_end(struct rsuite *s, const char *name)
{
	for (size_t i = s->n; i-- > 0;)
		if (s->t[i].state == RT_RUNNING && !strcmp(s->t[i].name, name))
			return &s->t[i];
	return rtest_add(s, name);
}

static char *nonempty(const char *s)
{
	return *s ? xstrdup(s) : NULL;
}

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = nonempty(v);
}

static int meta(struct rsuite *s, const char *key, const char *v)
{
	if (!strcmp(key, "suite"))
		set_str(&s->name, v);
	else if (!strcmp(key, "shard"))
		set_str(&s->shard, v);
	else if (!strcmp(key, "kernel"))
		set_str(&s->kernel, v);
	else if (!strcmp(key, "timestamp"))
		set_str(&s->timestamp, v);
	else if (!strcmp(key, "time"))
		s->secs = strtod(v, NULL);
	else if (!strcmp(key, "exit"))
		s->exit = atoi(v);
	/* unknown keys: a newer ./vm wrote them; not an error */
	return 0;
}

int rsuite_record(struct rsuite *s, const char *line, int host, double now)
{
	char *copy, *f[FIELDS_MAX], *save = NULL, *ev;
	struct rtest *t;
	size_t nf = 0;
	int rc = 0;

	if (strncmp(line, "R1 ", 3))
		return -EINVAL;
	copy = xstrdup(line + 3);
	for (char *w = strtok_r(copy, " \r", &save); w && nf < FIELDS_MAX; w = strtok_r(NULL, " \r", &save))
		f[nf++] = w;
	for (size_t i = 1; i < nf; i++)
		rec_unescape(f[i]);
	ev = nf ? f[0] : "";
	if (nf < 2 || !*f[1]) {
		rc = -EINVAL;
	} else if (!strcmp(ev, "start") && nf == 2) {
		t = rtest_add(s, f[1]);
		t->started = now;
	} else if (!strcmp(ev, "pass") && nf == 4) {
		t = rtest_for_end(s, f[1]);
		t->state = RT_PASS;
		t->secs = strtod(f[2], NULL);
		set_str(&t->output, f[3]);
	} else if ((!strcmp(ev, "fail") || !strcmp(ev, "skip")) && nf == 5) {
		t = rtest_for_end(s, f[1]);
		t->state = *ev == 'f' ? RT_FAIL : RT_SKIP;
		t->secs = strtod(f[2], NULL);
		set_str(&t->reason, f[3]);
		set_str(&t->output, f[4]);
	} else if (host && (!strcmp(ev, "kernel") || !strcmp(ev, "tolerated")) && nf == 4) {
		t = rtest_add(s, f[1]);
		t->kernel = 1;
		t->state = *ev == 'k' ? RT_FAIL : RT_SKIP;
		t->reason = *ev == 'k' ? xasprintf("kernel %s", f[2]) :
			xasprintf("kernel %s, tolerated (VM_SPLATS)", f[2]);
		set_str(&t->output, f[3]);
	} else if (host && !strcmp(ev, "meta") && nf == 3) {
		rc = meta(s, f[1], f[2]);
	} else {
		rc = -EINVAL;
	}
	free(copy);
	if (!rc && s->n && s->t[s->n - 1].secs < 0)
		s->t[s->n - 1].secs = 0;
	return rc;
}

void rsuite_close_running(struct rsuite *s, double now, const char *why)
{
	for (size_t i = 0; i < s->n; i++) {
		struct rtest *t = &s->t[i];

		if (t->state != RT_RUNNING)
			continue;
		t->state = RT_FAIL;
		t->secs = t->started && now > t->started ? now - t->started : 0;
		free(t->reason);
		t->reason = xasprintf("did not finish: %s", why);
	}
}

void rsuite_count(const struct rsuite *s, struct rcount *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < s->n; i++) {
		const struct rtest *t = &s->t[i];

		c->tests++;
		if (t->kernel && t->state == RT_FAIL)
			c->kernel++;
		if (t->state == RT_PASS)
			c->pass++;
		else if (t->state == RT_SKIP)
			c->skip++;
		else
			c->fail++;
	}
}

int rsuite_load(struct rsuite *s, const char *path, char **err)
{
	char *text;
	int rc = read_file(path, &text, NULL);

	if (rc) {
		*err = xasprintf("%s: %s", path, strerror(-rc));
		return rc;
	}
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		/* junk between records (a guest that wrote half a line) is skipped */
		(void)rsuite_record(s, line, 1, 0);
		line = nl ? nl + 1 : NULL;
	}
	free(text);
	rsuite_close_running(s, 0, "no result was recorded");
	return 0;
}

char *results_summary(const struct rcount *c)
{
	return xasprintf("%u tests, %u passed, %u failed, %u skipped, %u kernel splats", c->tests,
			 c->pass, c->fail, c->skip, c->kernel);
}

static int write_report(const char *dir, const char *name, const struct rsuite *v, size_t n,
			void (*fn)(FILE *, const struct rsuite *, size_t), char **err)
{
	char *buf = NULL, *path = xasprintf("%s/%s", dir, name);
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		die_errno("open_memstream");
	fn(f, v, n);
	if (fclose(f))
		die_errno("open_memstream");
	rc = write_file_atomic(path, buf, len, 0644);
	if (rc)
		*err = xasprintf("%s: %s", path, strerror(-rc));
	free(buf);
	free(path);
	return rc;
}

int results_write_reports(const char *dir, const struct rsuite *v, size_t n, char **err)
{
	int rc = write_report(dir, "junit.xml", v, n, junit_write, err);

	return rc ? rc : write_report(dir, "results.tap", v, n, ktap_write, err);
}
