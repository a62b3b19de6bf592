/* SPDX-License-Identifier: GPL-2.0 */
/* profalias.h: upstream Rapido's profile names, each a profile here with settings. */
#ifndef RAPIDO_PROFALIAS_H
#define RAPIDO_PROFALIAS_H

/*
 * One row: a name upstream Rapido's cut/NAME.sh has, the profile here that
 * does the same job, and the rapido.conf settings that make it so (at most
 * PROFALIAS_SETS "KEY=VALUE" strings, NULL-ended).
 */
#define PROFALIAS_SETS 3
struct profalias {
	const char *name;
	const char *profile;
	const char *set[PROFALIAS_SETS];
};

/* The table, ended by a row whose name is NULL. */
extern const struct profalias profaliases[];

/*
 * The row for NAME, or NULL. '-' and '_' are one (Rapido's scripts use '_';
 * simple-example is how one recalls simple_example).
 */
const struct profalias *profalias_find(const char *name);

/* "fstests_local with FSTESTS_FS=xfs", malloc'd: what ./cut and --list say. */
char *profalias_describe(const struct profalias *a);

#endif
