// SPDX-License-Identifier: GPL-2.0
/*
 * conf.c: rapido.conf parser. The file looks like shell but is never given
 * to one: values are parsed here, so "$(rm -rf ~)" is a syntax error rather
 * than a command, and a value with spaces or semicolons stays one string.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "err.h"
#include "io.h"

struct buf {
	char *s;
	size_t n, cap;
};

static void buf_putc(struct buf *b, char c)
{
	if (b->n + 2 > b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->s = xrealloc(b->s, b->cap);
	}
	b->s[b->n++] = c;
	b->s[b->n] = '\0';
}

static void buf_puts(struct buf *b, const char *s)
{
	while (*s)
		buf_putc(b, *s++);
}

int conf_key_valid(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (s++; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_'))
			return 0;
	return 1;
}

static struct conf_entry *conf_find(const struct conf *c, const char *key)
{
	for (size_t i = c->n; i > 0; i--)
		if (!strcmp(c->e[i - 1].key, key))
			return &c->e[i - 1];
	return NULL;
}

static void conf_set_line(struct conf *c, const char *key, const char *val, int line)
{
	struct conf_entry *e = conf_find(c, key);

	if (e) {
		free(e->val);
		e->val = xstrdup(val);
		e->line = line;
		return;
	}
	c->e = xrealloc(c->e, (c->n + 1) * sizeof(*c->e));
	c->e[c->n].key = xstrdup(key);
	c->e[c->n].val = xstrdup(val);
	c->e[c->n].line = line;
	c->n++;
}

void conf_set(struct conf *c, const char *key, const char *val)
{
	conf_set_line(c, key, val, 0);
}

const char *conf_get(const struct conf *c, const char *key)
{
	struct conf_entry *e;

	if (c->env_override) {
		const char *v = getenv(key);

		if (v)
			return v;
	}
	e = conf_find(c, key);
	return e ? e->val : NULL;
}

int conf_line(const struct conf *c, const char *key)
{
	struct conf_entry *e;

	if (c->env_override && getenv(key))
		return 0;
	e = conf_find(c, key);
	return e ? e->line : 0;
}

void conf_free(struct conf *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->e[i].key);
		free(c->e[i].val);
	}
	free(c->e);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

struct parser {
	struct conf *c;
	const char *file;
	int line;
	char **err;
};

/* Report at the current line: "FILE:LINE: message" */
#define perr(p, ...) err_at((p)->err, (p)->file, (unsigned int)(p)->line, __VA_ARGS__)

/* At *s == '$': expand ${KEY} into out, advance *s past it. */
static int expand_var(struct parser *p, const char **s, struct buf *out)
{
	const char *q = *s + 1, *end;
	const char *val;
	char *name;

	if (*q == '(')
		return perr(p, "command substitution '$(' is not allowed");
	if (*q == '{') {
		end = strchr(q, '}');
		if (!end)
			return perr(p, "unterminated '${'");
		name = xstrndup(q + 1, (size_t)(end - q - 1));
		if (!conf_key_valid(name)) {
			int rc = perr(p, "unsupported expansion '${%s}': only ${KEY} is allowed", name);

			free(name);
			return rc;
		}
		{
			struct conf_entry *e = conf_find(p->c, name);

			val = e ? e->val : getenv(name);
		}
		if (!val) {
			int rc = perr(p, "'${%s}' is not set on an earlier line nor in the environment", name);

			free(name);
			return rc;
		}
		free(name);
		buf_puts(out, val);
		*s = end + 1;
		return 0;
	}
	if (isalpha((unsigned char)*q) || *q == '_')
		return perr(p, "unbraced variable '$%c...': write ${NAME}", *q);
	if (*q == '$' || *q == '!' || *q == '?' || *q == '#' || *q == '@' || *q == '*' ||
	    isdigit((unsigned char)*q) || *q == '-')
		return perr(p, "special parameter '$%c' is not allowed", *q);
	/* a lone '$' before a space, quote or end is literal, as in the shell */
	buf_putc(out, '$');
	*s = q;
	return 0;
}

