// SPDX-License-Identifier: GPL-2.0
/*
 * shwords.c: fuzz the QEMU_EXTRA_ARGS word splitter. Property: what it
 * splits, quoted back with shell_quote() (./vm --dry-run's quoting) and
 * split again, gives the same words.
 */
#include "fuzz.h"
#include "shwords.h"
#include "strv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), *err = NULL, *joined = NULL;
	struct strv words = STRV_INIT, again = STRV_INIT;
	size_t len = 0;
	FILE *f;

	if (shwords_split(text, &words, &err)) {
		fuzz_assert(err && *err, "failed without a reason");
		goto out;
	}
	f = open_memstream(&joined, &len);
	fuzz_assert(f, "open_memstream");
	for (size_t i = 0; i < words.n; i++) {
		if (i)
			fputc(' ', f);
		shell_quote(f, words.v[i]);
	}
	fclose(f);
	fuzz_assert(!shwords_split(joined, &again, &err), "requoted \"%s\" does not split: %s",
		    joined, err);
	fuzz_assert(again.n == words.n, "%zu words, then %zu from \"%s\"", words.n, again.n, joined);
	for (size_t i = 0; i < words.n; i++)
		fuzz_assert(!strcmp(words.v[i], again.v[i]), "word %zu: \"%s\" became \"%s\"",
			    i, words.v[i], again.v[i]);
out:
	free(joined);
	free(err);
	free(text);
	strv_free(&words);
	strv_free(&again);
	return 0;
}
