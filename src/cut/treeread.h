/* SPDX-License-Identifier: GPL-2.0 */
/* treeread.h: a "#@ files:" source read into its entries, in the order its layer keys and writes them. */
#ifndef RAPIDO_CUT_TREEREAD_H
#define RAPIDO_CUT_TREEREAD_H

#include <stddef.h>
#include <sys/stat.h>

struct tree_entry {
	char *rel;		/* path below SRC; "" for SRC itself */
	struct stat st;
	char *target;		/* symlinks */
	size_t parent;		/* index of its directory's entry (while reading) */
};

struct tree {
	const char *src;
	struct tree_entry *v;
	size_t n, cap;
	int skipped;		/* sockets, fifos, devices: not copied */
};

/*
 * Read SRC: itself, then depth first, each directory's names in strcmp
 * order, a directory's entry before its contents. Regular files,
 * directories and symlinks (with their targets); special files are only
 * counted. 0, or -errno with *err naming the path.
 */
int tree_read(struct tree *t, const char *src, char **err);
void tree_free(struct tree *t);

#endif
