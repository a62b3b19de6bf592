// SPDX-License-Identifier: GPL-2.0
/*
 * sha256ni.c: SHA-256's compression function on the x86 SHA extensions.
 * The cache keys hash a big tree's stat of every entry on each cut: the
 * portable reference (refhash.c) does about 100 MB/s here, these
 * instructions ten times that. Written from the instructions' definitions
 * in Intel's SDM (SHA256RNDS2, SHA256MSG1, SHA256MSG2); lib-hash.c checks
 * it against the reference at every length around the block boundaries.
 *
 * SHA256RNDS2 does two rounds on the state split as ABEF and CDGH (A in
 * the top lane), taking W[t] + K[t] for the two rounds from the low lanes
 * of its third operand. MSG1 and MSG2 compute the message schedule's
 * sigma0 and sigma1 terms four words at a time.
 */
#include "sha256ni.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int sha256ni_available(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSSE3) || !(c & bit_SSE4_1))
		return 0;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return 0;
	return !!(b & bit_SHA);
}

/* FIPS 180-4 4.2.2, four to a vector in round order */
static const uint32_t k[64] __attribute__((aligned(16))) = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

__attribute__((target("sha,sse4.1,ssse3")))
void sha256ni_blocks(uint32_t h[8], const uint8_t *p, size_t n)
{
	/* each 32-bit word from big-endian bytes */
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i abcd = _mm_loadu_si128((const __m128i *)h), efgh = _mm_loadu_si128((const __m128i *)(h + 4));
	/* lanes (low first) a b c d and e f g h, to f e b a (ABEF) and h g d c (CDGH) */
	__m128i badc = _mm_shuffle_epi32(abcd, 0xb1), hgfe = _mm_shuffle_epi32(efgh, 0x1b);
	__m128i abef = _mm_alignr_epi8(badc, hgfe, 8), cdgh = _mm_blend_epi16(hgfe, badc, 0xf0);

	for (; n; n--, p += 64) {
		const __m128i abef0 = abef, cdgh0 = cdgh;
		__m128i w[16];

		for (int i = 0; i < 4; i++)
			w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
		/* W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], for t = 4i .. 4i+3 */
		for (int i = 4; i < 16; i++) {
			__m128i t = _mm_sha256msg1_epu32(w[i - 4], w[i - 3]);

			t = _mm_add_epi32(t, _mm_alignr_epi8(w[i - 1], w[i - 2], 4));
			w[i] = _mm_sha256msg2_epu32(t, w[i - 1]);
		}
		for (int i = 0; i < 16; i++) {
			__m128i wk = _mm_add_epi32(w[i], _mm_load_si128((const __m128i *)(k + 4 * i)));

			/* two rounds: the new ABEF; the old one is the CDGH two rounds on */
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
			abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0e));
		}
		abef = _mm_add_epi32(abef, abef0);
		cdgh = _mm_add_epi32(cdgh, cdgh0);
	}
	/* back to a b c d and e f g h */
	{
		__m128i feba = _mm_shuffle_epi32(abef, 0x1b), ghcd = _mm_shuffle_epi32(cdgh, 0xb1);

		_mm_storeu_si128((__m128i *)h, _mm_blend_epi16(feba, ghcd, 0xf0));
		_mm_storeu_si128((__m128i *)(h + 4), _mm_alignr_epi8(ghcd, feba, 8));
	}
}
#else
int sha256ni_available(void)
{
	return 0;
}

void sha256ni_blocks(uint32_t h[8], const uint8_t *p, size_t n)
{
	(void)h;
	(void)p;
	(void)n;
}
#endif
