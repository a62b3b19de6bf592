// SPDX-License-Identifier: GPL-2.0
/* rapido.c: locate the checkout, the configuration and the per-user state. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confget.h"
#include "confkeys.h"
#include "profile.h"
#include "err.h"
#include "hash.h"
#include "io.h"
#include "rapido.h"

static int installed;

static int has_autorun(const char *dir)
{
	char *path = xasprintf("%s/autorun", dir);
	struct stat st;
	int rc = stat(path, &st) == 0 && S_ISDIR(st.st_mode);

	free(path);
	return rc;
}

const char *rapido_dir(void)
{
	static char *dir;
	char buf[PATH_MAX], *bindir, *data;
	ssize_t n;

	if (dir)
		return dir;
	if (getenv("RAPIDO_DIR") && *getenv("RAPIDO_DIR")) {
		dir = xstrdup(getenv("RAPIDO_DIR"));
		return dir;
	}
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n < 0)
		return NULL;	/* errno says why */
	buf[n] = '\0';
	bindir = dirname(buf);
	/*
	 * A checkout has autorun/ next to the programs; an installed copy
	 * (make install) has its profiles and helpers in PREFIX/lib/rapido.
	 * Neither: the program's own directory, whose missing autorun/NAME.sh
	 * ./cut then names.
	 */
	data = xasprintf("%s/../lib/rapido", bindir);
	if (!has_autorun(bindir) && has_autorun(data)) {
		dir = realpath(data, NULL);
		if (!dir)
			dir = xstrdup(data);
		installed = 1;
	} else {
		dir = xstrdup(bindir);
	}
	free(data);
	return dir;
}

int rapido_installed(void)
{
	return rapido_dir() && installed;
}

const char *rapido_cmd_prefix(void)
{
	return rapido_installed() ? "rapido " : "./";
}

void rapido_profile_dirs(struct strv *out)
{
	const char *path = getenv("RAPIDO_PROFILE_PATH"), *dir = rapido_dir();
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (path && *path) {
		char *copy = xstrdup(path), *save = NULL;

		for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
			strv_push(out, d);
		free(copy);
	}
	/* the XDG base directory rules of rapido_conf_path(): absolute values only */
	if (xdg && xdg[0] == '/')
		strv_pushf(out, "%s/rapido/profiles", xdg);
	else if (home && home[0] == '/')
		strv_pushf(out, "%s/.config/rapido/profiles", home);
	if (dir)
		strv_pushf(out, "%s/autorun", dir);
}

char *rapido_profile_find(const char *name)
{
	struct strv dirs = STRV_INIT;
	char *found = NULL;

	rapido_profile_dirs(&dirs);
	for (size_t i = 0; i < dirs.n && !found; i++) {
		char *path = xasprintf("%s/%s.sh", dirs.v[i], name);

		if (access(path, F_OK) == 0)
			found = path;
		else
			free(path);
	}
	strv_free(&dirs);
	return found;
}

int rapido_profile_conf_keys(struct strv *out, struct confkey_types *types)
{
	struct strv dirs = STRV_INIT;
	int rc = 0;

	rapido_profile_dirs(&dirs);
	for (size_t i = 0; i < dirs.n; i++) {
		int r = profile_dir_conf_keys(dirs.v[i], out, types);

		/* the last is rapido_dir()'s autorun/: the user's may well not exist */
		if (r && i == dirs.n - 1)
			rc = r;
	}
	strv_free(&dirs);
	return rc;
}

static const char *rapido_dir_or_die(void)
{
	const char *dir = rapido_dir();

	if (!dir)
		die_errno("cannot find the rapido directory: readlink /proc/self/exe (set RAPIDO_DIR)");
	return dir;
}

/* Warn, once per key, about the keys of the file that no program or profile reads. */
static void warn_unknown_keys(const struct conf *c)
{
	struct strv known = STRV_INIT, msgs = STRV_INIT;

	rapido_dir_or_die();
	/* without the profiles, every profile's key would look unknown: say nothing */
	if (!rapido_profile_conf_keys(&known, NULL)) {
		confkeys_check(c, &known, &msgs);
		for (size_t i = 0; i < msgs.n; i++)
			warn("%s", msgs.v[i]);
	}
	strv_free(&msgs);
	strv_free(&known);
}

