/* SPDX-License-Identifier: GPL-2.0 */
/* tree.h: make a directory path; remove a tree without following a symlink or leaving its file system. */
#ifndef RAPIDO_TREE_H
#define RAPIDO_TREE_H

/*
 * Remove path and, if it is a directory, all below it (depth first, no
 * symlink followed: a symlink is removed, not its target; never into
 * another file system). Goes on past a failure; returns 0 or the first
 * -errno, with *failed (malloc'd, may be NULL) naming its path. A path
 * that does not exist is no error.
 */
int remove_tree(const char *path, char **failed);

/*
 * mkdir -p: make every missing directory of path, mode 0755 (an existing
 * one is no error). Returns 0 or -errno, with *failed (malloc'd, may be
 * NULL) naming the directory that could not be made.
 */
int mkdir_p(const char *path, char **failed);

#endif
