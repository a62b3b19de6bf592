// SPDX-License-Identifier: GPL-2.0
/* execframe.c: ./vmctl N exec's framed answer, written and read (see execframe.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "execframe.h"
#include "hex.h"
#include "status.h"

int execframe_nonce_valid(const char *nonce)
{
	return strlen(nonce) == EXECFRAME_NONCE_LEN && hex_is_lower(nonce, EXECFRAME_NONCE_LEN);
}

int execframe_crc_parse(const char *s, uint32_t *crc)
{
	if (!hex_is_lower(s, 8))
		return -1;
	*crc = 0;
	for (int i = 0; i < 8; i++)
		*crc = *crc << 4 | (uint32_t)hex_digit(s[i]);
	return 0;
}

size_t execframe_format(char *buf, const char *nonce, int kind, unsigned long seq,
			const void *data, size_t len)
{
	size_t n = (size_t)sprintf(buf, "%s:%c %lu ", nonce, kind, seq);

	n += base64_encode(buf + n, data, len);
	n += (size_t)sprintf(buf + n, " %08x\n", crc32_buf(0, buf, n));
	return n;
}

/* The last "NONCE:" in line[0..len), or NULL. */
static const char *find_start(const char *nonce, const char *line, size_t len)
{
	size_t nl = EXECFRAME_NONCE_LEN;

	for (size_t i = len; i-- > 0;)
		if (line[i] == ':' && i >= nl && !memcmp(line + i - nl, nonce, nl))
			return line + i - nl;
	return NULL;
}

/* Digits only, no leading zero, at most 20 of them, and within unsigned long. */
static int parse_seq(const char *s, size_t len, unsigned long *out)
{
	unsigned long v = 0;

	if (!len || len > 20 || (s[0] == '0' && len > 1))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (~0ul - (unsigned long)(s[i] - '0')) / 10)
			return -1;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	*out = v;
	return 0;
}

int execframe_parse(const char *nonce, const char *line, size_t len, struct execframe *f,
		    const char **why)
{
	const char *s, *end, *seq, *b64, *crcp;
	uint32_t crc;
	ssize_t got;

	while (len && line[len - 1] == '\r')
		len--;
	s = find_start(nonce, line, len);
	if (!s)
		return 0;
	end = line + len;
	/* the shell's bare "NONCE:n": no frame, and so no SEQ or CRC */
	if (end - s == EXECFRAME_NONCE_LEN + 2 && s[EXECFRAME_NONCE_LEN + 1] == EXECFRAME_NO_HELPER) {
		f->kind = EXECFRAME_NO_HELPER;
		f->seq = 0;
		f->len = 0;
		return 1;
	}
	*why = "not a frame (cut short, or other text in it)";
	/* the CRC first: past it, every field is as the helper wrote it */
	if (end - s < EXECFRAME_NONCE_LEN + 1 + 1 + 1 + 1 + 1 + 1 + 8 || end[-9] != ' ')
		return -EBADMSG;
	crcp = end - 8;
	if (execframe_crc_parse(crcp, &crc))
		return -EBADMSG;
	if (crc32_buf(0, s, (size_t)(crcp - 1 - s)) != crc) {
		*why = "its CRC does not match (damaged on the way)";
		return -EBADMSG;
	}
	f->kind = s[EXECFRAME_NONCE_LEN + 1];
	*why = "unknown kind";
	if (!strchr("boexr", f->kind) || !f->kind || s[EXECFRAME_NONCE_LEN + 2] != ' ')
		return -EBADMSG;
	seq = s + EXECFRAME_NONCE_LEN + 3;
	b64 = memchr(seq, ' ', (size_t)(crcp - 1 - seq));
	*why = "no sequence number";
	if (!b64 || parse_seq(seq, (size_t)(b64 - seq), &f->seq))
		return -EBADMSG;
	b64++;
	*why = "more data than a frame carries";
	if (crcp - 1 - b64 > (ptrdiff_t)BASE64_LEN(EXECFRAME_DATA_MAX))
		return -EBADMSG;
	got = base64_decode(f->data, b64, (size_t)(crcp - 1 - b64));
	*why = "its data is not base64";
	if (got < 0)
		return -EBADMSG;
	f->len = (size_t)got;
	*why = "no data";
	if (!f->len)
		return -EBADMSG;
	*why = "a begin or exit frame holds one byte";
	if ((f->kind == EXECFRAME_BEGIN || f->kind == EXECFRAME_EXIT) && f->len != 1)
		return -EBADMSG;
	return 1;
}

