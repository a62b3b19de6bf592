/* SPDX-License-Identifier: GPL-2.0 */
/* confkeys.h: the rapido.conf keys the programs read, and warnings for keys nobody reads. */
#ifndef RAPIDO_CONFKEYS_H
#define RAPIDO_CONFKEYS_H

#include "conf.h"
#include "strv.h"

enum confkey_kind {
	CONFKEY_STR,	/* free text */
	CONFKEY_UINT,	/* a decimal number in min..max */
	CONFKEY_SIZE,	/* a size (512M, 2GiB) in min..max bytes; max 0: no upper bound */
	CONFKEY_ENUM,	/* one of words[] */
	CONFKEY_PATH,	/* a file or directory; CONFKEY_ABSOLUTE: must start with '/' */
	CONFKEY_ADDR,	/* an IPv4 address with prefix length; CONFKEY_BRIDGE: BR_ADDR's rules */
	CONFKEY_WORDS,	/* shell-like words (shwords.h) */
};

/* confkey.flags */
#define CONFKEY_ICASE		0x1	/* ENUM: KVM is kvm */
#define CONFKEY_ABSOLUTE	0x2	/* PATH: relative paths are refused */
#define CONFKEY_BRIDGE		0x4	/* ADDR: a bridge's own address (ipv4_bridge_parse) */
#define CONFKEY_HOSTMEM		0x8	/* SIZE: at most the host's memory (hostmem.h) */
/*
 * A secret (a password; for a PATH, the file it names): in every profile,
 * whatever its header says, an image holding it is its owner's only and
 * its value is never printed (`#@ secret:` marks a profile's own keys).
 */
#define CONFKEY_SECRET		0x10

/*
 * One rapido.conf key: what it is, what it may hold and what it is when
 * unset. The one place a default lives: readers ask the table (confget.h),
 * rapido.conf.example shows the same default (tests/unit/lib-confkeys.c).
 */
struct confkey {
	const char *key;		/* '#' stands for a decimal number: VM#_IP# is VM1_IP2 */
	enum confkey_kind kind;
	unsigned long long min, max;	/* UINT: the range; SIZE: in bytes, max 0 = none */
	const char *const *words;	/* ENUM: the values, NULL-terminated */
	unsigned int flags;		/* CONFKEY_* */
	const char *def;		/* the default, as written in rapido.conf; NULL: none, or
					 * worked out by the reader (the help line says how) */
	const char *eg;			/* SIZE, ADDR: a value for messages ("such as 1G") */
	const char *help;		/* one line */
	/*
	 * A value's own syntax beyond its kind's (VM_SPLATS, VM_SHARD): 0, or
	 * -EINVAL with *why (malloc'd). The one check for the key, so
	 * ./cut --check-conf refuses what ./vm would.
	 */
	int (*check)(const char *text, char **why);
};

/*
 * Every key ./cut, ./vm, ./vmctl, ./netsetup and ./ceph-local read,
 * terminated by a NULL key. Profiles add their own keys in their headers
 * (profile_conf_keys()) and may type them (#@ conf-type:).
 */
extern const struct confkey confkeys[];

/* KEY's entry in confkeys[] (patterns matched), or NULL. */
const struct confkey *confkey_find(const char *key);

/*
 * 1 if KEY's value is a secret: confkeys[] marks it CONFKEY_SECRET, or it
 * is one of extra (a profile's `#@ secret:` keys; NULL for none).
 */
int confkey_secret(const char *key, const struct strv *extra);

/*
 * KEY's value as it may be shown (--check-conf, messages): "***" for a
 * secret's (confkey_secret), val itself otherwise. A registry PATH secret
 * (CEPH_KEYRING) is shown: the file it names is the secret, not its name.
 */
const char *confkey_shown(const char *key, const char *val, const struct strv *extra);

/* 1 if KEY matches PATTERN, where '#' matches one or more digits. */
int confkeys_match(const char *pattern, const char *key);

/* 1 if KEY is in confkeys[] or one of extra (the profiles' keys). */
int confkeys_known(const char *key, const struct strv *extra);

/*
 * The known key nearest to KEY (edit distance, case ignored, a swap of two
 * neighbours counting once), malloc'd; NULL when none is near enough to be
 * a likely typo.
 */
char *confkeys_suggest(const char *key, const struct strv *extra);


/*
 * One warning per key c's file sets that is neither known nor expanded by a
 * later line ("FILE:LINE: warning: unknown key ..."), appended to msgs.
 */
void confkeys_check(const struct conf *c, const struct strv *extra, struct strv *msgs);

/*
 * Check VAL against KEY's type. Returns 0 (also for an untyped key), or
 * -EINVAL with *err (malloc'd) saying what was expected and what was seen.
 */
int confkeys_check_type(const char *key, const char *val, char **err);

#endif
