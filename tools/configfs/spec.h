/* SPDX-License-Identifier: GPL-2.0 */
/* spec.h: the configfs spec language: one operation per line, parsed into a list. */
#ifndef RAPIDO_CONFIGFS_SPEC_H
#define RAPIDO_CONFIGFS_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "vars.h"

/*
 * configfs copies at most SIMPLE_ATTR_SIZE - 1 = 4095 bytes of one write(2)
 * into its page buffer (fs/configfs/file.c); a longer value would be cut.
 */
#define CFS_VALUE_MAX 4095

/* How long `wait` waits when the spec gives no timeout. */
#define CFS_WAIT_DEFAULT_MS 5000
#define CFS_WAIT_MAX_MS 3600000

enum cfs_op_type {
	OP_WAIT,	/* wait PATH [SECONDS] */
	OP_MKDIR,	/* mkdir PATH */
	OP_ENSURE,	/* ensure PATH */
	OP_WRITE,	/* write PATH VALUE [undo VALUE] */
	OP_LINK,	/* link TARGET LINKPATH */
};

struct cfs_op {
	enum cfs_op_type type;
	unsigned int line;
	char *path;		/* relative to the root, normalised; the link itself for OP_LINK */
	char *target;		/* OP_LINK: what the link points at, relative to the root */
	char *value;		/* OP_WRITE */
	size_t value_len;
	char *undo;		/* OP_WRITE: NULL when the line has no `undo` */
	size_t undo_len;
	unsigned int timeout_ms;	/* OP_WAIT */
};

struct cfs_spec {
	char *file;		/* the name used in messages ("<stdin>" for -) */
	struct cfs_op *ops;
	size_t n, cap;
	struct cfs_vars vars;
};

struct cfs_parse_opts {
	const char *sysfs_root;	/* where `set-first` looks; default "/sys" */
	/*
	 * Parsing for --teardown: the forward values are never written, so an
	 * empty one is no error, and a `set-first` that finds nothing (the UDC
	 * went away) sets the variable to "" with a warning instead of failing.
	 */
	bool teardown;
	FILE *warn;		/* where such warnings go; NULL: nowhere */
};

void spec_init(struct cfs_spec *s);
void spec_free(struct cfs_spec *s);

/*
 * Define a variable from the command line ("NAME=VALUE"). It wins over any
 * `set` or `set-first` of the same name in the spec, as a make command-line
 * variable wins over the makefile. Returns 0 or -EINVAL with *err set.
 */
int spec_define(struct cfs_spec *s, const char *name_value, char **err);

/*
 * Parse a whole spec. `name` is used in messages; text comes from f.
 * Returns 0, or -EINVAL (or -errno on a read error) with *err set to a
 * malloc'd "file:line: message". The caller frees *err.
 */
int spec_parse(struct cfs_spec *s, const char *name, FILE *f,
	       const struct cfs_parse_opts *po, char **err);
/* The same for a spec held in a string (unit tests). */
int spec_parse_string(struct cfs_spec *s, const char *name, const char *text,
		      const struct cfs_parse_opts *po, char **err);

/*
 * Normalise a spec path: relative, no "." or ".." components, no empty
 * components; repeated and trailing slashes are dropped. Returns a malloc'd
 * copy or NULL with *why set.
 */
char *spec_path_normalise(const char *in, const char **why);

/* The keyword of an operation, as written in a spec. */
const char *spec_op_name(enum cfs_op_type t);

/*
 * Print a value so that the spec lexer reads it back unchanged: bare when it
 * is made of safe characters only, else in double quotes with escapes.
 */
void spec_print_value(FILE *f, const char *v, size_t len);

#endif
