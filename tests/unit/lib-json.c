// SPDX-License-Identifier: GPL-2.0
/*
 * lib-json.c: unit tests for qmp_json_object(), the strict JSON reading
 * (libjansson's) of the commands ./vmctl hands qemu and of what qemu says:
 * one object, RFC 8259 to the letter, and where it goes wrong, by line and
 * byte column, at the start of the token jansson names.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "qmp.h"
#include "tap.h"

/* the text as a one-line test name: control and non-ASCII bytes as \xNN */
static const char *show(const char *s, size_t len)
{
	static char buf[512];
	size_t n = 0;

	for (size_t i = 0; i < len && n + 5 < sizeof(buf); i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f)
			buf[n++] = (char)c;
		else
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\\x%02x", c);
	}
	buf[n] = '\0';
	return buf;
}

/* valid JSON: an object is taken; any other value is refused, naming its type */
static void good_n(const char *s, size_t len, int type, const char *what)
{
	struct qmp_json_error e;
	json_t *v = qmp_json_object(s, len, &e);
	int ok = type == JSON_OBJECT ? v && json_is_object(v) : !v && e.type == type;

	if (!tap_ok(ok, "good: %s", what))
		printf("#   want type %d, saw %s type %d: %u:%u: %s\n", type, v ? "an object" : "NULL",
		       e.type, e.line, e.column, e.msg);
	json_decref(v);
}

static void good(const char *s, int type)
{
	good_n(s, strlen(s), type, show(s, strlen(s)));
}

static void bad_n(const char *s, size_t len, unsigned int line, unsigned int col, const char *msg,
		  const char *what)
{
	struct qmp_json_error e;
	json_t *v = qmp_json_object(s, len, &e);
	int ok = !v && e.type == -1 && e.line == line && e.column == col && !strcmp(e.msg, msg);

	if (!tap_ok(ok, "bad: %s", what))
		printf("#   want NULL %u:%u: %s\n#   saw  %s %u:%u: %s\n", line, col, msg,
		       v ? "an object" : "NULL", e.line, e.column, e.msg);
	json_decref(v);
}

static void bad(const char *s, unsigned int line, unsigned int col, const char *msg)
{
	bad_n(s, strlen(s), line, col, msg, show(s, strlen(s)));
}

#define EOT "unexpected token near end of file"

