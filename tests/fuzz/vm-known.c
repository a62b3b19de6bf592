// SPDX-License-Identifier: GPL-2.0
/*
 * vm-known.c: fuzz the known-failure file parser (known_parse) and the
 * verdict it feeds. Properties: a text is taken whole or refused with a
 * "NAME:LINE: " message and no entry kept; each entry has a test, a line
 * within the text, a valid until= or none, a range with an end; and
 * whatever the entries say, a test that did not finish and a kernel report
 * are never excused (the exit status stays 1), a failure nothing names is
 * new, and classifying twice gives the same answer.
 */
#include <errno.h>

#include "fuzz.h"
#include "known.h"

static const char *const run[] = {
	"R1 meta kernel 6.1.0-13-amd64", "R1 start generic/001", "R1 pass generic/001 1 -",
	"R1 start generic/002", "R1 fail generic/002 1 output%20mismatch -",
	"R1 start generic/002", "R1 pass generic/002 1 -",
	"R1 start xfs/013", "R1 fail xfs/013 1 bad -", "R1 start t/hang", NULL,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), *err = NULL;
	struct known_opts o = { .today = 20788 };
	struct rsuite s;
	unsigned int lines = 1, a, b;
	int rc;

	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	known_set_init(&o.set);
	rc = known_parse(&o.set, "f", text, &err);
	if (rc) {
		fuzz_assert(rc == -EINVAL && err && !strncmp(err, "f:", 2), "rc %d", rc);
		fuzz_assert(o.set.n == 0, "%zu entries kept from a refused text", o.set.n);
		free(err);
	}
	for (size_t i = 0; i < o.set.n; i++) {
		const struct known_entry *e = &o.set.v[i];

		fuzz_assert(e->test && *e->test && !strchr(e->test, '#'), "entry %zu's test", i);
		fuzz_assert(e->line >= 1 && e->line <= lines, "line %u of %u", e->line, lines);
		fuzz_assert(e->until >= -1, "until %d", e->until);
		fuzz_assert(!e->range || e->min_n || e->max_n, "a range without an end");
		fuzz_assert(!(e->range && e->kernel), "a range and a glob");
	}
	rsuite_init(&s);
	for (const char *const *l = run; *l; l++)
		rsuite_record(&s, *l, 1, 1.0);
	rsuite_record(&s, "R1 kernel kernel:%20BUG x y", 1, 1.0);
	rsuite_close_running(&s, 2.0, "the guest died");
	for (int strict = 0; strict < 2; strict++) {
		o.strict = strict;
		a = known_classify(&s, &o);
		b = known_classify(&s, &o);
		fuzz_assert(a == b, "classified twice: %u then %u", a, b);
		fuzz_assert(a >= 2, "the unfinished test and the kernel report: %u problems", a);
		fuzz_assert(known_exit(&s, &o, 1, 1, "fuzz") == 1, "a real failure became exit 0");
		fuzz_assert(known_exit(&s, &o, 7, 0, "fuzz") == 7, "a status of the guest's own changed");
	}
	rsuite_free(&s);
	known_set_free(&o.set);
	free(text);
	return 0;
}
