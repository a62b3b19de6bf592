// SPDX-License-Identifier: GPL-2.0
/*
 * vm-splatallow.c: fuzz the --splats-allow reader (splat_allow_parse).
 * Properties: it parses or says why with FILE:LINE; every entry has a
 * regex and a non-empty reason without surrounding blanks; an entry's
 * line is within the text; matching any title is safe.
 */
#include <ctype.h>

#include "fuzz.h"
#include "splattest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), *err = NULL;
	struct splat_allow a;
	unsigned int lines = 1;

	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	if (splat_allow_parse(&a, "F", text, &err)) {
		fuzz_assert(err && !strncmp(err, "F:", 2), "refused without FILE:LINE: %s", err ? err : "");
		free(err);
		free(text);
		return 0;
	}
	fuzz_assert(!err, "parsed, yet an error: %s", err);
	fuzz_assert(strlen(a.sha256) == 64, "sha256 %s", a.sha256);
	for (size_t i = 0; i < a.n; i++) {
		const struct splat_allow_entry *e = &a.v[i];
		size_t rl = strlen(e->reason);

		fuzz_assert(*e->pattern && rl, "entry %zu: pattern '%s' reason '%s'", i, e->pattern,
			    e->reason);
		fuzz_assert(!isspace((unsigned char)e->reason[0]) && !isspace((unsigned char)e->reason[rl - 1]),
			    "reason with blanks: '%s'", e->reason);
		fuzz_assert(e->line >= 1 && e->line <= lines, "line %u of %u", e->line, lines);
	}
	(void)splat_allow_match(&a, text);
	(void)splat_allow_match(&a, "WARNING: CPU: 0 PID: 1 at x.c:1 f+0x1/0x2");
	splat_allow_free(&a);
	free(text);
	return 0;
}
