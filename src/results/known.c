// SPDX-License-Identifier: GPL-2.0
/* known.c: known-failure files: parsing and matching (see known.h). */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "err.h"
#include "hash.h"
#include "io.h"
#include "known.h"

/* More than any list of tests holds; a bigger file is no known-failure list. */
#define KNOWN_FILE_MAX (16u << 20)

void known_set_init(struct known_set *ks)
{
	memset(ks, 0, sizeof(*ks));
}

static void entry_free(struct known_entry *e)
{
	free(e->test);
	free(e->kernel);
	free(e->reason);
}

void known_set_free(struct known_set *ks)
{
	for (size_t i = 0; i < ks->n; i++)
		entry_free(&ks->v[i]);
	free(ks->v);
	for (size_t i = 0; i < ks->n_files; i++)
		free(ks->files[i]);
	free(ks->files);
	free(ks->sha256);
	memset(ks, 0, sizeof(*ks));
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's days_from_civil). */
static long days_from_civil(long y, unsigned int m, unsigned int d)
{
	long era;
	unsigned int yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned int)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long)doe - 719468;
}

int known_date_parse(const char *s, size_t len)
{
	static const unsigned char mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	unsigned int y, m, d;
	int leap;

	if (len != 10 || s[4] != '-' || s[7] != '-')
		return -1;
	for (size_t i = 0; i < 10; i++)
		if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
			return -1;
	y = (unsigned int)atoi(s);
	m = (unsigned int)atoi(s + 5);
	d = (unsigned int)atoi(s + 8);
	leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (y < 1970 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1] || (m == 2 && d == 29 && !leap))
		return -1;
	return (int)days_from_civil(y, m, d);
}

void known_date_str(int days, char *buf, size_t len)
{
	time_t t = (time_t)days * 86400;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d", &tm);
}

int known_today(void)
{
	return (int)(time(NULL) / 86400);
}

/*
 * A version bound: up to 4 numbers joined by '.', e.g. 6.1 or 5.10.3
 * (n = 0 for an empty, open end). 0, or -1 for anything else.
 */
static int version_parse(const char *s, size_t len, unsigned int *v, unsigned int *n)
{
	size_t i = 0;

	*n = 0;
	while (i < len) {
		unsigned long x = 0;
		size_t start = i;

		if (*n == 4)
			return -1;
		while (i < len && isdigit((unsigned char)s[i]) && i - start < 6)
			x = x * 10 + (unsigned long)(s[i++] - '0');
		if (i == start || (i < len && s[i] != '.'))
			return -1;
		v[(*n)++] = (unsigned int)x;
		if (i < len && ++i == len)
			return -1;	/* a trailing '.' */
	}
	return 0;
}

/* The leading numbers of a release ("6.1.0-13-amd64": 6 1 0); how many. */
static unsigned int release_version(const char *rel, unsigned int *v)
{
	unsigned int n = 0;

	while (n < 4 && isdigit((unsigned char)*rel)) {
		unsigned long x = 0;

		for (int k = 0; isdigit((unsigned char)*rel); rel++)
			if (k++ < 6)
				x = x * 10 + (unsigned long)(*rel - '0');
		v[n++] = (unsigned int)x;
		if (*rel != '.')
			break;
		rel++;
	}
	return n;
}

/* rel against bound b (its n numbers only, so 6.1 is every 6.1.x): <0, 0, >0 */
static int version_cmp(const unsigned int *rel, unsigned int rn, const unsigned int *b, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		unsigned int r = i < rn ? rel[i] : 0;

		if (r != b[i])
			return r < b[i] ? -1 : 1;
	}
	return 0;
}

static int kernel_field(struct known_entry *e, const char *w, size_t len, const char *name,
			unsigned int line, char **err)
{
	const char *dots = NULL;

	for (size_t i = 0; i + 1 < len; i++)
		if (w[i] == '.' && w[i + 1] == '.') {
			dots = w + i;
			break;
		}
	if (e->range || e->kernel)
		return err_at(err, name, line, "'%.*s': a second kernel (one release glob or "
			      "MIN..MAX range an entry)", (int)len, w);
	if (!dots) {
		e->kernel = xstrndup(w, len);
		return 0;
	}
	if (version_parse(w, (size_t)(dots - w), e->min, &e->min_n) ||
	    version_parse(dots + 2, len - (size_t)(dots - w) - 2, e->max, &e->max_n) ||
	    (!e->min_n && !e->max_n))
		return err_at(err, name, line, "'%.*s': expected a kernel version range MIN..MAX "
			      "such as 5.10..6.1 (either end may be left out)", (int)len, w);
	if (e->min_n && e->max_n) {
		unsigned int n = e->min_n < e->max_n ? e->min_n : e->max_n;

		if (version_cmp(e->min, e->min_n, e->max, n) > 0)
			return err_at(err, name, line, "'%.*s': the range ends before it starts",
				      (int)len, w);
	}
	e->range = 1;
	return 0;
}

