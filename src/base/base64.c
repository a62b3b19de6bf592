// SPDX-License-Identifier: GPL-2.0
/* base64.c: strict RFC 4648 base64 (see base64.h). */
#include <stdint.h>

#include "base64.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t base64_encode(char *out, const void *in, size_t len)
{
	const unsigned char *p = in;
	size_t o = 0;

	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;
		size_t left = len - i;

		if (left > 1)
			v |= (uint32_t)p[i + 1] << 8;
		if (left > 2)
			v |= p[i + 2];
		out[o++] = alphabet[v >> 18];
		out[o++] = alphabet[(v >> 12) & 63];
		out[o++] = left > 1 ? alphabet[(v >> 6) & 63] : '=';
		out[o++] = left > 2 ? alphabet[v & 63] : '=';
	}
	out[o] = '\0';
	return o;
}

static int value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

ssize_t base64_decode(void *out, const char *in, size_t len)
{
	unsigned char *o = out;
	size_t n = 0;

	if (len % 4)
		return -1;
	for (size_t i = 0; i < len; i += 4) {
		int last = i + 4 == len;
		int pad = last && in[i + 3] == '=' ? (in[i + 2] == '=' ? 2 : 1) : 0;
		uint32_t v = 0;

		for (int k = 0; k < 4; k++) {
			int d = k >= 4 - pad ? 0 : value(in[i + k]);

			if (d < 0)
				return -1;
			v = v << 6 | (uint32_t)d;
		}
		/* the bits padding stands for must be zero: "QQ==" is 'A', "QR==" is not */
		if ((pad == 2 && (v & 0xffff)) || (pad == 1 && (v & 0xff)))
			return -1;
		o[n++] = (unsigned char)(v >> 16);
		if (pad < 2)
			o[n++] = (unsigned char)(v >> 8);
		if (pad < 1)
			o[n++] = (unsigned char)v;
	}
	return (ssize_t)n;
}
