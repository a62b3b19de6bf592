// SPDX-License-Identifier: GPL-2.0
/*
 * lib-execframe.c: ./vmctl N exec's frames and base64 (src/proto/execframe.c,
 * base64.c): a whole answer reads back byte for byte however the console
 * cut, echoed or CRLF'd it; hostile streams (cut short, damaged, bad
 * base64, frames lost, doubled or out of place, kernel lines inside a
 * frame) give a clear error, never wrong output taken as a pass.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base64.h"
#include "err.h"
#include "execframe.h"
#include "status.h"
#include "strbuf.h"
#include "tap.h"

#define NONCE "0123456789abcdef"
#define OTHER "fedcba9876543210"

struct sink {
	struct strbuf out, err;
	int frames;
};

static void collect(const struct execframe *f, void *arg)
{
	struct sink *s = arg;

	strbuf_add(f->kind == EXECFRAME_OUT ? &s->out : &s->err, (const char *)f->data, f->len);
	s->frames++;
}

static void frame(struct strbuf *sb, int kind, unsigned long seq, const void *data, size_t len)
{
	char line[EXECFRAME_LINE_MAX + 2];

	strbuf_add(sb, line, execframe_format(line, NONCE, kind, seq, data, len));
}

/* body, then " CRC\n" over it: a line whose CRC holds whatever else is wrong with it */
static void crc_line(struct strbuf *sb, const char *body)
{
	char crc[16];

	strbuf_adds(sb, body);
	snprintf(crc, sizeof(crc), " %08x\n", crc32_buf(0, body, strlen(body)));
	strbuf_adds(sb, crc);
}

/* Feed len bytes chunk at a time (0: all at once) into a fresh reader; feed's last return. */
static int feed(struct execframe_reader *r, struct sink *s, const char *buf, size_t len, size_t chunk)
{
	int rc = 0;

	execframe_reader_init(r, NONCE);
	strbuf_free(&s->out);
	strbuf_free(&s->err);
	s->frames = 0;
	strbuf_adds(&s->out, "");
	strbuf_adds(&s->err, "");
	for (size_t i = 0; i < len && !rc; i += chunk ? chunk : len)
		rc = execframe_reader_feed(r, buf + i, chunk && len - i > chunk ? chunk : len - i, collect, s);
	return rc;
}

static const unsigned char one = EXECFRAME_VERSION;