/* A file that exists (or cannot be looked at: conf_load then says why). */
static int conf_candidate(const char *path)
{
	return access(path, F_OK) == 0 || errno != ENOENT;
}

char *rapido_conf_path(void)
{
	const char *env = getenv("RAPIDO_CONF"), *dir = rapido_dir();
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char *path;

	if (env && *env)
		return xstrdup(env);
	if (dir) {
		path = xasprintf("%s/rapido.conf", dir);
		if (conf_candidate(path))
			return path;
		free(path);
	}
	if (xdg && *xdg)
		path = xasprintf("%s/rapido/rapido.conf", xdg);
	else if (home && *home)
		path = xasprintf("%s/.config/rapido/rapido.conf", home);
	else
		path = NULL;
	if (path) {
		if (conf_candidate(path))
			return path;
		free(path);
	}
	path = xstrdup(RAPIDO_SYSCONF);
	if (conf_candidate(path))
		return path;
	free(path);
	return NULL;
}

void rapido_conf_load_or_die(struct conf *c)
{
	char *path, *err;
	int rc;

	memset(c, 0, sizeof(*c));
	c->env_override = 1;
	rapido_dir_or_die();
	path = rapido_conf_path();
	if (!path)
		return;	/* defaults only */
	rc = conf_load(c, path, &err);
	if (!rc)
		rc = conf_check_paths(c, &err);
	/* before a die: the path would be a leak LeakSanitizer reports */
	free(path);
	if (rc)
		die("%s", err);
	warn_unknown_keys(c);
}

int rapido_state_dir_open(const struct conf *c, char **dirp, int *fdp, char **err)
{
	const char *from, *v = conf_str(c, "VM_STATE_DIR", &from);
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	char *dir, *at;
	struct stat st;
	int rc = 0, fd = -1;

	*dirp = *err = NULL;
	*fdp = -1;
	if (v && *v)
		dir = xstrdup(v);
	else if (xdg && *xdg)
		dir = xasprintf("%s/rapido", xdg);
	else
		dir = xasprintf("/tmp/rapido-%u", (unsigned int)getuid());
	/* messages start with where VM_STATE_DIR was set, when it was */
	at = v && *v ? xasprintf("%s: VM_STATE_DIR: ", from) : xstrdup("");
	/*
	 * /tmp/rapido-UID is a name anyone may take first: what is there is
	 * opened without following a link and judged by its fd (another's
	 * directory, or one others may write to, could hand ./vm a record of
	 * the last image, a log or a socket of theirs)
	 */
	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		rc = -errno;
		*err = xasprintf("%scannot create state directory %s: %s", at, dir, strerror(-rc));
	} else if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		rc = -errno;
		if (rc == -ELOOP || (rc == -ENOTDIR && lstat(dir, &st) == 0 && S_ISLNK(st.st_mode)))
			*err = xasprintf("%sstate directory %s is a symbolic link: refused "
					 "(set VM_STATE_DIR to a directory of yours)", at, dir);
		else if (rc == -ENOTDIR)
			*err = xasprintf("%sstate directory %s is not a directory", at, dir);
		else
			*err = xasprintf("%s%s: %s", at, dir, strerror(-rc));
	} else if (fstat(fd, &st) < 0) {
		rc = -errno;
		*err = xasprintf("%s%s: %s", at, dir, strerror(-rc));
	} else if (st.st_uid != getuid()) {
		rc = -EPERM;
		*err = xasprintf("%sstate directory %s belongs to uid %u, not to you (set VM_STATE_DIR)",
				 at, dir, (unsigned int)st.st_uid);
	} else if (st.st_mode & 022) {
		rc = -EPERM;
		*err = xasprintf("%sstate directory %s is writable by %s (mode %04o): refused, "
				 "others could put files in it (chmod go-w it, or set VM_STATE_DIR)",
				 at, dir,
				 st.st_mode & 002 ? "everyone" : "its group",
				 (unsigned int)(st.st_mode & 07777));
	}
	free(at);
	if (rc) {
		if (fd >= 0)
			close(fd);
		free(dir);
	} else {
		*dirp = dir;
		*fdp = fd;
	}
	return rc;
}

