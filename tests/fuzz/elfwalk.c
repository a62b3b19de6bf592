// SPDX-License-Identifier: GPL-2.0
/*
 * elfwalk.c: fuzz the ELF walker every ELF reader here stands on
 * (src/image/elfwalk.c: programs and libraries of a user's tree, kernel
 * modules, a vmlinux). The input is the file. Properties: it is opened or
 * refused with -ENOEXEC and a reason, and opened exactly when the reason is
 * ELF_OK; what it hands out after that lies within the file: the header
 * tables and every segment (end is within it), a section's bytes where it
 * gives them, each name a NUL-terminated string of the file, each note and
 * dynamic entry, each symbol's name.
 */
#include <elf.h>
#include <errno.h>

#include "elfwalk.h"
#include "fuzz.h"

static const uint8_t *lo, *hi;

/* [p, p + n) lies within the input */
static int inside(const void *p, uint64_t n)
{
	const uint8_t *b = p;

	return b >= lo && b <= hi && n <= (uint64_t)(hi - b);
}

static void check_str(const char *s, const char *what)
{
	if (s)
		fuzz_assert(inside(s, strnlen(s, (size_t)(hi - (const uint8_t *)s)) + 1),
			    "%s is not a NUL-terminated string of the file", what);
}

static void walk_notes(const struct elf *e, const unsigned char *data, size_t len)
{
	struct elf_notes it;
	struct elf_note n;

	elf_notes_init(&it, e, data, len);
	while (elf_note_next(&it, &n)) {
		fuzz_assert(inside(n.name, n.namesz), "a note's name (%u bytes) past its bytes", n.namesz);
		fuzz_assert(inside(n.desc, n.descsz), "a note's desc (%u bytes) past its bytes", n.descsz);
		fuzz_assert(n.desc >= data && n.desc + n.descsz <= data + len, "a note outside its segment");
	}
}

static void walk_symbols(const struct elf *e, const struct elf_section *sym)
{
	struct elf_section str;
	struct elf_symtab t;

	if (sym->link >= e->shnum)
		return;
	elf_section(e, (unsigned int)sym->link, &str);
	if (elf_symtab(e, sym, &str, &t))
		return;
	fuzz_assert(inside(t.sym, (uint64_t)t.count * (e->klass == ELFCLASS64 ? sizeof(Elf64_Sym) :
										  sizeof(Elf32_Sym))),
		    "a symbol table of %zu past the end", t.count);
	/* a bounded walk: a big table is the same check many times */
	for (size_t i = 0; i < t.count && i < 4096; i++) {
		struct elf_sym s;

		elf_sym(&t, i, &s);
		check_str(s.name, "a symbol's name");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf e;
	int rc = elf_open(&e, data, size);
	uint64_t off;

	lo = data;
	hi = data + size;
	fuzz_assert(rc == 0 || rc == -ENOEXEC, "rc %d", rc);
	fuzz_assert(!rc == (e.bad == ELF_OK), "rc %d with reason %d", rc, (int)e.bad);
	/* with bad section headers the segments may still be walked (elfdyn.c does) */
	if (rc && e.bad != ELF_BAD_SHDRS)
		return 0;
	fuzz_assert(!e.shnum || !rc, "%u section headers to read after a refusal", e.shnum);
	fuzz_assert(size >= elf_ehdr_size(&e) && e.end <= size, "end %llu of a %zu-byte file",
		    (unsigned long long)e.end, size);
	if (e.shstr)
		fuzz_assert(inside(e.shstr, e.shstrlen) && e.shstrlen && !e.shstr[e.shstrlen - 1],
			    "the section names are not a string table of the file");
	for (unsigned int i = 0; i < e.phnum; i++) {
		struct elf_segment s;

		elf_segment(&e, i, &s);
		fuzz_assert(inside(s.data, s.filesz), "segment %u past the end", i);
		if (s.type == PT_NOTE)
			walk_notes(&e, s.data, (size_t)s.filesz);
		if (s.type == PT_DYNAMIC) {
			struct elf_dyns it;
			uint64_t tag, val;
			size_t n = 0;

			elf_dyns_init(&it, &e, &s);
			while (elf_dyn_next(&it, &tag, &val)) {
				fuzz_assert(tag != DT_NULL, "DT_NULL handed out");
				n++;
			}
			fuzz_assert(n <= s.filesz / 8, "%zu dynamic entries in %llu bytes", n,
				    (unsigned long long)s.filesz);
		}
		if (s.type == PT_LOAD && s.filesz && !elf_vaddr_offset(&e, s.vaddr, &off))
			fuzz_assert(off <= size, "a loaded address at offset %llu", (unsigned long long)off);
	}
	for (unsigned int i = 0; i < e.shnum; i++) {
		struct elf_section s;

		elf_section(&e, i, &s);
		check_str(s.name, "a section's name");
		if (!s.data)
			continue;
		fuzz_assert(inside(s.data, s.size), "section %u's bytes past the end", i);
		if (s.type == SHT_NOTE)
			walk_notes(&e, s.data, (size_t)s.size);
		if (s.type == SHT_SYMTAB || s.type == SHT_DYNSYM)
			walk_symbols(&e, &s);
		if (s.name) {
			struct elf_section f;
			int at = elf_section_find(&e, s.name, 0, &f);

			fuzz_assert(at >= 0 && (unsigned int)at <= i && f.name && !strcmp(f.name, s.name),
				    "section \"%s\" (%u) not found by its name", s.name, i);
		}
	}
	return 0;
}
