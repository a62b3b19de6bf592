/* SPDX-License-Identifier: GPL-2.0 */
/* elfdyn.h: what an ELF program asks of the dynamic loader (interpreter, needed libraries). */
#ifndef RAPIDO_ELFDYN_H
#define RAPIDO_ELFDYN_H

#include "strv.h"

struct elf_deps {
	unsigned char klass;	/* e_ident[EI_CLASS]: 1 (32 bit), 2 (64 bit) */
	unsigned char data;	/* e_ident[EI_DATA]: 1 (little-endian), 2 (big-endian) */
	int dynamic;		/* it has a PT_DYNAMIC segment (linked dynamically, or static-pie) */
	unsigned int type;	/* e_type: ET_EXEC, ET_DYN (programs, libraries), ET_REL... */
	unsigned int machine;	/* e_machine: EM_X86_64, EM_AARCH64... */
	char *interp;		/* PT_INTERP; NULL: statically linked */
	struct strv needed;	/* DT_NEEDED sonames, in file order */
	char *runpath;		/* DT_RUNPATH, else DT_RPATH; NULL if neither */
};

/*
 * Read the program headers and dynamic section of the ELF file open on fd
 * (32 or 64 bit, either byte order; walked by elfwalk.h). Returns 0,
 * -ENOEXEC if fd is not a regular ELF file, its headers do not hold
 * together or it is shorter than they say, or -errno of a failed read.
 */
int elf_read_deps(int fd, struct elf_deps *d);
/* The same for the file at path; -errno of open(2) too. */
int elf_read_deps_path(const char *path, struct elf_deps *d);
void elf_deps_free(struct elf_deps *d);
/*
 * Does the ELF file data[0, len) ask for a dynamic loader (PT_INTERP)?
 * 1 or 0; -ENOEXEC if it is no ELF file whose segments hold together.
 */
int elf_asks_loader(const void *data, size_t len);

#endif
