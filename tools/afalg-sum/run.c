// SPDX-License-Identifier: GPL-2.0
/* run.c: generate mode (one line per file) and the shared input handling. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "err.h"
#include "fmt.h"
#include "run.h"

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

int afsum_sum_files(const struct afsum_opts *o, struct afsum_hasher *h, FILE *out, FILE *err)
{
	int status = AFSUM_EXIT_OK, i;

	for (i = 0; i < o->nfiles; i++) {
		unsigned char digest[AFSUM_MAX_DIGEST];
		const char *name = o->files[i];
		size_t len = 0;
		int rc = afsum_hash_name(h, name, digest, &len);

		if (rc > 0)
			return rc;
		if (rc < 0) {
			fflush(out);
			afsum_report(err, name, -rc);
			status = AFSUM_EXIT_FAIL;
			continue;
		}
		afsum_print_sum(out, h->tag, digest, len, name, o->tag, o->binary == 1, o->zero);
	}
	return status;
}

int afsum_run(const struct afsum_opts *o, struct afsum_hasher *h, FILE *out, FILE *err)
{
	int status = AFSUM_EXIT_OK, i;

	if (!o->check)
		return afsum_sum_files(o, h, out, err);
	for (i = 0; i < o->nfiles; i++) {
		int rc = afsum_check_file(o, h, o->files[i], out, err);

		if (rc > AFSUM_EXIT_FAIL)
			return rc;
		if (rc)
			status = AFSUM_EXIT_FAIL;
	}
	return status;
}
