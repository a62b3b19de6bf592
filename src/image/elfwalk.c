// SPDX-License-Identifier: GPL-2.0
/* elfwalk.c: one ELF walker, its header checked once (elfwalk.h). */
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "elfwalk.h"

/*
 * A field of n bytes at p in the file's byte order; through memcpy, as a
 * crafted file may put a table at any offset.
 */
static uint64_t get(const struct elf *e, const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	if (e->endian == ELF_HOST_DATA) {
		if (n == 8) {
			memcpy(&v, p, 8);
		} else if (n == 4) {
			uint32_t u;

			memcpy(&u, p, 4);
			v = u;
		} else if (n == 2) {
			uint16_t u;

			memcpy(&u, p, 2);
			v = u;
		} else {
			v = *p;
		}
		return v;
	}
	for (size_t i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Field f of the ELF structure T (Ehdr, Phdr, Shdr, Sym, Dyn) at p, of e's class. */
#define FIELD(e, p, T, f)                                                                     \
	((e)->klass == ELFCLASS64 ?                                                           \
		 get(e, (p) + offsetof(Elf64_##T, f), sizeof(((Elf64_##T *)0)->f)) :          \
		 get(e, (p) + offsetof(Elf32_##T, f), sizeof(((Elf32_##T *)0)->f)))
#define SIZE(e, T) ((e)->klass == ELFCLASS64 ? sizeof(Elf64_##T) : sizeof(Elf32_##T))

/* [off, off + n) within len, without overflow */
static int within(uint64_t off, uint64_t n, size_t len)
{
	return off <= len && n <= len - off;
}

size_t elf_ehdr_size(const struct elf *e)
{
	return SIZE(e, Ehdr);
}

static int refuse(struct elf *e, enum elf_bad why)
{
	e->bad = why;
	return -ENOEXEC;
}

/* The section names: section e_shstrndx's bytes, if they are a string table. */
static void find_names(struct elf *e, unsigned int shstrndx)
{
	struct elf_section s;

	if (shstrndx >= e->shnum)
		return;
	elf_section(e, shstrndx, &s);
	if (!s.data || !s.size || s.data[s.size - 1])
		return;
	e->shstr = (const char *)s.data;
	e->shstrlen = (size_t)s.size;
}

int elf_open(struct elf *e, const void *data, size_t len)
{
	const unsigned char *d = data;
	unsigned int phentsize, shentsize;

	*e = (struct elf){ .data = d, .len = len };
	if (len < EI_NIDENT || memcmp(d, ELFMAG, SELFMAG))
		return refuse(e, ELF_NOT_ELF);
	if ((d[EI_CLASS] != ELFCLASS32 && d[EI_CLASS] != ELFCLASS64) ||
	    (d[EI_DATA] != ELFDATA2LSB && d[EI_DATA] != ELFDATA2MSB))
		return refuse(e, ELF_BAD_IDENT);
	e->klass = d[EI_CLASS];
	e->endian = d[EI_DATA];
	if (len < SIZE(e, Ehdr)) {
		e->klass = e->endian = 0;
		return refuse(e, ELF_NOT_ELF);
	}
	e->type = (unsigned int)FIELD(e, d, Ehdr, e_type);
	e->machine = (unsigned int)FIELD(e, d, Ehdr, e_machine);
	e->phoff = FIELD(e, d, Ehdr, e_phoff);
	e->phnum = (unsigned int)FIELD(e, d, Ehdr, e_phnum);
	e->shoff = FIELD(e, d, Ehdr, e_shoff);
	e->shnum = (unsigned int)FIELD(e, d, Ehdr, e_shnum);
	phentsize = (unsigned int)FIELD(e, d, Ehdr, e_phentsize);
	shentsize = (unsigned int)FIELD(e, d, Ehdr, e_shentsize);
	e->end = SIZE(e, Ehdr);
	if (e->phnum) {
		if (phentsize != SIZE(e, Phdr) ||
		    !within(e->phoff, (uint64_t)e->phnum * phentsize, len))
			return refuse(e, ELF_BAD_PHDRS);
		if (e->phoff + (uint64_t)e->phnum * phentsize > e->end)
			e->end = e->phoff + (uint64_t)e->phnum * phentsize;
	}
	for (unsigned int i = 0; i < e->phnum; i++) {
		const unsigned char *p = d + e->phoff + (size_t)i * phentsize;
		uint64_t off = FIELD(e, p, Phdr, p_offset), n = FIELD(e, p, Phdr, p_filesz);

		if (!within(off, n, len))
			return refuse(e, ELF_BAD_SEGMENT);
		if (off + n > e->end)
			e->end = off + n;
	}
	if (e->shnum) {
		if (shentsize != SIZE(e, Shdr) ||
		    !within(e->shoff, (uint64_t)e->shnum * shentsize, len)) {
			e->shnum = 0;	/* none to read; the segments were checked */
			return refuse(e, ELF_BAD_SHDRS);
		}
		if (e->shoff + (uint64_t)e->shnum * shentsize > e->end)
			e->end = e->shoff + (uint64_t)e->shnum * shentsize;
	}
	find_names(e, (unsigned int)FIELD(e, d, Ehdr, e_shstrndx));
	return 0;
}

void elf_segment(const struct elf *e, unsigned int i, struct elf_segment *s)
{
	const unsigned char *p = e->data + e->phoff + (size_t)i * SIZE(e, Phdr);

	s->type = (uint32_t)FIELD(e, p, Phdr, p_type);
	s->flags = (uint32_t)FIELD(e, p, Phdr, p_flags);
	s->offset = FIELD(e, p, Phdr, p_offset);
	s->vaddr = FIELD(e, p, Phdr, p_vaddr);
	s->filesz = FIELD(e, p, Phdr, p_filesz);
	s->memsz = FIELD(e, p, Phdr, p_memsz);
	s->data = e->data + s->offset;
}

int elf_vaddr_offset(const struct elf *e, uint64_t va, uint64_t *off)
{
	struct elf_segment s;

	for (unsigned int i = 0; i < e->phnum; i++) {
		elf_segment(e, i, &s);
		if (s.type == PT_LOAD && va >= s.vaddr && va - s.vaddr < s.filesz) {
			*off = va - s.vaddr + s.offset;
			return 0;
		}
	}
	return -ENOEXEC;
}

const char *elf_str(const char *tab, size_t len, uint64_t off)
{
	if (!tab || off >= len || !memchr(tab + off, '\0', len - (size_t)off))
		return NULL;
	return tab + off;
}

void elf_section(const struct elf *e, unsigned int i, struct elf_section *s)
{
	const unsigned char *p = e->data + e->shoff + (size_t)i * SIZE(e, Shdr);

	s->name = elf_str(e->shstr, e->shstrlen, FIELD(e, p, Shdr, sh_name));
	s->type = (uint32_t)FIELD(e, p, Shdr, sh_type);
	s->flags = FIELD(e, p, Shdr, sh_flags);
	s->offset = FIELD(e, p, Shdr, sh_offset);
	s->size = FIELD(e, p, Shdr, sh_size);
	s->link = FIELD(e, p, Shdr, sh_link);
	s->info = FIELD(e, p, Shdr, sh_info);
	s->entsize = FIELD(e, p, Shdr, sh_entsize);
	/* SHT_NOBITS (.bss) names bytes that are not in the file, and so may a crafted one */
	s->data = within(s->offset, s->size, e->len) ? e->data + s->offset : NULL;
}

int elf_section_find(const struct elf *e, const char *name, unsigned int from,
		     struct elf_section *s)
{
	for (unsigned int i = from; i < e->shnum; i++) {
		elf_section(e, i, s);
		if (s->data && s->name && !strcmp(s->name, name))
			return (int)i;
	}
	return -ENOENT;
}

void elf_notes_init(struct elf_notes *it, const struct elf *e, const unsigned char *data, size_t len)
{
	*it = (struct elf_notes){ .e = e, .p = data, .n = len };
}

int elf_note_next(struct elf_notes *it, struct elf_note *n)
{
	size_t name, desc, h = sizeof(Elf32_Nhdr);	/* the same in ELF64 */

	if (it->n < h)
		return 0;
	n->namesz = (uint32_t)get(it->e, it->p + offsetof(Elf32_Nhdr, n_namesz), 4);
	n->descsz = (uint32_t)get(it->e, it->p + offsetof(Elf32_Nhdr, n_descsz), 4);
	n->type = (uint32_t)get(it->e, it->p + offsetof(Elf32_Nhdr, n_type), 4);
	/* name and descriptor are each padded to 4 bytes */
	name = ((size_t)n->namesz + 3) & ~(size_t)3;
	desc = ((size_t)n->descsz + 3) & ~(size_t)3;
	if (name > it->n - h || desc > it->n - h - name) {
		it->n = 0;
		return 0;
	}
	n->name = (const char *)it->p + h;
	n->desc = it->p + h + name;
	it->p += h + name + desc;
	it->n -= h + name + desc;
	return 1;
}

void elf_dyns_init(struct elf_dyns *it, const struct elf *e, const struct elf_segment *dyn)
{
	*it = (struct elf_dyns){ .e = e, .p = dyn->data, .count = (size_t)dyn->filesz / SIZE(e, Dyn) };
}

int elf_dyn_next(struct elf_dyns *it, uint64_t *tag, uint64_t *val)
{
	const unsigned char *p;

	if (it->i >= it->count)
		return 0;
	p = it->p + it->i * SIZE(it->e, Dyn);
	*tag = FIELD(it->e, p, Dyn, d_tag);
	*val = FIELD(it->e, p, Dyn, d_un.d_val);
	if (*tag == DT_NULL) {
		it->i = it->count;
		return 0;
	}
	it->i++;
	return 1;
}

int elf_symtab(const struct elf *e, const struct elf_section *sym, const struct elf_section *str,
	       struct elf_symtab *t)
{
	if (!sym->data || !str->data || sym->size % SIZE(e, Sym))
		return -ENOEXEC;
	*t = (struct elf_symtab){ .e = e, .sym = sym->data, .count = (size_t)sym->size / SIZE(e, Sym),
				  .str = (const char *)str->data, .strlen = (size_t)str->size };
	return 0;
}

void elf_sym(const struct elf_symtab *t, size_t i, struct elf_sym *s)
{
	const unsigned char *p = t->sym + i * SIZE(t->e, Sym);

	s->name = elf_str(t->str, t->strlen, FIELD(t->e, p, Sym, st_name));
	s->value = FIELD(t->e, p, Sym, st_value);
	s->size = FIELD(t->e, p, Sym, st_size);
	s->shndx = (unsigned int)FIELD(t->e, p, Sym, st_shndx);
	s->info = (unsigned char)FIELD(t->e, p, Sym, st_info);
	s->other = (unsigned char)FIELD(t->e, p, Sym, st_other);
}
