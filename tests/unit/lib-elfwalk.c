// SPDX-License-Identifier: GPL-2.0
/*
 * lib-elfwalk.c: the ELF walker every ELF reader stands on
 * (src/image/elfwalk.c), on files made here byte by byte in each class
 * and byte order: program headers, notes, dynamic entries, sections,
 * symbols; and each reason it refuses a file, with offsets and sizes made
 * to overflow a sum.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "elfwalk.h"
#include "tap.h"

static void put(unsigned char *p, uint64_t v, int bytes, int big)
{
	for (int i = 0; i < bytes; i++)
		p[big ? bytes - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* Where the parts of a made file are (the test pokes at them). */
struct made {
	size_t len, phoff, shoff, note, dyn, str, sym, shstr;
	int is64, big;
};

#define BASE 0x1000	/* PT_LOAD maps the file here */

/*
 * An executable: header; PT_LOAD of the whole file, PT_NOTE, PT_DYNAMIC
 * (DT_NEEDED 1, DT_NULL, DT_NEEDED 2: the walk stops at DT_NULL); Xen's
 * PHYS32_ENTRY note; .strtab, .symtab (the null symbol, "need" undefined,
 * "f" in section 1), .shstrtab; six section headers (null, .note,
 * .strtab, .symtab, .shstrtab, and a .bss whose bytes are not in the
 * file).
 */
static size_t make(unsigned char *b, struct made *m, int is64, int big)
{
	static const char str[] = "\0need\0f", shstr[] = "\0.note\0.strtab\0.symtab\0.shstrtab\0.bss";
	size_t w = is64 ? 8 : 4, eh = is64 ? 64 : 52, phsz = is64 ? 56 : 32, shsz = is64 ? 64 : 40;
	size_t symsz = is64 ? 24 : 16, off;
	unsigned char *p;

	memset(b, 0, 4096);
	*m = (struct made){ .is64 = is64, .big = big, .phoff = eh };
	off = eh + 3 * phsz;
	m->note = off;
	put(b + off, 4, 4, big);		/* n_namesz */
	put(b + off + 4, 4, 4, big);		/* n_descsz */
	put(b + off + 8, 18, 4, big);		/* n_type: XEN_ELFNOTE_PHYS32_ENTRY */
	memcpy(b + off + 12, "Xen", 4);
	put(b + off + 16, 0x1000000, 4, big);
	off += 20;
	m->dyn = off = (off + 7) & ~(size_t)7;
	put(b + off, DT_NEEDED, (int)w, big);
	put(b + off + w, 1, (int)w, big);
	put(b + off + 4 * w, DT_NEEDED, (int)w, big);	/* after DT_NULL: never seen */
	put(b + off + 5 * w, 2, (int)w, big);
	off += 6 * w;
	m->str = off;
	memcpy(b + off, str, sizeof(str));
	off += sizeof(str);
	m->sym = off = (off + 7) & ~(size_t)7;
	/* symbol 1: "need", undefined; symbol 2: "f", section 1, value 0x10 */
	put(b + off + symsz + 0, 1, 4, big);
	put(b + off + 2 * symsz + 0, 6, 4, big);
	put(b + off + 2 * symsz + (is64 ? 6 : 14), 1, 2, big);
	put(b + off + 2 * symsz + (is64 ? 8 : 4), 0x10, (int)w, big);
	off += 3 * symsz;
	m->shstr = off;
	memcpy(b + off, shstr, sizeof(shstr));
	off += sizeof(shstr);
	m->shoff = off = (off + 7) & ~(size_t)7;
	m->len = off + 6 * shsz;

	memcpy(b, ELFMAG, SELFMAG);
	b[EI_CLASS] = is64 ? ELFCLASS64 : ELFCLASS32;
	b[EI_DATA] = big ? ELFDATA2MSB : ELFDATA2LSB;
	b[EI_VERSION] = EV_CURRENT;
	put(b + 16, ET_EXEC, 2, big);
	put(b + 18, is64 ? EM_AARCH64 : EM_PPC, 2, big);
	put(b + (is64 ? 32 : 28), m->phoff, (int)w, big);
	put(b + (is64 ? 40 : 32), m->shoff, (int)w, big);
	put(b + (is64 ? 54 : 42), phsz, 2, big);
	put(b + (is64 ? 56 : 44), 3, 2, big);
	put(b + (is64 ? 58 : 46), shsz, 2, big);
	put(b + (is64 ? 60 : 48), 6, 2, big);
	put(b + (is64 ? 62 : 50), 4, 2, big);
	for (int i = 0; i < 3; i++) {
		uint64_t type = i == 0 ? PT_LOAD : i == 1 ? PT_NOTE : PT_DYNAMIC;
		uint64_t o = i == 0 ? 0 : i == 1 ? m->note : m->dyn, n = i == 0 ? m->len : i == 1 ? 20 : 6 * w;

		p = b + m->phoff + (size_t)i * phsz;
		put(p, type, 4, big);
		put(p + (is64 ? 8 : 4), o, (int)w, big);		/* p_offset */
		put(p + (is64 ? 16 : 8), i == 0 ? BASE : 0, (int)w, big);	/* p_vaddr */
		put(p + (is64 ? 32 : 16), n, (int)w, big);		/* p_filesz */
	}
	for (int i = 1; i < 6; i++) {
		static const unsigned int name[] = { 0, 1, 7, 15, 23, 33 };
		static const unsigned int type[] = { 0, SHT_NOTE, SHT_STRTAB, SHT_SYMTAB, SHT_STRTAB,
						     SHT_NOBITS };
		size_t o[] = { 0, m->note, m->str, m->sym, m->shstr, m->len - 8 };
		size_t n[] = { 0, 20, sizeof(str), 3 * symsz, sizeof(shstr), 1 << 20 };

		p = b + m->shoff + (size_t)i * shsz;
		put(p, name[i], 4, big);
		put(p + 4, type[i], 4, big);
		put(p + (is64 ? 24 : 16), o[i], (int)w, big);	/* sh_offset */
		put(p + (is64 ? 32 : 20), n[i], (int)w, big);	/* sh_size */
		put(p + (is64 ? 40 : 24), i == 3 ? 2 : 0, 4, big);	/* sh_link */
	}
	return m->len;
}

