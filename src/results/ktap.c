// SPDX-License-Identifier: GPL-2.0
/*
 * ktap.c: the results as KTAP version 1 (Documentation/dev-tools/ktap.rst):
 * one subtest per suite, one test per testcase; a failed or skipped test's
 * output goes before its result line as "# " diagnostics, as kselftest
 * does.
 */
#include <stdio.h>
#include <string.h>

#include "results.h"

/* At most this many output lines per test: the full text is in junit.xml. */
#define DIAG_LINES 200

/*
 * A description must stay on one line, and '#' would start a directive:
 * no control character at all (parsers that split on '\r', '\v' or '\f'
 * would see a new line where a suite or test name put one).
 */
static void ktap_desc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		fputc(c < ' ' || c == 0x7f || c == '#' ? '_' : c, f);
	}
}

/* Diagnostic lines: one "# " line per line of text, other control characters as '?'. */
static void ktap_diag(FILE *f, const char *indent, const char *text)
{
	unsigned int lines = 0;

	for (const char *p = text; p && *p && lines < DIAG_LINES; lines++) {
		size_t n = strcspn(p, "\n");

		fprintf(f, "%s# ", indent);
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)p[i];

			fputc((c < ' ' && c != '\t') || c == 0x7f ? '?' : c, f);
		}
		fputc('\n', f);
		p += n;
		if (*p)
			p++;
	}
}

void ktap_write(FILE *f, const struct rsuite *v, size_t n)
{
	fprintf(f, "KTAP version 1\n1..%zu\n", n);
	for (size_t i = 0; i < n; i++) {
		const struct rsuite *s = &v[i];
		struct rcount c;

		rsuite_count(s, &c);
		fputs("    KTAP version 1\n    # Subtest: ", f);
		ktap_desc(f, s->name ? s->name : "rapido");
		fprintf(f, "\n    1..%u\n", c.tests);
		for (size_t j = 0, k = 0; j < s->n; j++) {
			const struct rtest *t = &s->t[j];
			int known = t->cls == OUTCOME_KNOWN && t->state == RT_SKIP;

			if (t->hidden)
				continue;
			if (t->state != RT_PASS || t->cls == OUTCOME_FLAKY || t->cls == OUTCOME_FIXED) {
				if (t->reason && t->state == RT_FAIL)
					ktap_diag(f, "    ", t->reason);
				ktap_diag(f, "    ", t->output);
			}
			/* a known failure is TAP's expected failure: "not ok ... # TODO" */
			fprintf(f, "    %sok %zu ", t->state == RT_FAIL || known ? "not " : "", ++k);
			ktap_desc(f, t->name);
			if (known) {
				fputs(" # TODO known failure: ", f);
				ktap_desc(f, t->known);
			} else if (t->state == RT_SKIP) {
				fputs(" # SKIP ", f);
				ktap_desc(f, t->reason);
			}
			fputc('\n', f);
		}
		fputs("# ", f);
		ktap_desc(f, s->name ? s->name : "rapido");
		fprintf(f, ": %u passed, %u failed", c.pass, c.fail);
		if (c.error)
			fprintf(f, " (%u error%s)", c.error, c.error == 1 ? "" : "s");
		fprintf(f, ", %u skipped", c.skip);
		if (c.known || c.flaky || c.fixed)
			fprintf(f, " (%u known failures, %u flaky, %u fixed)", c.known, c.flaky, c.fixed);
		fputc('\n', f);
		fprintf(f, "%sok %zu ", c.fail ? "not " : "", i + 1);
		ktap_desc(f, s->name ? s->name : "rapido");
		fputc('\n', f);
	}
}