void execframe_reader_init(struct execframe_reader *r, const char *nonce)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->nonce, sizeof(r->nonce), "%s", nonce);
	r->state = EXECFRAME_WAITING;
}

static int fail(struct execframe_reader *r, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct execframe_reader *r, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	r->state = EXECFRAME_FAILED;
	r->rc = rc;
	return rc;
}

static const char *kind_name(int kind)
{
	switch (kind) {
	case EXECFRAME_BEGIN:
		return "begin";
	case EXECFRAME_OUT:
		return "stdout";
	case EXECFRAME_ERR:
		return "stderr";
	case EXECFRAME_EXIT:
		return "exit";
	default:
		return "refusal";
	}
}

/* One whole line: a frame in its place, or not ours. */
static int take_line(struct execframe_reader *r, const char *line, size_t len, execframe_out_fn *fn,
		     void *arg)
{
	struct execframe *f = &r->f;
	const char *why;
	int rc = execframe_parse(r->nonce, line, len, f, &why);

	if (!rc)
		return 0;
	if (rc < 0)
		return fail(r, -EBADMSG, "frame %lu of the answer was damaged on the console: %s",
			    r->next, why);
	if (f->kind == EXECFRAME_NO_HELPER) {
		if (r->state != EXECFRAME_WAITING)
			return fail(r, -EBADMSG, "a shell's \"no rapido-exec\" line after frame %lu",
				    r->next - 1);
		return fail(r, -ENOEXEC, "the image has no rapido-exec (cut before ./vmctl exec used it?)");
	}
	if (f->seq != r->next)
		return fail(r, -EBADMSG, "frame %lu came where frame %lu was due (frames lost or "
			    "damaged on the console)", f->seq, r->next);
	r->next++;
	if ((r->state == EXECFRAME_WAITING) != (f->kind == EXECFRAME_BEGIN))
		return fail(r, -EBADMSG, "a %s frame as frame %lu", kind_name(f->kind), f->seq);
	switch (f->kind) {
	case EXECFRAME_BEGIN:
		if (f->data[0] != EXECFRAME_VERSION)
			return fail(r, -EPROTO, "the image's rapido-exec speaks version %u, this vmctl "
				    "version %u (cut the image again)", f->data[0], EXECFRAME_VERSION);
		r->state = EXECFRAME_RUNNING;
		return 0;
	case EXECFRAME_OUT:
	case EXECFRAME_ERR:
		fn(f, arg);
		return 0;
	case EXECFRAME_EXIT:
		r->state = EXECFRAME_DONE;
		r->status = f->data[0];
		r->rc = 1;
		return 1;
	default: {
		/* the helper's reason, printable bytes only */
		char msg[EXECFRAME_DATA_MAX + 1];

		for (size_t i = 0; i < f->len; i++)
			msg[i] = f->data[i] >= ' ' && f->data[i] < 0x7f ? (char)f->data[i] : '?';
		msg[f->len] = '\0';
		return fail(r, -ECANCELED, "%.200s", msg);
	}
	}
}

int execframe_reader_feed(struct execframe_reader *r, const void *buf, size_t n,
			  execframe_out_fn *fn, void *arg)
{
	const char *p = buf, *end = p + n;

	if (r->state == EXECFRAME_FAILED || r->state == EXECFRAME_DONE)
		return r->rc;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t take = (size_t)((nl ? nl : end) - p);
		int rc;

		/*
		 * A frame ends its line, so only a line's last EXECFRAME_LINE_MAX
		 * bytes matter: keep at most twice that, dropping the oldest.
		 */
		while (take) {
			size_t room = sizeof(r->line) - r->len, k = take < room ? take : room;

			memcpy(r->line + r->len, p, k);
			r->len += k;
			p += k;
			take -= k;
			if (r->len == sizeof(r->line)) {
				memmove(r->line, r->line + r->len - EXECFRAME_LINE_MAX, EXECFRAME_LINE_MAX);
				r->len = EXECFRAME_LINE_MAX;
			}
		}
		if (!nl)
			break;
		p++;
		rc = take_line(r, r->line, r->len, fn, arg);
		r->len = 0;
		if (rc)
			return rc;
	}
	return 0;
}
