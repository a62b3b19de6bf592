// SPDX-License-Identifier: GPL-2.0
/* status.c: the framed exit-status record the guest init sends the host (see status.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "num.h"
#include "pct.h"
#include "status.h"

/*
 * "\nrapido-status v1 NONCE KIND CODE MSG crc=XXXXXXXX\n": the leading
 * newline ends whatever junk a script left on the line; MSG is "-" when
 * empty. The CRC covers "rapido-status" up to and including the space
 * before "crc=".
 */
#define TAG "rapido-status v1 "
/* the escaped message, so that a whole record stays under STATUS_RECORD_MAX */
#define ESCAPED_MAX 800

uint32_t crc32_buf(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1u));
	}
	return ~crc;
}

int status_nonce_valid(const char *nonce)
{
	return strlen(nonce) == STATUS_NONCE_LEN && hex_is_lower(nonce, STATUS_NONCE_LEN);
}

/* "exit-tests": an exit whose failures were all failed tests */
static const char *kind_name(const struct status_record *r)
{
	return r->kind == STATUS_INIT_ERROR ? "init-error" : r->tests_only ? "exit-tests" : "exit";
}

size_t status_record_format(char *buf, const char *nonce, const struct status_record *r)
{
	char msg[ESCAPED_MAX + 1];
	size_t n;
	int len;

	/* "-" is no message; a message of "-" alone is escaped */
	pct_escape_field(msg, ESCAPED_MAX, r->msg);
	/* 1 + 17 + 32 + 1 + 10 + 1 + 3 + 1 + 800 + 1 + 13 + 1 < STATUS_RECORD_MAX */
	len = snprintf(buf + 1, STATUS_RECORD_MAX - 1, TAG "%.32s %s %d %s ", nonce, kind_name(r),
		       r->code, msg);
	buf[0] = '\n';
	n = 1 + (size_t)len;
	n += (size_t)sprintf(buf + n, "crc=%08x\n", crc32_buf(0, buf + 1, n - 1));
	return n;
}

/* Parse one candidate line [p, end) that starts with TAG. */
static int parse_record(const char *p, const char *end, const char *nonce, struct status_record *r)
{
	char line[STATUS_RECORD_MAX + 1], kind[16], msg[ESCAPED_MAX + 1], *crcp;
	uint64_t crc;
	int code, used = 0;
	size_t n = (size_t)(end - p);

	if (n > STATUS_RECORD_MAX)
		return -1;
	memcpy(line, p, n);
	line[n] = '\0';
	if (n && line[n - 1] == '\r')	/* a tty that was not raw adds one */
		line[--n] = '\0';
	/* the record ends with " crc=XXXXXXXX"; the message may hold "crc=" too */
	if (n < 13 || memcmp(line + n - 13, " crc=", 5))
		return -1;
	crcp = line + n - 13;
	if (num_parse_base(crcp + 5, 16, 0, UINT32_MAX, &crc, NULL) ||
	    crc32_buf(0, line, (size_t)(crcp + 1 - line)) != (uint32_t)crc)
		return -1;
	*crcp = '\0';
	if (strncmp(line + strlen(TAG), nonce, STATUS_NONCE_LEN) ||
	    line[strlen(TAG) + STATUS_NONCE_LEN] != ' ')
		return -1;
	if (sscanf(line + strlen(TAG) + STATUS_NONCE_LEN + 1, "%15s %d %800s%n", kind, &code, msg,
		   &used) != 3 || line[strlen(TAG) + STATUS_NONCE_LEN + 1 + used] || code < 0 || code > 255)
		return -1;
	r->tests_only = !strcmp(kind, "exit-tests");
	if (!strcmp(kind, "exit") || r->tests_only)
		r->kind = STATUS_EXIT;
	else if (!strcmp(kind, "init-error"))
		r->kind = STATUS_INIT_ERROR;
	else
		return -1;
	r->code = code;
	pct_unescape_field(msg);
	/* no more than STATUS_MSG_MAX bytes of message are kept */
	msg[STATUS_MSG_MAX] = '\0';
	strcpy(r->msg, msg);
	return 0;
}

int status_record_find_last(const char *data, size_t len, const char *nonce,
			    struct status_record *r)
{
	const char *end = data + len, *p = data;
	int found = -ENOENT;

	while (p < end) {
		const char *hit = memmem(p, (size_t)(end - p), TAG, strlen(TAG)), *nl;
		struct status_record tmp;

		if (!hit)
			break;
		nl = memchr(hit, '\n', (size_t)(end - hit));
		if (!nl)
			break;		/* cut off: the port closed mid-record */
		if (parse_record(hit, nl, nonce, &tmp) == 0) {
			*r = tmp;
			found = 0;
		}
		p = hit + 1;
	}
	return found;
}
