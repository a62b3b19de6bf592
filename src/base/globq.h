/* SPDX-License-Identifier: GPL-2.0 */
/* globq.h: a literal path as glob(3) pattern text, so a pattern applies only to the part that is one. */
#ifndef RAPIDO_GLOBQ_H
#define RAPIDO_GLOBQ_H

/*
 * s with a backslash before each '*', '?', '[' and '\\': glob(3) (without
 * GLOB_NOESCAPE) then matches it as itself. Newly allocated; dies on ENOMEM.
 * Used where a pattern is joined to a directory it did not choose (the
 * checkout, a sysroot): "/src/rapido[1]" + "/pat/x*" matches only there.
 */
char *glob_quote(const char *s);

#endif
