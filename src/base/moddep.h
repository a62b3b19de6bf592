/* SPDX-License-Identifier: GPL-2.0 */
/*
 * moddep.h: a module directory's modules.dep, modules.softdep,
 * modules.alias and modules.builtin, and the walk modprobe and dracut both
 * make over them: a module's pre softdeps, its dependencies, itself, its
 * post softdeps. ./cut writes the modules layer from it (kmods.c) and the
 * guest init loads the profile's modules by it without a modprobe per list.
 */
#ifndef RAPIDO_MODDEP_H
#define RAPIDO_MODDEP_H

#include <stddef.h>

#include "strv.h"

struct moddep_mod {
	char *name;	/* normalised: '-' -> '_' */
	char *path;	/* as modules.dep names it: relative to the module directory */
	char *deps;	/* the rest of its line: paths, blank separated (into the text) */
	int seen;	/* scratch for a walk */
};

struct moddep_soft {
	char *name;	/* normalised */
	struct strv pre, post;
};

struct moddep {
	char *text;			/* modules.dep, cut up in place */
	struct moddep_mod *v;
	size_t n;
	size_t *hash, hcap;		/* open addressing on names: index + 1, 0 free */
	struct moddep_soft *soft;	/* modules.softdep */
	size_t nsoft;
	char *alias_text;		/* modules.alias, parsed in place on the first lookup that needs it */
	int alias_parsed;
	char **alias_pat, **alias_mod;	/* its patterns (normalised) and modules, into alias_text */
	size_t nalias;
	struct strv builtin;		/* modules.builtin names */
};

/*
 * Parse the texts (modules.softdep, modules.alias, modules.builtin may be
 * NULL); dep is taken over (freed by moddep_free), the others are copied.
 * 0, or -EINVAL for a line modules.dep would never hold.
 */
int moddep_parse(struct moddep *d, char *dep, const char *softdep, const char *alias,
		 const char *builtin);
/* Read and parse them from the module directory moddir; -errno of modules.dep. */
int moddep_read(struct moddep *d, const char *moddir);
void moddep_free(struct moddep *d);

/* Normalise a module name in place: '-' -> '_'. */
void module_name_normalise(char *s);

/* The module NAME ('-' or '_'), or -1. */
long moddep_find(const struct moddep *d, const char *name);

/*
 * Append to order (indexes into d->v) what loading names loads, in load
 * order; each module once, over any number of calls until moddep_reset.
 * Softdeps and aliases resolve as kmod does: the module of that name, else
 * every module a modules.alias pattern matching it names. A name that is
 * neither loadable nor built in is appended to missing (when not NULL);
 * a softdep that resolves to nothing is not (modprobe ignores it).
 */
void moddep_walk(struct moddep *d, const char *const *names, size_t n, size_t **order,
		 size_t *norder, struct strv *missing);
/* Forget what the walks saw. */
void moddep_reset(struct moddep *d);

#endif
