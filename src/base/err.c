// SPDX-License-Identifier: GPL-2.0
/* err.c: die/warn helpers and allocation wrappers that cannot fail. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"

const char *err_prog = "rapido";
int err_exit_status = 1;
const char *err_cmd;

const char *err_str(int err)
{
	if (err < 0)
		err = -err;
	/* io.h's ENOTREG: strerror()'s "Wrong medium type" would say nothing */
	if (err == EMEDIUMTYPE)
		return "not a regular file (a FIFO, a device, a directory or a symbolic link)";
	return strerror(err);
}

static void vreport(int err, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", err_prog);
	vfprintf(stderr, fmt, ap);
	if (err)
		fprintf(stderr, ": %s", err_str(err));
	fputc('\n', stderr);
}

void usage_hint(FILE *f)
{
	fprintf(f, "Try '%s --help' for more information.\n", err_cmd ? err_cmd : err_prog);
}

void usage_die(int status, const char *fmt, ...)
{
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vreport(0, fmt, ap);
		va_end(ap);
	}
	usage_hint(stderr);
	exit(status);
}

const char *path_arg_or_die(const char *opt, const char *arg)
{
	if (!*arg)
		usage_die(err_exit_status, "%s: an empty path (give a file or directory name)", opt);
	return arg;
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(0, fmt, ap);
	va_end(ap);
	exit(err_exit_status);
}

void die_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vreport(err, fmt, ap);
	va_end(ap);
	exit(err_exit_status);
}

void die_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(err < 0 ? -err : err, fmt, ap);
	va_end(ap);
	exit(err_exit_status);
}

void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(0, fmt, ap);
	va_end(ap);
}

void warn_errno(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vreport(err, fmt, ap);
	va_end(ap);
	errno = err;
}

void warn_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(err < 0 ? -err : err, fmt, ap);
	va_end(ap);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		die("out of memory allocating %zu x %zu bytes", n, sz);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		die("out of memory");
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("out of memory");
	return s;
}

int err_at(char **err, const char *file, unsigned int line, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	*err = xasprintf("%s:%u: %s", file, line, msg);
	free(msg);
	return -EINVAL;
}

void close_stdout(void)
{
	int prev_fail = ferror(stdout);

	if (fflush(stdout) != 0 || prev_fail) {
		if (errno == EPIPE)
			_exit(err_exit_status);
		fprintf(stderr, "%s: write error on standard output%s%s\n", err_prog,
			errno ? ": " : "", errno ? strerror(errno) : "");
		_exit(err_exit_status);
	}
}
