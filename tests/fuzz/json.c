// SPDX-License-Identifier: GPL-2.0
/*
 * json.c: fuzz the strict JSON check (--qmp-cmd text, before qemu sees it)
 * and the quoting rapido uses to write JSON (json_quote). Properties: an
 * error points inside the text (or at its end) with the line and column of
 * that offset and a message; a valid value is one of the seven types,
 * stays valid in an array, and becomes invalid with a trailing comma, the
 * error at the end; a quoted string is always a valid JSON string (bytes
 * that are not UTF-8 become U+FFFD), and json_string_value reads a UTF-8
 * one back.
 */
#include <errno.h>

#include "fuzz.h"
#include "json.h"
#include "utf8.h"
#include "qmp.h"

/* the line and column of offset at, as json_error counts them */
static void where(const char *s, size_t at, unsigned int *line, unsigned int *col)
{
	*line = *col = 1;
	for (size_t i = 0; i < at; i++) {
		if (s[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static void check_quote(const char *s)
{
	char *q = json_quote(s), *obj, *back;
	struct json_error e;
	int rc = json_check(q, strlen(q), &e);
	int ctl = 0;

	fuzz_assert(rc == JSON_STRING, "quoted \"%s\" is not a JSON string (%d): %s at %zu", s, rc,
		    rc < 0 ? e.msg : "", rc < 0 ? e.offset : 0);
	for (const char *p = s; *p;) {
		size_t n = utf8_len((const unsigned char *)p);

		/* a replaced byte does not come back as it was */
		ctl |= (unsigned char)*p < 0x20 || !n;
		p += n ? n : 1;
	}
	/* json_string_value turns \uXXXX into '?': only UTF-8 without control characters comes back */
	if (!ctl) {
		obj = malloc(strlen(q) + 16);
		if (!obj)
			abort();
		sprintf(obj, "{\"k\": %s}", q);
		back = json_string_value(obj, "k");
		fuzz_assert(back && !strcmp(back, s), "\"%s\" read back as \"%s\"", s,
			    back ? back : "(null)");
		free(back);
		free(obj);
	}
	free(q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct json_error e;
	unsigned int line, col;
	char *buf, *s;
	int rc;

	memset(&e, 0x55, sizeof(e));
	rc = json_check(text, size, &e);
	if (rc < 0) {
		fuzz_assert(rc == -EINVAL, "rc %d", rc);
		fuzz_assert(e.offset <= size, "offset %zu of %zu bytes", e.offset, size);
		fuzz_assert(memchr(e.msg, '\0', sizeof(e.msg)) && e.msg[0], "no message");
		where(text, e.offset, &line, &col);
		fuzz_assert(e.line == line && e.column == col, "offset %zu: line %u col %u, not %u:%u",
			    e.offset, e.line, e.column, line, col);
	} else {
		fuzz_assert(rc >= JSON_OBJECT && rc <= JSON_NULL, "type %d", rc);
		buf = malloc(size + 2);
		if (!buf)
			abort();
		/* a value and a comma: wrong at the end (after the value's trailing blanks) */
		memcpy(buf, data, size);
		buf[size] = ',';
		fuzz_assert(json_check(buf, size + 1, &e) == -EINVAL && e.offset == size,
			    "a trailing comma: rc %d offset %zu of %zu", rc, e.offset, size);
		/* in an array: still valid, unless that is one level too deep */
		buf[0] = '[';
		memcpy(buf + 1, data, size);
		buf[size + 1] = ']';
		rc = json_check(buf, size + 2, &e);
		fuzz_assert(rc == JSON_ARRAY || (rc == -EINVAL && strstr(e.msg, "deep")),
			    "[value]: rc %d (%s)", rc, rc < 0 ? e.msg : "");
		free(buf);
	}
	s = fuzz_cstr(data, size);
	check_quote(s);
	free(s);
	return 0;
}
