// SPDX-License-Identifier: GPL-2.0
/* lib-status.c: the framed status record: only the init's own, last record counts. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "status.h"
#include "tap.h"

#define NONCE "0123456789abcdef0123456789abcdef"
#define OTHER "fedcba9876543210fedcba9876543210"

static size_t rec(char *buf, const char *nonce, enum status_kind k, int code, const char *msg)
{
	struct status_record r = { .kind = k, .code = code };

	snprintf(r.msg, sizeof(r.msg), "%s", msg);
	return status_record_format(buf, nonce, &r);
}

int main(void)
{
	char a[STATUS_RECORD_MAX], b[STATUS_RECORD_MAX], data[8192];
	struct status_record r;
	size_t n, na, nb;

	tap_plan(18);
	TAP_EQ_INT(crc32_buf(0, "123456789", 9), 0xcbf43926u, "CRC-32 check value");
	tap_ok(status_nonce_valid(NONCE) && !status_nonce_valid("0123") &&
	       !status_nonce_valid("0123456789ABCDEF0123456789ABCDEF"), "nonce: 32 lowercase hex digits");

	na = rec(a, NONCE, STATUS_EXIT, 5, "");
	tap_ok(status_record_find_last(a, na, NONCE, &r) == 0 && r.kind == STATUS_EXIT && r.code == 5,
	       "a record round-trips");
	TAP_EQ_INT(status_record_find_last(a, na, OTHER, &r), -ENOENT, "another boot's nonce: ignored");
	tap_ok(!r.tests_only, "  an exit that does not say its failures were all tests'");
	{
		struct status_record t = { .kind = STATUS_EXIT, .code = 1, .tests_only = 1 };

		na = status_record_format(a, NONCE, &t);
		tap_ok(strstr(a, " exit-tests 1 - crc=") && !status_record_find_last(a, na, NONCE, &r) &&
		       r.kind == STATUS_EXIT && r.code == 1 && r.tests_only,
		       "an exit whose failures were all failed tests: exit-tests, read back");
		na = rec(a, NONCE, STATUS_EXIT, 5, "");
	}

	n = (size_t)snprintf(data, sizeof(data), "0\n255\nrapido-status v1 %s exit 0 - crc=00000000\n", NONCE);
	TAP_EQ_INT(status_record_find_last(data, n, NONCE, &r), -ENOENT,
		   "bare numbers and a record with a wrong CRC: nothing");

	/* junk, a real record, junk, then a forged record with the right nonce and CRC 0 */
	n = (size_t)snprintf(data, sizeof(data), "\x01junk 0\n%.*s7\n\nrapido-status v1 %s exit 0 - crc=0\n",
			     (int)na, a, NONCE);
	tap_ok(status_record_find_last(data, n, NONCE, &r) == 0 && r.code == 5,
	       "junk around a record does not hide it");

	nb = rec(b, NONCE, STATUS_EXIT, 0, "");
	memcpy(data, a, na);
	memcpy(data + na, b, nb);
	tap_ok(status_record_find_last(data, na + nb, NONCE, &r) == 0 && r.code == 0, "the last record counts");
	tap_ok(status_record_find_last(data, na + nb - 1, NONCE, &r) == 0 && r.code == 5,
	       "a record cut off before its newline is not taken");

	/* one flipped bit anywhere in the record: rejected */
	memcpy(data, a, na);
	data[na / 2] ^= 0x01;
	TAP_EQ_INT(status_record_find_last(data, na, NONCE, &r), -ENOENT, "a damaged record is rejected");

	/* a tty that was not switched to raw mode turns \n into \r\n */
	memcpy(data, a, na - 1);
	memcpy(data + na - 1, "\r\n", 2);
	tap_ok(status_record_find_last(data, na + 1, NONCE, &r) == 0 && r.code == 5, "CR before LF tolerated");

	na = rec(a, NONCE, STATUS_INIT_ERROR, 255, "exec /bin/bash: No such file or directory\n%x");
	tap_ok(status_record_find_last(a, na, NONCE, &r) == 0 && r.kind == STATUS_INIT_ERROR,
	       "init-error kind");
	TAP_EQ_STR(r.msg, "exec /bin/bash: No such file or directory\n%x", "message with spaces, newline and %%");
	tap_ok(!memchr(a + 1, '\n', na - 2), "the escaped message stays on one line");

	{
		char longmsg[STATUS_MSG_MAX + 1];

		memset(longmsg, '\x01', STATUS_MSG_MAX);
		longmsg[STATUS_MSG_MAX] = '\0';
		na = rec(a, NONCE, STATUS_INIT_ERROR, 255, longmsg);
		tap_ok(na <= STATUS_RECORD_MAX && status_record_find_last(a, na, NONCE, &r) == 0,
		       "the longest message fits a record (%zu bytes)", na);
	}
	na = rec(a, NONCE, STATUS_EXIT, 255, "");
	tap_ok(status_record_find_last(a, na, NONCE, &r) == 0 && r.code == 255, "code 255");
	n = (size_t)snprintf(data, sizeof(data), "%s", a);
	{
		/* a record with code 256 and a valid CRC is still refused */
		char bad[256];
		int len = snprintf(bad, sizeof(bad), "rapido-status v1 %s exit 256 - ", NONCE);

		n = (size_t)snprintf(data, sizeof(data), "\n%scrc=%08x\n", bad, crc32_buf(0, bad, (size_t)len));
		TAP_EQ_INT(status_record_find_last(data, n, NONCE, &r), -ENOENT, "code out of range refused");
	}
	return tap_done();
}
