// SPDX-License-Identifier: GPL-2.0
/*
 * ceph.c: read the two things a kernel client needs (the monitors and a
 * key) from the files every Ceph tool uses, so a profile works with the
 * cluster ./ceph-local made, a vstart.sh build or /etc/ceph alike.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ceph.h"
#include "err.h"
#include "num.h"

/* One "key = value" line of an INI file as Ceph reads it. */
struct ini_line {
	char section[128];	/* the current [section], lower case */
	char key[128];		/* normalised: lower case, ' ' and '-' as '_' */
	char *val;		/* points into the line, trimmed */
	unsigned int lineno;
};

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Ceph treats "mon host", "mon_host" and "mon-host" as one option. */
static void norm_key(char *dst, size_t len, const char *src)
{
	size_t n = 0;

	for (; *src && n + 1 < len; src++) {
		char c = (char)tolower((unsigned char)*src);

		if (c == ' ' || c == '-' || c == '\t')
			c = '_';
		if (c == '_' && n && dst[n - 1] == '_')
			continue;
		dst[n++] = c;
	}
	dst[n] = '\0';
}

/*
 * Walk TEXT line by line; fn is called for each "key = value" line.
 * Comments start with '#' or ';'; a value may be "quoted". fn returns
 * non-zero to stop the walk, which then returns that value.
 */
static int ini_walk(char *text, int (*fn)(const struct ini_line *l, void *arg), void *arg)
{
	struct ini_line l = { .section = "global" };
	char *line, *next;
	int rc;

	for (line = text; line; line = next) {
		char *eq, *s;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		l.lineno++;
		line[strcspn(line, "#;")] = '\0';
		s = trim(line);
		if (!*s)
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');

			if (end) {
				*end = '\0';
				norm_key(l.section, sizeof(l.section), trim(s + 1));
			}
			continue;
		}
		eq = strchr(s, '=');
		if (!eq)
			continue;
		*eq = '\0';
		norm_key(l.key, sizeof(l.key), trim(s));
		l.val = trim(eq + 1);
		if (l.val[0] == '"' && strlen(l.val) >= 2 && l.val[strlen(l.val) - 1] == '"') {
			l.val[strlen(l.val) - 1] = '\0';
			l.val++;
		}
		rc = fn(&l, arg);
		if (rc)
			return rc;
	}
	return 0;
}

struct mon_scan {
	const char *file;
	struct ceph_mons global, client, mon_addr;
	char **err;
};

static void push_unique(struct strv *sv, const char *s)
{
	if (!strv_contains(sv, s))
		strv_push(sv, s);
}

/* One address: [v1:|v2:|any:]IPV4[:PORT][/NONCE] */
static int add_addr(struct ceph_mons *m, const char *a, const struct mon_scan *ms, unsigned int lineno)
{
	char ip[64], *colon;
	int type = 0;		/* 1, 2, or 0 for untyped */
	unsigned int port = 0;
	struct in_addr in;
	size_t n;

	if (!strncmp(a, "v1:", 3) || !strncmp(a, "v2:", 3)) {
		type = a[1] - '0';
		a += 3;
	} else if (!strncmp(a, "any:", 4)) {
		a += 4;
	}
	n = strcspn(a, "/");
	if (n >= sizeof(ip))
		goto bad;
	memcpy(ip, a, n);
	ip[n] = '\0';
	colon = strchr(ip, ':');
	if (colon) {
		*colon = '\0';
		if (num_parse_uint(colon + 1, 1, 65535, &port, NULL))
			goto bad;
	}
	if (inet_pton(AF_INET, ip, &in) != 1)
		goto bad;
	if (!type && port)
		type = port == 3300 ? 2 : 1;
	if (type != 2)
		strv_pushf(&m->v1, "%s:%u", ip, port ? port : 6789);
	if (type != 1)
		strv_pushf(&m->v2, "%s:%u", ip, port ? port : 3300);
	/* the same monitor named twice is one monitor */
	for (int v = 0; v < 2; v++) {
		struct strv *sv = v ? &m->v2 : &m->v1, u = STRV_INIT;

		for (size_t i = 0; i < sv->n; i++)
			push_unique(&u, sv->v[i]);
		strv_free(sv);
		*sv = u;
	}
	return 0;
bad:
	return err_at(ms->err, ms->file, lineno,
		      "'%s' is not a monitor address: expected IP, IP:PORT, v1:IP:PORT or "
		      "[v2:IP:PORT,v1:IP:PORT] with an IPv4 address (a guest cannot resolve names)",
		      a);
}

