// SPDX-License-Identifier: GPL-2.0
/* kmodelf.c: a kernel module's .modinfo and symbols, read as libkmod reads them (kmodelf.h). */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hash.h"
#include "kmodelf.h"

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_DATA ELFDATA2LSB
#else
#define HOST_DATA ELFDATA2MSB
#endif

/* Fields read through memcpy: a section may start at any offset of a crafted file. */
static uint64_t rd(const unsigned char *p, size_t n)
{
	uint64_t v = 0;

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

#define FIELD(base, type, f) rd((base) + offsetof(type, f), sizeof(((type *)0)->f))

int kmod_elf_open(struct kmod_elf *e, const void *data, size_t len)
{
	const unsigned char *d = data;
	uint64_t shoff, shstr, off, size;
	unsigned int shentsize;

	*e = (struct kmod_elf){ .data = d, .len = len };
	if (len < sizeof(Elf64_Ehdr) || memcmp(d, ELFMAG, SELFMAG) || d[EI_CLASS] != ELFCLASS64 ||
	    d[EI_DATA] != HOST_DATA)
		return -ENOEXEC;
	shoff = FIELD(d, Elf64_Ehdr, e_shoff);
	shentsize = (unsigned int)FIELD(d, Elf64_Ehdr, e_shentsize);
	e->shnum = (unsigned int)FIELD(d, Elf64_Ehdr, e_shnum);
	shstr = FIELD(d, Elf64_Ehdr, e_shstrndx);
	e->machine = (unsigned int)FIELD(d, Elf64_Ehdr, e_machine);
	if (shentsize != sizeof(Elf64_Shdr) || shstr >= e->shnum || shoff > len ||
	    (uint64_t)e->shnum * sizeof(Elf64_Shdr) > len - shoff)
		return -ENOEXEC;
	e->shoff = shoff;
	off = FIELD(d + shoff + shstr * sizeof(Elf64_Shdr), Elf64_Shdr, sh_offset);
	size = FIELD(d + shoff + shstr * sizeof(Elf64_Shdr), Elf64_Shdr, sh_size);
	/* libkmod refuses section names that are empty or not NUL-terminated */
	if (off > len || size > len - off || !size || d[off + size - 1])
		return -ENOEXEC;
	e->names = (const char *)d + off;
	e->nameslen = size;
	return 0;
}

const char *kmod_elf_section(const struct kmod_elf *e, const char *name, size_t *size, int from)
{
	size_t nl = strlen(name);

	for (unsigned int i = (unsigned int)from; i < e->shnum; i++) {
		const unsigned char *sh = e->data + e->shoff + (size_t)i * sizeof(Elf64_Shdr);
		uint64_t off = FIELD(sh, Elf64_Shdr, sh_offset), sz = FIELD(sh, Elf64_Shdr, sh_size);
		uint64_t n = FIELD(sh, Elf64_Shdr, sh_name);

		/* libkmod skips a section whose bytes are not in the file */
		if (off > e->len || sz > e->len - off)
			continue;
		if (n >= e->nameslen || e->nameslen - n < nl + 1 || memcmp(e->names + n, name, nl + 1))
			continue;
		*size = sz;
		return (const char *)e->data + off;
	}
	return NULL;
}

/* Non-empty NUL-separated strings of [s, s + n), into out. */
static void split_strings(const char *s, size_t n, struct strv *out)
{
	for (size_t i = 0; i < n;) {
		size_t l = strnlen(s + i, n - i);

		if (l) {
			char *v = xstrndup(s + i, l);

			strv_push(out, v);
			free(v);
		}
		i += l + 1;
	}
}

int kmod_elf_strings(const struct kmod_elf *e, const char *section, struct strv *out)
{
	size_t n;
	const char *s = kmod_elf_section(e, section, &n, 1);

	if (!s)
		return -ENOENT;
	split_strings(s, n, out);
	return 0;
}

struct symtab {
	const unsigned char *sym;
	size_t count;
	const char *str;
	size_t strlen;
};

/* .symtab and .strtab, the table a whole number of entries; -ENOEXEC without them */
static int symtab_get(const struct kmod_elf *e, struct symtab *t)
{
	size_t n;

	t->str = kmod_elf_section(e, ".strtab", &t->strlen, 1);
	t->sym = (const unsigned char *)kmod_elf_section(e, ".symtab", &n, 1);
	if (!t->str || !t->sym || n % sizeof(Elf64_Sym))
		return -ENOEXEC;
	t->count = n / sizeof(Elf64_Sym);
	return 0;
}

/* Entry i's name; NULL if it is out of .strtab or unterminated in it (libkmod would read on). */
static const char *sym_name(const struct symtab *t, size_t i)
{
	uint64_t off = FIELD(t->sym + i * sizeof(Elf64_Sym), Elf64_Sym, st_name);

	if (off >= t->strlen || !memchr(t->str + off, '\0', t->strlen - off))
		return NULL;
	return t->str + off;
}

int kmod_elf_exports(const struct kmod_elf *e, struct strv *out)
{
	struct symtab t;
	size_t before = out->n, n;
	const char *s;

	if (!symtab_get(e, &t)) {
		for (size_t i = 1; i < t.count; i++) {
			const char *name = sym_name(&t, i);

			if (!name)
				return -ENOEXEC;
			if (!strncmp(name, "__crc_", 6))
				strv_push(out, name + 6);
		}
		if (out->n > before)
			return 0;
	}
	/* no modversions (or no symbol table): the export strings */
	s = kmod_elf_section(e, "__ksymtab_strings", &n, 1);
	if (s)
		split_strings(s, n, out);
	return 0;
}

/* an entry of __versions: the CRC (unsigned long), then the name in the rest of 64 bytes */
#define MODVER_LEN 64
#define MODVER_NAME 8

/* a module needs hundreds of symbols, each looked up in __versions: a hash table (FNV-1a) */
static size_t name_hash(const char *s)
{
	return (size_t)fnv1a64(s, strlen(s));
}

int kmod_elf_needs(const struct kmod_elf *e, struct strv *out)
{
	struct symtab t;
	size_t vlen = 0, nver = 0, cap = 1;
	const char *ver = kmod_elf_section(e, "__versions", &vlen, 1);
	unsigned char *seen;
	size_t *tab;	/* open addressing over the version names: index + 1, 0 free */

	/* SPARC's register symbols are undefined and skipped by libkmod: not read here */
	if (e->machine == EM_SPARC || e->machine == EM_SPARCV9 || symtab_get(e, &t))
		return -ENOEXEC;
	if (ver && vlen % MODVER_LEN == 0)
		nver = vlen / MODVER_LEN;
	for (size_t k = 0; k < nver; k++)
		if (!memchr(ver + k * MODVER_LEN + MODVER_NAME, '\0', MODVER_LEN - MODVER_NAME))
			return -ENOEXEC;
	while (cap < 2 * nver + 2)
		cap *= 2;
	tab = xcalloc(cap, sizeof(*tab));
	seen = xcalloc(nver + 1, 1);
	/* the first entry of a name is the one libkmod's search finds and marks */
	for (size_t k = nver; k-- > 0;) {
		const char *v = ver + k * MODVER_LEN + MODVER_NAME;
		size_t h = name_hash(v) & (cap - 1);

		while (tab[h] && strcmp(ver + (tab[h] - 1) * MODVER_LEN + MODVER_NAME, v))
			h = (h + 1) & (cap - 1);
		tab[h] = k + 1;
	}
	for (size_t i = 1; i < t.count; i++) {
		const unsigned char *s = t.sym + i * sizeof(Elf64_Sym);
		const char *name;
		size_t h;

		if (FIELD(s, Elf64_Sym, st_shndx) != SHN_UNDEF)
			continue;
		name = sym_name(&t, i);
		if (!name) {
			free(seen);
			free(tab);
			return -ENOEXEC;
		}
		if (!*name)
			continue;
		strv_push(out, name);
		for (h = name_hash(name) & (cap - 1); tab[h]; h = (h + 1) & (cap - 1))
			if (!strcmp(ver + (tab[h] - 1) * MODVER_LEN + MODVER_NAME, name)) {
				seen[tab[h] - 1] = 1;
				break;
			}
	}
	for (size_t k = 0; k < nver; k++)
		if (!seen[k])
			strv_push(out, ver + k * MODVER_LEN + MODVER_NAME);
	free(seen);
	free(tab);
	return 0;
}