static int parse_value(struct parser *p, const char *s, struct buf *out)
{
	while (*s && !isspace((unsigned char)*s)) {
		char ch = *s;

		if (ch == '\'') {
			const char *end = strchr(s + 1, '\'');

			if (!end)
				return perr(p, "unterminated single quote");
			for (s++; s < end; s++)
				buf_putc(out, *s);
			s++;
		} else if (ch == '"') {
			s++;
			for (;;) {
				if (!*s)
					return perr(p, "unterminated double quote");
				if (*s == '"') {
					s++;
					break;
				}
				if (*s == '`')
					return perr(p, "command substitution '`' is not allowed");
				if (*s == '$') {
					int rc = expand_var(p, &s, out);

					if (rc)
						return rc;
					continue;
				}
				if (*s == '\\' && s[1] && strchr("$`\"\\", s[1])) {
					buf_putc(out, s[1]);
					s += 2;
					continue;
				}
				buf_putc(out, *s++);
			}
		} else if (ch == '$') {
			int rc = expand_var(p, &s, out);

			if (rc)
				return rc;
		} else if (ch == '`') {
			return perr(p, "command substitution '`' is not allowed");
		} else if (ch == '\\') {
			if (!s[1])
				return perr(p, "line continuation with '\\' is not supported");
			buf_putc(out, s[1]);
			s += 2;
		} else if (strchr(";&|<>(){}", ch)) {
			return perr(p, "unquoted '%c' in value: quote the value if it is meant literally", ch);
		} else {
			buf_putc(out, *s++);
		}
	}
	/* only whitespace and a comment may follow */
	while (isspace((unsigned char)*s))
		s++;
	if (*s && *s != '#')
		return perr(p, "unexpected text after the value: \"%s\" (quote values containing spaces)", s);
	return 0;
}

static int parse_line(struct parser *p, char *line)
{
	struct buf val = { 0 };
	char *s = line, *eq, *key;
	int rc;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '#')
		return 0;
	if (!strncmp(s, "export", 6) && isspace((unsigned char)s[6])) {
		s += 6;
		while (isspace((unsigned char)*s))
			s++;
	}
	eq = strchr(s, '=');
	if (!eq)
		return perr(p, "expected KEY=value, got \"%s\"", s);
	key = xstrndup(s, (size_t)(eq - s));
	if (!conf_key_valid(key)) {
		size_t kl = strlen(key);

		if (kl && isspace((unsigned char)key[kl - 1]))
			rc = perr(p, "space before '=' (write KEY=value)");
		else
			rc = perr(p, "invalid key name \"%s\" (letters, digits and _ only)", key);
		free(key);
		return rc;
	}
	if (isspace((unsigned char)eq[1])) {
		/* "KEY= value" runs "value" as a command in a shell */
		free(key);
		return perr(p, "space after '=' (write KEY=value or KEY=\"value\")");
	}
	buf_putc(&val, 'x');	/* allocate, then empty: "KEY=" is a valid empty value */
	val.n = 0;
	val.s[0] = '\0';
	rc = parse_value(p, eq + 1, &val);
	if (!rc)
		conf_set_line(p->c, key, val.s, p->line);
	free(val.s);
	free(key);
	return rc;
}

int conf_parse(struct conf *c, const char *file, const char *text, char **err)
{
	struct parser p = { .c = c, .file = file, .line = 0, .err = err };
	const char *s = text;

	*err = NULL;
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char *line = xstrndup(s, len);
		int rc;

		p.line++;
		if (memchr(s, '\0', len) || strlen(line) != len) {
			free(line);
			return perr(&p, "NUL byte in line");
		}
		rc = parse_line(&p, line);
		free(line);
		if (rc)
			return rc;
		s += len;
		if (*s == '\n')
			s++;
	}
	return 0;
}

int conf_load(struct conf *c, const char *path, char **err)
{
	char *text;
	size_t len;
	int rc;

	*err = NULL;
	rc = read_file(path, &text, &len);
	if (rc) {
		*err = xasprintf("%s: %s", path, strerror(-rc));
		return rc;
	}
	if (strlen(text) != len) {
		*err = xasprintf("%s: contains a NUL byte", path);
		free(text);
		return -EINVAL;
	}
	rc = conf_parse(c, path, text, err);
	free(text);
	if (!rc) {
		free(c->path);
		c->path = xstrdup(path);
	}
	return rc;
}
