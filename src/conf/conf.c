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
#include "expand.h"
#include "io.h"
#include "strbuf.h"

int conf_key_valid(const char *s)
{
	return s && expand_name_valid(s, strlen(s));
}

static struct conf_entry *conf_find(const struct conf *c, const char *key)
{
	for (size_t i = c->n; i > 0; i--)
		if (!strcmp(c->e[i - 1].key, key))
			return &c->e[i - 1];
	return NULL;
}

/* origin: "FILE:LINE" (malloc'd, taken over), NULL for a value set by code */
static void conf_set_origin(struct conf *c, const char *key, const char *val, char *origin)
{
	struct conf_entry *e = conf_find(c, key);

	if (!e) {
		c->e = xrealloc(c->e, (c->n + 1) * sizeof(*c->e));
		e = &c->e[c->n++];
		memset(e, 0, sizeof(*e));
		e->key = xstrdup(key);
	}
	free(e->val);
	free(e->origin);
	e->val = xstrdup(val);
	e->origin = origin;
}

void conf_set(struct conf *c, const char *key, const char *val)
{
	conf_set_origin(c, key, val, NULL);
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

const char *conf_origin(const struct conf *c, const char *key)
{
	struct conf_entry *e;

	if (c->env_override && getenv(key))
		return "environment";
	e = conf_find(c, key);
	return e && e->origin ? e->origin : "default";
}

void conf_free(struct conf *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->e[i].key);
		free(c->e[i].val);
		free(c->e[i].origin);
	}
	free(c->e);
	free(c->path);
	memset(c, 0, sizeof(*c));
}

struct parser {
	struct conf *c;
	const char *file;
	int line;
	const char *key;	/* the key being assigned, for messages */
	struct expander x;
	char **err;
};

/* Report at the current line: "FILE:LINE: message" */
#define perr(p, ...) err_at((p)->err, (p)->file, (unsigned int)(p)->line, __VA_ARGS__)

/*
 * ${KEY}: a key of an earlier line, else the environment. With env_override
 * the environment wins here too, as in a shell: KERNEL_SRC=x ./cut makes
 * "${KERNEL_SRC}/mods" of a later line x/mods.
 */
static const char *conf_lookup(void *ctx, const char *name)
{
	struct parser *p = ctx;
	const char *env = getenv(name);
	struct conf_entry *e = conf_find(p->c, name);

	if (e)
		e->used = 1;
	if (p->c->env_override && env)
		return env;
	return e ? e->val : env;
}

/* At *s == '$': expand ${KEY} into out, advance *s past it. */
static int expand_var(struct parser *p, const char **s, struct strbuf *out)
{
	const char *q = *s + 1;
	size_t used, nl;

	if (*q == '(')
		return perr(p, "command substitution '$(' is not allowed");
	if (*q == '{') {
		enum expand_status st = expand_braced(&p->x, *s, strlen(*s), out, &used, &nl);
		char *raw, *name;
		int rc = 0;

		if (st == EXPAND_OK) {
			*s += used;
			return 0;
		}
		if (st == EXPAND_UNTERMINATED)
			return perr(p, "unterminated '${'");
		/* the name as written, for a message: escape bytes shown, cut */
		raw = xstrndup(q + 1, nl);
		name = str_shown(raw, STR_SHOWN_MAX);
		switch (st) {
		case EXPAND_BAD_NAME:
			rc = perr(p, "unsupported expansion '${%s}': only ${KEY} is allowed", name);
			break;
		case EXPAND_UNSET:
			rc = perr(p, "'${%s}' is not set on an earlier line nor in the environment", name);
			break;
		case EXPAND_TOO_LONG:
			rc = perr(p, "%s: with ${%s} the value would be longer than %d bytes, "
				  "the limit for one value", p->key, name, EXPAND_VALUE_MAX);
			break;
		default:
			rc = perr(p, "%s: with ${%s} the expansions in this file would pass "
				  "%d bytes, the limit for one file", p->key, name, EXPAND_TOTAL_MAX);
			break;
		}
		free(name);
		free(raw);
		return rc;
	}
	if (isalpha((unsigned char)*q) || *q == '_')
		return perr(p, "unbraced variable '$%c...': write ${NAME}", *q);
	if (*q == '$' || *q == '!' || *q == '?' || *q == '#' || *q == '@' || *q == '*' ||
	    isdigit((unsigned char)*q) || *q == '-')
		return perr(p, "special parameter '$%c' is not allowed", *q);
	/* a lone '$' before a space, quote or end is literal, as in the shell */
	strbuf_addc(out, '$');
	*s = q;
	return 0;
}

