// SPDX-License-Identifier: GPL-2.0
/*
 * ktapread.c: fuzz the TAP/KTAP reader (tools/lib/ktapread.c). Properties:
 * every record is one line of fields (no newline in a name or reason),
 * a fail or skip says why; a stream with a column-0 "not ok" without a
 * directive, and no "Bail out!", has a failed record; a stream whose first
 * line plans 1..N and that has fewer than N column-0 results has one too.
 */
#include "fuzz.h"
#include "ktapread.h"

struct seen {
	size_t fails, records;
};

static int check(const struct ktap_record *rec, void *arg)
{
	struct seen *s = arg;

	fuzz_assert(rec->verdict == KTAP_PASS || rec->verdict == KTAP_FAIL || rec->verdict == KTAP_SKIP,
		    "verdict %d", (int)rec->verdict);
	fuzz_assert(rec->name && rec->reason && rec->output, "a NULL field");
	fuzz_assert(!strchr(rec->name, '\n') && !strchr(rec->reason, '\n'), "a newline in \"%s\" / \"%s\"",
		    rec->name, rec->reason);
	fuzz_assert(rec->verdict == KTAP_PASS || *rec->reason, "%s without a reason", rec->name);
	s->records++;
	s->fails += rec->verdict == KTAP_FAIL;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seen s = { 0, 0 };
	struct ktapread *r = ktapread_new(check, &s, 0);
	const char *p = (const char *)data, *end = p + size;
	int notok = 0, bail = 0, first = 1;
	long plan = -1, results = 0;
	uint64_t t = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = fuzz_cstr((const uint8_t *)p, n);

		if (strstr(line, "Bail out!"))
			bail = 1;
		if (!strncmp(line, "not ok", 6) && (line[6] == '\0' || line[6] == ' ') && !strchr(line, '#') &&
		    strlen(line) == n)
			notok = 1;
		if ((!strncmp(line, "ok", 2) && (line[2] == '\0' || line[2] == ' ' || line[2] == '\t' ||
						 line[2] == '\r')) ||
		    (!strncmp(line, "not ok", 6) && (line[6] == '\0' || line[6] == ' ' || line[6] == '\t' ||
						     line[6] == '\r')))
			results++;
		if (first && line[0] == '1' && line[1] == '.' && line[2] == '.' && line[3] >= '1' &&
		    line[3] <= '9' && line[4] == '\0')
			plan = line[3] - '0';
		first = 0;
		fuzz_assert(ktapread_line(r, p, n, t++) == 0, "a line failed");
		free(line);
		p += n + 1;
	}
	fuzz_assert(ktapread_end(r, t) == 0, "the end failed");
	ktapread_free(r);
	if (!bail && notok)
		fuzz_assert(s.fails > 0, "a column-0 \"not ok\" and no failed record (%zu records)", s.records);
	if (!bail && plan > 0 && results < plan)
		fuzz_assert(s.fails > 0, "plan 1..%ld, %ld results and no failed record", plan, results);
	return 0;
}
