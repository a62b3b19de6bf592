// SPDX-License-Identifier: GPL-2.0
/* conlog.c: the console log (conlog.h). */
#include <fcntl.h>
#include <unistd.h>

#include "conlog.h"
#include "err.h"
#include "io.h"

void conlog_open(struct conlog *g, const char *path)
{
	struct stat st;

	g->path = path;
	g->failed = 0;
	/* VM_LOG_DIR may be everyone's (1777): never through a link left there */
	g->fd = open_output(path, 0644, &st);
	if (g->fd < 0) {
		warn("console log %s cannot be written (%s); the console is not saved, the "
		     "guest's status is still reported", path, file_strerror(g->fd, &st));
		g->failed = 1;
	}
}

void conlog_write(struct conlog *g, const char *p, size_t n)
{
	int rc;

	if (g->failed)
		return;
	rc = write_all(g->fd, p, n);
	if (rc) {
		/* once: a full disk must not flood stderr, nor change the verdict */
		warn_err(rc, "console log %s: writing stopped; the console is no longer saved, "
			 "the guest's status is still reported", g->path);
		g->failed = 1;
	}
}

void conlog_close(struct conlog *g)
{
	if (g->fd >= 0 && close(g->fd) < 0 && !g->failed)
		warn_errno("console log %s", g->path);
	g->fd = -1;
}
