/* SPDX-License-Identifier: GPL-2.0 */
/* version.h: --version of every program: its own, and dracut's and qemu's as found. */
#ifndef RAPIDO_VERSION_H
#define RAPIDO_VERSION_H

/* This build's version: git describe at build time (the Makefile's VERSION). */
extern const char rapido_version[];

/*
 * Print PROG's --version to stdout: "PROG (rapido) VERSION", then the
 * dracut (DRACUT) and qemu (QEMU_BIN, else ARCH's) that a cut and a boot
 * would run, each with its path, or "not found". rapido.conf is read for
 * those two keys if it loads (a broken one is not --version's business).
 */
void version_print(const char *prog);

#endif
