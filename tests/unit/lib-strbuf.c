// SPDX-License-Identifier: GPL-2.0
/*
 * lib-strbuf.c: strbuf_addf (strbuf.h) appends what printf prints, in the
 * room left or after growing the buffer, NUL-terminated, NULs counted.
 */
#include <string.h>

#include "strbuf.h"
#include "tap.h"

int main(void)
{
	struct strbuf b = STRBUF_INIT;
	char big[300];

	tap_plan(5);
	strbuf_addf(&b, "%s %d", "alias", 7);
	TAP_EQ_STR(b.s, "alias 7", "into an empty buffer");
	strbuf_add(&b, "\0", 1);
	strbuf_addf(&b, "<%c>", 'x');
	tap_ok(b.len == 11 && !memcmp(b.s, "alias 7\0<x>", 12), "after a NUL, its length counting it");
	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	strbuf_reset(&b);
	strbuf_addf(&b, "%s!", big);
	tap_ok(b.len == 300 && b.s[299] == '!' && b.s[300] == '\0' && b.cap > 300,
	       "longer than the room left: the buffer grows, the text whole");
	strbuf_addf(&b, "%s", "");
	tap_ok(b.len == 300, "nothing appended: the length stays");
	strbuf_reset(&b);
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&b, "%d\n", i);
	tap_ok(b.len == 3890 && !strncmp(b.s + b.len - 4, "999\n", 4), "a thousand lines, each in order");
	strbuf_free(&b);
	return tap_done();
}
