/* SPDX-License-Identifier: GPL-2.0 */
/*
 * execframe.h: ./vmctl N exec's answer from the guest, framed so that it
 * survives the virtio console it travels on (tools/exec writes it,
 * src/vmctl/console.c reads it).
 *
 * The console is a tty shared with the shell's prompt and echo, and maybe
 * with kernel messages (console=hvc0): its line discipline turns "\n" into
 * "\r\n", and a printk can land anywhere, even in the middle of a line. So
 * the command's bytes travel as printable lines only, one write(2) each:
 *
 *	NONCE:K SEQ BASE64 CRC
 *
 * NONCE is the 16 hex digits vmctl chose for this exec (the typed command
 * line never holds NONCE followed by ':', so its echo is never a frame);
 * K the kind; SEQ the frame's number, from 0 with no gaps; BASE64 the
 * frame's bytes; CRC the CRC-32 of everything before the space in front of
 * it, in 8 lowercase hex digits. A line is a frame if it ends in one, so
 * text before it on its line is ignored; lines that hold no frame are not
 * ours (the echo, prompts, kernel messages). A frame that is damaged, lost
 * (a gap in SEQ) or out of place is an error, never silently skipped.
 *
 * An answer: begin, then stdout and stderr frames as the command wrote,
 * then exit; or begin, then refused. The way there: vmctl types
 * "rapido-exec NONCE CRC BASE64..." to the console shell, the command in
 * base64 split over arguments on lines of their own, CRC its CRC-32.
 */
#ifndef RAPIDO_EXECFRAME_H
#define RAPIDO_EXECFRAME_H

#include <stddef.h>
#include <stdint.h>

#include "base64.h"

#define EXECFRAME_NONCE_LEN 16		/* lowercase hex digits */
#define EXECFRAME_VERSION 1		/* the begin frame's byte */
#define EXECFRAME_DATA_MAX 768		/* bytes a frame carries */
/* a frame line without its newline: NONCE ":" K " " SEQ(<= 20) " " BASE64 " " CRC */
#define EXECFRAME_LINE_MAX (EXECFRAME_NONCE_LEN + 3 + 20 + 1 + BASE64_LEN(EXECFRAME_DATA_MAX) + 1 + 8)
/*
 * The longest command: Linux limits one argument to MAX_ARG_STRLEN (32
 * pages), its NUL included, so vmctl gets no longer CMD and bash -c takes
 * no longer one.
 */
#define EXECFRAME_CMD_MAX (32 * 4096 - 1)

enum execframe_kind {
	EXECFRAME_BEGIN = 'b',		/* the helper started: the protocol version */
	EXECFRAME_OUT = 'o',		/* bytes the command wrote to its stdout */
	EXECFRAME_ERR = 'e',		/* ... to its stderr */
	EXECFRAME_EXIT = 'x',		/* it ended: its status (one byte; 128+N for signal N) */
	EXECFRAME_REFUSED = 'r',	/* the helper did not run it: why, as text */
	/*
	 * Not a frame: "NONCE:n" alone, which the typed shell line prints
	 * when the image has no rapido-exec (cut before it existed).
	 */
	EXECFRAME_NO_HELPER = 'n',
};

struct execframe {
	int kind;
	unsigned long seq;
	size_t len;
	unsigned char data[EXECFRAME_DATA_MAX];
};

/* A nonce is EXECFRAME_NONCE_LEN lowercase hex digits. */
int execframe_nonce_valid(const char *nonce);
/* A CRC is written as 8 lowercase hex digits: s's first 8 into *crc, or -1. */
int execframe_crc_parse(const char *s, uint32_t *crc);

/*
 * Format one frame of len (<= EXECFRAME_DATA_MAX) bytes into buf, at least
 * EXECFRAME_LINE_MAX + 2 bytes; returns its length, the newline included.
 */
size_t execframe_format(char *buf, const char *nonce, int kind, unsigned long seq,
			const void *data, size_t len);

/*
 * One console line (without its newline; trailing '\r's are ignored): 0 if
 * it holds no frame for nonce, 1 with *f filled if it ends in one, -EBADMSG
 * with *why set if it holds nonce's frame start but no valid frame after it.
 */
int execframe_parse(const char *nonce, const char *line, size_t len, struct execframe *f,
		    const char **why);

enum execframe_state {
	EXECFRAME_WAITING,	/* for the begin frame */
	EXECFRAME_RUNNING,	/* the command runs: output frames, then the exit frame */
	EXECFRAME_DONE,		/* the exit frame came */
	EXECFRAME_FAILED,	/* an error, in err */
};

/* Reads the console stream: whole frames in order, in bounded memory. */
struct execframe_reader {
	char nonce[EXECFRAME_NONCE_LEN + 1];
	enum execframe_state state;
	int rc;				/* what feed returns once failed or done */
	int status;			/* the exit frame's */
	unsigned long next;		/* SEQ of the frame due next */
	size_t len;			/* bytes in line */
	char line[2 * EXECFRAME_LINE_MAX];	/* the end of the current line */
	struct execframe f;
	char err[256];
};

void execframe_reader_init(struct execframe_reader *r, const char *nonce);

/* Called for each output frame (EXECFRAME_OUT, EXECFRAME_ERR), in order. */
typedef void execframe_out_fn(const struct execframe *f, void *arg);

/*
 * Feed n bytes read from the console. Returns 0 to go on reading, 1 once
 * the exit frame came (r->status), or, with r->err saying what happened:
 *	-EBADMSG	a frame damaged, lost or out of place
 *	-EPROTO		a helper of another protocol version
 *	-ENOEXEC	the image has no rapido-exec
 *	-ECANCELED	the helper refused to run the command (its reason in err)
 * Once it returned non-zero it returns the same again and reads no more.
 */
int execframe_reader_feed(struct execframe_reader *r, const void *buf, size_t n,
			  execframe_out_fn *fn, void *arg);

#endif
