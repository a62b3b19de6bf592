// SPDX-License-Identifier: GPL-2.0
/* check.c: sha256sum -c, line for line: parsing, OK/FAILED lines, warnings, status. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cuver.h"
#include "err.h"
#include "fmt.h"
#include "input.h"

#define ISWHITE(c) ((c) == ' ' || (c) == '\t')

void afsum_check_parser_init(struct afsum_check_parser *p, const char *tag, size_t hex_len)
{
	p->tag = tag;
	p->hex_len = hex_len;
	p->bsd_reversed = -1;
}

bool afsum_unescape(char *s, size_t len)
{
	char *dst = s;
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '\0')
			return false;
		if (s[i] != '\\') {
			*dst++ = s[i];
			continue;
		}
		if (++i == len)
			return false;	/* a lone backslash at the end */
		switch (s[i]) {
		case 'n':
			*dst++ = '\n';
			break;
		case 'r':
			*dst++ = '\r';
			break;
		case '\\':
			*dst++ = '\\';
			break;
		default:
			return false;
		}
	}
	if (dst < s + len)
		*dst = '\0';
	return true;
}

/* Exactly hex_len hex digits, then the end of the string. */
static bool valid_digits(const char *s, size_t len, size_t hex_len)
{
	size_t i;

	if (len != hex_len)
		return false;
	for (i = 0; i < len; i++)
		if (!s[i] || !strchr("0123456789abcdefABCDEF", s[i]))
			return false;
	return s[len] == '\0';
}

/* "NAME) = HEX": the name ends at the last ')', since BSD tools never escaped it. */
static bool parse_tagged(struct afsum_check_parser *p, char *s, size_t len,
			 struct afsum_check_line *out, bool escaped)
{
	size_t i;

	if (len == 0)
		return false;
	i = len - 1;
	while (i && s[i] != ')')
		i--;
	if (s[i] != ')')
		return false;
	out->name = s;
	if (escaped && !afsum_unescape(s, i))
		return false;
	s[i++] = '\0';
	while (ISWHITE(s[i]))
		i++;
	if (s[i] != '=')
		return false;
	i++;
	while (ISWHITE(s[i]))
		i++;
	out->digest = s + i;
	return valid_digits(out->digest, len - i, p->hex_len);
}

bool afsum_check_parse(struct afsum_check_parser *p, char *s, size_t len,
		       struct afsum_check_line *out)
{
	size_t taglen = strlen(p->tag);
	bool escaped = false;
	size_t i = 0, dlen;

	out->binary = false;
	while (ISWHITE(s[i]))
		i++;
	if (s[i] == '\\') {
		i++;
		escaped = true;
	}

	if (taglen && !strncmp(s + i, p->tag, taglen)) {
		i += taglen;
		if (s[i] == ' ')
			i++;
		if (s[i] != '(')
			return false;
		i++;
		return parse_tagged(p, s + i, len - i, out, escaped);
	}

	/* At least the digest, a blank and a one-byte name. */
	if (len - i < p->hex_len + 2 + (s[i] == '\\'))
		return false;
	out->digest = s + i;
	while (s[i] && !ISWHITE(s[i]))
		i++;
	if (i == len)
		return false;
	dlen = (size_t)(s + i - out->digest);
	s[i++] = '\0';
	if (!valid_digits(out->digest, dlen, p->hex_len))
		return false;

	if (len - i == 1 || (s[i] != ' ' && s[i] != '*')) {
		/*
		 * "HEX NAME" (BSD reversed, md5 -r). Not mixed with the
		 * standard form in one file: with it a leading space or '*'
		 * of a name would be ambiguous.
		 */
		if (p->bsd_reversed == 0)
			return false;
		p->bsd_reversed = 1;
	} else if (p->bsd_reversed != 1) {
		p->bsd_reversed = 0;
		out->binary = s[i++] == '*';
	}
	out->name = s + i;
	if (escaped)
		return afsum_unescape(s + i, len - i);
	return true;
}

/*
 * "NAME: WHAT", NAME escaped by *rule: the coreutils on PATH is asked for
 * it, once a check file, only when the rules would differ for NAME.
 */
static void print_status(FILE *out, const char *alg, enum afsum_check_escape *rule,
			 const char *name, const char *what)
{
	bool esc;

	if (*rule == AFSUM_CHECK_ESC_ASK && afsum_check_rules_differ(name))
		*rule = afsum_check_escape_ask(alg);
	esc = afsum_check_name_needs_escape(name, *rule);

	if (esc)
		fputc('\\', out);
	afsum_print_name(out, name, esc);
	fprintf(out, ": %s\n", what);
}

