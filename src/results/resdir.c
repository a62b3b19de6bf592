// SPDX-License-Identifier: GPL-2.0
/* resdir.c: a results dir made ready for a run, one VM's or --jobs' (collect.h). */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "err.h"
#include "tree.h"
#include "collect.h"

void results_dir_fresh(const char *dir, const char *where)
{
	/*
	 * Every file a run writes there: what an earlier run left must not
	 * pass for this one's, and each is created anew, so with this run's
	 * umask (077 for an image holding a secret), not an old file's mode
	 */
	static const char *const old[] = {
		"junit.xml", "results.tap", "summary.txt", "results.txt", "run.json",
		"console.log", "vmcore",
	};
	char *failed, *path;
	int rc = mkdir_p(dir, &failed);

	if (rc)
		die_err(rc, "%s: cannot create %s", where, failed);
	for (size_t i = 0; i < sizeof(old) / sizeof(old[0]); i++) {
		path = xasprintf("%s/%s", dir, old[i]);
		if (unlink(path) < 0 && errno != ENOENT)
			die_errno("%s: cannot remove the old %s", where, path);
		free(path);
	}
	path = xasprintf("%s/files", dir);
	rc = remove_tree(path, &failed);
	if (rc)
		die_err(rc, "%s: cannot remove %s of an earlier run", where, failed);
	free(path);
}
