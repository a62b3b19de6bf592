/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conlog.h: the console log file, written by ./vm from the console pipe.
 * A log that cannot be written is said once on stderr and then left
 * alone: a full disk costs the log, never the guest's verdict.
 */
#ifndef RAPIDO_VM_CONLOG_H
#define RAPIDO_VM_CONLOG_H

#include <stddef.h>

struct conlog {
	const char *path;
	int fd;			/* -1 if it could not be opened */
	int failed;		/* writing stopped (warned once) */
};

/* Open (truncate) path; warns if it cannot. */
void conlog_open(struct conlog *g, const char *path);
void conlog_write(struct conlog *g, const char *p, size_t n);
void conlog_close(struct conlog *g);

#endif
