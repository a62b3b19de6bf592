// SPDX-License-Identifier: GPL-2.0
/*
 * pvhelf.c: check the kernel ELF unpacked from a bzImage before qemu gets
 * it: qemu's ELF loader boots it at its PVH entry only when the Xen note
 * is there (else it would take it for a multiboot kernel, and fail), and
 * a short file must never reach it.
 */
#include <elf.h>
#include <stdint.h>
#include <string.h>

#include "pvhelf.h"

/* include/xen/interface/elfnote.h: the physical 32-bit entry point (Linux 4.21+ with CONFIG_PVH) */
#define XEN_ELFNOTE_PHYS32_ENTRY 18

/* off + n within len, without overflow */
static int within(uint64_t off, uint64_t n, size_t len)
{
	return off <= len && n <= len - off;
}

static int has_pvh_note(const unsigned char *p, size_t n)
{
	while (n >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr h;
		size_t name, desc;

		memcpy(&h, p, sizeof(h));
		/* name and descriptor are each padded to 4 bytes */
		name = ((size_t)h.n_namesz + 3) & ~(size_t)3;
		desc = ((size_t)h.n_descsz + 3) & ~(size_t)3;
		if (name > n - sizeof(h) || desc > n - sizeof(h) - name)
			return 0;
		if (h.n_type == XEN_ELFNOTE_PHYS32_ENTRY && h.n_namesz == 4 &&
		    !memcmp(p + sizeof(h), "Xen", 4) && h.n_descsz >= 4)
			return 1;
		p += sizeof(h) + name + desc;
		n -= sizeof(h) + name + desc;
	}
	return 0;
}

int pvh_elf_check(const unsigned char *buf, size_t len, size_t *end, const char **why)
{
	Elf64_Ehdr eh;
	uint64_t span;
	int pvh = 0;

	if (len < sizeof(eh) || memcmp(buf, ELFMAG, SELFMAG)) {
		*why = "not an ELF file";
		return 1;
	}
	memcpy(&eh, buf, sizeof(eh));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_machine != EM_X86_64 || eh.e_type != ET_EXEC) {
		*why = "not a little-endian ELF64 x86-64 executable";
		return 1;
	}
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || !eh.e_phnum ||
	    !within(eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr), len)) {
		*why = "its program headers are missing or past the end of the file";
		return 1;
	}
	span = eh.e_phoff + (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr);
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, buf + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (!within(ph.p_offset, ph.p_filesz, len)) {
			*why = "a segment lies past the end of the file (cut short?)";
			return 1;
		}
		if (ph.p_offset + ph.p_filesz > span)
			span = ph.p_offset + ph.p_filesz;
		if (ph.p_type == PT_NOTE && has_pvh_note(buf + ph.p_offset, ph.p_filesz))
			pvh = 1;
	}
	if (eh.e_shnum) {
		if (eh.e_shentsize != sizeof(Elf64_Shdr) ||
		    !within(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), len)) {
			*why = "its section headers lie past the end of the file (cut short?)";
			return 1;
		}
		if (eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > span)
			span = eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr);
	}
	if (!pvh) {
		*why = "it has no PVH entry note (a kernel built without CONFIG_PVH)";
		return 1;
	}
	*end = (size_t)span;
	return 0;
}
