// SPDX-License-Identifier: GPL-2.0
/* spec.c: lexer and parser for configfs specs (syntax in tools/configfs/README.md). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "err.h"
#include "expand.h"
#include "spec.h"
#include "strbuf.h"

struct word {
	char *s;	/* NUL-terminated; len bytes, no NUL inside */
	size_t len;
	bool quoted;	/* any part was quoted or escaped: never a keyword */
};

struct words {
	struct word *w;
	size_t n, cap;
};

struct parser {
	struct cfs_spec *s;
	const struct cfs_parse_opts *po;
	unsigned int line;
	char **err;
	struct strbuf b;	/* the word being lexed */
	struct expander x;
};

static void words_free(struct words *ws)
{
	size_t i;

	for (i = 0; i < ws->n; i++)
		free(ws->w[i].s);
	free(ws->w);
	ws->w = NULL;
	ws->n = ws->cap = 0;
}

/* Report at the current line: "FILE:LINE: message" */
#define perr(p, ...) err_at((p)->err, (p)->s->file, (p)->line, __VA_ARGS__)

static const char *spec_lookup(void *ctx, const char *name)
{
	const struct cfs_var *v = vars_get(ctx, name, strlen(name));

	return v ? v->value : NULL;
}

/* ${NAME} at line[*i] (which is '$', followed by '{'): append its value. */
static int expand(struct parser *p, const char *line, size_t len, size_t *i)
{
	const char *name = line + *i + 2;
	size_t used, nl;

	switch (expand_braced(&p->x, line + *i, len - *i, &p->b, &used, &nl)) {
	case EXPAND_OK:
		*i += used;
		return 0;
	case EXPAND_UNTERMINATED:
		return perr(p, "unterminated '${' (expected ${NAME})");
	case EXPAND_BAD_NAME:
		return perr(p, "bad variable name '%.*s' in ${...}", (int)nl, name);
	case EXPAND_UNSET:
		return perr(p, "undefined variable '%.*s' (set it in the spec or with -D %.*s=VALUE)",
			    (int)nl, name, (int)nl, name);
	case EXPAND_TOO_LONG:
		return perr(p, "with ${%.*s} a word would be longer than %d bytes, "
			    "the limit for one word",
			    (int)nl, name, EXPAND_VALUE_MAX);
	case EXPAND_TOO_MUCH:
		return perr(p, "with ${%.*s} the expansions in this spec would pass %d bytes, "
			    "the limit for one spec", (int)nl, name, EXPAND_TOTAL_MAX);
	}
	return -EINVAL;
}

/* A "..." part starting after the opening quote; leaves *i after the closing one. */
static int lex_dquote(struct parser *p, const char *line, size_t len, size_t *i)
{
	while (*i < len && line[*i] != '"') {
		char c = line[*i];
		int hi, lo;

		if (c == '$' && *i + 1 < len && line[*i + 1] == '{') {
			if (expand(p, line, len, i))
				return -EINVAL;
			continue;
		}
		if (c != '\\') {
			strbuf_addc(&p->b, c);
			(*i)++;
			continue;
		}
		if (++(*i) >= len)
			break;
		switch ((c = line[(*i)++])) {
		case 'n': strbuf_addc(&p->b, '\n'); break;
		case 't': strbuf_addc(&p->b, '\t'); break;
		case 'r': strbuf_addc(&p->b, '\r'); break;
		case '\\': case '"': case '$': case '\'': case '#':
			strbuf_addc(&p->b, c);
			break;
		case 'x':
			hi = *i < len ? hex_digit(line[*i]) : -1;
			lo = *i + 1 < len ? hex_digit(line[*i + 1]) : -1;
			if (hi < 0 || lo < 0)
				return perr(p, "\\x needs two hex digits");
			if (!hi && !lo)
				return perr(p, "\\x00: a NUL byte cannot be written");
			strbuf_addc(&p->b, (char)(hi * 16 + lo));
			*i += 2;
			break;
		default:
			return perr(p, "unknown escape '\\%c' in double quotes "
				    "(known: \\n \\t \\r \\\\ \\\" \\$ \\xHH)", c);
		}
	}
	if (*i >= len)
		return perr(p, "unterminated double quote");
	(*i)++;
	return 0;
}

/*
 * Split a line into words, shell-like: blanks separate words; "..." and
 * '...' quote (with ${NAME} and escapes inside "..." only); a backslash
 * outside quotes takes the next character literally; a word starting with
 * '#' begins a comment. ${NAME} expands everywhere but inside '...', and
 * its value is never split.
 */
