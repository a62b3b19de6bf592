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
 * the trace with ldd's environment, the loader's stderr into its stdout,
 * written to to_fd. Returns ldd's exit status (0, or 1 for a failed
 * trace), or -1 when the loader turned the file down or could not be run
 * (nothing written): the caller runs ldd.
 */
int ldd_trace(const char *rtld, const char *file, int to_fd);

/*
 * answers.c: ldd's answers computed ahead, kept in a directory under the
 * content of each file they are for (see there).
 *
 * ldd_answer_key: the key of the file open on fd, traced by rtld: its
 * bytes, size, rtld and the LD_ environment. -1: the file's answer could
 * depend on where it lies ($ORIGIN in its run path, a slash in a needed
 * name), or it could not be read: no key.
 */
int ldd_answer_key(int fd, const char *rtld, char key[64]);
/* Print the answer kept for key in dir to stdout: ldd's exit status, or -1 if none is kept. */
int ldd_answer_print(const char *dir, const char *key);
/*
 * rapido-ldd --answers DIR FILE...: the answers for the files and, in
 * turn, for every library an answer names, kept in DIR. Returns 0, or 1
 * when DIR cannot be written.
 */
int ldd_answers_prefetch(const char *dir, char **files, int n);

#endif
