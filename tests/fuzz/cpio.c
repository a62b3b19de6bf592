// SPDX-License-Identifier: GPL-2.0
/*
 * cpio.c: fuzz the newc reader ./vm uses to find rapido/vm.conf in an
 * image, and the writer ./cut prepends its archive with. Properties: any
 * bytes give a copy or a -errno, never a crash or a huge allocation; an
 * archive the writer made from entries built out of the input gives every
 * entry back, byte for byte.
 */
#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpio.h"
#include "fuzz.h"
#include "io.h"

static int fd = -1;

static void reset(void)
{
	fuzz_assert(!ftruncate(fd, 0) && lseek(fd, 0, SEEK_SET) == 0, "reset: %s", strerror(errno));
}

struct entry {
	char *name;
	const uint8_t *data;
	size_t len;
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct entry e[16];
	struct cpio_writer w;
	size_t n = 0, off = 0;
	char *out;
	size_t len;
	int rc;

	if (fd < 0)
		fd = memfd_create("rapido-fuzz-cpio", MFD_CLOEXEC);
	fuzz_assert(fd >= 0, "memfd_create: %s", strerror(errno));

	/* 1. the input as an image */
	reset();
	fuzz_assert(!write_all(fd, data, size), "write");
	rc = cpio_find(fd, "rapido/vm.conf", 64, &out, &len);
	if (!rc) {
		fuzz_assert(len <= (1u << 20) && out[len] == '\0', "len %zu", len);
		free(out);
	} else {
		fuzz_assert(rc == -EINVAL || rc == -ENOENT || rc == -EFBIG, "rc %d", rc);
	}

	/* 2. records [name length][name][data length][data] written, then found */
	while (n < 16 && off < size) {
		size_t nl = data[off++], dl;

		if (off + nl + 1 > size)
			break;
		e[n].name = fuzz_cstr(data + off, nl);
		off += nl;
		dl = data[off++];
		if (off + dl > size)
			dl = size - off;
		e[n].data = data + off;
		e[n].len = dl;
		off += dl;
		if (!nl || strlen(e[n].name) != nl || !strcmp(e[n].name, "TRAILER!!!"))
			free(e[n].name);
		else
			n++;
	}
	reset();
	cpio_init(&w, fd);
	for (size_t i = 0; i < n; i++)
		cpio_add_file(&w, e[i].name, 0644, e[i].data, e[i].len);
	fuzz_assert(!cpio_finish(&w), "cpio_finish");
	for (size_t i = 0; i < n; i++) {
		size_t first = 0;

		while (strcmp(e[first].name, e[i].name))
			first++;
		rc = cpio_find(fd, e[i].name, 64, &out, &len);
		fuzz_assert(!rc, "entry %zu \"%s\" not found: %d", i, e[i].name, rc);
		fuzz_assert(len == e[first].len && !memcmp(out, e[first].data, len),
			    "entry \"%s\": %zu bytes back, %zu written", e[i].name, len, e[first].len);
		free(out);
	}
	for (size_t i = 0; i < n; i++)
		free(e[i].name);
	return 0;
}
