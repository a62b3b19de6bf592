/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elfwalk.h: one walker over an ELF file held in memory, for every reader
 * of ELF here (elfdyn.c: a program's loader needs; kmodelf.c: a module's
 * .modinfo and symbols; pvhelf.c: a vmlinux's PVH note). elf_open checks
 * the header once: class and byte order (32 or 64 bit, either order: an
 * arm64 guest's files are read on an x86-64 host), and that the program
 * header table, every segment's file bytes and the section header table
 * lie within the file (no sum overflows). The accessors after it read
 * only what it checked, or check what they hand out (a section's bytes, a
 * string in a string table). Named elfwalk.h: <elf.h> is the system's.
 */
#ifndef RAPIDO_ELFWALK_H
#define RAPIDO_ELFWALK_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

/* The host's byte order, as e_ident[EI_DATA] says it */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ELF_HOST_DATA ELFDATA2LSB
#else
#define ELF_HOST_DATA ELFDATA2MSB
#endif

/* Why elf_open refused a file: the first of its checks that failed, in this order. */
enum elf_bad {
	ELF_OK,
	ELF_NOT_ELF,		/* shorter than an ELF header, or no \177ELF */
	ELF_BAD_IDENT,		/* a class or byte order that is neither of the two */
	ELF_BAD_PHDRS,		/* program headers of another size, or past the end of the file */
	ELF_BAD_SEGMENT,	/* a segment's file bytes past the end of the file */
	ELF_BAD_SHDRS,		/* section headers of another size, or past the end of the file */
};

struct elf {
	const unsigned char *data;
	size_t len;
	enum elf_bad bad;
	unsigned char klass;	/* ELFCLASS32, ELFCLASS64 */
	unsigned char endian;	/* ELFDATA2LSB, ELFDATA2MSB */
	unsigned int type;	/* e_type: ET_EXEC, ET_DYN, ET_REL... */
	unsigned int machine;	/* e_machine: EM_X86_64, EM_AARCH64... */
	unsigned int phnum, shnum;
	uint64_t phoff, shoff;
	/* the end of the last byte the headers name (header, tables, segments) */
	uint64_t end;
	/* section names (e_shstrndx): NULL unless in the file, non-empty and NUL-terminated */
	const char *shstr;
	size_t shstrlen;
};

/*
 * Check the ELF file data[0, len) (which must outlive e). 0, or -ENOEXEC
 * with e->bad saying why; type, machine, class and byte order are set
 * once the identification is read (ELF_BAD_PHDRS and after), so a caller
 * may judge those first. With ELF_BAD_SHDRS the segments were checked and
 * may be walked (shnum is 0): a loader reads no section header.
 */
int elf_open(struct elf *e, const void *data, size_t len);

/* The size of one ELF header, program header, section header, symbol of e's class. */
size_t elf_ehdr_size(const struct elf *e);

struct elf_segment {
	uint32_t type, flags;
	uint64_t offset, vaddr, filesz, memsz;
	const unsigned char *data;	/* its filesz bytes (elf_open checked them) */
};

/* Program header i (< e->phnum). */
void elf_segment(const struct elf *e, unsigned int i, struct elf_segment *s);

/* The file offset of virtual address va, through the PT_LOAD segments: 0, or -ENOEXEC. */
int elf_vaddr_offset(const struct elf *e, uint64_t va, uint64_t *off);

struct elf_section {
	const char *name;	/* NULL: out of the section names, or there are none */
	uint32_t type;
	uint64_t flags, offset, size, link, info, entsize;
	const unsigned char *data;	/* its size bytes; NULL when they are not in the file */
};

/* Section header i (< e->shnum). */
void elf_section(const struct elf *e, unsigned int i, struct elf_section *s);
/*
 * The first section at index from or above called name whose bytes are in
 * the file: its index, or -ENOENT.
 */
int elf_section_find(const struct elf *e, const char *name, unsigned int from,
		     struct elf_section *s);

/*
 * The NUL-terminated string at off of a string table of len bytes; NULL
 * when off is past it or the string runs off its end.
 */
const char *elf_str(const char *tab, size_t len, uint64_t off);

/* Notes (a PT_NOTE segment's or a SHT_NOTE section's bytes), one after another. */
struct elf_notes {
	const struct elf *e;
	const unsigned char *p;
	size_t n;
};

struct elf_note {
	uint32_t type;
	const char *name;	/* namesz bytes, its NUL among them */
	uint32_t namesz, descsz;
	const unsigned char *desc;
};

void elf_notes_init(struct elf_notes *it, const struct elf *e, const unsigned char *data, size_t len);
/* 1 with the next note; 0 at the end, or at a note that overruns the bytes (the walk stops). */
int elf_note_next(struct elf_notes *it, struct elf_note *n);

/* The entries of a dynamic section (a PT_DYNAMIC segment), up to DT_NULL. */
struct elf_dyns {
	const struct elf *e;
	const unsigned char *p;
	size_t count, i;
};

void elf_dyns_init(struct elf_dyns *it, const struct elf *e, const struct elf_segment *dyn);
/* 1 with the next entry's tag and value; 0 at DT_NULL or the end. */
int elf_dyn_next(struct elf_dyns *it, uint64_t *tag, uint64_t *val);

/* A symbol table and the string table of its names. */
struct elf_symtab {
	const struct elf *e;
	const unsigned char *sym;
	size_t count;
	const char *str;
	size_t strlen;
};

struct elf_sym {
	const char *name;	/* NULL: out of the string table, or unterminated in it */
	uint64_t value, size;
	unsigned int shndx;
	unsigned char info, other;
};

/*
 * The symbols of section sym, named in section str (both with their bytes
 * in the file): 0, or -ENOEXEC if sym is not a whole number of symbols.
 */
int elf_symtab(const struct elf *e, const struct elf_section *sym, const struct elf_section *str,
	       struct elf_symtab *t);
/* Symbol i (< t->count). */
void elf_sym(const struct elf_symtab *t, size_t i, struct elf_sym *s);

#endif
