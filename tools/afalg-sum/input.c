// SPDX-License-Identifier: GPL-2.0
/* input.c: open the named inputs and report their errors, as both modes (mode.c, check.c) do. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "fmt.h"
#include "input.h"

int afsum_open_input(const char *name)
{
	struct stat st;
	int fd, e;

	if (!strcmp(name, "-")) {
		fd = STDIN_FILENO;
	} else {
		fd = open(name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			return -errno;
	}
	if (fstat(fd, &st) < 0) {
		e = -errno;
		afsum_close_input(fd);
		return e;
	}
	if (S_ISDIR(st.st_mode)) {
		afsum_close_input(fd);
		return -EISDIR;
	}
	return fd;
}

void afsum_close_input(int fd)
{
	if (fd != STDIN_FILENO)
		close(fd);
}

int afsum_hash_name(struct afsum_hasher *h, const char *name, unsigned char *digest, size_t *len)
{
	int fd = afsum_open_input(name), rc;

	if (fd < 0)
		return fd;
	rc = h->hash(h, fd, name, digest, len);
	afsum_close_input(fd);
	return rc;
}

void afsum_report(FILE *err, const char *name, int err_no)
{
	fprintf(err, "%s: ", err_prog);
	afsum_quote(err, name);
	fprintf(err, ": %s\n", strerror(err_no));
}
