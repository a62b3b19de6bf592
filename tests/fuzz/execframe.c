// SPDX-License-Identifier: GPL-2.0
/*
 * execframe.c: fuzz the reader of ./vmctl N exec's answer (src/lib/
 * execframe.c), which reads a console any guest program (and the kernel)
 * can write to. The input is what the console carried. Properties: how the
 * input is cut into reads changes nothing (the same result, status and
 * output); output never outgrows the base64 that carried it; a status is
 * a byte; once done or failed, the reader reads no more. And an answer
 * framed from the input's bytes, with lines of the input between its
 * frames, reads back exactly, its status the first byte.
 */
#include <errno.h>

#include "execframe.h"
#include "fuzz.h"
#include "strbuf.h"

static const char nonce[] = "0123456789abcdef";

struct sink {
	struct strbuf out;	/* stdout and stderr bytes, each tagged with its stream */
	size_t bytes;
};

static void collect(const struct execframe *f, void *arg)
{
	struct sink *s = arg;

	fuzz_assert(f->kind == EXECFRAME_OUT || f->kind == EXECFRAME_ERR, "kind %c", f->kind);
	fuzz_assert(f->len >= 1 && f->len <= EXECFRAME_DATA_MAX, "a frame of %zu bytes", f->len);
	strbuf_addc(&s->out, (char)f->kind);
	strbuf_add(&s->out, (const char *)f->data, f->len);
	s->bytes += f->len;
}

/* Feed data in reads of step bytes (0: one read); the reader's result. */
static int read_all(struct execframe_reader *r, struct sink *s, const char *data, size_t size, size_t step)
{
	int rc = 0;

	execframe_reader_init(r, nonce);
	for (size_t i = 0; i < size; i += step ? step : size) {
		size_t n = step && size - i > step ? step : size - i;

		rc = execframe_reader_feed(r, data + i, n, collect, s);
		if (rc) {
			fuzz_assert(r->state == (rc == 1 ? EXECFRAME_DONE : EXECFRAME_FAILED), "rc %d in state %d",
				    rc, r->state);
			fuzz_assert(execframe_reader_feed(r, data, size, collect, s) == rc, "read on after %d", rc);
			break;
		}
	}
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct execframe_reader r1, r2;
	struct sink a = { STRBUF_INIT, 0 }, b = { STRBUF_INIT, 0 };
	struct strbuf st = STRBUF_INIT;
	const char *in = (const char *)data;
	int rc1, rc2;
	size_t seq = 0;

	/* the input as the console */
	rc1 = read_all(&r1, &a, in, size, 0);
	rc2 = read_all(&r2, &b, in, size, size ? data[0] % 13 + 1 : 1);
	fuzz_assert(rc1 == rc2, "one read: %d, small reads: %d", rc1, rc2);
	fuzz_assert(a.out.len == b.out.len && (!a.out.len || !memcmp(a.out.s, b.out.s, a.out.len)),
		    "the output depends on how the input was cut");
	fuzz_assert(rc1 != 1 || r1.status == r2.status, "status %d and %d", r1.status, r2.status);
	fuzz_assert(rc1 == 0 || rc1 == 1 || rc1 == -EBADMSG || rc1 == -EPROTO || rc1 == -ENOEXEC ||
		    rc1 == -ECANCELED, "rc %d", rc1);
	fuzz_assert(a.bytes / 3 * 4 <= size, "%zu bytes out of %zu in", a.bytes, size);
	strbuf_free(&a.out);
	strbuf_free(&b.out);

	/* an answer of the input's bytes, its lines (no ':', so no frame start) between the frames */
	{
		char line[EXECFRAME_LINE_MAX + 2];
		const unsigned char v = EXECFRAME_VERSION, status = size ? data[0] : 0;
		struct strbuf want = STRBUF_INIT;

		strbuf_add(&st, line, execframe_format(line, nonce, EXECFRAME_BEGIN, seq++, &v, 1));
		for (size_t i = 0; i < size;) {
			size_t n = size - i < EXECFRAME_DATA_MAX ? size - i : data[i] % EXECFRAME_DATA_MAX + 1;
			int kind = data[i] & 1 ? EXECFRAME_ERR : EXECFRAME_OUT;

			strbuf_add(&st, line, execframe_format(line, nonce, kind, seq++, data + i, n));
			strbuf_addc(&want, (char)kind);
			strbuf_add(&want, in + i, n);
			/* junk from the input, as kernel lines would be */
			for (size_t k = 0; k < n % 64; k++)
				strbuf_addc(&st, in[i + k] == ':' ? ';' : in[i + k]);
			strbuf_adds(&st, "\r\n");
			i += n;
		}
		strbuf_add(&st, line, execframe_format(line, nonce, EXECFRAME_EXIT, seq++, &status, 1));
		rc1 = read_all(&r1, &a, st.s, st.len, size % 7 + 1);
		fuzz_assert(rc1 == 1, "own answer: rc %d (%s)", rc1, r1.err);
		fuzz_assert(r1.status == status, "status %d read as %d", status, r1.status);
		fuzz_assert(a.out.len == want.len && (!want.len || !memcmp(a.out.s, want.s, want.len)),
			    "own answer: %zu bytes read back as %zu", want.len, a.out.len);
		strbuf_free(&want);
		strbuf_free(&a.out);
		strbuf_free(&st);
	}
	return 0;
}
