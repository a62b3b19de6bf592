// SPDX-License-Identifier: GPL-2.0
/*
 * lib-hash.c: SHA-256 against FIPS 180-4 vectors and sha256sum, XXH64
 * against values printed by the reference xxhsum -H1, fed whole and in
 * odd pieces (the streaming paths must agree with the one-shot ones).
 * Where the CPU has SHA instructions, their compression function
 * (sha256ni.c, which sha256_init picks) against refhash.c's own at every
 * length up to four blocks and in every piece size up to a block.
 */
#include <stdio.h>
#include <string.h>

#include "hash.h"
#include "sha256ni.h"
#include "tap.h"

static void sha_hex_of(const void *data, size_t len, size_t piece, char out[65])
{
	struct sha256 s;
	const unsigned char *p = data;

	sha256_init(&s);
	for (size_t off = 0; off < len; off += piece)
		sha256_update(&s, p + off, len - off < piece ? len - off : piece);
	sha256_hex(&s, out);
}

/* Digest of len bytes fed in pieces, with the given compression function (NULL: refhash.c's). */
static void ref_sha(void (*blocks)(uint32_t *, const uint8_t *, size_t), const unsigned char *p,
		    size_t len, size_t piece, unsigned char out[32])
{
	struct ref_ctx c;

	ref_init(&c, REF_SHA256);
	c.sha256_blocks = blocks;
	for (size_t off = 0; off < len; off += piece)
		ref_update(&c, p + off, len - off < piece ? len - off : piece);
	ref_final(&c, out);
}

/* The first length (or piece size) where SHA-NI and the reference differ; 0 if none. */
static size_t ni_differs(const unsigned char *data, size_t max)
{
	unsigned char a[32], b[32];

	for (size_t len = 1; len <= max; len++) {
		ref_sha(NULL, data, len, len, a);
		ref_sha(sha256ni_blocks, data, len, len, b);
		if (memcmp(a, b, sizeof(a)))
			return len;
	}
	for (size_t piece = 1; piece <= 64; piece++) {
		ref_sha(NULL, data, max, piece, a);
		ref_sha(sha256ni_blocks, data, max, piece, b);
		if (memcmp(a, b, sizeof(a)))
			return piece;
	}
	return 0;
}

static uint64_t xxh_of(const void *data, size_t len, size_t piece)
{
	struct xxh64 x;
	const unsigned char *p = data;

	xxh64_init(&x, 0);
	for (size_t off = 0; off < len; off += piece)
		xxh64_update(&x, p + off, len - off < piece ? len - off : piece);
	return xxh64_digest(&x);
}

int main(void)
{
	static unsigned char ramp[768], xs[1000];
	char hex[65];
	/* 1,000,000 x 'a' (FIPS 180-2 appendix B.3) */
	static char million[1000000];

	tap_plan(15);
	for (size_t i = 0; i < sizeof(ramp); i++)
		ramp[i] = (unsigned char)i;
	memset(xs, 'x', sizeof(xs));
	memset(million, 'a', sizeof(million));

	sha_hex_of("", 0, 1, hex);
	TAP_EQ_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "sha256 of nothing");
	sha_hex_of("abc", 3, 3, hex);
	TAP_EQ_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "sha256 abc");
	sha_hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, 56, hex);
	TAP_EQ_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
		   "sha256 of 56 bytes (padding spills into a second block)");
	sha_hex_of(million, sizeof(million), 1000000, hex);
	TAP_EQ_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", "sha256 of a million a");
	sha_hex_of(million, sizeof(million), 37, hex);
	TAP_EQ_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
		   "sha256 of a million a in 37-byte pieces");

	if (sha256ni_available()) {
		static unsigned char noise[1024];
		uint32_t x = 1;

		for (size_t i = 0; i < sizeof(noise); i++) {	/* any bytes that are not a pattern */
			x = x * 1103515245 + 12345;
			noise[i] = (unsigned char)(x >> 16);
		}
		TAP_EQ_INT(ni_differs(ramp, 4 * 64 + 1), 0,
			   "SHA-NI and the reference agree at every length to 257 bytes, fed whole and in pieces");
		TAP_EQ_INT(ni_differs(noise, sizeof(noise)), 0, "and on 1024 other bytes");
	} else {
		tap_skip("this CPU has no SHA instructions", "SHA-NI against the reference");
		tap_skip("this CPU has no SHA instructions", "and on other bytes");
	}
	TAP_EQ_INT(xxh_of("", 0, 1), 0xef46db3751d8e999ULL, "xxh64 of nothing");
	TAP_EQ_INT(xxh_of("a", 1, 1), 0xd24ec4f1a98c6e5bULL, "xxh64 a (one byte)");
	TAP_EQ_INT(xxh_of("abc", 3, 3), 0x44bc2cf5ad770999ULL, "xxh64 abc");
	TAP_EQ_INT(xxh_of(xs, sizeof(xs), sizeof(xs)), 0x4cb9a3b69cb700e1ULL, "xxh64 of 1000 x");
	TAP_EQ_INT(xxh_of(xs, sizeof(xs), 7), 0x4cb9a3b69cb700e1ULL, "xxh64 of 1000 x in 7-byte pieces");
	TAP_EQ_INT(xxh_of(ramp, sizeof(ramp), sizeof(ramp)), 0x8e03c838c596036fULL, "xxh64 of 0..255 x3");
	TAP_EQ_INT(xxh_of(ramp, sizeof(ramp), 31), 0x8e03c838c596036fULL, "xxh64 of 0..255 x3 in 31-byte pieces");
	TAP_EQ_INT(xxh_of(ramp, sizeof(ramp), 33), 0x8e03c838c596036fULL, "xxh64 of 0..255 x3 in 33-byte pieces");
	return tap_done();
}
