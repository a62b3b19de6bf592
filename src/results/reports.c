// SPDX-License-Identifier: GPL-2.0
/*
 * reports.c: junit.xml and results.tap of a run's or a merge's suites
 * (junit.c, ktap.c), written together or not at all (results.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "results.h"

static int write_report(const char *dir, const char *name, const struct rsuite *v, size_t n,
			void (*fn)(FILE *, const struct rsuite *, size_t), char **err)
{
	char *buf = NULL, *path = xasprintf("%s/%s", dir, name);
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		die_errno("open_memstream");
	fn(f, v, n);
	if (fclose(f))
		die_errno("open_memstream");
	rc = write_file_atomic(path, buf, len, 0644);
	if (rc)
		*err = xasprintf("%s: %s", path, strerror(-rc));
	free(buf);
	free(path);
	return rc;
}

int results_write_reports(const char *dir, const struct rsuite *v, size_t n, char **err)
{
	int rc = write_report(dir, "junit.xml", v, n, junit_write, err);

	if (!rc && (rc = write_report(dir, "results.tap", v, n, ktap_write, err))) {
		/* not one report without the other: CI would read half a verdict */
		char *path = xasprintf("%s/junit.xml", dir);

		unlink(path);
		free(path);
	}
	return rc;
}
