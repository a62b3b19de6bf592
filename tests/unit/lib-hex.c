// SPDX-License-Identifier: GPL-2.0
/* lib-hex.c: src/base/hex.c, the one hex encoder and decoder (cut's layer
 * keys, the AF_ALG helpers' digests and vectors). */
#include <errno.h>
#include <stdint.h>

#include "hex.h"
#include "tap.h"

static void test_hex(void)
{
	uint8_t b[8];
	char s[17];
	size_t n = 99;

	tap_ok(!hex_decode("00ff7Aa0", b, sizeof(b), &n) && n == 4 && b[0] == 0 && b[1] == 0xff &&
	       b[2] == 0x7a && b[3] == 0xa0, "hex_decode reads both cases");
	hex_encode(b, n, s);
	TAP_EQ_STR(s, "00ff7aa0", "hex_encode writes lower case");
	TAP_EQ_INT(hex_decode("abc", b, sizeof(b), &n), -EINVAL, "odd hex length rejected");
	TAP_EQ_INT(hex_decode("0g", b, sizeof(b), &n), -EINVAL, "non-hex digit rejected");
	TAP_EQ_INT(hex_decode("000000000000000000", b, sizeof(b), &n), -ENOSPC,
		   "hex longer than the buffer rejected");
	tap_ok(!hex_decode("", b, sizeof(b), &n) && n == 0, "empty hex is zero bytes");
}

int main(void)
{
	test_hex();
	TAP_EQ_INT(hex_digit('F'), 15, "hex_digit: upper case");
	TAP_EQ_INT(hex_digit('g'), -1, "hex_digit: not a digit");
	tap_ok(hex_is_lower("09af", 4) && !hex_is_lower("09Af", 4), "hex_is_lower: lower case only");
	return tap_done();
}
