/* SPDX-License-Identifier: GPL-2.0 */
/* ldd.h: rapido-ldd, glibc's ldd for one file without its shell and its probes. */
#ifndef RAPIDO_LDD_H
#define RAPIDO_LDD_H

#include "strv.h"

/*
 * The loader ldd would trace `file` with: of the loaders `rtlds` (ldd's
 * RTLDLIST, in order), the first that is executable and of the file's ELF
 * class, byte order and machine. Those of another class or machine are the
 * ones ldd's `--verify` turns down; the one chosen still has to say yes to
 * --verify (ldd_verify). NULL: none, or the file is no dynamic ELF program
 * or library ldd would trace (the caller leaves it to ldd). fd: the file.
 */
const char *ldd_pick_rtld(int fd, const struct strv *rtlds);

/*
 * ldd's RTLDLIST: read from the ldd script found in PATH. Returns 0, or
 * -errno (no ldd, an ldd script rapido-ldd does not understand plainly).
 */
int ldd_rtlds(struct strv *rtlds);

/*
 * What ldd does for `file` once it chose `rtld` (path with a slash, a
 * regular readable file): `RTLD --verify FILE`, then, if it exits 0 or 2,
 * the trace with ldd's environment, the loader's stderr into its stdout.
 * Returns ldd's exit status (0, or 1 for a failed trace), or -1 when the
 * loader turned the file down or could not be run: the caller runs ldd.
 */
int ldd_trace(const char *rtld, const char *file);

#endif
