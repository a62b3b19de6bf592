/* SPDX-License-Identifier: GPL-2.0 */
/* vars.h: spec variables (${NAME}) and the `set-first` directory lookup. */
#ifndef RAPIDO_CONFIGFS_VARS_H
#define RAPIDO_CONFIGFS_VARS_H

#include <stdbool.h>
#include <stddef.h>

struct cfs_var {
	char *name;
	char *value;
	unsigned int line;	/* where the spec set it; 0: from the command line (-D) */
};

struct cfs_vars {
	struct cfs_var *v;
	size_t n;
};

/* A NAME is [A-Za-z_][A-Za-z0-9_]*; len bytes of s are checked. */
bool var_name_valid(const char *s, size_t len);

/* Look a variable up by len bytes of name; NULL when undefined. */
const struct cfs_var *vars_get(const struct cfs_vars *vs, const char *name, size_t len);

/*
 * Set a variable. A variable from the command line (line 0) is never
 * replaced by the spec: vars_set() then returns false and changes nothing.
 */
bool vars_set(struct cfs_vars *vs, const char *name, const char *value, unsigned int line);

void vars_free(struct cfs_vars *vs);

/*
 * The first entry, in byte order, of directory dir (dot-entries skipped),
 * e.g. the first UDC in /sys/class/udc. Returns 0 with *out malloc'd,
 * -ENODATA if the directory is empty, or -errno from opening it.
 */
int dir_first_entry(const char *dir, char **out);

#endif