/* A whole "mon host" value: addresses and [addrvecs], separated by ',' or blanks. */
static int add_mon_host(struct ceph_mons *m, const char *val, const struct mon_scan *ms,
			unsigned int lineno)
{
	char *copy = xstrdup(val), *p = copy;
	int rc = 0;

	while (*p && !rc) {
		char *tok, *end;

		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (*p == '[') {
			char *close = strchr(p, ']');
			char *save = NULL;

			if (!close) {
				rc = err_at(ms->err, ms->file, lineno, "'%s': '[' without ']'", p);
				break;
			}
			*close = '\0';
			for (tok = strtok_r(p + 1, ", \t", &save); tok && !rc;
			     tok = strtok_r(NULL, ", \t", &save))
				rc = add_addr(m, tok, ms, lineno);
			p = close + 1;
			continue;
		}
		end = p + strcspn(p, ", \t");
		if (*end)
			*end++ = '\0';
		rc = add_addr(m, p, ms, lineno);
		p = end;
	}
	free(copy);
	return rc;
}

static int mon_line(const struct ini_line *l, void *arg)
{
	struct mon_scan *ms = arg;
	struct ceph_mons *m = NULL;

	if (!strcmp(l->key, "mon_host")) {
		if (!strcmp(l->section, "global"))
			m = &ms->global;
		else if (!strcmp(l->section, "client"))
			m = &ms->client;
		else
			return 0;
		/* a later line replaces an earlier one, as in Ceph */
		strv_free(&m->v1);
		strv_free(&m->v2);
	} else if (!strcmp(l->key, "mon_addr") && !strncmp(l->section, "mon.", 4)) {
		m = &ms->mon_addr;
	} else {
		return 0;
	}
	return add_mon_host(m, l->val, ms, l->lineno) ? -1 : 0;
}

void ceph_mons_free(struct ceph_mons *m)
{
	strv_free(&m->v1);
	strv_free(&m->v2);
}

int ceph_conf_mons(const char *file, const char *text, struct ceph_mons *m, char **err)
{
	struct mon_scan ms = { .file = file, .err = err };
	char *copy = xstrdup(text);
	struct ceph_mons *pick;
	int rc;

	*err = NULL;
	memset(m, 0, sizeof(*m));
	rc = ini_walk(copy, mon_line, &ms);
	free(copy);
	if (!rc) {
		/* [client] is more specific than [global]; [mon.ID] is the old way */
		pick = ms.client.v1.n || ms.client.v2.n ? &ms.client :
		       ms.global.v1.n || ms.global.v2.n ? &ms.global : &ms.mon_addr;
		*m = *pick;
		memset(pick, 0, sizeof(*pick));
		if (!m->v1.n && !m->v2.n) {
			*err = xasprintf("%s: no monitor address: expected 'mon host = IP:PORT' "
					 "in [global]", file);
			rc = -EINVAL;
		}
	} else {
		rc = -EINVAL;
	}
	ceph_mons_free(&ms.global);
	ceph_mons_free(&ms.client);
	ceph_mons_free(&ms.mon_addr);
	return rc;
}

char *ceph_mons_kernel(const struct ceph_mons *m, int *msgr2)
{
	const struct strv *sv = m->v1.n ? &m->v1 : &m->v2;
	size_t len = 1;
	char *out;

	*msgr2 = !m->v1.n;
	for (size_t i = 0; i < sv->n; i++)
		len += strlen(sv->v[i]) + 1;
	out = xmalloc(len);
	out[0] = '\0';
	for (size_t i = 0; i < sv->n; i++) {
		if (i)
			strcat(out, ",");
		strcat(out, sv->v[i]);
	}
	return out;
}

struct key_scan {
	char entity[128];
	const char *file;
	unsigned int lineno;
	char *key;
};

static int key_line(const struct ini_line *l, void *arg)
{
	struct key_scan *ks = arg;

	if (strcmp(l->section, ks->entity) || strcmp(l->key, "key"))
		return 0;
	free(ks->key);
	ks->key = xstrdup(l->val);
	ks->lineno = l->lineno;
	return 0;
}

int ceph_keyring_key(const char *file, const char *text, const char *entity, char **key,
		     char **err)
{
	struct key_scan ks = { .file = file };
	char *copy = xstrdup(text);
	size_t n;

	*key = *err = NULL;
	norm_key(ks.entity, sizeof(ks.entity), entity);
	ini_walk(copy, key_line, &ks);
	free(copy);
	if (!ks.key) {
		*err = xasprintf("%s: no key for %s (expected a [%s] section with 'key = ...')",
				 file, entity, entity);
		return -ENOENT;
	}
	n = strlen(ks.key);
	if (n < 4 || strspn(ks.key, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789+/=") != n) {
		free(ks.key);
		return err_at(err, file, ks.lineno, "the key of %s is not base64", entity);
	}
	*key = ks.key;
	return 0;
}

int ceph_name_valid(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 128 || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") == n;
}
