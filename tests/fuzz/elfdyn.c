// SPDX-License-Identifier: GPL-2.0
/*
 * elfdyn.c: fuzz the ELF reader ./cut runs over every program of a tree
 * it packs (a user's, any file that starts with \177ELF). The input is the
 * file. Properties: it is read or refused with -ENOEXEC, nothing else (a
 * memfd maps whole); a refusal leaves nothing allocated; what is read is
 * the strings the file holds (each found in it). elf_asks_loader on the
 * same bytes (what ./cut asks of each program of a bins layer) says 1
 * where an interpreter was read, 0 where the file was read without one,
 * and refuses with -ENOEXEC alone.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "elfdyn.h"
#include "fuzz.h"

/* s occurs in data (the loader's strings come from the file) */
static int in_file(const uint8_t *data, size_t size, const char *s)
{
	return memmem(data, size, s, strlen(s)) != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-elf", MFD_CLOEXEC), rc, asks = elf_asks_loader(data, size);
	struct elf_deps d;

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	rc = elf_read_deps(fd, &d);
	close(fd);
	fuzz_assert(asks == 0 || asks == 1 || asks == -ENOEXEC, "elf_asks_loader: %d", asks);
	if (!rc)
		fuzz_assert(asks == (d.interp != NULL), "elf_asks_loader says %d, the interpreter read: %s",
			    asks, d.interp ? d.interp : "none");
	if (rc) {
		fuzz_assert(rc == -ENOEXEC, "rc %d", rc);
		fuzz_assert(!d.interp && !d.needed.n && !d.runpath, "a refusal left deps behind");
		return 0;
	}
	fuzz_assert(size >= (d.klass == 2 ? 64 : 52) && !memcmp(data, "\177ELF", 4),
		    "not ELF, read as ELF");
	if (d.interp)
		fuzz_assert(in_file(data, size, d.interp), "interpreter \"%s\" is not in the file", d.interp);
	for (size_t i = 0; i < d.needed.n; i++)
		fuzz_assert(in_file(data, size, d.needed.v[i]), "needed \"%s\" is not in the file",
			    d.needed.v[i]);
	if (d.runpath)
		fuzz_assert(in_file(data, size, d.runpath), "runpath \"%s\" is not in the file", d.runpath);
	elf_deps_free(&d);
	return 0;
}