static int lex_line(struct parser *p, const char *line, size_t len, struct words *ws)
{
	size_t i = 0;

	for (;;) {
		struct word w = { NULL, 0, false };

		while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
			i++;
		if (i >= len || line[i] == '#')
			return 0;
		strbuf_reset(&p->b);
		while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') {
			char c = line[i];

			if (c == '\'') {
				const char *end = memchr(line + i + 1, '\'', len - i - 1);

				if (!end)
					return perr(p, "unterminated single quote");
				strbuf_add(&p->b, line + i + 1, (size_t)(end - line) - i - 1);
				i = (size_t)(end - line) + 1;
				w.quoted = true;
			} else if (c == '"') {
				i++;
				if (lex_dquote(p, line, len, &i))
					return -EINVAL;
				w.quoted = true;
			} else if (c == '\\') {
				if (i + 1 >= len)
					return perr(p, "backslash at the end of the line "
						    "(lines do not continue)");
				strbuf_addc(&p->b, line[i + 1]);
				i += 2;
				w.quoted = true;
			} else if (c == '$' && i + 1 < len && line[i + 1] == '{') {
				if (expand(p, line, len, &i))
					return -EINVAL;
			} else {
				strbuf_addc(&p->b, c);
				i++;
			}
		}
		if (p->b.len > EXPAND_VALUE_MAX)
			return perr(p, "a word of %zu bytes, longer than the limit of %d",
				    p->b.len, EXPAND_VALUE_MAX);
		w.s = xstrndup(p->b.s, p->b.len);
		w.len = p->b.len;
		if (strlen(w.s) != w.len) {
			free(w.s);
			return perr(p, "a variable's value holds a NUL byte");
		}
		if (ws->n == ws->cap) {
			ws->cap = ws->cap ? ws->cap * 2 : 8;
			ws->w = xrealloc(ws->w, ws->cap * sizeof(*ws->w));
		}
		ws->w[ws->n++] = w;
	}
}

char *spec_path_normalise(const char *in, const char **why)
{
	struct strbuf b = STRBUF_INIT;
	const char *c = in;

	if (!*in) {
		*why = "empty path";
		return NULL;
	}
	if (*in == '/') {
		*why = "absolute path: spec paths are relative to the configfs root (--root)";
		return NULL;
	}
	strbuf_reset(&b);
	while (*c) {
		size_t n = strcspn(c, "/");

		if ((n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.')) {
			strbuf_free(&b);
			*why = "'.' and '..' are not allowed in spec paths";
			return NULL;
		}
		if (n) {
			if (b.len)
				strbuf_addc(&b, '/');
			strbuf_add(&b, c, n);
		}
		c += n;
		while (*c == '/')
			c++;
	}
	if (b.len >= PATH_MAX) {
		strbuf_free(&b);
		*why = "path too long";
		return NULL;
	}
	return b.s;
}

const char *spec_op_name(enum cfs_op_type t)
{
	switch (t) {
	case OP_WAIT: return "wait";
	case OP_MKDIR: return "mkdir";
	case OP_ENSURE: return "ensure";
	case OP_WRITE: return "write";
	case OP_LINK: return "link";
	}
	return "?";
}

void spec_print_value(FILE *f, const char *v, size_t len)
{
	static const char safe[] = "._,:=/+@%-";
	size_t i;
	bool bare = len > 0;

	for (i = 0; i < len && bare; i++) {
		unsigned char c = (unsigned char)v[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr(safe, c)))
			bare = false;
	}
	if (bare) {
		fwrite(v, 1, len, f);
		return;
	}
	fputc('"', f);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)v[i];

		switch (c) {
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		case '\\': case '"': case '$':
			fputc('\\', f);
			fputc(c, f);
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(f, "\\x%02x", c);
			else
				fputc(c, f);
		}
	}
	fputc('"', f);
}

static struct cfs_op *op_add(struct parser *p, enum cfs_op_type type)
{
	struct cfs_spec *s = p->s;
	struct cfs_op *op;

	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->ops = xrealloc(s->ops, s->cap * sizeof(*s->ops));
	}
	op = &s->ops[s->n++];
	memset(op, 0, sizeof(*op));
	op->type = type;
	op->line = p->line;
	return op;
}

static int path_arg(struct parser *p, const struct word *w, const char *what, char **out)
{
	const char *why = NULL;

	*out = spec_path_normalise(w->s, &why);
	if (!*out)
		return perr(p, "%s '%s': %s", what, w->s, why);
	return 0;
}