static int parse_value(struct parser *p, const char *s, struct strbuf *out)
{
	while (*s && !isspace((unsigned char)*s)) {
		char ch = *s;

		if (ch == '\'') {
			const char *end = strchr(s + 1, '\'');

			if (!end)
				return perr(p, "unterminated single quote");
			for (s++; s < end; s++)
				strbuf_addc(out, *s);
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
					strbuf_addc(out, s[1]);
					s += 2;
					continue;
				}
				strbuf_addc(out, *s++);
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
			strbuf_addc(out, s[1]);
			s += 2;
		} else if (strchr(";&|<>(){}", ch)) {
			return perr(p, "unquoted '%c' in value: quote the value if it is meant literally", ch);
		} else {
			strbuf_addc(out, *s++);
		}
	}
	if (out->len > EXPAND_VALUE_MAX)
		return perr(p, "%s: the value is %zu bytes, longer than the limit of %d",
			    p->key, out->len, EXPAND_VALUE_MAX);
	/* only whitespace and a comment may follow */
	while (isspace((unsigned char)*s))
		s++;
	if (*s && *s != '#') {
		char *shown = str_shown(s, STR_SHOWN_MAX);
		int rc = perr(p, "unexpected text after the value: \"%s\" (quote values containing "
			      "spaces)", shown);

		free(shown);
		return rc;
	}
	return 0;
}

static int parse_line(struct parser *p, char *line)
{
	struct strbuf val = STRBUF_INIT;
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
	if (!eq) {
		char *shown = str_shown(s, STR_SHOWN_MAX);

		rc = perr(p, "expected KEY=value, got \"%s\"", shown);
		free(shown);
		return rc;
	}
	key = xstrndup(s, (size_t)(eq - s));
	if (!conf_key_valid(key)) {
		size_t kl = strlen(key);

		if (kl && isspace((unsigned char)key[kl - 1])) {
			rc = perr(p, "space before '=' (write KEY=value)");
		} else {
			char *shown = str_shown(key, STR_SHOWN_MAX);

			rc = perr(p, "invalid key name \"%s\" (letters, digits and _ only)", shown);
			free(shown);
		}
		free(key);
		return rc;
	}
	if (isspace((unsigned char)eq[1])) {
		/* "KEY= value" runs "value" as a command in a shell */
		free(key);
		return perr(p, "space after '=' (write KEY=value or KEY=\"value\")");
	}
	strbuf_reset(&val);	/* "KEY=" is a valid empty value */
	p->key = key;
	rc = parse_value(p, eq + 1, &val);
	if (!rc)
		conf_set_origin(p->c, key, val.s, xasprintf("%s:%d", p->file, p->line));
	strbuf_free(&val);
	free(key);
	return rc;
}

int conf_parse(struct conf *c, const char *file, const char *text, char **err)
{
	struct parser p = { .c = c, .file = file, .line = 0, .err = err };
	const char *s = text;

	*err = NULL;
	p.x.lookup = conf_lookup;
	p.x.ctx = &p;
	/* Windows editors may save one; invisible, it would make line 1's key "invalid" */
	if (!strncmp(s, "\xef\xbb\xbf", 3)) {
		p.line = 1;
		return perr(&p, "starts with a UTF-8 byte order mark (EF BB BF): save it without one");
	}
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
	struct stat st;
	char *text;
	size_t len;
	int rc;

	*err = NULL;
	rc = read_regular_file(path, 0, CONF_FILE_MAX, &text, &len, &st);
	if (rc) {
		*err = xasprintf("%s: %s%s", path, file_strerror(rc, &st),
				 rc == -EFBIG ? " (more than 1 MiB: CONF_FILE_MAX)" : "");
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
