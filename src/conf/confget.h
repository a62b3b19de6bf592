/* SPDX-License-Identifier: GPL-2.0 */
/* confget.h: read a rapido.conf key through its confkeys[] entry: the value, checked, and where it came from. */
#ifndef RAPIDO_CONFGET_H
#define RAPIDO_CONFGET_H

#include <stdint.h>

#include "conf.h"
#include "confkeys.h"
#include "netaddr.h"
#include "strv.h"

/* A key's resolved value. */
struct conf_value {
	const char *key;
	const char *text;		/* as set, or the default; NULL: unset, no default */
	const char *origin;		/* "FILE:LINE", "environment" or "default" */
	int set;			/* 1: set by the file or the environment */
	unsigned long long n;		/* UINT, SIZE */
	const char *word;		/* ENUM: the table's spelling (QEMU_ACCEL=KVM is "kvm") */
	struct ipv4_prefix addr;	/* ADDR */
};

/*
 * KEY as the user set it: the environment's (with env_override), else the
 * file's, empty included (./cut hands a profile's keys to the guest as
 * they are: FSTESTS_MKFS_OPTIONS= is not the same as unset there); NULL
 * when unset. *origin (may be NULL) as conf_origin(). Everything else
 * counts an empty value as unset, as a shell's ${X:-default} does.
 */
const char *conf_value(const struct conf *c, const char *key, const char **origin);

/*
 * Check TEXT against K's kind and fill v->n / v->word / v->addr. 0, or
 * -EINVAL with *why (malloc'd) saying what was expected and what was seen:
 * "expected a number from 1 to 1024, got 'two'".
 */
int confkey_parse(const struct confkey *k, const char *text, struct conf_value *v, char **why);

/*
 * Resolve KEY through K (a confkeys[] entry, or a profile's #@ conf-type):
 * its value if set, else K's default, parsed. Returns 1 for a value the
 * user set, 0 for the default (v->text NULL when K has none), or -EINVAL
 * with *err (malloc'd) "ORIGIN: KEY: why".
 */
int conf_resolve_as(const struct conf *c, const struct confkey *k, const char *key,
		    struct conf_value *v, char **err);
/*
 * Every path key of c's file (confkeys[]) through conf_resolve_as(), so an
 * empty one is an error whichever program reads it, and however (conf_str
 * cannot fail): 0, or -EINVAL with *err as conf_resolve_as() gives it.
 */
int conf_check_paths(const struct conf *c, char **err);
/* conf_resolve_as() with KEY's confkeys[] entry (an unknown KEY is free text). */
int conf_resolve(const struct conf *c, const char *key, struct conf_value *v, char **err);

/*
 * The typed readers the programs use. Each returns as conf_resolve() (1:
 * set, 0: the default, -EINVAL with *err); *out keeps what it held when
 * the key is unset and has no default. *origin may be NULL.
 */
int conf_uint(const struct conf *c, const char *key, unsigned int *out, const char **origin,
	      char **err);
int conf_size(const struct conf *c, const char *key, uint64_t *out, const char **origin,
	      char **err);
int conf_enum(const struct conf *c, const char *key, const char **out, const char **origin,
	      char **err);
int conf_path(const struct conf *c, const char *key, const char **out, const char **origin,
	      char **err);
int conf_addr(const struct conf *c, const char *key, struct ipv4_prefix *out,
	      const char **origin, char **err);
/* Appends KEY's words (shell-like quoting, shwords.h) to out. */
int conf_words(const struct conf *c, const char *key, struct strv *out, const char **origin,
	       char **err);
/* Free text, which cannot be wrong: the value, else the default, else NULL. */
const char *conf_str(const struct conf *c, const char *key, const char **origin);

/*
 * Check VAL, as written, against KEY's confkeys[] entry: 0 (also for an
 * unknown key), or -EINVAL with *err (malloc'd) saying what was expected.
 */
int confkeys_check_type(const char *key, const char *val, char **err);

#endif
