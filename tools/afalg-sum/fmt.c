// SPDX-License-Identifier: GPL-2.0
/* fmt.c: print digests and names exactly as coreutils' sha256sum does (9.1 to 9.7). */
#include <ctype.h>
#include <string.h>

#include "hex.h"
#include "fmt.h"

static const struct {
	const char *alg;
	const char *tag;
} coreutils_tags[] = {
	{ "md5", "MD5" },
	{ "sha1", "SHA1" },
	{ "sha224", "SHA224" },
	{ "sha256", "SHA256" },
	{ "sha384", "SHA384" },
	{ "sha512", "SHA512" },
};

const char *afsum_tag_name(const char *alg, char *buf, size_t bufsz)
{
	size_t i;

	for (i = 0; i < sizeof(coreutils_tags) / sizeof(coreutils_tags[0]); i++)
		if (!strcmp(alg, coreutils_tags[i].alg))
			return coreutils_tags[i].tag;
	if (!bufsz)
		return "";
	for (i = 0; alg[i] && i + 1 < bufsz; i++)
		buf[i] = (char)toupper((unsigned char)alg[i]);
	buf[i] = '\0';
	return buf;
}

bool afsum_hex_equal(const char *hex, size_t hex_len, const unsigned char *d, size_t n)
{
	size_t i;

	if (hex_len != 2 * n)
		return false;
	for (i = 0; i < n; i++) {
		int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);

		if (hi < 0 || lo < 0 || (unsigned)(hi << 4 | lo) != d[i])
			return false;
	}
	return true;
}

bool afsum_name_needs_escape(const char *name)
{
	return name[strcspn(name, "\\\n\r")] != '\0';
}

bool afsum_check_name_needs_escape(const char *name, enum afsum_check_escape rule)
{
	if (rule == AFSUM_CHECK_ESC_NEWLINE)
		return strchr(name, '\n') != NULL;
	return afsum_name_needs_escape(name);
}

bool afsum_check_rules_differ(const char *name)
{
	return !strchr(name, '\n') && afsum_name_needs_escape(name);
}

enum afsum_check_escape afsum_check_escape_of(const char *line)
{
	static const char gnu[] = "(GNU coreutils) ";
	const char *v = line ? strstr(line, gnu) : NULL;

	if (!v || !isdigit((unsigned char)v[strlen(gnu)]))
		return AFSUM_CHECK_ESC_ALL;
	/* strverscmp: 9.10 is after 9.4 */
	return strverscmp(v + strlen(gnu), "9.4") < 0 ? AFSUM_CHECK_ESC_NEWLINE : AFSUM_CHECK_ESC_ALL;
}

void afsum_print_name(FILE *f, const char *name, bool escape)
{
	if (!escape) {
		fputs(name, f);
		return;
	}
	for (; *name; name++) {
		switch (*name) {
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		default:
			fputc(*name, f);
		}
	}
}

void afsum_print_sum(FILE *f, const char *tag, const unsigned char *d, size_t n,
		     const char *name, bool tagged, bool binary, bool zero)
{
	char hex[2 * AFSUM_MAX_DIGEST + 1];
	bool esc = !zero && afsum_name_needs_escape(name);

	if (n > AFSUM_MAX_DIGEST)
		n = AFSUM_MAX_DIGEST;	/* callers never pass more; stay in bounds */
	hex_encode(d, n, hex);
	if (esc)
		fputc('\\', f);
	if (tagged) {
		fprintf(f, "%s (", tag);
		afsum_print_name(f, name, esc);
		fprintf(f, ") = %s", hex);
	} else {
		fprintf(f, "%s %c", hex, binary ? '*' : ' ');
		afsum_print_name(f, name, esc);
	}
	fputc(zero ? '\0' : '\n', f);
}

/*
 * Quoting, as gnulib's quotearg does for shell_escape_quoting_style with
 * ':' added (quotef) in the C locale. Checked against sha256sum 9.1.
 */
enum qclass { Q_SAFE, Q_QUOTE, Q_ESCAPE };

static enum qclass quote_class(const char *s, size_t i, bool *compat)
{
	unsigned char c = (unsigned char)s[i];

	*compat = false;
	if (isalnum(c) || strchr("%+,-./_]", c)) {
		*compat = true;		/* plain in '...' and in "..." alike */
		return Q_SAFE;
	}
	switch (c) {
	case ':':
		*compat = true;
		return Q_QUOTE;
	case '{':
	case '}':		/* special when alone */
		return (i == 0 && s[1] == '\0') ? Q_QUOTE : Q_SAFE;
	case '#':
	case '~':		/* special at the start */
		if (i != 0)
			return Q_SAFE;
		*compat = true;
		return Q_QUOTE;
	case ' ':
	case '\'':
		*compat = true;
		return Q_QUOTE;
	case '!': case '"': case '$': case '&': case '(': case ')': case '*':
	case ';': case '<': case '=': case '>': case '?': case '[': case '\\':
	case '^': case '`': case '|':
		return Q_QUOTE;
	}
	if (c >= 0x20 && c < 0x7f)	/* '@' */
		return Q_SAFE;
	return Q_ESCAPE;		/* control, DEL, and non-ASCII in the C locale */
}

static void put_escape(FILE *f, unsigned char c)
{
	static const char letters[] = "\aa\bb\ff\nn\rr\tt\vv";
	const char *p = c ? memchr(letters, c, sizeof(letters) - 1) : NULL;

	if (p && (p - letters) % 2 == 0)
		fprintf(f, "\\%c", p[1]);
	else
		fprintf(f, "\\%03o", c);
}

void afsum_quote(FILE *f, const char *name)
{
	bool need = !*name, all_compat = true, has_quote = false, esc = false;
	bool pending = false;	/* inside a $'...' that must be closed */
	size_t i;

	for (i = 0; name[i]; i++) {
		bool compat;
		enum qclass q = quote_class(name, i, &compat);

		if (q != Q_SAFE)
			need = true;
		if (q == Q_ESCAPE)
			esc = true;
		if (!compat)
			all_compat = false;
		if (name[i] == '\'')
			has_quote = true;
	}
	if (!need) {
		fputs(name, f);
		return;
	}
	if (has_quote && all_compat && !esc) {
		/* nothing in it but quotes, blanks and plain characters */
		fprintf(f, "\"%s\"", name);
		return;
	}
	fputc('\'', f);
	for (i = 0; name[i]; i++) {
		unsigned char c = (unsigned char)name[i];
		bool compat;

		if (quote_class(name, i, &compat) == Q_ESCAPE) {
			if (!pending)
				fputs("'$'", f);
			pending = true;
			put_escape(f, c);
			continue;
		}
		if (pending) {
			fputs("''", f);
			pending = false;
		}
		if (c == '\'')
			fputs("'\\''", f);
		else
			fputc(c, f);
	}
	fputc('\'', f);
}
