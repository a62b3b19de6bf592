// SPDX-License-Identifier: GPL-2.0
/*
 * knownwrite.c: --write-known-failures FILE (known.h): FILE refreshed from
 * a classified run. Its lines stay as they are (comments, other formats'
 * lines, entries still failing); an entry whose tests all passed now is
 * commented out as fixed; each test that failed and that no entry of FILE
 * names gets a line of its own. A FILE that does not parse is not touched.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "err.h"
#include "io.h"
#include "known.h"

/* A test a known-failure list is about: a guest test, not a kernel report or ./vm's own. */
static int listable(const struct rtest *t)
{
	return !t->hidden && !t->kernel && strncmp(t->name, "rapido:", 7);
}

/* It failed in this run (its every run, or the entry excused it). */
static int failed(const struct rtest *t)
{
	return t->cls == OUTCOME_FAIL || (t->cls == OUTCOME_KNOWN && t->fails == t->runs) ||
	       (t->cls == OUTCOME_NONE && t->state == RT_FAIL);
}

static int passed(const struct rtest *t)
{
	return t->cls == OUTCOME_PASS || t->cls == OUTCOME_FIXED ||
	       (t->cls == OUTCOME_NONE && t->state == RT_PASS);
}

/* Entry e: 1 if a test it names passed and none failed. */
static int entry_fixed(const struct known_entry *e, const struct rsuite *v, size_t n)
{
	unsigned int pass = 0, fail = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < v[i].n; j++) {
			const struct rtest *t = &v[i].t[j];

			if (!listable(t) || !known_entry_matches(e, t->name, v[i].kernel))
				continue;
			pass += passed(t);
			fail += !passed(t) && t->state != RT_SKIP;
			fail += t->cls == OUTCOME_KNOWN || t->cls == OUTCOME_FLAKY;
		}
	return pass && !fail;
}

/* The first line of s without control characters or '#' (it would start the reason). */
static char *one_line(const char *s, size_t max)
{
	size_t len = strcspn(s ? s : "", "\n");
	char *o = xstrndup(s ? s : "", len < max ? len : max);

	for (char *p = o; *p; p++)
		if ((unsigned char)*p < ' ' || *p == 0x7f)
			*p = ' ';
	return o;
}

int known_write(const char *path, const struct rsuite *v, size_t n, int today, char **err)
{
	struct known_set ks;
	char *text = NULL, *out = NULL, date[16];
	size_t len = 0;
	unsigned int line = 0;
	FILE *f;
	int rc = read_file(path, &text, NULL);

	if (rc && rc != -ENOENT) {
		*err = xasprintf("%s: %s", path, err_str(rc));
		return rc;
	}
	known_set_init(&ks);
	if (text && known_parse(&ks, path, text, err)) {
		free(text);
		return -EINVAL;
	}
	known_date_str(today, date, sizeof(date));
	f = open_memstream(&out, &len);
	if (!f)
		die_errno("open_memstream");
	for (const char *p = text ? text : ""; *p;) {
		size_t l = strcspn(p, "\n"), k = 0;

		line++;
		while (k < ks.n && ks.v[k].line != line)
			k++;
		if (k < ks.n && entry_fixed(&ks.v[k], v, n))
			fprintf(f, "# fixed: passed on %s (%s): %.*s\n",
				v[0].kernel ? v[0].kernel : "an unknown kernel", date, (int)l, p);
		else
			fprintf(f, "%.*s\n", (int)l, p);
		p += l;
		if (*p)
			p++;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < v[i].n; j++) {
			const struct rtest *t = &v[i].t[j];
			char *name, *why;

			if (!listable(t) || !failed(t) || known_find(&ks, t->name, v[i].kernel))
				continue;
			/* a name with a blank or '#' cannot be one entry's first word */
			if (strpbrk(t->name, " \t#\n\r"))
				continue;
			name = one_line(t->name, 4096);
			why = one_line(t->cls == OUTCOME_KNOWN ? t->known : t->reason, 160);
			for (char *q = why; *q; q++)
				if (*q == '#')
					*q = ' ';
			fprintf(f, "%s # failed on %s (%s): %s\n", name,
				v[i].kernel ? v[i].kernel : "an unknown kernel", date,
				*why ? why : "failed");
			free(name);
			free(why);
			/* named once, if several suites failed it */
			known_parse(&ks, path, t->name, err) ? free(*err) : (void)0;
		}
	if (fclose(f))
		die_errno("open_memstream");
	rc = write_file_atomic(path, out, len, 0644);
	if (rc)
		*err = xasprintf("%s: %s", path, strerror(-rc));
	free(out);
	free(text);
	known_set_free(&ks);
	return rc;
}
