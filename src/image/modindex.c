// SPDX-License-Identifier: GPL-2.0
/*
 * modindex.c: kmod's index format (modindex.h), as libkmod-index.c reads
 * it: a header (magic 0xB007F457, version 0x00020001, the root node's
 * offset), then nodes, every number big-endian. A node's offset carries
 * flags in its top nibble saying what follows at it: a prefix (the key's
 * next bytes, NUL-terminated), children (first and last byte, then one
 * offset per byte in between, 0 for none), values (a count, then each
 * one's priority and NUL-terminated text). kmod 30's depmod writes each
 * node after its children, so the root comes last; kmod 34's writes each
 * node before its children, the root first, at 12; the same here.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "modindex.h"

#define INDEX_MAGIC 0xB007F457u
#define INDEX_VERSION 0x00020001u
#define NODE_PREFIX 0x80000000u
#define NODE_VALUES 0x40000000u
#define NODE_CHILDS 0x20000000u

struct ivalue {
	struct ivalue *next;
	unsigned int priority;
	char *text;
};

struct child {
	unsigned char c;
	struct inode *node;
};

struct inode {
	char *prefix;		/* the key bytes after the one that led here */
	struct ivalue *values;
	struct child *kids;	/* sorted by c */
	size_t nkids, cap;
};

struct modindex {
	struct inode *root;
};

static struct inode *node_new(const char *prefix)
{
	struct inode *n = xcalloc(1, sizeof(*n));

	n->prefix = xstrdup(prefix);
	return n;
}

struct modindex *modindex_new(void)
{
	struct modindex *ix = xmalloc(sizeof(*ix));

	ix->root = node_new("");
	return ix;
}

int modindex_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 128)
			return 0;
	return 1;
}

static void value_add(struct inode *n, const char *text, unsigned int priority)
{
	struct ivalue **p = &n->values, *v = xmalloc(sizeof(*v));

	while (*p && (*p)->priority < priority)
		p = &(*p)->next;
	v->next = *p;
	v->priority = priority;
	v->text = xstrdup(text);
	*p = v;
}

static struct inode *child_find(const struct inode *n, unsigned char c)
{
	for (size_t i = 0; i < n->nkids; i++)
		if (n->kids[i].c == c)
			return n->kids[i].node;
	return NULL;
}

static void child_add(struct inode *n, unsigned char c, struct inode *kid)
{
	size_t i = 0;

	if (n->nkids == n->cap) {
		n->cap = n->cap ? 2 * n->cap : 2;
		n->kids = xrealloc(n->kids, n->cap * sizeof(*n->kids));
	}
	while (i < n->nkids && n->kids[i].c < c)
		i++;
	memmove(n->kids + i + 1, n->kids + i, (n->nkids - i) * sizeof(*n->kids));
	n->kids[i] = (struct child){ c, kid };
	n->nkids++;
}

/*
 * Where the key leaves a node's prefix, the node splits: it keeps the
 * prefix up to there and one child holding the rest with everything the
 * node had. So a node other than the root has values or two children,
 * the shape depmod's insertion gives whatever the order of the keys.
 */
void modindex_add(struct modindex *ix, const char *key, const char *value, unsigned int priority)
{
	struct inode *n = ix->root;
	size_t i = 0;

	for (;;) {
		size_t j;

		for (j = 0; n->prefix[j]; j++)
			if (n->prefix[j] != key[i + j]) {
				struct inode *rest = node_new(n->prefix + j + 1);

				rest->values = n->values;
				rest->kids = n->kids;
				rest->nkids = n->nkids;
				rest->cap = n->cap;
				n->values = NULL;
				n->kids = NULL;
				n->nkids = n->cap = 0;
				child_add(n, (unsigned char)n->prefix[j], rest);
				n->prefix[j] = '\0';
				break;
			}
		i += j;
		if (!key[i]) {
			value_add(n, value, priority);
			return;
		}
		struct inode *kid = child_find(n, (unsigned char)key[i]);

		if (!kid) {
			kid = node_new(key + i + 1);
			value_add(kid, value, priority);
			child_add(n, (unsigned char)key[i], kid);
			return;
		}
		n = kid;
		i++;
	}
}

static void put32(struct strbuf *b, uint32_t v)
{
	char be[4] = { (char)(v >> 24), (char)(v >> 16), (char)(v >> 8), (char)v };

	strbuf_add(b, be, 4);
}

static void put32_at(struct strbuf *b, size_t at, uint32_t v)
{
	b->s[at] = (char)(v >> 24);
	b->s[at + 1] = (char)(v >> 16);
	b->s[at + 2] = (char)(v >> 8);
	b->s[at + 3] = (char)v;
}

/*
 * Write n, its children before it (kmod 30) or after it (kmod 34,
 * preorder: each child's subtree follows the last one's, their offsets
 * filled in once known); its offset with its flags.
 */
static uint32_t node_write(const struct inode *n, int preorder, struct strbuf *b)
{
	uint32_t off, flags = 0, *kid_off = NULL;
	size_t span = 0, table = 0;

	if (n->nkids) {
		span = (size_t)(n->kids[n->nkids - 1].c - n->kids[0].c) + 1;
		kid_off = xcalloc(span, sizeof(*kid_off));
		for (size_t i = 0; i < n->nkids && !preorder; i++)
			kid_off[n->kids[i].c - n->kids[0].c] = node_write(n->kids[i].node, 0, b);
	}
	off = (uint32_t)b->len;
	if (n->prefix[0]) {
		strbuf_add(b, n->prefix, strlen(n->prefix) + 1);
		flags |= NODE_PREFIX;
	}
	if (span) {
		strbuf_addc(b, (char)n->kids[0].c);
		strbuf_addc(b, (char)n->kids[n->nkids - 1].c);
		table = b->len;
		for (size_t i = 0; i < span; i++)
			put32(b, kid_off[i]);
		flags |= NODE_CHILDS;
	}
	if (n->values) {
		uint32_t count = 0;

		for (const struct ivalue *v = n->values; v; v = v->next)
			count++;
		put32(b, count);
		for (const struct ivalue *v = n->values; v; v = v->next) {
			put32(b, v->priority);
			strbuf_add(b, v->text, strlen(v->text) + 1);
		}
		flags |= NODE_VALUES;
	}
	for (size_t i = 0; i < n->nkids && preorder; i++)
		put32_at(b, table + 4 * (size_t)(n->kids[i].c - n->kids[0].c),
			 node_write(n->kids[i].node, 1, b));
	free(kid_off);
	return off | flags;
}

void modindex_write(const struct modindex *ix, int preorder, struct strbuf *out)
{
	strbuf_reset(out);
	put32(out, INDEX_MAGIC);
	put32(out, INDEX_VERSION);
	put32(out, 0);	/* the root's offset, known once it is written */
	put32_at(out, 8, node_write(ix->root, preorder, out));
}

static void node_free(struct inode *n)
{
	for (size_t i = 0; i < n->nkids; i++)
		node_free(n->kids[i].node);
	while (n->values) {
		struct ivalue *v = n->values;

		n->values = v->next;
		free(v->text);
		free(v);
	}
	free(n->kids);
	free(n->prefix);
	free(n);
}

void modindex_free(struct modindex *ix)
{
	if (!ix)
		return;
	node_free(ix->root);
	free(ix);
}
