/* SPDX-License-Identifier: GPL-2.0 */
/* colour.h: pass/fail in colour on a terminal, never in a file or with NO_COLOR. */
#ifndef RAPIDO_COLOUR_H
#define RAPIDO_COLOUR_H

enum colour { COLOUR_GREEN, COLOUR_RED };

/*
 * 1 when what is written to FD may be coloured: FD is a terminal and
 * NO_COLOR is unset or empty (https://no-color.org).
 */
int colour_wanted(int fd);

/* FMT's text, in colour C between its escape and a reset when ON; malloc'd. */
char *colourf(int on, enum colour c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
