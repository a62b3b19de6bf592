/* SPDX-License-Identifier: GPL-2.0 */
/* hex.h: hexadecimal digits. */
#ifndef RAPIDO_HEX_H
#define RAPIDO_HEX_H

/* Value of a hex digit (either case), or -1. */
int hex_digit(char c);

#endif
