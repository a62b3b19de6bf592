// SPDX-License-Identifier: GPL-2.0
/*
 * checkconf.c: ./cut --check-conf, a linter for rapido.conf: which file is
 * read, every value in effect with where it came from, unknown keys with the
 * nearest known one, and values ./vm would refuse, all at once instead of
 * one die() per boot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "confget.h"
#include "conftype.h"
#include "cut.h"
#include "err.h"
#include "rapido.h"

/* Resolve KEY as the programs do (the environment's value, else the file's, else the default). */
static int check_value(const struct conf *c, const char *key)
{
	struct conf_value v;
	char *err;

	if (conf_resolve(c, key, &v, &err) >= 0)
		return 0;
	fprintf(stderr, "%s\n", err);
	free(err);
	return 1;
}

int cut_check_conf(void)
{
	struct strv known = STRV_INIT, typed = STRV_INIT;
	struct confkey_types types = { 0 };
	struct conf c;
	char *path, *dir, *err;
	int errors = 0;

	memset(&c, 0, sizeof(c));
	c.env_override = 1;
	dir = xasprintf("%s/autorun", cut_rapido_dir());	/* for the message */
	path = rapido_conf_path();
	if (path && conf_load(&c, path, &err)) {
		fprintf(stderr, "%s\n", err);
		free(err);
		errors++;
		goto out;
	}
	if (rapido_profile_conf_keys(&known, &types))
		warn("cannot list %s: keys only profiles read are reported as unknown", dir);
	printf("# %s\n", path ? path : "no rapido.conf found: defaults and environment only");

	for (size_t i = 0; i < c.n; i++) {
		const struct conf_entry *e = &c.e[i];
		char *near;

		if (!e->origin)
			continue;
		printf("%s=%s\t# %s\n", e->key,
		       confkey_shown(e->key, conf_value(&c, e->key, NULL), &types.secret),
		       conf_origin(&c, e->key));
		if (confkeys_known(e->key, &known)) {
			errors += check_value(&c, e->key);
			continue;
		}
		if (e->used)
			continue;	/* a helper key later lines expand */
		near = confkeys_suggest(e->key, &known);
		fprintf(stderr, "%s: unknown key %s: no program or profile reads it%s%s%s\n",
			e->origin, e->key, near ? " (did you mean " : "", near ? near : "",
			near ? "?)" : "");
		free(near);
		errors++;
	}
	/* keys set only in the environment count as much as the file's */
	for (size_t i = 0; confkeys[i].key; i++) {
		const char *k = confkeys[i].key, *v = getenv(k);
		int in_file = 0;

		if (strchr(k, '#') || !v)
			continue;
		for (size_t j = 0; j < c.n; j++)
			in_file |= c.e[j].origin && !strcmp(c.e[j].key, k);
		if (in_file)
			continue;
		printf("%s=%s\t# environment\n", k, confkey_shown(k, v, &types.secret));
		errors += check_value(&c, k);
	}
	/* the profiles' own keys, typed in their headers: checked as ./cut PROFILE will */
	errors += (int)confkey_types_check(&c, &types, &typed);
	for (size_t i = 0; i < typed.n; i++)
		fprintf(stderr, "%s\n", typed.v[i]);
out:
	if (errors)
		fprintf(stderr, "cut: --check-conf: %d error%s\n", errors, errors == 1 ? "" : "s");
	conf_free(&c);
	strv_free(&known);
	strv_free(&typed);
	confkey_types_free(&types);
	free(path);
	free(dir);
	return errors ? 1 : 0;
}
