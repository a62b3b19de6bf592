/* SPDX-License-Identifier: GPL-2.0 */
/* pvhelf.h: whether qemu can boot an uncompressed x86-64 kernel ELF at its PVH entry. */
#ifndef RAPIDO_PVHELF_H
#define RAPIDO_PVHELF_H

#include <stddef.h>

/*
 * buf, len: the whole file. 0 with *end, the bytes the ELF spans (its
 * headers, every segment's file bytes, the section header table), when it
 * is a little-endian ELF64 x86-64 executable whose PT_NOTE segments hold
 * Xen's XEN_ELFNOTE_PHYS32_ENTRY note (the 32-bit entry qemu's PVH boot
 * jumps to: Linux with CONFIG_PVH) and all of it lies within len; 1 with
 * *why (static) otherwise.
 */
int pvh_elf_check(const unsigned char *buf, size_t len, size_t *end, const char **why);

#endif
