// SPDX-License-Identifier: GPL-2.0
/*
 * lib-statedir.c: a tool's state directory is told by its marker file:
 * absent, an empty directory, a marked one, and what is never the tool's
 * (a file, a FIFO, a symbolic link even to a marked directory, a
 * directory with other things or a marker that is no regular file);
 * statedir_make() makes or claims only an absent or empty directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "statedir.h"
#include "tap.h"

#define MARK "tool.state"

static char *at(const char *dir, const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0 || close(fd) < 0)
		die_errno("%s", path);
}

int main(void)
{
	char tmpl[] = "/tmp/rapido-statedir.XXXXXX", *t = mkdtemp(tmpl), *failed = NULL;
	char *d, *sub, *file, *fifo, *link, *other, *mark;

	if (!t)
		die_errno("mkdtemp");
	d = at(t, "s");
	sub = at(t, "a/b/c");
	file = at(t, "file");
	fifo = at(t, "fifo");
	link = at(t, "link");
	other = at(t, "s/other");
	mark = at(t, "s/" MARK);
	tap_plan(14);
	TAP_EQ_INT(statedir_kind(d, MARK), STATEDIR_ABSENT, "nothing there: absent");
	if (mkdir(d, 0755) < 0)
		die_errno("%s", d);
	TAP_EQ_INT(statedir_kind(d, MARK), STATEDIR_EMPTY, "an empty directory");
	TAP_EQ_INT(statedir_make(d, MARK, "x\n", &failed), 0, "an empty directory is claimed");
	TAP_EQ_INT(statedir_kind(d, MARK), STATEDIR_OURS, "  and marked");
	TAP_EQ_INT(statedir_make(d, MARK, "x\n", &failed), -EEXIST, "a marked one is not made again");
	TAP_EQ_INT(statedir_make(sub, MARK, "x\n", &failed), 0, "made with its parents");
	TAP_EQ_INT(statedir_kind(sub, MARK), STATEDIR_OURS, "  and marked");
	if (symlink(d, link) < 0)
		die_errno("%s", link);
	TAP_EQ_INT(statedir_kind(link, MARK), STATEDIR_NOTDIR, "a link to a marked directory: not ours");
	touch(file);
	TAP_EQ_INT(statedir_kind(file, MARK), STATEDIR_NOTDIR, "a plain file: not a directory");
	TAP_EQ_INT(statedir_make(file, MARK, "x\n", &failed), -EEXIST, "  never made into one");
	if (mkfifo(fifo, 0644) < 0)
		die_errno("%s", fifo);
	TAP_EQ_INT(statedir_kind(fifo, MARK), STATEDIR_NOTDIR, "a FIFO: not a directory (and no hang)");
	unlink(mark);
	touch(other);
	TAP_EQ_INT(statedir_kind(d, MARK), STATEDIR_UNMARKED, "a directory with other things: unmarked");
	TAP_EQ_INT(statedir_make(d, MARK, "x\n", &failed), -EEXIST, "  never claimed");
	if (mkdir(mark, 0755) < 0)
		die_errno("%s", mark);
	TAP_EQ_INT(statedir_kind(d, MARK), STATEDIR_UNMARKED, "a marker that is a directory: unmarked");
	free(failed);
	free(d);
	free(sub);
	free(file);
	free(fifo);
	free(link);
	free(other);
	free(mark);
	tap_rm_tree(t);
	return tap_done();
}
