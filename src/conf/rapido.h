/* SPDX-License-Identifier: GPL-2.0 */
/* rapido.h: where things live: the checkout, rapido.conf, the state dir, images. */
#ifndef RAPIDO_RAPIDO_H
#define RAPIDO_RAPIDO_H

#include "conf.h"
#include "conftype.h"
#include "strv.h"

/* The system-wide rapido.conf, read when no other is found. */
#ifndef RAPIDO_SYSCONF
#define RAPIDO_SYSCONF "/etc/rapido/rapido.conf"
#endif

/*
 * The directory with autorun/, dracut.conf.d/ and build/guest/: $RAPIDO_DIR
 * if set; else the running program's directory when it has autorun/ (a
 * checkout); else BINDIR/../lib/rapido when that has autorun/ (make
 * install); else the program's directory. NULL (errno set) when
 * /proc/self/exe cannot be read.
 */
const char *rapido_dir(void);

/* 1 when rapido_dir() is an installed copy's BINDIR/../lib/rapido. */
int rapido_installed(void);

/*
 * What goes before a program's name in a message that says what to type:
 * "./" in a checkout (./cut), "rapido " installed (rapido cut: no cut is
 * on PATH there).
 */
const char *rapido_cmd_prefix(void);

/*
 * The one place that says where profiles (NAME.sh) are looked for, in
 * order, appended to out: each directory of $RAPIDO_PROFILE_PATH
 * (colon-separated), then $XDG_CONFIG_HOME/rapido/profiles
 * (~/.config/rapido/profiles), then rapido_dir()/autorun (a checkout's or
 * an installed copy's own). The user's directories add profiles to the
 * shipped ones; a name found in an earlier directory is the one used.
 * Directories that do not exist are listed too (the caller skips them).
 */
void rapido_profile_dirs(struct strv *out);

/*
 * The path of profile NAME: DIR/NAME.sh of the first rapido_profile_dirs()
 * entry that has it, malloc'd; NULL if none does.
 */
char *rapido_profile_find(const char *name);

/*
 * rapido_profile_dirs()'s profiles' conf keys (profile_dir_conf_keys() of
 * each directory that exists). Returns 0, or -errno when rapido_dir()'s
 * own autorun/ cannot be listed (every profile's key would look unknown).
 */
int rapido_profile_conf_keys(struct strv *out, struct confkey_types *types);

/*
 * Which rapido.conf to read, malloc'd: $RAPIDO_CONF if set (it must then
 * exist), else the first that exists of RAPIDO_DIR/rapido.conf,
 * $XDG_CONFIG_HOME/rapido/rapido.conf (~/.config/rapido/rapido.conf),
 * RAPIDO_SYSCONF; NULL if none (defaults only).
 */
char *rapido_conf_path(void);

/*
 * Load rapido_conf_path(), if any. Variables of the environment override
 * the file's values. Dies with FILE:LINE on errors; warns about each key of
 * the file that no program or profile reads.
 */
void rapido_conf_load_or_die(struct conf *c);

/*
 * VM_STATE_DIR, or $XDG_RUNTIME_DIR/rapido, or /tmp/rapido-UID; created
 * 0700, a directory of ours that no one else may write to, not a link.
 * 0 with *dir (malloc'd), or -errno with *err.
 */
int rapido_state_dir(const struct conf *c, char **dir, char **err);
/*
 * The same, also open (O_NOFOLLOW, the owner and mode checked on the fd):
 * *fd for openat(2). Refused: a symbolic link, another user's directory,
 * one its group or everyone may write to.
 */
int rapido_state_dir_open(const struct conf *c, char **dir, int *fd, char **err);
char *rapido_state_dir_or_die(const struct conf *c);

/*
 * The user's cache for rapido, malloc'd: $XDG_CACHE_HOME/rapido, else
 * $HOME/.cache/rapido. A relative or empty XDG_CACHE_HOME or HOME is
 * ignored, as the XDG base directory spec says; NULL if neither is left.
 * The one rule for ./cut's layer cache (CUT_CACHE_DIR's default), the
 * sysroots of foreign architectures (SYSROOT's) and an installed copy's
 * images (below).
 */
char *rapido_cache_dir(void);
/* ./cut's cache, malloc'd: CUT_CACHE_DIR, else rapido_cache_dir() (NULL if none). */
char *rapido_cut_cache_dir(const struct conf *c);

/*
 * DRACUT_OUT, or RAPIDO_DIR/initrds/myinitrd in a checkout (or when there
 * is no rapido_cache_dir()), or for an installed copy
 * rapido_cache_dir()/initrds/myinitrd (the cache directory is created).
 */
char *rapido_default_image(const struct conf *c);
/*
 * ./cut's last output, for ./vm without an IMAGE: recorded in the state
 * dir, one record per rapido_default_image() (a checkout's, a DRACUT_OUT's).
 * save: 0 or -errno with *err set (malloc'd); last: its absolute path, or
 * NULL when none was recorded.
 */
int rapido_last_image_save(const struct conf *c, const char *image, char **err);
/* NULL, with *why (malloc'd) when a record was there but refused or unread. */
char *rapido_last_image(const struct conf *c, char **why);

/* Exit codes of ./vm besides the guest's own status (documented in docs/vm.md). */
enum {
	VM_EXIT_TESTS_FAILED = 1,	/* the guest said 0, but a test record failed or never ended */
	VM_EXIT_SPLAT = 121,		/* the scripts passed, the kernel reported a splat */
	VM_EXIT_HOST_STOPPED = 122,	/* stopped from the host (QMP quit, signal to qemu) */
	VM_EXIT_NO_STATUS = 123,	/* guest died without reporting: panic, crash */
	VM_EXIT_TIMEOUT = 124,		/* --timeout expired, qemu killed */
	VM_EXIT_FAILED = 125,		/* vm or qemu failed to start */
};

#endif
