// SPDX-License-Identifier: GPL-2.0
/*
 * pvhelf.c: check the kernel ELF unpacked from a bzImage before qemu gets
 * it: qemu's ELF loader boots it at its PVH entry only when the Xen note
 * is there (else it would take it for a multiboot kernel, and fail), and
 * a short file must never reach it. The file is walked by elfwalk.c.
 */
#include <elf.h>
#include <string.h>

#include "elfwalk.h"
#include "pvhelf.h"

/* include/xen/interface/elfnote.h: the physical 32-bit entry point (Linux 4.21+ with CONFIG_PVH) */
#define XEN_ELFNOTE_PHYS32_ENTRY 18

static int has_pvh_note(const struct elf *e, const struct elf_segment *s)
{
	struct elf_notes it;
	struct elf_note n;

	elf_notes_init(&it, e, s->data, (size_t)s->filesz);
	while (elf_note_next(&it, &n))
		if (n.type == XEN_ELFNOTE_PHYS32_ENTRY && n.namesz == 4 && !memcmp(n.name, "Xen", 4) &&
		    n.descsz >= 4)
			return 1;
	return 0;
}

int pvh_elf_check(const unsigned char *buf, size_t len, size_t *end, const char **why)
{
	struct elf e;
	int pvh = 0;

	elf_open(&e, buf, len);
	/* an ELF32 header is shorter: what holds no ELF64 header is no ELF here */
	if (e.bad == ELF_NOT_ELF || len < sizeof(Elf64_Ehdr)) {
		*why = "not an ELF file";
		return 1;
	}
	if (e.bad == ELF_BAD_IDENT || e.klass != ELFCLASS64 || e.endian != ELFDATA2LSB ||
	    e.machine != EM_X86_64 || e.type != ET_EXEC) {
		*why = "not a little-endian ELF64 x86-64 executable";
		return 1;
	}
	if (e.bad == ELF_BAD_PHDRS || !e.phnum) {
		*why = "its program headers are missing or past the end of the file";
		return 1;
	}
	if (e.bad == ELF_BAD_SEGMENT) {
		*why = "a segment lies past the end of the file (cut short?)";
		return 1;
	}
	if (e.bad == ELF_BAD_SHDRS) {
		*why = "its section headers lie past the end of the file (cut short?)";
		return 1;
	}
	for (unsigned int i = 0; i < e.phnum && !pvh; i++) {
		struct elf_segment s;

		elf_segment(&e, i, &s);
		pvh = s.type == PT_NOTE && has_pvh_note(&e, &s);
	}
	if (!pvh) {
		*why = "it has no PVH entry note (a kernel built without CONFIG_PVH)";
		return 1;
	}
	*end = (size_t)e.end;
	return 0;
}