int main(void)
{
	static const char *const rfc[][2] = {
		{ "", "" }, { "f", "Zg==" }, { "fo", "Zm8=" }, { "foo", "Zm9v" }, { "foob", "Zm9vYg==" },
		{ "fooba", "Zm9vYmE=" }, { "foobar", "Zm9vYmFy" },
	};
	static const char *const bad64[] = { "Zg=", "Zg=a", "Zh==", "Zm9=", "Z===", "Zm9v!A==", "Zg==Zg==", "=Zg=" };
	static struct execframe_reader r;
	unsigned char bin[2000], got[16];
	struct sink s = { STRBUF_INIT, STRBUF_INIT, 0 };
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	const unsigned char status = 3;
	char enc[16], *crlf;
	int ok, rc;

	tap_plan(32);

	/* base64: RFC 4648's vectors, and only canonical text */
	ok = 1;
	for (size_t i = 0; i < sizeof(rfc) / sizeof(rfc[0]); i++) {
		ssize_t n;

		base64_encode(enc, rfc[i][0], strlen(rfc[i][0]));
		n = base64_decode(got, rfc[i][1], strlen(rfc[i][1]));
		ok &= !strcmp(enc, rfc[i][1]) && n == (ssize_t)strlen(rfc[i][0]) &&
		      !memcmp(got, rfc[i][0], (size_t)n);
	}
	tap_ok(ok, "base64: RFC 4648's test vectors, both ways");
	ok = 1;
	for (size_t i = 0; i < sizeof(bad64) / sizeof(bad64[0]); i++)
		ok &= base64_decode(got, bad64[i], strlen(bad64[i])) == -1;
	tap_ok(ok, "base64: a short quad, '=' inside, padding bits set, a foreign character: refused");

	/* a whole answer: every byte value, more than one frame's worth, stderr between */
	for (size_t i = 0; i < sizeof(bin); i++)
		bin[i] = (unsigned char)(i * 7 + i / 256);
	bin[5] = '\0', bin[6] = '\r', bin[7] = '\n', bin[sizeof(bin) - 1] = '\r';
	strbuf_adds(&a, "rapido1:/#  if command -v rapido-exec >/dev/null; then rapido-exec " NONCE
		    " 0badc0de \\\r\n> cHJpbnRm; else printf '%s%s\\n' " NONCE " :n; fi\r\n");
	frame(&a, EXECFRAME_BEGIN, 0, &one, 1);
	frame(&a, EXECFRAME_OUT, 1, bin, EXECFRAME_DATA_MAX);
	frame(&a, EXECFRAME_ERR, 2, "oops\n", 5);
	frame(&a, EXECFRAME_OUT, 3, bin + EXECFRAME_DATA_MAX, EXECFRAME_DATA_MAX);
	frame(&a, EXECFRAME_OUT, 4, bin + 2 * EXECFRAME_DATA_MAX, sizeof(bin) - 2 * EXECFRAME_DATA_MAX);
	frame(&a, EXECFRAME_EXIT, 5, &status, 1);
	strbuf_adds(&a, "rapido1:/# ");
	rc = feed(&r, &s, a.s, a.len, 0);
	tap_ok(rc == 1 && r.status == 3 && s.out.len == sizeof(bin) && !memcmp(s.out.s, bin, sizeof(bin)) &&
	       !strcmp(s.err.s, "oops\n"), "a whole answer: status 3, stdout byte for byte, stderr apart");
	tap_ok(s.frames == 4, "  the echoed command line and the prompts are no frames (%d)", s.frames);
	rc = feed(&r, &s, a.s, a.len, 1);
	tap_ok(rc == 1 && r.status == 3 && s.out.len == sizeof(bin) && !memcmp(s.out.s, bin, sizeof(bin)),
	       "  the same fed one byte at a time");
	/* the tty's ONLCR: every \n as \r\n (and a \r more for good measure) */
	crlf = xmalloc(3 * a.len + 1);
	{
		size_t n = 0;

		for (size_t i = 0; i < a.len; i++) {
			if (a.s[i] == '\n')
				crlf[n++] = '\r', crlf[n++] = '\r';
			crlf[n++] = a.s[i];
		}
		rc = feed(&r, &s, crlf, n, 7);
	}
	free(crlf);
	tap_ok(rc == 1 && r.status == 3 && s.out.len == sizeof(bin) && !memcmp(s.out.s, bin, sizeof(bin)),
	       "  the same with \\r\\r\\n line ends, in 7-byte pieces");
	rc = feed(&r, &s, a.s, a.len / 2, 0);
	tap_ok(rc == 0 && r.state == EXECFRAME_RUNNING, "  half of it: running, waiting for more");
	feed(&r, &s, a.s, a.len, 0);
	tap_ok(execframe_reader_feed(&r, a.s, a.len, collect, &s) == 1 && s.frames == 4,
	       "  once done, more input is not read: 1 again, no more output");

	/* kernel lines between the frames: not ours */
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, &one, 1);
	strbuf_adds(&b, "[    1.234567] virtio_console: a kernel line\n");
	frame(&b, EXECFRAME_OUT, 1, "a\0b", 3);
	strbuf_adds(&b, "[    1.234568] random: crng init done\r\n\n\r\n");
	frame(&b, EXECFRAME_EXIT, 2, &status, 1);
	rc = feed(&r, &s, b.s, b.len, 0);
	tap_ok(rc == 1 && s.out.len == 3 && !memcmp(s.out.s, "a\0b", 3), "kernel lines between frames: ignored");
	/* text before a frame on its line (a kernel line without its newline): the frame ends the line */
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, &one, 1);
	strbuf_adds(&b, "[    1.5] partial kernel line ");
	frame(&b, EXECFRAME_OUT, 1, "x", 1);
	frame(&b, EXECFRAME_EXIT, 2, &status, 1);
	rc = feed(&r, &s, b.s, b.len, 0);
	tap_ok(rc == 1 && !strcmp(s.out.s, "x"), "text before a frame on its line: the frame still counts");

	/* a kernel line inside a frame: damaged, and said so */
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, &one, 1);
	frame(&b, EXECFRAME_OUT, 1, "hello world", 11);
	{
		char *mid = strstr(b.s, ":o 1 ") + 8;
		struct strbuf c = STRBUF_INIT;

		strbuf_add(&c, b.s, (size_t)(mid - b.s));
		strbuf_adds(&c, "[    2.000000] kernel: in the middle\n");
		strbuf_adds(&c, mid);
		frame(&c, EXECFRAME_EXIT, 2, &status, 1);
		rc = feed(&r, &s, c.s, c.len, 0);
		strbuf_free(&c);
	}
	TAP_EQ_INT(rc, -EBADMSG, "a kernel line inside a frame: EBADMSG");
	TAP_EQ_STR(r.err, "frame 1 of the answer was damaged on the console: not a frame (cut short, or other text in it)",
		   "  names the frame");
	tap_ok(s.out.len == 0, "  and nothing of it is output");
	TAP_EQ_INT(execframe_reader_feed(&r, "x\n", 2, collect, &s), -EBADMSG, "  the error sticks");

	/* one bit flipped in the data */
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, &one, 1);
	frame(&b, EXECFRAME_OUT, 1, "hello world", 11);
	b.s[b.len - 15] ^= 0x20;
	rc = feed(&r, &s, b.s, b.len, 0);
	tap_ok(rc == -EBADMSG && strstr(r.err, "its CRC does not match"), "a flipped bit: the CRC says so (%s)", r.err);

	/* a right CRC over wrong content */
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, &one, 1);
	crc_line(&b, NONCE ":o 1 aGk*");
	rc = feed(&r, &s, b.s, b.len, 0);
	tap_ok(rc == -EBADMSG && strstr(r.err, "not base64"), "bad base64: refused (%s)", r.err);
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, &one, 1);
	crc_line(&b, NONCE ":q 1 aGk=");
	crc_line(&b, NONCE ":o 01 aGk=");
	rc = feed(&r, &s, b.s, b.len, 0);
	tap_ok(rc == -EBADMSG && strstr(r.err, "unknown kind"), "an unknown kind: refused (%s)", r.err);
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, &one, 1);
	crc_line(&b, NONCE ":o 01 aGk=");
	rc = feed(&r, &s, b.s, b.len, 0);
	tap_ok(rc == -EBADMSG && strstr(r.err, "no sequence number"), "a sequence number with a leading 0: refused");
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, &one, 1);
	{
		char big[EXECFRAME_DATA_MAX + 3], line[BASE64_LEN(sizeof(big)) + 64];

		memset(big, 'x', sizeof(big));
		snprintf(line, sizeof(line), "%s:o 1 ", NONCE);
		base64_encode(line + strlen(line), big, sizeof(big));
		crc_line(&b, line);
	}
	rc = feed(&r, &s, b.s, b.len, 0);
	tap_ok(rc == -EBADMSG, "a frame with more than EXECFRAME_DATA_MAX bytes: refused (%s)", r.err);
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, &one, 1);
	frame(&b, EXECFRAME_EXIT, 1, "\0\0", 2);
	rc = feed(&r, &s, b.s, b.len, 0);
	tap_ok(rc == -EBADMSG && strstr(r.err, "one byte"), "an exit frame of two bytes: refused");

	/* cut short: no exit frame, or a frame without its newline, means no status yet */
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, &one, 1);
	frame(&b, EXECFRAME_OUT, 1, "abc", 3);
	frame(&b, EXECFRAME_EXIT, 2, &status, 1);
	rc = feed(&r, &s, b.s, b.len - 1, 0);
	tap_ok(rc == 0 && r.state == EXECFRAME_RUNNING && !strcmp(s.out.s, "abc"),
	       "an exit frame without its newline: still running, no status");
	rc = feed(&r, &s, b.s, b.len - 10, 0);
	tap_ok(rc == 0 && r.state == EXECFRAME_RUNNING, "  nor with its end cut off");

	/* frames lost, doubled, out of place */
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, &one, 1);
	frame(&b, EXECFRAME_OUT, 1, "a", 1);
	frame(&b, EXECFRAME_OUT, 3, "c", 1);
	rc = feed(&r, &s, b.s, b.len, 0);
	TAP_EQ_STR(r.err, "frame 3 came where frame 2 was due (frames lost or damaged on the console)",
		   "a lost frame: named");
	TAP_EQ_INT(rc, -EBADMSG, "  EBADMSG");
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, &one, 1);
	frame(&b, EXECFRAME_OUT, 1, "a", 1);
	frame(&b, EXECFRAME_OUT, 1, "a", 1);
	rc = feed(&r, &s, b.s, b.len, 0);
	tap_ok(rc == -EBADMSG && !strcmp(s.out.s, "a"), "a doubled frame: refused, its bytes not output twice");
	strbuf_reset(&b);
	frame(&b, EXECFRAME_OUT, 0, "a", 1);
	rc = feed(&r, &s, b.s, b.len, 0);
	tap_ok(rc == -EBADMSG && !strcmp(r.err, "a stdout frame as frame 0"), "output before the begin frame: refused");
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, &one, 1);
	frame(&b, EXECFRAME_BEGIN, 1, &one, 1);
	rc = feed(&r, &s, b.s, b.len, 0);
	tap_ok(rc == -EBADMSG, "a second begin frame: refused");

	/* another exec's frames (another nonce) are not ours */
	{
		char line[EXECFRAME_LINE_MAX + 2];
		size_t n = execframe_format(line, OTHER, EXECFRAME_BEGIN, 0, &one, 1);

		rc = feed(&r, &s, line, n, 0);
		tap_ok(rc == 0 && r.state == EXECFRAME_WAITING, "another nonce's frame: ignored");
	}

	/* the image has no helper; the helper refused; another version */
	rc = feed(&r, &s, "x " NONCE " :n\r\n" NONCE ":n\r\n", strlen("x " NONCE " :n\r\n" NONCE ":n\r\n"), 0);
	tap_ok(rc == -ENOEXEC && strstr(r.err, "no rapido-exec"), "the shell's \"no helper\" line: ENOEXEC (its echo is not)");
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, &one, 1);
	frame(&b, EXECFRAME_REFUSED, 1, "the command arrived damaged\n\033[2J", 32);
	rc = feed(&r, &s, b.s, b.len, 0);
	tap_ok(rc == -ECANCELED && !strcmp(r.err, "the command arrived damaged??[2J"),
	       "the helper's refusal: ECANCELED, its reason without control characters");
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, "\2", 1);
	rc = feed(&r, &s, b.s, b.len, 0);
	tap_ok(rc == -EPROTO && strstr(r.err, "version 2"), "a helper of protocol version 2: EPROTO");

	/* a junk line longer than the reader keeps, a frame at its end */
	strbuf_reset(&b);
	frame(&b, EXECFRAME_BEGIN, 0, &one, 1);
	for (int i = 0; i < 20000; i++)
		strbuf_adds(&b, "junk ");
	frame(&b, EXECFRAME_EXIT, 1, "\0", 1);
	rc = feed(&r, &s, b.s, b.len, 333);
	tap_ok(rc == 1 && r.status == 0, "a 100 KB junk line with a frame at its end: read in bounded memory");
	strbuf_free(&a);
	strbuf_free(&b);
	strbuf_free(&s.out);
	strbuf_free(&s.err);
	return tap_done();
}