static int value_check(struct parser *p, const struct word *w, const char *what, bool empty_ok)
{
	if (w->len > CFS_VALUE_MAX)
		return perr(p, "%s is %zu bytes; configfs takes at most %d in one write",
			    what, w->len, CFS_VALUE_MAX);
	if (!w->len && !empty_ok)
		return perr(p, "%s is empty; configfs refuses a zero-length write "
			    "(to clear an attribute such as UDC, write \"\\n\")", what);
	return 0;
}

/* SECONDS: digits with up to three decimals, an optional trailing 's'. */
static int timeout_arg(struct parser *p, const char *s, unsigned int *ms)
{
	unsigned long long v = 0;
	const char *c = s;
	int frac = -1;

	for (; *c >= '0' && *c <= '9' && v <= CFS_WAIT_MAX_MS; c++)
		v = v * 10 + (unsigned)(*c - '0');
	if (c == s)
		goto bad;
	v *= 1000;
	if (*c == '.') {
		unsigned int scale = 100;

		for (c++, frac = 0; *c >= '0' && *c <= '9'; c++, frac++) {
			if (frac >= 3)
				goto bad;
			v += (unsigned)(*c - '0') * scale;
			scale /= 10;
		}
		if (!frac)
			goto bad;
	}
	if (*c == 's')
		c++;
	if (*c)
		goto bad;
	if (v > CFS_WAIT_MAX_MS)
		return perr(p, "wait timeout '%s' is longer than %d seconds", s,
			    CFS_WAIT_MAX_MS / 1000);
	*ms = (unsigned int)v;
	return 0;
bad:
	return perr(p, "bad wait timeout '%s' (expected seconds, e.g. 5 or 0.5)", s);
}

static int parse_set_first(struct parser *p, const struct word *w)
{
	const char *root = p->po && p->po->sysfs_root ? p->po->sysfs_root : "/sys";
	const struct cfs_var *old = vars_get(&p->s->vars, w[1].s, w[1].len);
	char *dir, *full, *first = NULL;
	int rc;

	if (path_arg(p, &w[2], "set-first directory", &dir))
		return -EINVAL;
	if (old && old->line == 0) {	/* -D wins: do not even look */
		free(dir);
		return 0;
	}
	full = xasprintf("%s/%s", root, dir);
	rc = dir_first_entry(full, &first);
	if (rc) {
		const char *why = rc == -ENODATA ? "is empty" : strerror(-rc);
		const char *hint = strstr(dir, "udc") ? " (no UDC: modprobe dummy_hcd?)" : "";

		if (p->po && p->po->teardown) {
			if (p->po->warn)
				fprintf(p->po->warn, "%s: %s:%u: warning: set-first %s: %s %s%s; "
					"using \"\"\n", err_prog, p->s->file, p->line,
					w[1].s, full, why, hint);
			vars_set(&p->s->vars, w[1].s, "", p->line);
			rc = 0;
		} else {
			rc = perr(p, "set-first %s: %s %s%s", w[1].s, full, why, hint);
		}
	} else {
		vars_set(&p->s->vars, w[1].s, first, p->line);
	}
	free(first);
	free(full);
	free(dir);
	return rc;
}

static int parse_write(struct parser *p, const struct word *w, size_t n)
{
	bool td = p->po && p->po->teardown;
	struct cfs_op *op;
	char *path;

	if (n != 3 && !(n == 5 && !w[3].quoted && !strcmp(w[3].s, "undo"))) {
		if (n > 3 && (w[3].quoted || strcmp(w[3].s, "undo")))
			return perr(p, "write: unexpected '%s' after the value "
				    "(quote a value that has blanks: \"a b\")", w[3].s);
		return perr(p, "write takes PATH VALUE [undo VALUE]");
	}
	if (path_arg(p, &w[1], "write path", &path))
		return -EINVAL;
	if (value_check(p, &w[2], "value", td) ||
	    (n == 5 && value_check(p, &w[4], "undo value", false))) {
		free(path);
		return -EINVAL;
	}
	op = op_add(p, OP_WRITE);
	op->path = path;
	op->value = xstrndup(w[2].s, w[2].len);
	op->value_len = w[2].len;
	if (n == 5) {
		op->undo = xstrndup(w[4].s, w[4].len);
		op->undo_len = w[4].len;
	}
	return 0;
}

