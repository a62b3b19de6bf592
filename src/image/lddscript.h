/* SPDX-License-Identifier: GPL-2.0 */
/* lddscript.h: the loaders glibc's ldd script tries, read from the script itself. */
#ifndef RAPIDO_LDDSCRIPT_H
#define RAPIDO_LDDSCRIPT_H

#include <stddef.h>

#include "strv.h"

/*
 * The loaders of the ldd script `text` (len bytes), in the order ldd tries
 * them: the words of its one RTLDLIST= assignment at the start of a line,
 * quoted or not. Appends them to out and returns 0. -ENOENT: the script
 * assigns no RTLDLIST; -EINVAL: it assigns it anywhere else too (RTLDLIST=
 * or RTLDLIST+=: a script that computes or amends the list), or a word of
 * the value is not a plain absolute path
 * (no quote, $, backquote, backslash or glob character). Nothing is
 * appended on error.
 */
int ldd_script_rtlds(const char *text, size_t len, struct strv *out);

#endif
