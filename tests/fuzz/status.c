// SPDX-License-Identifier: GPL-2.0
/*
 * status.c: fuzz the status record, the guest's verdict as the host reads
 * it from a serial line any guest program can write to. The input is what
 * the line carried, and a record to send. Properties: what is found has a
 * valid kind, a code in 0..255 and a bounded message; a record found reads
 * back the same through format; a record formatted in the middle of any
 * junk (that holds no record of its own after it) is the one found, its
 * kind, code and tests-only word exact (an init error has none) and its
 * message whole or, escaped past the limit, cut short; another nonce finds
 * nothing of it.
 */
#include <errno.h>

#include "fuzz.h"
#include "status.h"

static const char nonce[] = "0123456789abcdef0123456789abcdef";
static const char other[] = "fedcba9876543210fedcba9876543210";

/* r formatted, read back: same kind and code; the message, or a prefix of it */
static void round_trip(const struct status_record *r, const char *junk, size_t jlen, int whole)
{
	size_t cap = jlen + STATUS_RECORD_MAX, n;
	char *buf = malloc(cap);
	struct status_record got;

	if (!buf)
		abort();
	memcpy(buf, junk, jlen);
	n = jlen + status_record_format(buf + jlen, nonce, r);
	fuzz_assert(n - jlen < STATUS_RECORD_MAX, "record of %zu bytes", n - jlen);
	fuzz_assert(!status_record_find_last(buf, n, nonce, &got), "own record not found");
	fuzz_assert(got.kind == r->kind && got.code == r->code, "kind %d code %d read as %d %d",
		    r->kind, r->code, got.kind, got.code);
	fuzz_assert(got.tests_only == (r->kind == STATUS_EXIT && r->tests_only),
		    "tests-only %d of kind %d read as %d", r->tests_only, r->kind, got.tests_only);
	if (whole)
		fuzz_assert(!strcmp(got.msg, r->msg), "message \"%s\" read as \"%s\"", r->msg, got.msg);
	else
		fuzz_assert(!strncmp(got.msg, r->msg, strlen(got.msg)),
			    "message \"%s\" read as \"%s\"", r->msg, got.msg);
	fuzz_assert(status_record_find_last(buf + jlen, n - jlen, other, &got) == -ENOENT,
		    "found with another nonce");
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct status_record r, mine;
	size_t escaped = 0, mlen;

	/* what the line carried */
	if (!status_record_find_last((const char *)data, size, nonce, &r)) {
		fuzz_assert(r.kind == STATUS_EXIT || r.kind == STATUS_INIT_ERROR, "kind %d", r.kind);
		fuzz_assert(r.code >= 0 && r.code <= 255, "code %d", r.code);
		fuzz_assert(!r.tests_only || r.kind == STATUS_EXIT, "an init error's tests-only");
		fuzz_assert(strlen(r.msg) <= STATUS_MSG_MAX, "message of %zu bytes", strlen(r.msg));
		for (const unsigned char *p = (const unsigned char *)r.msg; *p; p++)
			escaped += *p <= ' ' || *p == '%' || *p == 0x7f ? 3 : 1;
		round_trip(&r, "", 0, escaped <= 797);
	}
	/* a record of the input's first bytes, after the rest as junk */
	if (size < 2)
		return 0;
	memset(&mine, 0, sizeof(mine));
	mine.code = data[0];
	mine.kind = data[1] & 1 ? STATUS_INIT_ERROR : STATUS_EXIT;
	mine.tests_only = !!(data[1] & 2);
	mlen = size - 2 < STATUS_MSG_MAX ? size - 2 : STATUS_MSG_MAX;
	memcpy(mine.msg, data + 2, mlen);
	mine.msg[mlen] = '\0';
	escaped = 0;
	for (const unsigned char *p = (const unsigned char *)mine.msg; *p; p++)
		escaped += *p <= ' ' || *p == '%' || *p == 0x7f ? 3 : 1;
	round_trip(&mine, (const char *)data, size, escaped <= 797);
	return 0;
}
