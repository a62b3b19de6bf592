// SPDX-License-Identifier: GPL-2.0
/*
 * lib-modindex.c: kmod's index format as modindex.c writes it, byte for
 * byte, for tries small enough to lay out by hand (the shell tests
 * cut-kmods*.sh compare whole indexes with depmod's): the header, nodes
 * children first (kmod 30) or parent first (kmod 34), a split prefix,
 * value order by priority.
 */
#include <stdint.h>
#include <string.h>

#include "modindex.h"
#include "tap.h"

/* the index of ix equals want (n bytes); on a difference, say where */
static int index_is(struct modindex *ix, int preorder, const unsigned char *want, size_t n,
		    const char *what)
{
	struct strbuf b = STRBUF_INIT;
	size_t i = 0;
	int ok;

	modindex_write(ix, preorder, &b);
	while (i < n && i < b.len && (unsigned char)b.s[i] == want[i])
		i++;
	ok = tap_ok(b.len == n && i == n, "%s", what);
	if (!ok)
		printf("#   %zu bytes, want %zu; first difference at %zu\n", b.len, n, i);
	strbuf_free(&b);
	return ok;
}

#define HEADER(...) 0xB0, 0x07, 0xF4, 0x57, 0x00, 0x02, 0x00, 0x01, __VA_ARGS__

int main(void)
{
	struct modindex *ix;

	tap_plan(7);

	ix = modindex_new();
	{
		/* an empty root: nothing written for it, its offset bare */
		static const unsigned char want[] = { HEADER(0x00, 0x00, 0x00, 0x0C) };

		index_is(ix, 0, want, sizeof(want), "an empty index: the header, the root at 12 with no flags");
		index_is(ix, 1, want, sizeof(want), "kmod 34: an empty index is the same");
	}
	modindex_free(ix);

	ix = modindex_new();
	modindex_add(ix, "ab", "1", 0);
	modindex_add(ix, "ac", "2", 3);
	{
		/*
		 * "ab" then "ac": the child 'a' (prefix "b") splits into a node
		 * with children 'b' and 'c', each a node of one value. Written
		 * children first: b at 12, c at 22, a at 32, the root at 42.
		 */
		static const unsigned char want[] = {
			HEADER(0x20, 0x00, 0x00, 0x2A),
			/* 12: b, values */
			0, 0, 0, 1, 0, 0, 0, 0, '1', 0,
			/* 22: c */
			0, 0, 0, 1, 0, 0, 0, 3, '2', 0,
			/* 32: a, children b..c */
			'b', 'c', 0x40, 0, 0, 0x0C, 0x40, 0, 0, 0x16,
			/* 42: the root, child a */
			'a', 'a', 0x20, 0, 0, 0x20,
		};

		index_is(ix, 0, want, sizeof(want), "a split prefix, nodes written children first");
	}
	{
		/*
		 * kmod 34 writes the same trie parent first: the root at 12,
		 * a at 18, b at 28, c at 38; the header's offset has the root's flags.
		 */
		static const unsigned char want[] = {
			HEADER(0x20, 0x00, 0x00, 0x0C),
			/* 12: the root, child a */
			'a', 'a', 0x20, 0, 0, 0x12,
			/* 18: a, children b..c */
			'b', 'c', 0x40, 0, 0, 0x1C, 0x40, 0, 0, 0x26,
			/* 28: b */
			0, 0, 0, 1, 0, 0, 0, 0, '1', 0,
			/* 38: c */
			0, 0, 0, 1, 0, 0, 0, 3, '2', 0,
		};

		index_is(ix, 1, want, sizeof(want), "kmod 34: the same trie, nodes written parent first");
	}
	modindex_free(ix);

	ix = modindex_new();
	modindex_add(ix, "abc", "x", 0);
	modindex_add(ix, "abd", "y", 0);
	{
		/* a prefix kept: the node 'a' holds "b" before its children */
		static const unsigned char want[] = {
			HEADER(0x20, 0x00, 0x00, 0x2C),
			/* 12: c */
			0, 0, 0, 1, 0, 0, 0, 0, 'x', 0,
			/* 22: d */
			0, 0, 0, 1, 0, 0, 0, 0, 'y', 0,
			/* 32: a, prefix "b", children c..d */
			'b', 0, 'c', 'd', 0x40, 0, 0, 0x0C, 0x40, 0, 0, 0x16,
			/* 44: the root */
			'a', 'a', 0xA0, 0, 0, 0x20,
		};

		index_is(ix, 0, want, sizeof(want), "a node's prefix before its children (flag 0x80)");
	}
	modindex_free(ix);

	ix = modindex_new();
	modindex_add(ix, "k", "p2", 2);
	modindex_add(ix, "k", "p1", 1);
	modindex_add(ix, "k", "q2", 2);
	modindex_add(ix, "k", "p1", 1);
	{
		/* by priority; an equal one goes first; a repeated value stays */
		static const unsigned char want[] = {
			HEADER(0x20, 0x00, 0x00, 0x2C),
			/* 12: k, four values */
			0, 0, 0, 4,
			0, 0, 0, 1, 'p', '1', 0,
			0, 0, 0, 1, 'p', '1', 0,
			0, 0, 0, 2, 'q', '2', 0,
			0, 0, 0, 2, 'p', '2', 0,
			/* 44: the root */
			'k', 'k', 0x40, 0, 0, 0x0C,
		};

		index_is(ix, 0, want, sizeof(want), "values by priority, a later equal one first, repeats kept");
	}
	modindex_free(ix);

	ix = modindex_new();
	modindex_add(ix, "a", "1", 0);
	modindex_add(ix, "c", "2", 0);
	{
		/* children 'a'..'c': an offset 0 for the 'b' between */
		static const unsigned char want[] = {
			HEADER(0x20, 0x00, 0x00, 0x20),
			0, 0, 0, 1, 0, 0, 0, 0, '1', 0,
			0, 0, 0, 1, 0, 0, 0, 0, '2', 0,
			/* 32: the root, a..c */
			'a', 'c', 0x40, 0, 0, 0x0C, 0, 0, 0, 0, 0x40, 0, 0, 0x16,
		};

		index_is(ix, 0, want, sizeof(want), "a missing child between two: offset 0");
	}
	modindex_free(ix);
	return tap_done();
}
