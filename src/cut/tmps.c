// SPDX-License-Identifier: GPL-2.0
/*
 * tmps.c: the temporaries of this cut outside its work directory (the
 * cache's tmp/, an entry that could not be recorded): a list of paths
 * removed at exit, on every path out, signals included.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "layer.h"

static struct strv tmps;

void cut_tmp_add(const char *path)
{
	strv_push(&tmps, path);
}

void cut_tmp_forget(const char *path)
{
	for (size_t i = 0; i < tmps.n; i++)
		if (tmps.v[i][0] && !strcmp(tmps.v[i], path))
			tmps.v[i][0] = '\0';
}

/* Called from exit and signal paths: unlink/rmdir only, newest first (files before their dir). */
void cut_tmp_cleanup(void)
{
	for (size_t i = tmps.n; i-- > 0;) {
		if (!tmps.v[i][0])
			continue;
		if (unlink(tmps.v[i]) < 0 && (errno == EISDIR || errno == EPERM))
			rmdir(tmps.v[i]);
		tmps.v[i][0] = '\0';
	}
}
