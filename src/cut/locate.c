// SPDX-License-Identifier: GPL-2.0
/*
 * locate.c: where ./cut finds what it reads besides rapido.conf: the
 * rapido directory and a profile (rapido_profile_find(): the user's
 * profile directories, then its autorun/). One place, so that the cut,
 * --list, --kconfig and --check-conf find them alike.
 */
#include <stdlib.h>

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
	path = rapido_profile_find(name);
	if (!path)
		die("unknown profile '%s': no %s.sh in %s/autorun, $RAPIDO_PROFILE_PATH or "
		    "~/.config/rapido/profiles (cut --list shows the profiles)", name, name, dir);
	if (profile_load(prof, name, path, &err))
		die("%s", err);
	free(path);
}
