// SPDX-License-Identifier: GPL-2.0
/* lib-shwords.c: QEMU_EXTRA_ARGS splitting with shell-like quoting, no expansion. */
#include <stdlib.h>
#include <string.h>

#include "shwords.h"
#include "tap.h"

static void split(const char *in, const char *const *want, size_t n)
{
	struct strv sv = STRV_INIT;
	char *err = NULL;
	int rc = shwords_split(in, &sv, &err);
	int same = rc == 0 && sv.n == n;

	for (size_t i = 0; same && i < n; i++)
		same = !strcmp(sv.v[i], want[i]);
	if (!tap_ok(same, "split [%s] into %zu words", in, n)) {
		printf("#   rc %d err %s, got %zu words:\n", rc, err ? err : "-", sv.n);
		for (size_t i = 0; i < sv.n; i++)
			printf("#   [%s]\n", sv.v[i]);
	}
	free(err);
	strv_free(&sv);
}

static void bad(const char *in, const char *want)
{
	struct strv sv = STRV_INIT;
	char *err = NULL;
	int rc = shwords_split(in, &sv, &err);

	tap_ok(rc != 0 && err && strstr(err, want), "rejects [%s]: %s", in, err ? err : "(none)");
	free(err);
	strv_free(&sv);
}

#define W(...) (const char *const[]){ __VA_ARGS__ }, sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *)

int main(void)
{
	tap_plan(12);
	split("", NULL, 0);
	split("   ", NULL, 0);
	split("-m 1G", W("-m", "1G"));
	split("  -device   virtio-rng-pci  ", W("-device", "virtio-rng-pci"));
	split("-append 'a b c'", W("-append", "a b c"));
	split("-x \"a \\\"q\\\" b\"", W("-x", "a \"q\" b"));
	split("a\\ b c", W("a b", "c"));
	split("$(rm -rf ~) `id` ;", W("$(rm", "-rf", "~)", "`id`", ";"));
	split("pre'mid dle'post", W("premid dlepost"));
	split("''", W(""));
	bad("-x 'unterminated", "unterminated single quote");
	bad("-x \"unterminated", "unterminated double quote");
	return tap_done();
}
