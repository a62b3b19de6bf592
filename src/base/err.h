/* SPDX-License-Identifier: GPL-2.0 */
/* err.h: die/warn helpers that print "prog: message[: strerror]". */
#ifndef RAPIDO_ERR_H
#define RAPIDO_ERR_H

#include <stdio.h>
#include <stdnoreturn.h>

/* Set once from main(); defaults to "rapido". */
extern const char *err_prog;

/* Exit status used by die*(); commands may change it (vm uses 125). */
extern int err_exit_status;

noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
noreturn void die_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Like warn_errno but with an explicit error number (a -errno return). */
void warn_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
noreturn void die_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * strerror() of an errno or a -errno return, but for io.h's ENOTREG (a
 * FIFO, a device, ... where a regular file was wanted) words that say so.
 */
const char *err_str(int err);

/*
 * The command as the user typed it ("./vm", "rapido vm"), for the usage
 * hint: err_prog ("vm") is no command in a checkout nor once installed.
 * Set by the entry points; NULL: err_prog.
 */
extern const char *err_cmd;

/* "Try 'CMD --help' for more information." on F: the GNU hint after a usage error. */
void usage_hint(FILE *f);

/*
 * A usage error: "PROG: message" (when FMT is not NULL), the hint, then
 * exit(STATUS). getopt() has already said what was wrong: pass NULL then.
 */
noreturn void usage_die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * ARG, the path that option OPT was given; an empty one is a usage error
 * (exit err_exit_status): "" names no file, and a directory built on it
 * ("" + "/files") would be "/".
 */
const char *path_arg_or_die(const char *opt, const char *arg);

/* Allocation that cannot fail (dies with a message). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Set *err to "FILE:LINE: message" (malloc'd) and return -EINVAL: the one
 * shape every parser here reports a bad line in.
 */
int err_at(char **err, const char *file, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Flush stdout and die if any earlier write to it failed (util-linux closestream). */
void close_stdout(void);

#endif
