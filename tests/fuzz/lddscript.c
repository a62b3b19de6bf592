// SPDX-License-Identifier: GPL-2.0
/*
 * lddscript.c: fuzz the RTLDLIST reader. Properties: success gives at least
 * one loader, each an absolute path with no blank, quote, $ or backquote;
 * failure appends nothing and is -ENOENT or -EINVAL.
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "lddscript.h"
#include "strv.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct strv sv = STRV_INIT;
	int rc = ldd_script_rtlds((const char *)data, size, &sv);

	if (rc) {
		fuzz_assert(rc == -ENOENT || rc == -EINVAL, "rc %d", rc);
		fuzz_assert(sv.n == 0, "%zu loaders on error", sv.n);
	} else {
		fuzz_assert(sv.n > 0, "no loader on success");
		for (size_t i = 0; i < sv.n; i++)
			fuzz_assert(sv.v[i][0] == '/' && !strpbrk(sv.v[i], " \t\n\"'$`\\"),
				    "loader [%s]", sv.v[i]);
	}
	strv_free(&sv);
	return 0;
}
