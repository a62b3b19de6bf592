// SPDX-License-Identifier: GPL-2.0
/*
 * ceph-local-health.c: fuzz the reader of `ceph health detail`'s checks
 * (src/ceph-local/health.c). Properties: the codes it finds are check
 * codes (capitals, digits, '_'), space-separated; when it says they may
 * all be muted, each has a reason.
 */
#include "ceph-local.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), *codes, *save = NULL, *code;
	int all = cl_health_mutable(text, &codes);

	fuzz_assert(!all || codes, "may mute, but no code in \"%s\"", text);
	if (codes) {
		fuzz_assert(codes[0] && codes[0] != ' ', "codes \"%s\"", codes);
		for (const char *c = codes; *c; c++)
			fuzz_assert((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' ||
					    (*c == ' ' && c[1] && c[1] != ' '),
				    "codes \"%s\"", codes);
		for (code = strtok_r(codes, " ", &save); all && code; code = strtok_r(NULL, " ", &save))
			fuzz_assert(cl_health_mute_why(code), "%s muted with no reason", code);
	}
	free(codes);
	free(text);
	return 0;
}
