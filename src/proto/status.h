/* SPDX-License-Identifier: GPL-2.0 */
/*
 * status.h: the guest init's report to the host, and how the host finds it.
 *
 * The status port (ttyS1) is a plain serial line that any guest program can
 * write to, so a bare number on it proves nothing. The init's report is a
 * framed record: a fixed tag, the per-boot nonce the host put on the kernel
 * command line, the code, an optional message, and a CRC32 over all of it.
 * The host ignores anything that is not such a record for its own nonce and
 * takes the last valid one; the init writes its record only after it has
 * killed every other process, on the port it opened before the scripts
 * started (a test that removes /dev/ttyS1 cannot stop it), so nothing a
 * script did can come after it.
 */
#ifndef RAPIDO_STATUS_H
#define RAPIDO_STATUS_H

#include <stddef.h>
#include <stdint.h>

#define STATUS_NONCE_LEN 32	/* hex digits */
#define STATUS_MSG_MAX 512	/* bytes of message kept */
#define STATUS_RECORD_MAX 1024	/* a whole record, framing included */

enum status_kind {
	STATUS_EXIT,		/* the autorun scripts' exit status */
	/*
	 * no verdict: the init failed, or was signalled to power off before
	 * the profile finished; msg says how
	 */
	STATUS_INIT_ERROR,
};

struct status_record {
	enum status_kind kind;
	int code;				/* 0..255 */
	/*
	 * STATUS_EXIT: the autorun's failures were all failed tests (the
	 * guest library's bookkeeping, which the init reads once every other
	 * process is gone), so known failures may excuse them
	 */
	int tests_only;
	char msg[STATUS_MSG_MAX + 1];		/* "" if none */
};

uint32_t crc32_buf(uint32_t crc, const void *buf, size_t len);

/* A nonce must be STATUS_NONCE_LEN lowercase hex digits. */
int status_nonce_valid(const char *nonce);

/*
 * Format a record into buf (at least STATUS_RECORD_MAX bytes); returns its
 * length. Control characters and '%' in msg are %-escaped.
 */
size_t status_record_format(char *buf, const char *nonce, const struct status_record *r);

/*
 * Find the last valid record for nonce in data[0..len); 0 if found (*r
 * filled), -ENOENT if none.
 */
int status_record_find_last(const char *data, size_t len, const char *nonce,
			    struct status_record *r);

#endif
