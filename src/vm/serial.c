// SPDX-License-Identifier: GPL-2.0
/*
 * serial.c: which tests of a --jobs run wait for a VM of their own, and
 * how a guest learns its part: rapido.serial=defer (a shard: leave those
 * tests to the serial VM and list them) or rapido.serial=only (the serial
 * VM: run nothing else), and a rapido.serial-test=NAME per --serial-tests
 * line, %-escaped (pct.h) so that a blank stays inside one parameter. The
 * guest init hands them to autorun/lib/results.sh (RAPIDO_SERIAL,
 * RAPIDO_SERIAL_TESTS).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "err.h"
#include "jobs.h"
#include "pct.h"
#include "protocol.h"
#include "vm.h"

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int serial_tests_parse(const char *path, char *text, struct strv *out, char **err)
{
	unsigned int line = 0;

	for (char *p = text, *next; p && *p; p = next) {
		char *end, *hash;

		line++;
		next = strchr(p, '\n');
		if (next)
			*next++ = '\0';
		/* a comment: '#' first on the line or after a blank (a name may hold '#') */
		for (hash = p; (hash = strchr(hash, '#')); hash++)
			if (hash == p || blank(hash[-1])) {
				*hash = '\0';
				break;
			}
		while (blank(*p))
			p++;
		end = p + strlen(p);
		while (end > p && blank(end[-1]))
			*--end = '\0';
		if (!*p)
			continue;
		for (const char *c = p; *c; c++) {
			if (*c == '"' || (unsigned char)*c < ' ' || *c == 0x7f) {
				*err = xasprintf("%s:%u: '%s': a test name cannot hold %s (the kernel "
						 "command line carries it)", path, line, p,
						 *c == '"' ? "'\"'" : "a control character");
				return -EINVAL;
			}
		}
		strv_push(out, p);
	}
	return 0;
}

static void serial_kparams(const struct vm_launch *l, struct strv *k)
{
	const struct vm_settings *s = l->s;

	if (s->serial == SERIAL_NONE)
		return;
	strv_push(k, s->serial == SERIAL_ONLY ? KP_SERIAL "only" : KP_SERIAL "defer");
	for (size_t i = 0; i < s->serial_tests.n; i++) {
		char *v = pct_field(s->serial_tests.v[i]);

		strv_pushf(k, KP_SERIAL_TEST "%s", v);
		free(v);
	}
}

static void serial_free(struct vm_settings *s, struct vm_launch *l)
{
	(void)l;
	if (s)
		strv_free(&s->serial_tests);
}

const struct vm_device vm_dev_serial = {
	.name = "serial",
	.kparams = serial_kparams,
	.free = serial_free,
};
