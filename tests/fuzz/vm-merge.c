// SPDX-License-Identifier: GPL-2.0
/*
 * vm-merge.c: fuzz --merge-results past its file reads: up to 4 results.txt
 * (the input split at form feeds), the shard check, the overlap check and
 * the merged KTAP. Properties: every shard 1..N of each split seen is in
 * the merge afterwards (a missing one as a failed suite of its own);
 * results.tap has one top-level result per suite, `not ok` for each
 * failed one.
 */
#include <ctype.h>

#include "fuzz.h"
#include "merge.h"
#include "results.h"
#include "verdict.h"
#include "vm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), *part = text, *out = NULL, *save = NULL;
	char *dirs[] = { "d0", "d1", "d2", "d3" };
	struct rsuite *v = calloc(4, sizeof(*v));
	size_t n = 0, len = 0;
	unsigned int failed = 0, top = 0, not_ok = 0;
	FILE *f;

	if (!v)
		abort();
	while (part && n < 4) {
		char *ff = strchr(part, '\f');

		if (ff)
			*ff = '\0';
		rsuite_init(&v[n]);
		rsuite_parse(&v[n], part);
		if (!v[n].name)
			v[n].name = strdup(dirs[n]);
		n++;
		part = ff ? ff + 1 : NULL;
	}
	(void)merge_check_overlap(v, n);
	(void)verdict_check_shards(&v, &n, dirs);
	for (size_t i = 0; i < n; i++) {
		unsigned int a, of;
		char c;

		/* only what the shard check takes as I/N: digits both sides ("1/+2" is none) */
		if (!v[i].shard || sscanf(v[i].shard, "%u/%u%c", &a, &of, &c) != 2 || !a || a > of ||
		    of > 10000 || !isdigit((unsigned char)v[i].shard[0]) ||
		    !isdigit((unsigned char)strchr(v[i].shard, '/')[1]))
			continue;
		/* by number, as the shard check reads them: "02/2" is shard 2 of 2 */
		for (unsigned int k = 1; k <= of && k <= 8; k++) {
			int found = 0;

			for (size_t j = 0; j < n && !found; j++) {
				unsigned int b, bof;

				found = v[j].shard && isdigit((unsigned char)v[j].shard[0]) &&
					sscanf(v[j].shard, "%u/%u%c", &b, &bof, &c) == 2 && b == k &&
					bof == of;
			}
			fuzz_assert(found, "shard %u/%u missing from the merge", k, of);
		}
	}
	for (size_t i = 0; i < n; i++) {
		verdict_add_case(&v[i]);
		failed += (unsigned int)verdict_suite_failed(&v[i]);
	}
	f = open_memstream(&out, &len);
	if (!f)
		abort();
	ktap_write(f, v, n);
	fclose(f);
	for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		top += !strncmp(l, "ok ", 3) || !strncmp(l, "not ok ", 7);
		not_ok += !strncmp(l, "not ok ", 7);
	}
	fuzz_assert(top == n, "%u top-level results for %zu suites", top, n);
	fuzz_assert(not_ok == failed, "%u suites failed, %u not ok", failed, not_ok);
	free(out);
	for (size_t i = 0; i < n; i++)
		rsuite_free(&v[i]);
	free(v);
	free(text);
	return 0;
}