int rapido_state_dir(const struct conf *c, char **dirp, char **err)
{
	int fd, rc = rapido_state_dir_open(c, dirp, &fd, err);

	if (!rc)
		close(fd);
	return rc;
}

char *rapido_state_dir_or_die(const struct conf *c)
{
	char *dir, *err;

	if (rapido_state_dir(c, &dir, &err))
		die("%s", err);
	return dir;
}

/*
 * The record of ./cut's last output: one file per default image (a
 * checkout's, an installed copy's, a DRACUT_OUT's), so that ./vm in one
 * checkout never boots what ./cut wrote for another. Its name in the state
 * directory, which *dirfd is open on (read and written through it alone).
 */
static int last_image_record(const struct conf *c, int *dirfd, char **name, char **path,
			     char **err)
{
	char *dir, *def = rapido_default_image(c);
	int rc = rapido_state_dir_open(c, &dir, dirfd, err);

	if (!rc) {
		*name = xasprintf("last-image.%016llx",
				  (unsigned long long)fnv1a64(def, strlen(def)));
		*path = xasprintf("%s/%s", dir, *name);
	}
	free(dir);
	free(def);
	return rc;
}

int rapido_last_image_save(const struct conf *c, const char *image, char **err)
{
	char *path, *name, *abs = realpath(image, NULL), *text;
	int rc, dirfd;

	if (!abs) {
		rc = -errno;
		*err = xasprintf("%s: %s", image, strerror(-rc));
		return rc;
	}
	rc = last_image_record(c, &dirfd, &name, &path, err);
	if (!rc) {
		text = xasprintf("%s\n", abs);
		rc = write_file_atomic_at(dirfd, name, text, strlen(text), 0600);
		if (rc)
			*err = xasprintf("%s: %s", path, strerror(-rc));
		free(text);
		free(name);
		free(path);
		close(dirfd);
	}
	free(abs);
	return rc;
}

char *rapido_last_image(const struct conf *c, char **why)
{
	char *path, *name, *text = NULL, *img = NULL;
	struct stat st;
	int dirfd, rc;

	*why = NULL;
	if (last_image_record(c, &dirfd, &name, &path, why))
		return NULL;
	/* one line, a path: a record is never larger */
	rc = read_regular_file_at(dirfd, name, O_NOFOLLOW, PATH_MAX + 1, &text, NULL, &st);
	if (!rc) {
		text[strcspn(text, "\n")] = '\0';
		if (text[0] == '/')
			img = xstrdup(text);
		free(text);
	} else if (rc != -ENOENT) {
		*why = xasprintf("%s: %s: the last image's record ignored", path,
				 rc == -EFBIG ? "larger than a path" : file_strerror(rc, &st));
	}
	close(dirfd);
	free(name);
	free(path);
	return img;
}

char *rapido_cache_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (xdg && xdg[0] == '/')
		return xasprintf("%s/rapido", xdg);
	if (home && home[0] == '/')
		return xasprintf("%s/.cache/rapido", home);
	return NULL;
}

char *rapido_cut_cache_dir(const struct conf *c)
{
	const char *v = conf_str(c, "CUT_CACHE_DIR", NULL);

	return v ? xstrdup(v) : rapido_cache_dir();
}

char *rapido_default_image(const struct conf *c)
{
	const char *v = conf_str(c, "DRACUT_OUT", NULL);
	char *cache, *img, *slash;
	int made;

	if (v && *v)
		return xstrdup(v);
	cache = rapido_installed() ? rapido_cache_dir() : NULL;
	if (!cache)
		return xasprintf("%s/initrds/myinitrd", rapido_dir());
	/*
	 * The prefix of an installed copy is read-only: images go to the
	 * user's cache. Make it (and ~/.cache) so that ./cut can create
	 * initrds/ in it as in a fresh checkout; a failure here is reported
	 * by ./cut's check of the image's directory, naming the path.
	 */
	slash = strrchr(cache, '/');
	*slash = '\0';
	made = mkdir(cache, 0700) == 0 || errno == EEXIST;
	*slash = '/';
	if (made)
		(void)(mkdir(cache, 0700) == 0 || errno == EEXIST);
	img = xasprintf("%s/initrds/myinitrd", cache);
	free(cache);
	return img;
}
