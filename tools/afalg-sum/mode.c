// SPDX-License-Identifier: GPL-2.0
/* mode.c: generate mode (one line per file), or check mode (check.c), as the options say. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "err.h"
#include "fmt.h"
#include "input.h"
#include "mode.h"

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
