// SPDX-License-Identifier: GPL-2.0
/* lib-json.c: unit tests for json_check(), the strict JSON syntax check. */
#include <errno.h>
#include <string.h>

#include "json.h"
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

static void good_n(const char *s, size_t len, int type, const char *what)
{
	struct json_error e;
	int rc = json_check(s, len, &e);

	if (!tap_ok(rc == type, "good: %s", what))
		printf("#   rc %d (want %d): %u:%u: %s\n", rc, type, e.line, e.column, e.msg);
}

static void good(const char *s, int type)
{
	good_n(s, strlen(s), type, show(s, strlen(s)));
}

static void bad_n(const char *s, size_t len, unsigned int line, unsigned int col, const char *msg,
		  const char *what)
{
	struct json_error e;
	int rc = json_check(s, len, &e);
	int ok = rc == -EINVAL && e.line == line && e.column == col && !strcmp(e.msg, msg);

	if (!tap_ok(ok, "bad: %s", what))
		printf("#   want -EINVAL %u:%u: %s\n#   saw  %d %u:%u: %s\n", line, col, msg, rc,
		       e.line, e.column, e.msg);
}

static void bad(const char *s, unsigned int line, unsigned int col, const char *msg)
{
	bad_n(s, strlen(s), line, col, msg, show(s, strlen(s)));
}

#define VALUE "a value (object, array, string, number, true, false or null)"

int main(void)
{
	char deep[2 * (JSON_MAX_DEPTH + 1) + 1];

	tap_plan(49);
	good("{}", JSON_OBJECT);
	good("{\"execute\": \"query-status\"}", JSON_OBJECT);
	good(" \t\r\n{\"execute\":\"device_del\",\"arguments\":{\"id\":\"mp0p1\"}}\n", JSON_OBJECT);
	good("[]", JSON_ARRAY);
	good("[1, -0.5e+10, 0, -0, 1E5, 2e-3, 12.25, true, false, null, {}, [[]]]", JSON_ARRAY);
	good("\"q\\\"b\\\\s\\/b\\bf\\fn\\nr\\rt\\tu\\u00e9\\uD83D\\uDE00\"", JSON_STRING);
	good("\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf\"", JSON_STRING);
	good("-12", JSON_NUMBER);
	good("true", JSON_TRUE);
	good("false", JSON_FALSE);
	good(" null ", JSON_NULL);
	memset(deep, '[', JSON_MAX_DEPTH);
	memset(deep + JSON_MAX_DEPTH, ']', JSON_MAX_DEPTH);
	good_n(deep, 2 * JSON_MAX_DEPTH, JSON_ARRAY, "nested JSON_MAX_DEPTH deep");

	/* the example: qemu would wait for the rest of it */
	bad("{bad json", 1, 2, "expected '\"' starting a member name, or '}', got 'b'");
	bad("", 1, 1, "expected " VALUE ", got the end of the text");
	bad("   \n ", 2, 2, "expected " VALUE ", got the end of the text");
	bad("{\"execute\": \"query-status\"", 1, 27,
	    "the object opened at line 1, column 1 is not closed");
	bad("[1, [2]", 1, 8, "the array opened at line 1, column 1 is not closed");
	bad("{\"a\" 1}", 1, 6, "expected ':' after the member name, got '1'");
	bad("{\"a\": 1,}", 1, 9, "'}' after ',': JSON has no trailing commas");
	bad("[1,]", 1, 4, "']' after ',': JSON has no trailing commas");
	bad("{\"a\": 1, 2}", 1, 10, "expected '\"' starting a member name after ',', got '2'");
	bad("[1 2]", 1, 4, "expected ',' or ']' after the element, got '2'");
	bad("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "expected ',' or '}' after the member, got '\"'");
	bad("[1,", 1, 4, "expected " VALUE ", got the end of the text");
	bad("{'execute': 'quit'}", 1, 2, "strings take double quotes, not single ones");
	bad("{\"a\": 'b'}", 1, 7, "strings take double quotes, not single ones");
	bad("{} {}", 1, 4, "expected nothing after the value (one JSON value only), got '{'");
	bad("/* c */ {}", 1, 1, "expected " VALUE ", got '/'");
	bad("NaN", 1, 1, "expected " VALUE ", got 'N'");
	bad("+1", 1, 1, "expected " VALUE ", got '+'");
	bad("tru", 1, 1, "expected true (values are objects, arrays, strings, numbers, true, false or null)");
	bad("nulls", 1, 5, "expected nothing after the value (one JSON value only), got 's'");
	bad("01", 1, 1, "a number cannot start with 0 followed by a digit");
	bad("-", 1, 2, "expected a digit after '-', got the end of the text");
	bad("1.", 1, 3, "expected a digit after the decimal point, got the end of the text");
	bad("1e+", 1, 4, "expected a digit in the exponent, got the end of the text");
	bad("\"abc", 1, 1, "string not closed (no '\"' after it)");
	bad("\"a\nb\"", 1, 3,
	    "control character 0x0a inside a string (write it as an escape such as \\n or \\u000a)");
	bad("\"a\\x\"", 1, 3, "invalid escape: '\\' followed by 'x' "
	    "(JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
	bad("\"\\u12g4\"", 1, 6, "\\u needs four hex digits");
	bad("\"\\ud800\"", 1, 2, "\\ud800 is a high surrogate without a \\uDC00-\\uDFFF after it");
	bad("\"\\udc00\"", 1, 2, "\\udc00 is a low surrogate without a high one before it");
	bad("\"\\ud800\\u0041\"", 1, 8,
	    "\\u0041 after the high surrogate \\ud800 is not a low surrogate (\\uDC00-\\uDFFF)");
	bad("\"\xc3\x28\"", 1, 3,
	    "invalid UTF-8: byte 0x28 does not continue the character that byte 0xc3 starts");
	bad("\"\xc0\xaf\"", 1, 2, "invalid UTF-8: byte 0xc0 cannot start a character");
	bad("\"\xed\xa0\x80\"", 1, 3,
	    "invalid UTF-8: byte 0xa0 does not continue the character that byte 0xed starts");
	bad("\"\xf4\x90\x80\x80\"", 1, 3,
	    "invalid UTF-8: byte 0x90 does not continue the character that byte 0xf4 starts");
	bad_n("[1,\0]", 5, 1, 4, "expected " VALUE ", got byte 0x00", "a NUL byte");
	memset(deep, '[', JSON_MAX_DEPTH + 1);
	memset(deep + JSON_MAX_DEPTH + 1, ']', JSON_MAX_DEPTH + 1);
	bad_n(deep, 2 * (JSON_MAX_DEPTH + 1), 1, JSON_MAX_DEPTH + 1, "nested more than 256 levels deep",
	      "nested one level too deep");
	return tap_done();
}
