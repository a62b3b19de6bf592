// SPDX-License-Identifier: GPL-2.0
/* kmodfile.c: a module file's ELF bytes, decompressed in memory and capped (kmodfile.h). */
#include <errno.h>
#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "kmodfile.h"

/* what xz's decoder may take for its dictionary: xz -9's is 64 MiB */
#define XZ_MEMLIMIT (256u << 20)

int kmod_file_comp(const char *name)
{
	static const struct {
		const char *ext;
		int comp;
	} exts[] = { { ".ko", 0 }, { ".ko.xz", KMOD_COMP_XZ }, { ".ko.zst", KMOD_COMP_ZSTD },
		     { ".ko.gz", KMOD_COMP_GZ } };
	size_t l = strlen(name);

	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		size_t el = strlen(exts[i].ext);

		if (l > el && !strcmp(name + l - el, exts[i].ext))
			return exts[i].comp;
	}
	return -1;
}

const char *kmod_file_comp_name(unsigned int comp)
{
	return comp == KMOD_COMP_XZ ? "xz" : comp == KMOD_COMP_ZSTD ? "zstd" : "gzip";
}

/* The output so far; grown by doubling up to max + 1 bytes (one more shows a file past max). */
struct obuf {
	unsigned char *p;
	size_t len, cap, max;
};

/* Room for more output: 0, -EFBIG when it is full at max + 1, -ENOMEM. */
static int obuf_grow(struct obuf *o)
{
	size_t cap = o->cap ? 2 * o->cap : 1u << 16;
	unsigned char *p;

	if (o->cap > o->max)
		return -EFBIG;
	if (cap > o->max + 1)
		cap = o->max + 1;
	p = realloc(o->p, cap);
	if (!p)
		return -ENOMEM;
	o->p = p;
	o->cap = cap;
	return 0;
}

static int xz_decode(const void *in, size_t len, struct obuf *o)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret r;
	int rc = 0;

	/* LZMA_CONCATENATED as libkmod: streams one after another, with padding */
	if (lzma_stream_decoder(&s, XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK)
		return -ENOMEM;
	s.next_in = in;
	s.avail_in = len;
	do {
		if (o->len == o->cap && (rc = obuf_grow(o)))
			break;
		s.next_out = o->p + o->len;
		s.avail_out = o->cap - o->len;
		r = lzma_code(&s, LZMA_FINISH);
		o->len = o->cap - s.avail_out;
	} while (r == LZMA_OK);
	if (!rc && r != LZMA_STREAM_END)
		rc = r == LZMA_MEM_ERROR ? -ENOMEM : -EBADMSG;
	lzma_end(&s);
	return rc;
}

static int zstd_decode(const void *in, size_t len, struct obuf *o)
{
	ZSTD_DStream *d = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, len, 0 };
	size_t r = 1;
	int rc = 0;

	if (!d)
		return -ENOMEM;
	/* frame after frame to the end of the input; r is 0 where a frame ended */
	while (ib.pos < ib.size || r != 0) {
		ZSTD_outBuffer ob;
		size_t in_before = ib.pos;

		if (o->len == o->cap && (rc = obuf_grow(o)))
			break;
		ob = (ZSTD_outBuffer){ o->p, o->cap, o->len };
		r = ZSTD_decompressStream(d, &ob, &ib);
		if (ZSTD_isError(r)) {
			rc = -EBADMSG;
			break;
		}
		/* room for output, and none came nor was input taken: the input ended inside a frame */
		if (ib.pos == in_before && ob.pos == o->len) {
			rc = -EBADMSG;
			break;
		}
		o->len = ob.pos;
	}
	ZSTD_freeDStream(d);
	return rc;
}

static int gz_decode(const void *in, size_t len, struct obuf *o)
{
	z_stream z;
	int r = Z_OK, rc = 0;

	/* zlib counts in unsigned int; no module is 4 GiB */
	if (len > UINT32_MAX || o->max >= UINT32_MAX)
		return -EFBIG;
	memset(&z, 0, sizeof(z));
	/* 16 + MAX_WBITS: a gzip header, not a zlib one */
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return -ENOMEM;
	z.next_in = (unsigned char *)(uintptr_t)in;
	z.avail_in = (unsigned int)len;
	for (;;) {
		unsigned int in_before, out_before;

		if (r == Z_STREAM_END) {
			/* another member after this one, as gzip -d reads them */
			if (!z.avail_in)
				break;
			if (inflateReset(&z) != Z_OK) {
				rc = -EBADMSG;
				break;
			}
		}
		if (o->len == o->cap && (rc = obuf_grow(o)))
			break;
		z.next_out = o->p + o->len;
		z.avail_out = (unsigned int)(o->cap - o->len);
		in_before = z.avail_in;
		out_before = z.avail_out;
		r = inflate(&z, Z_NO_FLUSH);
		o->len += out_before - z.avail_out;
		if (r == Z_MEM_ERROR) {
			rc = -ENOMEM;
			break;
		}
		/* an error, or no progress though there was room: not a whole stream */
		if ((r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR) ||
		    (r != Z_STREAM_END && in_before == z.avail_in && out_before == z.avail_out)) {
			rc = -EBADMSG;
			break;
		}
	}
	inflateEnd(&z);
	return rc;
}

int kmod_file_decompress(unsigned int comp, const void *in, size_t len, size_t max, void **out,
			 size_t *out_len)
{
	struct obuf o = { NULL, 0, 0, max };
	int rc;

	*out = NULL;
	*out_len = 0;
	if (comp == KMOD_COMP_XZ)
		rc = xz_decode(in, len, &o);
	else if (comp == KMOD_COMP_ZSTD)
		rc = zstd_decode(in, len, &o);
	else if (comp == KMOD_COMP_GZ)
		rc = gz_decode(in, len, &o);
	else
		rc = -EINVAL;
	if (!rc && o.len > max)
		rc = -EFBIG;
	if (rc) {
		free(o.p);
		return rc;
	}
	*out = o.p ? o.p : malloc(1);
	if (!*out)
		return -ENOMEM;
	*out_len = o.len;
	return 0;
}
