/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elfdeps.h: what a program needs from the dynamic loader (read by
 * elfdyn.c), resolved inside a sysroot: a foreign architecture's programs
 * cannot be asked (ldd runs them), so the libraries are found as ld.so
 * would find them there.
 */
#ifndef RAPIDO_ELFDEPS_H
#define RAPIDO_ELFDEPS_H

#include "strv.h"

/*
 * The host path of the regular file that guest path `guest` is in
 * `sysroot`, its symbolic links (absolute ones too) followed inside the
 * sysroot; NULL (malloc'd otherwise) if there is none.
 */
char *elf_sysroot_file(const char *sysroot, const char *guest);

/*
 * The shared libraries the program at guest path `path` in `sysroot` needs,
 * transitively: the interpreter, then every DT_NEEDED found in its
 * DT_RUNPATH ($ORIGIN too), /lib/TRIPLET, /usr/lib/TRIPLET, /lib and
 * /usr/lib of the sysroot. Appends guest paths to libs (no duplicates) and
 * the names found nowhere to missing. Returns 0, -ENOEXEC for a file that
 * is not an ELF program, -EXDEV for one of another machine than `machine`,
 * or -errno.
 */
int elf_resolve_libs(const char *sysroot, const char *triplet, unsigned int machine,
		     const char *path, struct strv *libs, struct strv *missing);

#endif
