// SPDX-License-Identifier: GPL-2.0
/* colour.c: pass/fail in colour on a terminal, never in a file or with NO_COLOR. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "colour.h"
#include "err.h"

int colour_wanted(int fd)
{
	const char *no = getenv("NO_COLOR");

	return isatty(fd) && !(no && *no);
}

char *colourf(int on, enum colour c, const char *fmt, ...)
{
	static const char *const esc[] = { [COLOUR_GREEN] = "\033[32m", [COLOUR_RED] = "\033[31m" };
	va_list ap;
	char *text, *out;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	if (!on)
		return text;
	out = xasprintf("%s%s\033[0m", esc[c], text);
	free(text);
	return out;
}
