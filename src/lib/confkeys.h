/* SPDX-License-Identifier: GPL-2.0 */
/* confkeys.h: the rapido.conf keys the programs read, and warnings for keys nobody reads. */
#ifndef RAPIDO_CONFKEYS_H
#define RAPIDO_CONFKEYS_H

#include "conf.h"
#include "strv.h"

/*
 * Every key ./cut, ./vm, ./vmctl and ./netsetup read, NULL-terminated.
 * A '#' stands for a decimal number: VM#_IP# is VM1_IP2. Profiles add
 * their own keys in their headers (profile_conf_keys()). rapido.conf.example
 * documents each; tests/unit/lib-confkeys.c keeps the two in step.
 */
extern const char *const confkeys_programs[];

/* 1 if KEY matches PATTERN, where '#' matches one or more digits. */
int confkeys_match(const char *pattern, const char *key);

/* 1 if KEY is one of confkeys_programs or one of extra (the profiles' keys). */
int confkeys_known(const char *key, const struct strv *extra);

/*
 * The known key nearest to KEY (edit distance, case ignored, a swap of two
 * neighbours counting once), malloc'd; NULL when none is near enough to be
 * a likely typo.
 */
char *confkeys_suggest(const char *key, const struct strv *extra);

/*
 * Append the keys the profiles in DIR (its NAME.sh files) name in their headers.
 * A profile whose header does not parse is skipped: ./cut reports it when
 * it is used. Returns 0, or -errno if DIR cannot be listed.
 */
int confkeys_from_profiles(const char *dir, struct strv *out);

/*
 * One warning per key c's file sets that is neither known nor expanded by a
 * later line ("FILE:LINE: warning: unknown key ..."), appended to msgs.
 */
void confkeys_check(const struct conf *c, const struct strv *extra, struct strv *msgs);

enum confkey_kind { CONFKEY_UINT, CONFKEY_SIZE, CONFKEY_ENUM };

struct confkey_type {
	const char *key;
	enum confkey_kind type;
	unsigned long long min, max;	/* UINT: the range; SIZE: the least, in bytes */
	const char *words;		/* ENUM: the values, space-separated */
};

/* The typed keys of confkeys_programs, NULL-key-terminated. */
extern const struct confkey_type confkeys_types[];

/* KEY's entry in confkeys_types, or NULL for an untyped key. */
const struct confkey_type *confkeys_type(const char *key);

/*
 * Check VAL against KEY's type. Returns 0 (also for an untyped key), or
 * -EINVAL with *err (malloc'd) saying what was expected and what was seen.
 */
int confkeys_check_type(const char *key, const char *val, char **err);

#endif