static void test_kinds(void)
{
	static const struct { int is64, big; const char *name; } kinds[] = {
		{ 1, 0, "64-bit little-endian" }, { 1, 1, "64-bit big-endian" },
		{ 0, 0, "32-bit little-endian" }, { 0, 1, "32-bit big-endian" },
	};
	static unsigned char b[4096];

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		const char *kn = kinds[k].name;
		struct made m;
		size_t n = make(b, &m, kinds[k].is64, kinds[k].big);
		struct elf e;
		struct elf_segment s;
		struct elf_section sec, str;
		struct elf_notes nit;
		struct elf_note note;
		struct elf_dyns dit;
		struct elf_symtab t;
		struct elf_sym sym[3];
		uint64_t tag, val, off = 0;
		int notes = 0, dyns = 0, at;

		TAP_EQ_INT(elf_open(&e, b, n), 0, "%s: opened", kn);
		tap_ok(e.klass == (kinds[k].is64 ? ELFCLASS64 : ELFCLASS32) &&
		       e.endian == (kinds[k].big ? ELFDATA2MSB : ELFDATA2LSB) && e.type == ET_EXEC &&
		       e.machine == (kinds[k].is64 ? EM_AARCH64 : EM_PPC) && e.phnum == 3 && e.shnum == 6 &&
		       e.end == n,
		       "%s: class, byte order, type, machine (%u), %u segments, %u sections, its end (%llu)",
		       kn, e.machine, e.phnum, e.shnum, (unsigned long long)e.end);
		elf_segment(&e, 1, &s);
		elf_notes_init(&nit, &e, s.data, (size_t)s.filesz);
		while (elf_note_next(&nit, &note))
			notes += note.type == 18 && note.namesz == 4 && !memcmp(note.name, "Xen", 4) &&
				 note.descsz == 4 && note.desc == b + m.note + 16;
		tap_ok(s.type == PT_NOTE && notes == 1, "%s: PT_NOTE holds Xen's note", kn);
		elf_segment(&e, 2, &s);
		elf_dyns_init(&dit, &e, &s);
		while (elf_dyn_next(&dit, &tag, &val))
			dyns += tag == DT_NEEDED && val == 1 ? 1 : 100;
		TAP_EQ_INT(dyns, 1, "%s: one dynamic entry before DT_NULL", kn);
		tap_ok(!elf_vaddr_offset(&e, BASE + 0x10, &off) && off == 0x10 &&
		       elf_vaddr_offset(&e, BASE + n, &off) == -ENOEXEC,
		       "%s: an address in PT_LOAD is at its offset, one past it is nowhere", kn);
		at = elf_section_find(&e, ".symtab", 1, &sec);
		tap_ok(at == 3 && sec.type == SHT_SYMTAB && sec.data == b + m.sym && sec.link == 2,
		       "%s: .symtab found by name (section %d)", kn, at);
		elf_section(&e, (unsigned int)sec.link, &str);
		TAP_EQ_INT(elf_symtab(&e, &sec, &str, &t), 0, "%s: its symbols, named in its sh_link", kn);
		for (size_t i = 0; i < 3 && i < t.count; i++)
			elf_sym(&t, i, &sym[i]);
		tap_ok(t.count == 3 && sym[0].name && !*sym[0].name && !strcmp(sym[1].name, "need") &&
		       sym[1].shndx == SHN_UNDEF && !strcmp(sym[2].name, "f") && sym[2].shndx == 1 &&
		       sym[2].value == 0x10,
		       "%s: the null symbol, \"need\" undefined, \"f\" at 0x10 of section 1", kn);
		elf_section(&e, 5, &sec);
		tap_ok(sec.name && !strcmp(sec.name, ".bss") && !sec.data &&
		       elf_section_find(&e, ".bss", 0, &sec) == -ENOENT,
		       "%s: .bss, whose bytes are not in the file, has none (and is not found)", kn);
	}
}

