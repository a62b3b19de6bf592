// SPDX-License-Identifier: GPL-2.0
/*
 * json.c: strict JSON syntax checking. qemu's QMP parser waits for the rest
 * of an unfinished value and answers nothing meanwhile, so a typo in a
 * command looks like a hung VM; checked here first, it is an error that
 * says where the text is wrong. Recursive descent, depth-limited.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json.h"

struct parser {
	const unsigned char *s;
	size_t len, pos;
	int depth;
	struct json_error *err;
};

/* "'x'" for a printable byte, "byte 0xNN" otherwise, "the end" past it */
static void describe(const struct parser *p, size_t at, char *buf, size_t n)
{
	if (at >= p->len)
		snprintf(buf, n, "the end of the text");
	else if (p->s[at] >= 0x20 && p->s[at] < 0x7f)
		snprintf(buf, n, "'%c'", p->s[at]);
	else
		snprintf(buf, n, "byte 0x%02x", p->s[at]);
}

static int fail_at(struct parser *p, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* line and column (from 1, in bytes) of offset at */
static void where(const struct parser *p, size_t at, unsigned int *line, unsigned int *column)
{
	*line = 1;
	*column = 1;
	for (size_t i = 0; i < at && i < p->len; i++) {
		if (p->s[i] == '\n') {
			(*line)++;
			*column = 1;
		} else {
			(*column)++;
		}
	}
}

static int fail_at(struct parser *p, size_t at, const char *fmt, ...)
{
	struct json_error *e = p->err;
	va_list ap;

	e->offset = at;
	where(p, at, &e->line, &e->column);
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* "expected WHAT, got X" at the current position */
static int expected(struct parser *p, const char *what)
{
	char got[32];

	describe(p, p->pos, got, sizeof(got));
	return fail_at(p, p->pos, "expected %s, got %s", what, got);
}

static void skip_blanks(struct parser *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
				   p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

static int peek(const struct parser *p)
{
	return p->pos < p->len ? p->s[p->pos] : -1;
}

static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int hex4(struct parser *p, size_t at, unsigned int *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		int c = at + (size_t)i < p->len ? p->s[at + (size_t)i] : -1;

		*v <<= 4;
		if (is_digit(c))
			*v |= (unsigned int)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			*v |= (unsigned int)((c | 0x20) - 'a' + 10);
		else
			return fail_at(p, at + (size_t)i, "\\u needs four hex digits");
	}
	return 0;
}

/* One UTF-8 sequence starting at p->pos (a byte >= 0x80): RFC 3629 ranges. */
static int utf8_seq(struct parser *p)
{
	unsigned char c = p->s[p->pos];
	unsigned char lo = 0x80, hi = 0xbf;
	int more;

	if (c >= 0xc2 && c <= 0xdf) {
		more = 1;
	} else if (c >= 0xe0 && c <= 0xef) {
		more = 2;
		if (c == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (c == 0xed)
			hi = 0x9f;	/* UTF-16 surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		more = 3;
		if (c == 0xf0)
			lo = 0x90;	/* overlong */
		else if (c == 0xf4)
			hi = 0x8f;	/* beyond U+10FFFF */
	} else {
		return fail_at(p, p->pos, "invalid UTF-8: byte 0x%02x cannot start a character", c);
	}
	for (int i = 1; i <= more; i++) {
		size_t at = p->pos + (size_t)i;
		unsigned char b = at < p->len ? p->s[at] : 0;

		if (b < lo || b > hi)
			return fail_at(p, at, "invalid UTF-8: byte 0x%02x does not continue the character "
				       "that byte 0x%02x starts", b, c);
		lo = 0x80;
		hi = 0xbf;
	}
	p->pos += (size_t)more + 1;
	return 0;
}

static int string(struct parser *p)
{
	size_t start = p->pos++;	/* the opening quote */

	for (;;) {
		int c = peek(p);
		unsigned int u, u2;

		if (c < 0)
			return fail_at(p, start, "string not closed (no '\"' after it)");
		if (c == '"') {
			p->pos++;
			return 0;
		}
		if (c < 0x20)
			return fail_at(p, p->pos, "control character 0x%02x inside a string "
				       "(write it as an escape such as \\n or \\u%04x)", c, c);
		if (c >= 0x80) {
			if (utf8_seq(p))
				return -EINVAL;
			continue;
		}
		if (c != '\\') {
			p->pos++;
			continue;
		}
		c = p->pos + 1 < p->len ? p->s[p->pos + 1] : -1;
		if (c < 0)
			return fail_at(p, start, "string not closed (no '\"' after it)");
		if (!strchr("\"\\/bfnrtu", c) || !c) {
			char got[32];

			describe(p, p->pos + 1, got, sizeof(got));
			return fail_at(p, p->pos, "invalid escape: '\\' followed by %s "
				       "(JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)", got);
		}
		if (c != 'u') {
			p->pos += 2;
			continue;
		}
		if (hex4(p, p->pos + 2, &u))
			return -EINVAL;
		if (u >= 0xdc00 && u <= 0xdfff)
			return fail_at(p, p->pos, "\\u%04x is a low surrogate without a high one before it", u);
		if (u >= 0xd800 && u <= 0xdbff) {
			size_t next = p->pos + 6;

			if (next + 1 >= p->len || p->s[next] != '\\' || p->s[next + 1] != 'u')
				return fail_at(p, p->pos, "\\u%04x is a high surrogate without a \\uDC00-\\uDFFF "
					       "after it", u);
			if (hex4(p, next + 2, &u2))
				return -EINVAL;
			if (u2 < 0xdc00 || u2 > 0xdfff)
				return fail_at(p, next, "\\u%04x after the high surrogate \\u%04x is not a low "
					       "surrogate (\\uDC00-\\uDFFF)", u2, u);
			p->pos = next;
		}
		p->pos += 6;
	}
}

static int number(struct parser *p)
{
	if (peek(p) == '-')
		p->pos++;
	if (peek(p) == '0') {
		p->pos++;
		if (is_digit(peek(p)))
			return fail_at(p, p->pos - 1, "a number cannot start with 0 followed by a digit");
	} else if (is_digit(peek(p))) {
		while (is_digit(peek(p)))
			p->pos++;
	} else {
		return expected(p, "a digit after '-'");
	}
	if (peek(p) == '.') {
		p->pos++;
		if (!is_digit(peek(p)))
			return expected(p, "a digit after the decimal point");
		while (is_digit(peek(p)))
			p->pos++;
	}
	if (peek(p) == 'e' || peek(p) == 'E') {
		p->pos++;
		if (peek(p) == '+' || peek(p) == '-')
			p->pos++;
		if (!is_digit(peek(p)))
			return expected(p, "a digit in the exponent");
		while (is_digit(peek(p)))
			p->pos++;
	}
	return 0;
}

static int literal(struct parser *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n))
		return fail_at(p, p->pos, "expected %s (values are objects, arrays, strings, numbers, "
			       "true, false or null)", word);
	p->pos += n;
	return 0;
}

static int value(struct parser *p);

/* After '{' or '[': members until the closing bracket. */
static int container(struct parser *p, int close)
{
	size_t open = p->pos++;
	int first = 1;

	if (++p->depth > JSON_MAX_DEPTH)
		return fail_at(p, open, "nested more than %d levels deep", JSON_MAX_DEPTH);
	skip_blanks(p);
	if (peek(p) == close) {
		p->pos++;
		p->depth--;
		return 0;
	}
	for (;;) {
		if (close == '}') {
			if (peek(p) == '\'')
				return fail_at(p, p->pos, "strings take double quotes, not single ones");
			if (peek(p) != '"')
				return expected(p, first ? "'\"' starting a member name, or '}'"
						 : "'\"' starting a member name after ','");
			if (string(p))
				return -EINVAL;
			skip_blanks(p);
			if (peek(p) != ':')
				return expected(p, "':' after the member name");
			p->pos++;
			skip_blanks(p);
		}
		if (value(p) < 0)
			return -EINVAL;
		skip_blanks(p);
		if (peek(p) == close) {
			p->pos++;
			p->depth--;
			return 0;
		}
		if (peek(p) != ',') {
			if (peek(p) < 0) {
				unsigned int line, column;

				where(p, open, &line, &column);
				return fail_at(p, p->pos, "the %s opened at line %u, column %u is not closed",
					       close == '}' ? "object" : "array", line, column);
			}
			return expected(p, close == '}' ? "',' or '}' after the member"
					 : "',' or ']' after the element");
		}
		p->pos++;
		skip_blanks(p);
		if (peek(p) == close)
			return fail_at(p, p->pos, "'%c' after ',': JSON has no trailing commas", close);
		first = 0;
	}
}

static int value(struct parser *p)
{
	int c = peek(p);

	switch (c) {
	case '{':
		return container(p, '}') ? -EINVAL : JSON_OBJECT;
	case '[':
		return container(p, ']') ? -EINVAL : JSON_ARRAY;
	case '"':
		return string(p) ? -EINVAL : JSON_STRING;
	case '\'':
		return fail_at(p, p->pos, "strings take double quotes, not single ones");
	case 't':
		return literal(p, "true") ? -EINVAL : JSON_TRUE;
	case 'f':
		return literal(p, "false") ? -EINVAL : JSON_FALSE;
	case 'n':
		return literal(p, "null") ? -EINVAL : JSON_NULL;
	}
	if (c == '-' || is_digit(c))
		return number(p) ? -EINVAL : JSON_NUMBER;
	return expected(p, "a value (object, array, string, number, true, false or null)");
}

int json_check(const char *text, size_t len, struct json_error *err)
{
	struct parser p = { (const unsigned char *)text, len, 0, 0, err };
	int type;

	memset(err, 0, sizeof(*err));
	skip_blanks(&p);
	type = value(&p);
	if (type < 0)
		return type;
	skip_blanks(&p);
	if (p.pos < len)
		return expected(&p, "nothing after the value (one JSON value only)");
	return type;
}
