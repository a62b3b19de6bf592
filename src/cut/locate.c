// SPDX-License-Identifier: GPL-2.0
/*
 * locate.c: where ./cut finds what it reads besides rapido.conf: the
 * rapido directory and a profile in its autorun/. One place, so that the
 * cut, --list, --kconfig and --check-conf find them alike.
 */
#include <stdlib.h>
#include <unistd.h>

#include "cut.h"
#include "err.h"
#include "rapido.h"

const char *cut_rapido_dir(void)
{
	const char *dir = rapido_dir();

	if (!dir)
		die_errno("cannot find the profiles: readlink /proc/self/exe (set RAPIDO_DIR)");
	return dir;
}

void cut_profile_load_or_die(const char *dir, const char *name, struct profile *prof)
{
	char *path, *err;

	if (!profile_name_valid(name))
		die("invalid profile name '%s' (letters, digits, '-' and '_' only)", name);
	path = xasprintf("%s/autorun/%s.sh", dir, name);
	if (access(path, F_OK) < 0)
		die("unknown profile '%s': %s does not exist (./cut --list shows the profiles)",
		    name, path);
	if (profile_load(prof, name, path, &err))
		die("%s", err);
	free(path);
}
