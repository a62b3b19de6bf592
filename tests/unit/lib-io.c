// SPDX-License-Identifier: GPL-2.0
/*
 * lib-io.c: io.h's writers never go through a link: open_append appends
 * (two opens, both lines kept) and refuses a link, write_file_atomic and
 * its _at form replace a link without writing its target, and read_fd_max
 * stops at its cap.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "tap.h"

/* path's whole text, or "" */
static char *slurp(const char *path)
{
	char *text;

	return read_file(path, &text, NULL) ? xstrdup("") : text;
}

int main(void)
{
	char tmpl[] = "/tmp/rapido-lib-io.XXXXXX", *t = mkdtemp(tmpl), *text;
	char *log, *victim, *link, *name;
	struct stat st;
	size_t len;
	int fd, dfd, p[2];

	if (!t)
		die_errno("mkdtemp");
	log = xasprintf("%s/log", t);
	victim = xasprintf("%s/victim", t);
	link = xasprintf("%s/link", t);
	tap_plan(9);

	for (int i = 0; i < 2; i++) {
		fd = open_append(log, 0644, &st);
		if (fd < 0 || write_all(fd, "line\n", 5) || close(fd))
			die("open_append %s: %d", log, fd);
	}
	text = slurp(log);
	TAP_EQ_STR(text, "line\nline\n", "open_append twice: both lines kept (O_APPEND not lost)");
	free(text);

	if (write_file_atomic(victim, "precious\n", 9, 0644) || symlink(victim, link) < 0)
		die_errno("%s", link);
	TAP_EQ_INT(open_append(link, 0644, &st), -ENOTREG, "open_append on a link: refused");
	TAP_EQ_INT(open_output(link, 0644, &st), -ENOTREG, "open_output on a link: refused");
	TAP_EQ_INT(write_file_atomic(link, "new\n", 4, 0644), 0, "write_file_atomic over a link");
	text = slurp(victim);
	TAP_EQ_STR(text, "precious\n", "  its target untouched");
	free(text);
	tap_ok(lstat(link, &st) == 0 && S_ISREG(st.st_mode), "  the link replaced by a regular file");

	dfd = open(t, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || unlink(link) < 0 || symlink(victim, link) < 0)
		die_errno("%s", t);
	name = strrchr(link, '/') + 1;
	TAP_EQ_INT(write_file_atomic_at(dfd, name, "at\n", 3, 0600), 0, "write_file_atomic_at over a link");
	text = slurp(victim);
	TAP_EQ_STR(text, "precious\n", "  its target untouched");
	free(text);
	close(dfd);

	if (pipe(p) < 0 || write_all(p[1], "0123456789", 10))
		die_errno("pipe");
	close(p[1]);
	TAP_EQ_INT(read_fd_max(p[0], 4, &text, &len), -EFBIG, "read_fd_max past its cap: -EFBIG");
	close(p[0]);

	free(log);
	free(victim);
	free(link);
	tap_rm_tree(t);
	return tap_done();
}
