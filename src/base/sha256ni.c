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
#include "refhash.h"
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
			const __m128i k = _mm_loadu_si128((const __m128i *)(ref_sha256_k + 4 * i));
			__m128i wk = _mm_add_epi32(w[i], k);

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
