// SPDX-License-Identifier: GPL-2.0
/*
 * depmod.c: fuzz the depmod files ./cut writes from module bytes and the
 * module directory's lists (src/lib/depmod.c, kmodelf.c, modindex.c): a
 * kernel tree's modules and lists are the user's build. The input is
 * parts split at "@@@@": modules.order, modules.builtin,
 * modules.builtin.modinfo (an empty part: no such file), then the modules
 * kernel/m0.ko, kernel/m1.ko, ... Properties: the answer is the files or
 * "ask depmod" with a reason, nothing else; modules.dep has a line per
 * module naming it; each index starts with kmod's magic and its root is
 * inside it; the same input gives the same bytes.
 */
#include <errno.h>

#include "depmod.h"
#include "fuzz.h"

#define SEP "@@@@"
#define MAXMODS 8

struct part {
	const char *p;
	size_t n;
};

/* split data at SEP into at most max parts; the count */
static size_t split(const uint8_t *data, size_t size, struct part *v, size_t max)
{
	const char *p = (const char *)data, *end = p + size;
	size_t n = 0;

	while (n < max) {
		const char *s = memmem(p, (size_t)(end - p), SEP, 4);

		v[n].p = p;
		v[n].n = s ? (size_t)(s - p) : (size_t)(end - p);
		n++;
		if (!s)
			break;
		p = s + 4;
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct part v[3 + MAXMODS];
	size_t n = split(data, size, v, 3 + MAXMODS), nmods = n > 3 ? n - 3 : 0;
	struct depmod_module mods[MAXMODS];
	char paths[MAXMODS][32], *texts[3] = { NULL, NULL, NULL };
	struct depmod_in in = { .mods = mods, .n = nmods };
	struct depmod_out out, again;
	char *why = NULL, *why2 = NULL;
	int rc, rc2;

	/* the lists as files would be read: NUL-terminated copies, so that a read past them shows */
	for (size_t i = 0; i < 3 && i < n; i++)
		if (v[i].n)
			texts[i] = fuzz_cstr((const uint8_t *)v[i].p, v[i].n);
	in.order = texts[0];
	in.order_len = texts[0] ? v[0].n : 0;
	in.builtin = texts[1];
	in.builtin_len = texts[1] ? v[1].n : 0;
	in.builtin_modinfo = texts[2];
	in.builtin_modinfo_len = texts[2] ? v[2].n : 0;
	for (size_t i = 0; i < nmods; i++) {
		snprintf(paths[i], sizeof(paths[i]), "kernel/m%zu.ko", i);
		mods[i] = (struct depmod_module){ paths[i], v[3 + i].p, v[3 + i].n };
	}

	rc = depmod_compute(&in, &out, &why);
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
			size_t ll = (size_t)snprintf(l, sizeof(l), "\n%s:", paths[i]);
			int found = !strncmp(dep->s, l + 1, ll - 1) || memmem(dep->s, dep->len, l, ll);

			fuzz_assert(found, "modules.dep has no line for %s", paths[i]);
		}
		for (int f = 0; f < DEPMOD_NFILES; f++) {
			const struct strbuf *b = &out.f[f].data;
			size_t nl = strlen(out.f[f].name);
			uint32_t root;

			if (nl < 4 || strcmp(out.f[f].name + nl - 4, ".bin"))
				continue;
			if (!b->len) {
				/* depmod writes an empty index where a builtin list is missing */
				fuzz_assert((f == 7 && !in.builtin) || (f == 8 && !in.builtin_modinfo),
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
	rc2 = depmod_compute(&in, &again, &why2);
	fuzz_assert(rc2 == rc, "a second run: %d, then %d", rc, rc2);
	for (int f = 0; !rc && f < DEPMOD_NFILES; f++)
		fuzz_assert(out.f[f].data.len == again.f[f].data.len &&
			    !memcmp(out.f[f].data.s, again.f[f].data.s, out.f[f].data.len),
			    "%s differs on a second run", out.f[f].name);
	depmod_out_free(&out);
	depmod_out_free(&again);
	free(why);
	free(why2);
	for (int i = 0; i < 3; i++)
		free(texts[i]);
	return 0;
}
