// SPDX-License-Identifier: GPL-2.0
/*
 * state.c: the directory a bisection or a comparison keeps its state and
 * logs in. It is made with a marker (statedir.c, as ./ceph-local marks its
 * cluster's), and only a directory with that marker is ever reused or
 * removed: a --state naming a data directory or a file is refused. Its
 * files are read as regular files only, of a bounded size: a FIFO or a
 * link to /dev/zero put there is an error naming it, never a hang.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

#include "bisect.h"
#include "err.h"
#include "io.h"
#include "statedir.h"
#include "tree.h"

int state_kind_or_die(const struct bctx *c, const char *marker)
{
	int kind = statedir_kind(c->state, marker);

	if (kind < 0) {
		err_exit_status = BISECT_EXIT_USAGE;
		die_err(kind, "%s", c->state);
	}
	return kind;
}

void state_refuse_foreign(const struct bctx *c, const char *marker, int kind)
{
	err_exit_status = BISECT_EXIT_USAGE;
	die("%s is not a ./bisect state directory (%s, no %s in it): not touching it (--state "
	    "names another; an older ./bisect's state is removed by hand, after git bisect reset)",
	    c->state, statedir_kind_words(kind), marker);
}

void state_make_or_die(const struct bctx *c, const char *marker)
{
	char *text = xasprintf("# ./bisect's state and logs: ./bisect --reset removes this directory "
			       "(--compare: the next comparison)\n");
	char *failed = NULL;
	int rc = statedir_make(c->state, marker, text, &failed);

	if (rc)
		die_err(rc, "cannot create %s", failed ? failed : c->state);
	free(text);
}

void state_remove(const struct bctx *c)
{
	char *failed = NULL;
	int rc = remove_tree(c->state, &failed);

	if (rc < 0 && rc != -ENOENT)
		warn_err(rc, "cannot remove %s", failed ? failed : c->state);
	free(failed);
}

char *state_read_or_die(const char *dir, const char *name, size_t *len)
{
	char *path = xasprintf("%s/%s", dir, name), *text = NULL;
	struct stat st;
	int rc = read_regular_file(path, O_NOFOLLOW, BISECT_STATE_MAX, &text, len, &st);
	int status = err_exit_status;

	if (rc == -ENOENT) {
		free(path);
		return NULL;
	}
	err_exit_status = BISECT_EXIT_USAGE;
	if (rc == -EFBIG)
		die("%s: larger than %d MiB: not a file ./bisect wrote (./bisect --reset ends the "
		    "bisection)", path, BISECT_STATE_MAX >> 20);
	if (rc)
		die("%s: %s (./bisect --reset ends the bisection)", path, file_strerror(rc, &st));
	err_exit_status = status;
	free(path);
	return text;
}

char *log_read(const char *path, size_t *len)
{
	char *text = NULL;

	if (read_regular_file(path, O_NOFOLLOW, BISECT_LOG_MAX, &text, len, NULL))
		return NULL;
	return text;
}
