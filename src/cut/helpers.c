// SPDX-License-Identifier: GPL-2.0
/*
 * helpers.c: /init and the profile's helpers (build/guest/rapido-NAME,
 * static programs) as a layer of their own, cached under their paths and
 * stat. They change with a make, not with a re-cut, and were most of the
 * bytes a re-cut wrote when they were part of the tail (about 1 MiB each,
 * written twice: into the tail's memfd, then into the image file).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"
#include "err.h"
#include "layer.h"

static void helpers_key(const struct cut_plan *p, struct cut_layer *ly)
{
	struct sha256 s;

	sha256_init(&s);
	sha256_update(&s, CACHE_FORMAT " helpers", sizeof(CACHE_FORMAT " helpers"));
	for (size_t i = 0; i < p->helpers.n; i++)
		cut_key_stat(&s, p->helpers.v[i]);
	ly->kind = "helpers";
	ly->desc = xasprintf("/init and %zu helper%s", p->helpers.n - 1, p->helpers.n == 2 ? "" : "s");
	sha256_hex(&s, ly->key);
}

/* /init and /usr/bin/rapido-NAME: static programs, no libraries to resolve */
static int helpers_write(const struct cut_plan *p, int fd, struct xxh64 *x, char **err)
{
	static struct cpio_writer w;

	cpio_init(&w, fd);
	w.hash = x;
	cpio_add_dir(&w, "usr", 0755);
	cpio_add_dir(&w, "usr/bin", 0755);
	for (size_t i = 0; i < p->helpers.n; i++) {
		const char *h = p->helpers.v[i], *base = strrchr(h, '/') + 1;
		struct cpio_hdr hdr = { .mode = S_IFREG | 0755 };
		int in = open(h, O_RDONLY | O_CLOEXEC), rc;
		char *name;
		struct stat st;

		if (in < 0 || fstat(in, &st) < 0) {
			*err = xasprintf("helper %s: %s (run make)", h, strerror(errno));
			if (in >= 0)
				close(in);
			return -ENOENT;
		}
		name = strcmp(base, "rapido-init") ? xasprintf("usr/bin/%s", base) : xstrdup("init");
		rc = cpio_add_fd(&w, name, &hdr, in, (uint64_t)st.st_size);
		close(in);
		free(name);
		if (rc) {
			*err = xasprintf("helper %s: %s", h, rc == -ESTALE ?
					 "changed while being read (make running?)" : strerror(-rc));
			return rc;
		}
	}
	return cpio_finish(&w);
}

int cut_helpers_layer(struct cut_cache *c, const struct cut_plan *p, const struct cut_work *w,
		      struct cut_layer *ly, char **err)
{
	struct cut_sink out = { .path = NULL };
	char *size;
	int rc = 0;

	*err = NULL;
	helpers_key(p, ly);
	if (cut_cache_lookup(c, ly)) {
		size = cut_mib(ly->size);
		cut_progress("helpers layer: in the cache (%s)", size);
		free(size);
		return 0;
	}
	for (int attempt = 0; ; attempt++) {
		cut_sink_open(&out, c, attempt == 0, w, "helpers");
		rc = cut_sink_close(&out, helpers_write(p, out.fd, &out.x, err));
		if (!*err && cut_sink_retry(c, &out, &rc, 1)) {
			rc = 0;
			continue;
		}
		if (rc) {
			if (!*err)
				*err = xasprintf("writing %s: %s", out.path, strerror(-rc));
			break;
		}
		cut_sink_keep(&out, c, ly);
		size = cut_mib(ly->size);
		cut_progress("helpers layer: %zu files (%s)%s", p->helpers.n, size,
			     ly->cached ? ", stored in the cache" : "");
		free(size);
		break;
	}
	free(out.path);
	return rc;
}
