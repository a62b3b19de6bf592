/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h: a small TAP harness in the kselftest manner for unit tests.
 *
 *	tap_plan(3);
 *	tap_ok(x == 1, "x is one");
 *	TAP_EQ_INT(got, want, "name");
 *	TAP_EQ_STR(got, want, "name");
 *	tap_rm_tree(tmpdir);
 *	return tap_done();
 */
#ifndef RAPIDO_TAP_H
#define RAPIDO_TAP_H

#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed, tap_planned;

static inline void tap_plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

static inline int tap_ok_at(int ok, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static inline int tap_ok_at(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", ok ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!ok) {
		tap_failed++;
		printf("#   at %s:%d\n", file, line);
	}
	fflush(stdout);
	return ok;
}

#define tap_ok(cond, ...) tap_ok_at(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define tap_skip(why, ...) do {						\
	tap_n++;							\
	printf("ok %d - ", tap_n);					\
	printf(__VA_ARGS__);						\
	printf(" # SKIP %s\n", why);					\
	fflush(stdout);							\
} while (0)

#define TAP_EQ_INT(got, want, ...) do {					\
	long long _g = (long long)(got), _w = (long long)(want);	\
	if (!tap_ok(_g == _w, __VA_ARGS__))				\
		printf("#   expected %lld, saw %lld\n", _w, _g);	\
} while (0)

#define TAP_EQ_STR(got, want, ...) do {					\
	const char *_g = (got), *_w = (want);				\
	int _eq = (_g && _w) ? !strcmp(_g, _w) : _g == _w;		\
	if (!tap_ok(_eq, __VA_ARGS__))					\
		printf("#   expected \"%s\"\n#   saw      \"%s\"\n",	\
		       _w ? _w : "(null)", _g ? _g : "(null)");		\
} while (0)

static inline int tap_rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

/* Remove a test's scratch tree DIR, contents first; symlinks are not followed. */
static inline void tap_rm_tree(const char *dir)
{
	nftw(dir, tap_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static inline int tap_done(void)
{
	if (tap_planned && tap_n != tap_planned) {
		printf("# planned %d tests but ran %d\n", tap_planned, tap_n);
		return 1;
	}
	return tap_failed ? 1 : 0;
}

#endif