static int parse_words(struct parser *p, const struct word *w, size_t n)
{
	const char *kw = w[0].s;
	struct cfs_op *op;
	char *a, *b;

	if (w[0].quoted)
		return perr(p, "the operation must be a bare word, not '%s'", kw);
	if (!strcmp(kw, "set") || !strcmp(kw, "set-first")) {
		if (n != 3)
			return perr(p, "%s takes NAME %s", kw, kw[3] ? "DIR" : "VALUE");
		if (w[1].quoted || !var_name_valid(w[1].s, w[1].len))
			return perr(p, "%s: bad variable name '%s' "
				    "(letters, digits and _, not starting with a digit)", kw, w[1].s);
		if (kw[3])
			return parse_set_first(p, w);
		vars_set(&p->s->vars, w[1].s, w[2].s, p->line);
		return 0;
	}
	if (!strcmp(kw, "wait")) {
		unsigned int ms = CFS_WAIT_DEFAULT_MS;

		if (n != 2 && n != 3)
			return perr(p, "wait takes PATH [SECONDS]");
		if (n == 3 && timeout_arg(p, w[2].s, &ms))
			return -EINVAL;
		if (path_arg(p, &w[1], "wait path", &a))
			return -EINVAL;
		op = op_add(p, OP_WAIT);
		op->path = a;
		op->timeout_ms = ms;
		return 0;
	}
	if (!strcmp(kw, "mkdir") || !strcmp(kw, "ensure")) {
		if (n != 2)
			return perr(p, "%s takes one PATH", kw);
		if (path_arg(p, &w[1], "directory", &a))
			return -EINVAL;
		op = op_add(p, kw[0] == 'm' ? OP_MKDIR : OP_ENSURE);
		op->path = a;
		return 0;
	}
	if (!strcmp(kw, "write"))
		return parse_write(p, w, n);
	if (!strcmp(kw, "link")) {
		if (n != 3)
			return perr(p, "link takes TARGET LINKPATH");
		if (path_arg(p, &w[1], "link target", &a))
			return -EINVAL;
		if (path_arg(p, &w[2], "link path", &b)) {
			free(a);
			return -EINVAL;
		}
		op = op_add(p, OP_LINK);
		op->target = a;
		op->path = b;
		return 0;
	}
	return perr(p, "unknown operation '%s' "
		    "(expected set, set-first, wait, mkdir, ensure, write or link)", kw);
}

void spec_init(struct cfs_spec *s)
{
	memset(s, 0, sizeof(*s));
}

void spec_free(struct cfs_spec *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->ops[i].path);
		free(s->ops[i].target);
		free(s->ops[i].value);
		free(s->ops[i].undo);
	}
	free(s->ops);
	free(s->file);
	vars_free(&s->vars);
	memset(s, 0, sizeof(*s));
}

int spec_define(struct cfs_spec *s, const char *name_value, char **err)
{
	const char *eq = strchr(name_value, '=');
	char *name;

	if (!eq || !var_name_valid(name_value, (size_t)(eq - name_value))) {
		*err = xasprintf("-D '%s': expected NAME=VALUE with NAME made of "
				 "letters, digits and _", name_value);
		return -EINVAL;
	}
	name = xstrndup(name_value, (size_t)(eq - name_value));
	vars_set(&s->vars, name, eq + 1, 0);
	free(name);
	return 0;
}

int spec_parse(struct cfs_spec *s, const char *name, FILE *f,
	       const struct cfs_parse_opts *po, char **err)
{
	struct parser p = { s, po, 0, err, STRBUF_INIT, { spec_lookup, &s->vars, 0 } };
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;

	free(s->file);
	s->file = xstrdup(name);
	errno = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		struct words ws = { NULL, 0, 0 };

		p.line++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (strlen(line) != (size_t)len) {
			rc = perr(&p, "NUL byte in the line");
			break;
		}
		rc = lex_line(&p, line, (size_t)len, &ws);
		if (!rc && ws.n)
			rc = parse_words(&p, ws.w, ws.n);
		words_free(&ws);
		if (rc)
			break;
		errno = 0;
	}
	if (!rc && ferror(f)) {
		rc = errno ? -errno : -EIO;
		*err = xasprintf("%s: read error: %s", name, strerror(-rc));
	}
	free(line);
	strbuf_free(&p.b);
	return rc;
}

int spec_parse_string(struct cfs_spec *s, const char *name, const char *text,
		      const struct cfs_parse_opts *po, char **err)
{
	FILE *f;
	int rc;

	if (!*text) {
		free(s->file);
		s->file = xstrdup(name);
		return 0;
	}
	f = fmemopen((void *)text, strlen(text), "r");
	if (!f) {
		rc = -errno;
		*err = xasprintf("%s: fmemopen: %s", name, strerror(errno));
		return rc;
	}
	rc = spec_parse(s, name, f, po, err);
	fclose(f);
	return rc;
}
