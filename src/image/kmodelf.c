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

int kmod_elf_open(struct kmod_elf *k, const void *data, size_t len)
{
	struct elf *e = &k->elf;

	/* libkmod refuses section names that are empty or not NUL-terminated */
	if (elf_open(e, data, len) || e->klass != ELFCLASS64 || e->endian != ELF_HOST_DATA || !e->shstr)
		return -ENOEXEC;
	return 0;
}

const char *kmod_elf_section(const struct kmod_elf *k, const char *name, size_t *size, int from)
{
	struct elf_section s;

	/* libkmod skips a section whose bytes are not in the file */
	if (elf_section_find(&k->elf, name, (unsigned int)from, &s) < 0)
		return NULL;
	*size = (size_t)s.size;
	return (const char *)s.data;
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

/* .symtab named in .strtab (by name, as libkmod finds them); -ENOEXEC without them */
static int symtab_get(const struct kmod_elf *k, struct elf_symtab *t)
{
	struct elf_section sym, str;

	if (elf_section_find(&k->elf, ".strtab", 1, &str) < 0 ||
	    elf_section_find(&k->elf, ".symtab", 1, &sym) < 0)
		return -ENOEXEC;
	return elf_symtab(&k->elf, &sym, &str, t);
}

int kmod_elf_exports(const struct kmod_elf *e, struct strv *out)
{
	struct elf_symtab t;
	size_t before = out->n, n;
	const char *s;

	if (!symtab_get(e, &t)) {
		for (size_t i = 1; i < t.count; i++) {
			struct elf_sym sym;

			elf_sym(&t, i, &sym);
			/* out of .strtab or unterminated in it: libkmod would read on */
			if (!sym.name)
				return -ENOEXEC;
			if (!strncmp(sym.name, "__crc_", 6))
				strv_push(out, sym.name + 6);
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
	struct elf_symtab t;
	size_t vlen = 0, nver = 0, cap = 1;
	const char *ver = kmod_elf_section(e, "__versions", &vlen, 1);
	unsigned char *seen;
	size_t *tab;	/* open addressing over the version names: index + 1, 0 free */

	/* SPARC's register symbols are undefined and skipped by libkmod: not read here */
	if (e->elf.machine == EM_SPARC || e->elf.machine == EM_SPARCV9 || symtab_get(e, &t))
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
		struct elf_sym sym;
		const char *name;
		size_t h;

		elf_sym(&t, i, &sym);
		if (sym.shndx != SHN_UNDEF)
			continue;
		name = sym.name;
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
