/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modindex.h: kmod's module index, the .bin files depmod writes beside
 * modules.dep, modules.alias and modules.symbols (libkmod looks keys up in
 * them without parsing the text). A trie of 7-bit keys with path
 * compression; each key holds values ordered by priority. Written byte for
 * byte as kmod 30's or kmod 34's depmod writes it (format 2.1, the nodes
 * in another order), so that a layer ./cut writes without depmod
 * (depmod.h) equals one depmod wrote.
 */
#ifndef RAPIDO_MODINDEX_H
#define RAPIDO_MODINDEX_H

#include "strbuf.h"

struct modindex;

struct modindex *modindex_new(void);
/*
 * Add value under key, before the key's values of the same or a higher
 * priority (depmod's order: a later value of equal priority comes first).
 * A value already there is added again, as depmod does. Keys and values
 * must be 7-bit: depmod refuses anything else (modindex_ascii).
 */
void modindex_add(struct modindex *ix, const char *key, const char *value, unsigned int priority);
/* 1 if s is 7-bit ASCII, as an index key or value must be */
int modindex_ascii(const char *s);
/* The index file: header, then the nodes children first (kmod 30) or, preorder, parent first (kmod 34). */
void modindex_write(const struct modindex *ix, int preorder, struct strbuf *out);
void modindex_free(struct modindex *ix);

#endif
