/* SPDX-License-Identifier: GPL-2.0 */
/* statedir.h: a directory a tool made for its state, known by a marker file in it. */
#ifndef RAPIDO_STATEDIR_H
#define RAPIDO_STATEDIR_H

/*
 * What a tool removes or reuses must be what it made: a --state or
 * CEPH_LOCAL_DIR naming a data directory or a plain file by mistake is
 * refused, never removed. A tool makes its directory with statedir_make(),
 * which writes MARKER (a file name) into it first; statedir_kind() then
 * tells it apart from anything else.
 */
enum statedir_kind {
	STATEDIR_ABSENT,	/* nothing at that path */
	STATEDIR_OURS,		/* a directory (not a link) holding the regular file MARKER */
	STATEDIR_EMPTY,		/* an empty directory, without MARKER */
	STATEDIR_NOTDIR,	/* a file, a link, a FIFO, ...: nothing a tool made */
	STATEDIR_UNMARKED,	/* a directory with other things in it and no MARKER */
};

/* DIR's kind, or -errno when it cannot be told (EACCES, ...) */
int statedir_kind(const char *dir, const char *marker);
/* STATEDIR_NOTDIR's and _UNMARKED's words for a message: "not a directory", ... */
const char *statedir_kind_words(int kind);
/*
 * Make DIR (and its parents, mode 0755) with MARKER holding TEXT in it;
 * DIR may exist only empty. 0, -EEXIST when something else is there, or
 * -errno (*failed, when set, names the path that failed; free it).
 */
int statedir_make(const char *dir, const char *marker, const char *text, char **failed);

#endif