/* a field of the made file's header */
static void poke(unsigned char *b, const struct made *m, size_t off64, size_t off32, uint64_t v, int n)
{
	put(b + (m->is64 ? off64 : off32), v, n, m->big);
}

static void test_refused(void)
{
	static unsigned char b[4096];
	struct made m;
	struct elf e;
	size_t n;
	struct elf_section sec;
	struct elf_notes it;
	struct elf_note note;

	n = make(b, &m, 1, 0);
	TAP_EQ_INT(elf_open(&e, b, 3), -ENOEXEC, "three bytes: refused");
	TAP_EQ_INT(e.bad, ELF_NOT_ELF, "  not ELF");
	TAP_EQ_INT(elf_open(&e, b, 40), -ENOEXEC, "an ELF64 identification in 40 bytes");
	TAP_EQ_INT(e.bad, ELF_NOT_ELF, "  not ELF (no room for its header)");
	b[EI_DATA] = 3;
	TAP_EQ_INT(elf_open(&e, b, n) ? (int)e.bad : 0, ELF_BAD_IDENT, "byte order 3: a bad identification");
	n = make(b, &m, 1, 0);
	poke(b, &m, 54, 42, 55, 2);
	TAP_EQ_INT(elf_open(&e, b, n) ? (int)e.bad : 0, ELF_BAD_PHDRS, "program headers of 55 bytes");
	tap_ok(e.machine == EM_AARCH64 && e.type == ET_EXEC, "  its machine and type read all the same");
	n = make(b, &m, 1, 0);
	poke(b, &m, 32, 28, UINT64_MAX - 8, 8);
	TAP_EQ_INT(elf_open(&e, b, n) ? (int)e.bad : 0, ELF_BAD_PHDRS,
		   "program headers at 2^64 - 9 (the sum wraps): past the end");
	n = make(b, &m, 1, 0);
	put(b + m.phoff + 56 + 8, 16, 8, 0);
	put(b + m.phoff + 56 + 32, UINT64_MAX - 8, 8, 0);
	TAP_EQ_INT(elf_open(&e, b, n) ? (int)e.bad : 0, ELF_BAD_SEGMENT,
		   "a segment of 2^64 - 9 bytes (the sum wraps): past the end");
	n = make(b, &m, 1, 0);
	TAP_EQ_INT(elf_open(&e, b, n - 1) ? (int)e.bad : 0, ELF_BAD_SEGMENT,
		   "one byte short: PT_LOAD of the whole file is past the end");
	put(b + m.phoff + 32, n - 1, 8, 0);
	TAP_EQ_INT(elf_open(&e, b, n - 1) ? (int)e.bad : 0, ELF_BAD_SHDRS,
		   "one byte short of the section headers: past the end");
	n = make(b, &m, 0, 1);
	poke(b, &m, 60, 48, 0xffff, 2);
	TAP_EQ_INT(elf_open(&e, b, n) ? (int)e.bad : 0, ELF_BAD_SHDRS, "65535 section headers: past the end");
	tap_ok(e.shnum == 0 && e.phnum == 3, "  no section to read, the segments (checked) are there");
	n = make(b, &m, 1, 0);
	b[m.shstr + 37] = 'x';	/* .shstrtab's last NUL */
	tap_ok(!elf_open(&e, b, n) && !e.shstr && elf_section_find(&e, ".symtab", 0, &sec) == -ENOENT,
	       "section names without their last NUL: opened, no section has a name");
	n = make(b, &m, 1, 0);
	put(b + m.note, 0xfffffff0, 4, 0);
	elf_open(&e, b, n);
	elf_notes_init(&it, &e, b + m.note, 20);
	TAP_EQ_INT(elf_note_next(&it, &note), 0, "a note whose name size would wrap ends the walk");
	TAP_EQ_INT(elf_note_next(&it, &note), 0, "  and it stays ended");
}

int main(void)
{
	tap_plan(4 * 9 + 16);
	test_kinds();
	test_refused();
	return tap_done();
}
