// SPDX-License-Identifier: GPL-2.0
/*
 * depmod.c: fuzz the depmod files ./cut writes from module bytes and the
 * module directory's lists (src/image/depmod.c, kmodelf.c, modindex.c): a
 * kernel tree's modules and lists are the user's build. The input is a
 * case of depmod-input.h. Properties: the answer is the files or
 * "ask depmod" with a reason, nothing else; modules.dep has a line per
 * module naming it; each index starts with kmod's magic and its root is
 * inside it; the same input gives the same bytes.
 */
#include <errno.h>

#include "depmod.h"
#include "fuzz.h"
#include "fuzz/depmod-input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct depmod_case c;
	struct depmod_out out, again;
	char *why = NULL, *why2 = NULL;
	size_t nmods;
	int rc, rc2;

	depmod_case_parse(data, size, &c);
	/* kmod 30's layout or kmod 34's, by the input's first byte */
	c.in.layout = size && (data[0] & 1) ? DEPMOD_KMOD34 : DEPMOD_KMOD30;
	nmods = c.in.n;
	rc = depmod_compute(&c.in, &out, &why);
	fuzz_assert(rc == 0 || rc == -ENOTSUP, "rc %d", rc);
	fuzz_assert(!rc == !why, "rc %d, reason %s", rc, why ? why : "(none)");
	if (!rc) {
		const struct strbuf *dep = &out.f[0].data;
		size_t lines = 0;

		for (size_t i = 0; i < dep->len; i++)
			lines += dep->s[i] == '\n';
		fuzz_assert(lines == nmods, "%zu modules.dep lines for %zu modules", lines, nmods);
		for (size_t i = 0; i < nmods; i++) {
			char l[40];
			size_t ll = (size_t)snprintf(l, sizeof(l), "\n%s:", c.paths[i]);
			int found = !strncmp(dep->s, l + 1, ll - 1) || memmem(dep->s, dep->len, l, ll);

			fuzz_assert(found, "modules.dep has no line for %s", c.paths[i]);
		}
		for (size_t f = 0; f < out.n; f++) {
			const struct strbuf *b = &out.f[f].data;
			size_t nl = strlen(out.f[f].name);
			uint32_t root;

			if (nl < 4 || strcmp(out.f[f].name + nl - 4, ".bin"))
				continue;
			if (!b->len) {
				/* depmod writes an empty index where a builtin list is missing */
				fuzz_assert((!strcmp(out.f[f].name, "modules.builtin.bin") && !c.in.builtin) ||
					    (!strcmp(out.f[f].name, "modules.builtin.alias.bin") &&
					     !c.in.builtin_modinfo),
					    "%s is empty", out.f[f].name);
				continue;
			}
			fuzz_assert(b->len >= 12 && !memcmp(b->s, "\xb0\x07\xf4\x57\x00\x02\x00\x01", 8),
				    "%s: no index header", out.f[f].name);
			root = (uint32_t)(unsigned char)b->s[8] << 24 | (uint32_t)(unsigned char)b->s[9] << 16 |
			       (uint32_t)(unsigned char)b->s[10] << 8 | (unsigned char)b->s[11];
			fuzz_assert((root & 0x0fffffff) >= 12 && (root & 0x0fffffff) <= b->len,
				    "%s: root at %u of %zu bytes", out.f[f].name, root & 0x0fffffff, b->len);
		}
	}
	/* nothing depends on addresses or leftovers of the last run */
	rc2 = depmod_compute(&c.in, &again, &why2);
	fuzz_assert(rc2 == rc, "a second run: %d, then %d", rc, rc2);
	for (size_t f = 0; !rc && f < out.n; f++)
		fuzz_assert(out.f[f].data.len == again.f[f].data.len &&
			    !memcmp(out.f[f].data.s, again.f[f].data.s, out.f[f].data.len),
			    "%s differs on a second run", out.f[f].name);
	depmod_out_free(&out);
	depmod_out_free(&again);
	free(why);
	free(why2);
	depmod_case_free(&c);
	return 0;
}
