// SPDX-License-Identifier: GPL-2.0
/*
 * lookup.c: how ./vm looks a value up (lookup.h): the option if given,
 * else the key from the environment or rapido.conf through its confkeys[]
 * entry (confget.h), else the table's default; its source goes with it, so
 * every error names the option, the FILE:LINE or the environment, and says
 * what the table allows. settings.c and the devices resolve through it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "confget.h"
#include "num.h"
#include "err.h"
#include "lookup.h"
#include "options.h"

const char *vm_src_str(const struct vm_src *s, char *buf, size_t len)
{
	switch (s->kind) {
	case SRC_OPTION:
		snprintf(buf, len, "%s", s->name);
		break;
	case SRC_ENV:
		snprintf(buf, len, "environment: %s", s->name);
		break;
	case SRC_FILE:
		snprintf(buf, len, "%s: %s", s->file, s->name);
		break;
	case SRC_IMAGE:
		snprintf(buf, len, "profile %s", s->name);
		break;
	default:
		snprintf(buf, len, "default");
		break;
	}
	return buf;
}

/* The source of a resolved value: the option, the file's line, the environment or the default. */
static void value_src(const struct conf_value *v, struct vm_src *src)
{
	memset(src, 0, sizeof(*src));
	src->name = v->key;
	if (!v->set) {
		src->kind = SRC_DEFAULT;
	} else if (!strcmp(v->origin, "environment")) {
		src->kind = SRC_ENV;
	} else {
		src->kind = SRC_FILE;
		src->file = v->origin;	/* FILE:LINE */
	}
}

/*
 * The one lookup: the option's value if given, else KEY resolved through
 * confkeys[] (its value, else its default), either checked against KEY's
 * kind there; a value the table refuses dies naming its source. Returns
 * the value's text, NULL when KEY is unset and has no default; v holds it
 * parsed (v->n, v->word, v->addr).
 */
const char *vm_setting(const struct conf *c, const char *opt, const char *optval,
			   const char *key, struct vm_src *src, struct conf_value *v)
{
	const struct confkey *k = confkey_find(key);
	char *err;

	if (!k)
		die("internal error: %s is not in confkeys[]", key);
	if (optval) {
		memset(src, 0, sizeof(*src));
		src->kind = SRC_OPTION;
		src->name = opt;
		memset(v, 0, sizeof(*v));
		v->key = key;
		v->set = 1;
		v->origin = opt;
		if (confkey_parse(k, optval, v, &err))
			die("%s: %s", opt, err);
		return optval;
	}
	if (conf_resolve_as(c, k, key, v, &err) < 0)
		die("%s", err);
	value_src(v, src);
	return v->text;
}

noreturn void vm_die_src(const struct vm_src *src, const char *fmt, const char *v)
{
	char where[512];

	die("%s: %s, got '%s'", vm_src_str(src, where, sizeof(where)), fmt, v);
}

/* A number in the range confkeys[] gives KEY: one range for ./vm and --check-conf. */
unsigned int vm_number(const struct conf *c, const char *opt, const char *optval,
			   const char *key, struct vm_src *src)
{
	struct conf_value v;

	vm_setting(c, opt, optval, key, src, &v);
	return (unsigned int)v.n;
}

const char *vm_opt_setting(const struct conf *c, const struct vm_opts *o, const char *key,
			   struct vm_src *src, struct conf_value *v)
{
	const struct vm_option *r = vm_option_by_key(vm_options, key);

	if (!r)
		die("internal error: no ./vm option overrides %s", key);
	return vm_setting(c, r->name, vm_option_given(vm_options, r, o), key, src, v);
}

unsigned int vm_opt_number(const struct conf *c, const struct vm_opts *o, const char *key,
			   struct vm_src *src)
{
	struct conf_value v;

	vm_opt_setting(c, o, key, src, &v);
	return (unsigned int)v.n;
}

/* KEY's words, appended to out */
void vm_split(const struct conf *c, const char *key, struct strv *out)
{
	char *err;

	if (conf_words(c, key, out, NULL, &err) < 0)
		die("%s", err);
}

/* HOST:PORT for qemu's -netdev/-gdb, where a comma would start another option. */
void vm_hostport_or_die(const char *opt, const char *v, char **host, unsigned int *port)
{
	char why[NUM_WHY_LEN];

	if (num_parse_hostport(v, host, port, why))
		die("%s: %s", opt, why);
	if (strchr(v, ',')) {
		free(*host);
		die("%s: '%s' contains a comma, which qemu would read as another option", opt, v);
	}
}