int main(void)
{
	static char deep[2 * 4000 + 16];

	tap_plan(58);
	good("{}", JSON_OBJECT);
	good("{\"execute\": \"query-status\"}", JSON_OBJECT);
	good(" \t\r\n{\"execute\":\"device_del\",\"arguments\":{\"id\":\"mp0p1\"}}\n", JSON_OBJECT);
	good("{\"a\": [1, -0.5e+10, 0, -0, 1E5, 2e-3, 12.25, true, false, null, {}, [[]]]}",
	     JSON_OBJECT);
	good("{\"s\": \"q\\\"b\\\\s\\/b\\bf\\fn\\nr\\rt\\tu\\u00e9\\uD83D\\uDE00\"}", JSON_OBJECT);
	good("{\"caf\xc3\xa9\": \"\xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf\"}", JSON_OBJECT);
	/* qemu's uint64 values (a WWN, a size) are beyond jansson's json_int_t */
	good("{\"return\": {\"wwn\": 18446744073709551615}}", JSON_OBJECT);
	good("[]", JSON_ARRAY);
	good("\"query-status\"", JSON_STRING);
	/* (every number is read as a real: see qmpmsg.c) */
	good("-12", JSON_REAL);
	good("12.5", JSON_REAL);
	good("true", JSON_TRUE);
	good("false", JSON_FALSE);
	good(" null ", JSON_NULL);
	memset(deep, 0, sizeof(deep));
	memset(deep, '[', 200);
	memset(deep + 200, ']', 200);
	good_n(deep, 400, JSON_ARRAY, "nested 200 deep");

	/* the example: qemu would wait for the rest of it */
	bad("{bad json", 1, 2, "string or '}' expected near 'bad'");
	bad("", 1, 1, EOT);
	bad("   \n ", 2, 2, EOT);
	bad("{\"execute\": \"query-status\"", 1, 27, "'}' expected near end of file");
	bad("[1, [2]", 1, 8, "']' expected near end of file");
	bad("{\"a\" 1}", 1, 6, "':' expected near '1'");
	bad("{\"a\": 1,}", 1, 9, "string or '}' expected near '}' (JSON has no trailing commas)");
	bad("[1,]", 1, 4, "unexpected token near ']' (JSON has no trailing commas)");
	bad("{\"a\": [1, ]}", 1, 11, "unexpected token near ']' (JSON has no trailing commas)");
	bad("{\"a\": 1, 2}", 1, 10, "string or '}' expected near '2'");
	bad("[1 2]", 1, 4, "']' expected near '2'");
	bad("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "'}' expected near '\"b\"'");
	bad("[1,", 1, 4, "']' expected near end of file");
	bad("{'execute': 'quit'}", 1, 2,
	    "string or '}' expected near ''' (strings take double quotes, not single ones)");
	bad("{\"a\": 'b'}", 1, 7, "invalid token near ''' (strings take double quotes, not single ones)");
	bad("{} {}", 1, 4, "end of file expected near '{' (one JSON value only)");
	bad("/* c */ {}", 1, 1, "invalid token near '/'");
	bad("NaN", 1, 1, "invalid token near 'NaN'");
	bad("+1", 1, 1, "invalid token near '+'");
	bad("tru", 1, 1, "invalid token near 'tru'");
	bad("nulls", 1, 1, "invalid token near 'nulls'");
	bad("{\"a\": 01}", 1, 7, "invalid token near '0'");
	bad("{\"a\": -}", 1, 7, "invalid token near '-'");
	bad("{\"a\": 1.}", 1, 7, "invalid token near '1.'");
	bad("{\"a\": 1e+}", 1, 7, "invalid token near '1e+'");
	bad("{\"x\": 1e400}", 1, 7, "real number overflow near '1e400'");
	bad("\"abc", 1, 1, "premature end of input near '\"abc'");
	bad("{\"a\": \"a\nb\"}", 1, 7, "unexpected newline near '\"a'");
	bad("{\"a\": \"a\\x\"}", 1, 7, "invalid escape near '\"a\\x'");
	bad("{\"a\": \"\\u12g4\"}", 1, 7, "invalid escape near '\"\\u12g'");
	bad("{\"a\": \"\\ud800\"}", 1, 7, "invalid Unicode '\\uD800' near '\"\\ud800\"'");
	bad("{\"a\": \"\\udc00\"}", 1, 7, "invalid Unicode '\\uDC00' near '\"\\udc00\"'");
	bad("{\"a\": \"\\ud800\\u0041\"}", 1, 7,
	    "invalid Unicode '\\uD800\\u0041' near '\"\\ud800\\u0041\"'");
	bad("{\"a\": \"\xc3\x28\"}", 1, 7, "unable to decode byte 0xc3 near '\"'");
	bad("{\"a\": \"\xc0\xaf\"}", 1, 7, "unable to decode byte 0xc0 near '\"'");
	bad("{\"a\": \"\xed\xa0\x80\"}", 1, 7, "unable to decode byte 0xed near '\"'");
	bad("{\"a\": \"\xf4\x90\x80\x80\"}", 1, 7, "unable to decode byte 0xf4 near '\"'");
	bad("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate object key near '\"a\"'");
	bad("{\"a\": \"\\u0000\"}", 1, 7, "\\u0000 is not allowed without JSON_ALLOW_NUL near '\"\\u0000\"'");
	bad_n("[1,\0]", 5, 1, 4, "a NUL byte (JSON text has none)", "a NUL byte");
	bad_n("{}\0", 3, 1, 3, "a NUL byte (JSON text has none)", "a NUL byte after the object");
	/* the column counts bytes, as the caret ./vmctl draws under the line does */
	bad("{\"a\": [1, \"caf\xc3\xa9 \xe2\x82\xac\", {\"b\" 2}]}", 1, 29, "':' expected near '2'");
	/* deeper than jansson's limit (2048): refused, not a stack overflow */
	memset(deep, '[', 4000);
	memset(deep + 4000, ']', 4000);
	bad_n(deep, 8000, 1, 2049, "maximum parsing depth reached near '['", "nested 4000 deep");
	return tap_done();
}