/* One line (without its newline) into e; 1 if it is an entry, 0 if none, -EINVAL. */
static int line_parse(struct known_entry *e, char *l, const char *name, unsigned int line,
		      char **err)
{
	char *hash = strchr(l, '#'), *p = l;
	int n = 0;

	memset(e, 0, sizeof(*e));
	e->until = -1;
	if (hash) {
		char *r = hash + 1;
		size_t rl;

		*hash = '\0';
		while (*r == ' ' || *r == '\t')
			r++;
		rl = strlen(r);
		while (rl && isspace((unsigned char)r[rl - 1]))
			rl--;
		if (rl)
			e->reason = xstrndup(r, rl);
	}
	for (;;) {
		size_t len;

		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p)
			break;
		len = strcspn(p, " \t\r");
		for (size_t i = 0; i < len; i++)
			if ((unsigned char)p[i] < ' ' || p[i] == 0x7f) {
				entry_free(e);
				return err_at(err, name, line, "a control character in the entry");
			}
		if (!n) {
			e->test = xstrndup(p, len);
		} else if (len >= 6 && !strncmp(p, "until=", 6)) {
			if (e->until >= 0 || (e->until = known_date_parse(p + 6, len - 6)) < 0) {
				entry_free(e);
				return err_at(err, name, line, "'%.*s': expected until=YYYY-MM-DD, a "
					      "real date, once", (int)len, p);
			}
		} else if (memchr(p, '=', len)) {
			entry_free(e);
			return err_at(err, name, line, "'%.*s': unknown key (there is until=)",
				      (int)len, p);
		} else if (kernel_field(e, p, len, name, line, err)) {
			entry_free(e);
			return -EINVAL;
		}
		n++;
		p += len;
	}
	if (!n) {
		entry_free(e);
		return 0;
	}
	e->file = (char *)name;
	e->line = line;
	return 1;
}

int known_parse(struct known_set *ks, const char *name, const char *text, char **err)
{
	size_t n0 = ks->n;
	unsigned int line = 0;
	char *file = xstrdup(name);
	struct sha256 h;

	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		char *l = xstrndup(p, len);
		struct known_entry e;
		int rc;

		line++;
		if (memchr(p, '\0', len) || strlen(l) != len) {
			free(l);
			goto bad;
		}
		rc = line_parse(&e, l, file, line, err);
		free(l);
		if (rc < 0)
			goto undo;
		if (rc) {
			if (ks->n == ks->cap) {
				ks->cap = ks->cap ? 2 * ks->cap : 16;
				ks->v = xrealloc(ks->v, ks->cap * sizeof(*ks->v));
			}
			ks->v[ks->n++] = e;
		}
		p += len;
		if (*p)
			p++;
	}
	ks->files = xrealloc(ks->files, (ks->n_files + 1) * sizeof(*ks->files));
	ks->sha256 = xrealloc(ks->sha256, (ks->n_files + 1) * sizeof(*ks->sha256));
	/* the bytes parsed are the file's (known_load refuses a NUL), hashed once */
	sha256_init(&h);
	sha256_update(&h, text, strlen(text));
	sha256_hex(&h, ks->sha256[ks->n_files]);
	ks->files[ks->n_files++] = file;
	return 0;
bad:
	err_at(err, file, line, "a NUL byte: not a text file");
undo:
	while (ks->n > n0)
		entry_free(&ks->v[--ks->n]);
	free(file);
	return -EINVAL;
}

int known_load(struct known_set *ks, const char *path, char **err)
{
	char *text;
	size_t len;
	struct stat st;
	int rc = read_regular_file(path, 0, KNOWN_FILE_MAX, &text, &len, &st);

	if (rc == -ENOTREG)
		*err = xasprintf("%s: %s", path, file_strerror(rc, &st));
	else if (rc == -EFBIG)
		*err = xasprintf("%s: larger than %u MiB: no list of known failures", path,
				 KNOWN_FILE_MAX >> 20);
	else if (rc)
		*err = xasprintf("%s: %s", path, strerror(-rc));
	if (rc)
		return rc;
	if (strlen(text) != len) {
		unsigned int line = 1;

		for (const char *p = text; *p; p++)
			line += *p == '\n';
		free(text);
		return err_at(err, path, line, "a NUL byte: not a text file");
	}
	rc = known_parse(ks, path, text, err);
	free(text);
	return rc;
}

static int name_matches(const char *glob, const char *name)
{
	const char *colon = strchr(name, ':');

	return !fnmatch(glob, name, 0) || (colon && !fnmatch(glob, colon + 1, 0));
}

int known_entry_matches(const struct known_entry *e, const char *name, const char *release)
{
	unsigned int v[4], n;

	if (!name_matches(e->test, name))
		return 0;
	if (!e->kernel && !e->range)
		return 1;
	if (!release)
		return 0;
	if (e->kernel)
		return !fnmatch(e->kernel, release, 0);
	n = release_version(release, v);
	if (!n)
		return 0;
	return (!e->min_n || version_cmp(v, n, e->min, e->min_n) >= 0) &&
	       (!e->max_n || version_cmp(v, n, e->max, e->max_n) <= 0);
}

const struct known_entry *known_find(const struct known_set *ks, const char *name,
				     const char *release)
{
	for (size_t i = 0; i < ks->n; i++)
		if (known_entry_matches(&ks->v[i], name, release))
			return &ks->v[i];
	return NULL;
}

char *known_where(const struct known_entry *e)
{
	return xasprintf("%s:%u", e->file, e->line);
}