static void prog_msg(FILE *err, const char *file, const char *fmt, uintmax_t n)
{
	fprintf(err, "%s: ", err_prog);
	if (file) {
		afsum_quote(err, file);
		fputs(": ", err);
	}
	fprintf(err, fmt, n);
	fputc('\n', err);
}

int afsum_check_stream(const struct afsum_opts *o, struct afsum_hasher *h,
		       FILE *in, const char *name, FILE *out, FILE *err)
{
	bool is_stdin = !strcmp(name, "-");
	const char *display = is_stdin ? "standard input" : name;
	uintmax_t misformatted = 0, mismatched = 0, unreadable = 0, lineno = 0;
	bool formatted = false, matched = false;
	enum afsum_check_escape rule = AFSUM_CHECK_ESC_ASK;
	struct afsum_check_parser p;
	unsigned char digest[AFSUM_MAX_DIGEST];
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	afsum_check_parser_init(&p, h->tag, 2 * h->digest_len);
	while ((n = getline(&line, &cap, in)) > 0) {
		struct afsum_check_line e;
		size_t len = (size_t)n, dlen = 0;
		int fd, rc;

		lineno++;
		if (line[0] == '#')
			continue;
		if (line[len - 1] == '\n')
			len--;
		if (len && line[len - 1] == '\r')
			len--;
		if (!len)
			continue;
		line[len] = '\0';

		if (!afsum_check_parse(&p, line, len, &e) || (is_stdin && !strcmp(e.name, "-"))) {
			misformatted++;
			if (o->warn) {
				fprintf(err, "%s: ", err_prog);
				afsum_quote(err, display);
				fprintf(err, ": %ju: improperly formatted %s checksum line\n",
					lineno, h->tag);
			}
			continue;
		}
		formatted = true;

		fd = afsum_open_input(e.name);
		if (fd == -ENOENT && o->ignore_missing)
			continue;
		rc = fd;
		if (fd >= 0) {
			rc = h->hash(h, fd, e.name, digest, &dlen);
			afsum_close_input(fd);
		}
		if (rc > 0) {		/* fatal: the hasher said why */
			free(line);
			fflush(out);
			return rc;
		}
		if (rc < 0) {
			fflush(out);
			afsum_report(err, e.name, -rc);
			unreadable++;
			if (!o->status)
				print_status(out, o->alg, &rule, e.name, "FAILED open or read");
			continue;
		}
		if (afsum_hex_equal(e.digest, strlen(e.digest), digest, dlen)) {
			matched = true;
			if (!o->status && !o->quiet)
				print_status(out, o->alg, &rule, e.name, "OK");
		} else {
			mismatched++;
			if (!o->status)
				print_status(out, o->alg, &rule, e.name, "FAILED");
		}
	}
	free(line);
	fflush(out);

	if (ferror(in)) {
		prog_msg(err, display, "read error", 0);
		return AFSUM_EXIT_FAIL;
	}
	if (!formatted) {
		prog_msg(err, display, "no properly formatted checksum lines found", 0);
	} else if (!o->status) {
		if (misformatted)
			prog_msg(err, NULL, misformatted == 1 ?
				 "WARNING: %ju line is improperly formatted" :
				 "WARNING: %ju lines are improperly formatted", misformatted);
		if (unreadable)
			prog_msg(err, NULL, unreadable == 1 ?
				 "WARNING: %ju listed file could not be read" :
				 "WARNING: %ju listed files could not be read", unreadable);
		if (mismatched)
			prog_msg(err, NULL, mismatched == 1 ?
				 "WARNING: %ju computed checksum did NOT match" :
				 "WARNING: %ju computed checksums did NOT match", mismatched);
		if (o->ignore_missing && !matched)
			prog_msg(err, display, "no file was verified", 0);
	}
	return formatted && matched && !mismatched && !unreadable &&
	       (!o->strict || !misformatted) ? AFSUM_EXIT_OK : AFSUM_EXIT_FAIL;
}

int afsum_check_file(const struct afsum_opts *o, struct afsum_hasher *h,
		     const char *name, FILE *out, FILE *err)
{
	FILE *in = stdin;
	int rc;

	if (strcmp(name, "-")) {
		in = fopen(name, "re");
		if (!in) {
			int e = errno;

			fflush(out);
			afsum_report(err, name, e);
			return AFSUM_EXIT_FAIL;
		}
	}
	rc = afsum_check_stream(o, h, in, name, out, err);
	if (in == stdin) {
		clearerr(in);
	} else if (fclose(in) != 0 && rc == AFSUM_EXIT_OK) {
		afsum_report(err, name, errno);
		rc = AFSUM_EXIT_FAIL;
	}
	return rc;
}
