/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmodelf.h: what a kernel module's ELF (in memory, uncompressed) tells
 * depmod: its .modinfo strings, the symbols it exports and those it needs,
 * each read as kmod 30's libkmod-elf.c reads them, so that what is built
 * from them (depmod.h) is what depmod builds. Only ELF64 of the host's
 * byte order is read (every module ./cut packs for x86_64 and arm64);
 * anything else, or anything kmod would read past a bound, is -ENOEXEC and
 * the caller asks depmod or modinfo instead. The file is walked by
 * elfwalk.c.
 */
#ifndef RAPIDO_KMODELF_H
#define RAPIDO_KMODELF_H

#include <stddef.h>

#include "elfwalk.h"
#include "strv.h"

struct kmod_elf {
	struct elf elf;
};

/* 0, or -ENOEXEC: not an ELF64 of the host's byte order whose section headers hold together. */
int kmod_elf_open(struct kmod_elf *e, const void *data, size_t len);

/*
 * The first section called name at index 1 or above whose bytes are in the
 * file (libkmod's kmod_elf_get_section; elf_firmware looks from 0 as it
 * always did); NULL if none.
 */
const char *kmod_elf_section(const struct kmod_elf *e, const char *name, size_t *size, int from);

/*
 * The non-empty NUL-separated strings of a section (kmod_elf_get_strings:
 * leading NULs skipped, an unterminated last string kept), appended to
 * out; 0, or -ENOENT without the section.
 */
int kmod_elf_strings(const struct kmod_elf *e, const char *section, struct strv *out);

/*
 * The exported symbols (kmod_elf_get_symbols): each .symtab name that
 * starts "__crc_" (modversions), without it; with none, the strings of
 * __ksymtab_strings. 0 (none is fine), or -ENOEXEC where kmod would read
 * out of bounds.
 */
int kmod_elf_exports(const struct kmod_elf *e, struct strv *out);

/*
 * The symbols it needs (kmod_elf_get_dependency_symbols): the undefined
 * .symtab entries with a name, in table order, then the __versions names
 * none of them matched (module_layout). 0, or -ENOEXEC (no .symtab, a
 * SPARC module, a name out of bounds).
 */
int kmod_elf_needs(const struct kmod_elf *e, struct strv *out);

#endif
