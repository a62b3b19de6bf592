// SPDX-License-Identifier: GPL-2.0
/* rapido.c: locate the checkout, the configuration and the per-user state. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confkeys.h"
#include "err.h"
#include "rapido.h"

const char *rapido_dir(void)
{
	static char *dir;
	char buf[PATH_MAX];
	ssize_t n;

	if (dir)
		return dir;
	if (getenv("RAPIDO_DIR") && *getenv("RAPIDO_DIR")) {
		dir = xstrdup(getenv("RAPIDO_DIR"));
		return dir;
	}
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n < 0)
		die_errno("readlink /proc/self/exe");
	buf[n] = '\0';
	dir = xstrdup(dirname(buf));
	return dir;
}

/* Warn, once per key, about the keys of the file that no program or profile reads. */
static void warn_unknown_keys(const struct conf *c)
{
	struct strv known = STRV_INIT, msgs = STRV_INIT;
	char *dir = xasprintf("%s/autorun", rapido_dir());

	/* without the profiles, every profile's key would look unknown: say nothing */
	if (!confkeys_from_profiles(dir, &known)) {
		confkeys_check(c, &known, &msgs);
		for (size_t i = 0; i < msgs.n; i++)
			warn("%s", msgs.v[i]);
	}
	strv_free(&msgs);
	strv_free(&known);
	free(dir);
}

void rapido_conf_load_or_die(struct conf *c)
{
	const char *env = getenv("RAPIDO_CONF");
	char *path, *err;

	memset(c, 0, sizeof(*c));
	c->env_override = 1;
	if (env && *env) {
		path = xstrdup(env);
	} else {
		path = xasprintf("%s/rapido.conf", rapido_dir());
		if (access(path, F_OK) < 0 && errno == ENOENT) {
			free(path);
			return;	/* defaults only */
		}
	}
	if (conf_load(c, path, &err))
		die("%s", err);
	free(path);
	warn_unknown_keys(c);
}

char *rapido_state_dir_or_die(const struct conf *c)
{
	const char *v = conf_get(c, "VM_STATE_DIR");
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char *dir, *at;
	struct stat st;

	if (v && *v)
		dir = xstrdup(v);
	else if (xdg && *xdg)
		dir = xasprintf("%s/rapido", xdg);
	else
		dir = xasprintf("/tmp/rapido-%u", (unsigned int)getuid());
	/* messages start with where VM_STATE_DIR was set, when it was */
	at = v && *v ? xasprintf("%s: VM_STATE_DIR: ", conf_origin(c, "VM_STATE_DIR")) : xstrdup("");
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		die_errno("%scannot create state directory %s", at, dir);
	if (stat(dir, &st) < 0)
		die_errno("%s%s", at, dir);
	if (!S_ISDIR(st.st_mode))
		die("%sstate directory %s is not a directory", at, dir);
	if (st.st_uid != getuid())
		die("%sstate directory %s belongs to uid %u, not to you (set VM_STATE_DIR)",
		    at, dir, (unsigned int)st.st_uid);
	free(at);
	return dir;
}

char *rapido_default_image(const struct conf *c)
{
	const char *v = conf_get(c, "DRACUT_OUT");

	if (v && *v)
		return xstrdup(v);
	return xasprintf("%s/initrds/myinitrd", rapido_dir());
}
