// SPDX-License-Identifier: GPL-2.0
/* profile.c: parse the declarations at the top of an autorun/NAME.sh profile. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hostmem.h"
#include "io.h"
#include "num.h"
#include "profile.h"
#include "conf.h"
#include "size.h"

/* Fragments may include fragments, this deep at most: a little nesting, no more. */
#define PROFILE_INCLUDE_DEPTH 4

/* The state of one profile_load: the profile and the files being read. */
struct loader {
	struct profile *p;
	char *incdir;		/* where "#@ include: NAME" looks: DIR/include/NAME.inc */
	const char *stack[PROFILE_INCLUDE_DEPTH + 1];	/* outermost (the profile) first */
	int depth;
	char **err;
};

static int load_file(struct loader *l, const char *from, int from_line, const char *name);

int profile_name_valid(const char *name)
{
	if (!*name)
		return 0;
	for (; *name; name++)
		if (!isalnum((unsigned char)*name) && *name != '_' && *name != '-')
			return 0;
	return 1;
}

int profile_program_name_valid(const char *name)
{
	if (!*name || *name == '.' || *name == '-')
		return 0;
	for (; *name; name++)
		if (!isalnum((unsigned char)*name) && !strchr("._+-", *name))
			return 0;
	return 1;
}

static void split_words(struct strv *sv, const char *s)
{
	while (*s) {
		size_t n;

		while (isspace((unsigned char)*s))
			s++;
		n = strcspn(s, " \t");
		if (n) {
			char *w = xstrndup(s, n);

			strv_push(sv, w);
			free(w);
		}
		s += n;
	}
}

/*
 * A secret must name a key the profile passes to the guest: a typo would
 * otherwise leave the real secret in an image anyone can read. conf lines
 * may follow, in the profile or a fragment; where each secret stands is
 * remembered and it is checked once the header is read.
 */
static int secret_lines(struct profile *p, const char *path, int lineno, size_t first, char **err)
{
	for (size_t i = first; i < p->secret.n; i++) {
		if (!conf_key_valid(p->secret.v[i]))
			return err_at(err, path, (unsigned int)lineno,
				      "secret: expected rapido.conf key names, got \"%s\"",
				      p->secret.v[i]);
		strv_pushf(&p->secret_at, "%s:%d", path, lineno);
	}
	return 0;
}

static int check_secrets(struct profile *p, char **err)
{
	for (size_t i = 0; i < p->secret.n; i++)
		if (!strv_contains(&p->conf, p->secret.v[i]) &&
		    !strv_contains(&p->conf_opt, p->secret.v[i])) {
			*err = xasprintf("%s: secret: %s is not a conf or conf-optional key of this profile",
					 p->secret_at.v[i], p->secret.v[i]);
			return -EINVAL;
		}
	/* a typed secret: a value its type refuses is not shown in the message either */
	for (size_t i = 0; i < p->types.n; i++)
		if (strv_contains(&p->secret, p->types.k[i].key))
			p->types.k[i].flags |= CONFKEY_SECRET;
	return 0;
}

/* A type is for a key the profile reads: a typo would type nothing and check nothing. */
static int check_types(const struct profile *p, char **err)
{
	struct strv keys = STRV_INIT;
	int rc = 0;

	profile_conf_keys(p, &keys);
	for (size_t i = 0; i < p->types.n && !rc; i++)
		if (!strv_contains(&keys, p->types.k[i].key)) {
			*err = xasprintf("%s: conf-type: %s is not a key of this profile (conf, "
					 "conf-optional, bins-if or ${KEY} of files)", p->types.at[i],
					 p->types.k[i].key);
			rc = -EINVAL;
		}
	/* the suite's keys reach the guest, which tells a missing suite by them */
	for (size_t i = 0; i < p->suite_keys.n && !rc; i++)
		if (!strv_contains(&p->conf_opt, p->suite_keys.v[i])) {
			*err = xasprintf("%s: suite: %s is not a conf-optional key of this profile",
					 p->suite_at, p->suite_keys.v[i]);
			rc = -EINVAL;
		}
	/* memory-use reads a uint the profile types: ./cut compares numbers */
	for (size_t i = 0; i < p->memory_use.n && !rc; i++) {
		char *k = xstrndup(p->memory_use.v[i], strcspn(p->memory_use.v[i], "="));
		const struct confkey *t = confkey_types_find(&p->types, k, NULL);

		if (!t || t->kind != CONFKEY_UINT) {
			*err = xasprintf("%s: memory-use: %s has no conf-type uint in this profile",
					 p->memory_use_at.v[i], k);
			rc = -EINVAL;
		}
		free(k);
	}
	strv_free(&keys);
	return rc;
}

/*
 * A kconfig entry: CONFIG_NAME or CONFIG_NAME=VALUE. A needed symbol
 * (#@ kconfig) cannot be asked off: ./cut checks that it is there.
 */
static int kconfig_entry(struct loader *l, const char *path, int lineno, const char *key,
			 const char *w)
{
	size_t n = strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");

	if (strncmp(w, "CONFIG_", 7) || n <= 7 || (w[n] && (w[n] != '=' || !w[n + 1])))
		return err_at(l->err, path, (unsigned int)lineno,
			      "%s: expected CONFIG_NAME or CONFIG_NAME=VALUE, got \"%s\"", key, w);
	if (!strcmp(key, "kconfig") && !strcmp(w + n, "=n"))
		return err_at(l->err, path, (unsigned int)lineno,
			      "kconfig: %s: a needed symbol cannot be off (kconfig-optional sets it "
			      "for make kernel-config without ./cut checking it)", w);
	return 0;
}

/*
 * "${KEY}/sub:/dest", "rel/path:/dest" or "/abs:/dest": split once, here,
 * so that ./cut and every reader of the keys a profile names agree.
 */
static int file_entry(struct profile *p, const char *path, int lineno, const char *w, char **err)
{
	const char *rest = w, *colon = strrchr(w, ':');
	struct profile_file *f;
	char *key = NULL;

	if (!strncmp(w, "${", 2)) {
		const char *end = strchr(w, '}');

		if (!end)
			return err_at(err, path, (unsigned int)lineno,
				      "files: \"%s\": ${ without its }", w);
		key = xstrndup(w + 2, (size_t)(end - w - 2));
		if (!conf_key_valid(key)) {
			err_at(err, path, (unsigned int)lineno,
			       "files: \"%s\": expected a rapido.conf key name in ${...}", w);
			free(key);
			return -EINVAL;
		}
		rest = end + 1;
	}
	if (!colon || colon < rest || colon[1] != '/' || colon == w) {
		free(key);
		return err_at(err, path, (unsigned int)lineno,
			      "files: \"%s\" is not SRC:/DEST (DEST absolute)", w);
	}
	p->files = xrealloc(p->files, (p->n_files + 1) * sizeof(*p->files));
	f = &p->files[p->n_files++];
	f->key = key;
	f->path = xstrndup(rest, (size_t)(colon - rest));
	f->dest = xstrdup(colon + 1);
	return 0;
}

/* One "#@ key: value" line being read. */
struct hdr_line {
	const char *path;
	int lineno;
	const char *key;	/* as written, "bins-if KEY" whole */
	const char *arg;	/* a keyed row's KEY; NULL: none */
	char *val;
};

static int prepare_line(struct loader *l, const struct hdr_line *h)
{
	struct profile *p = l->p;

	if (p->prepare_key)
		return err_at(l->err, h->path, (unsigned int)h->lineno,
			      "prepare: a profile prepares one key (%s at %s)", p->prepare_key,
			      p->prepare_at);
	split_words(&p->prepare, h->val);
	if (!p->prepare.n)
		return err_at(l->err, h->path, (unsigned int)h->lineno, "prepare %s: no program given",
			      h->arg);
	p->prepare_key = xstrdup(h->arg);
	p->prepare_at = xasprintf("%s:%d", h->path, h->lineno);
	return 0;
}

/* files and include: each word of the value on its own */
static int files_line(struct loader *l, const struct hdr_line *h)
{
	struct strv words = STRV_INIT;
	int rc = 0;

	split_words(&words, h->val);
	for (size_t i = 0; i < words.n && !rc; i++)
		rc = h->key[0] == 'f' ? file_entry(l->p, h->path, h->lineno, words.v[i], l->err) :
					load_file(l, h->path, h->lineno, words.v[i]);
	strv_free(&words);
	return rc;
}

static int secret_words(struct loader *l, const struct hdr_line *h, size_t first)
{
	return secret_lines(l->p, h->path, h->lineno, first, l->err);
}

static int packages_words(struct loader *l, const struct hdr_line *h, size_t first)
{
	const struct strv *list = &l->p->packages;

	for (size_t i = first; i < list->n; i++) {
		const char *eq = strchr(list->v[i], '=');

		if (!eq || eq == list->v[i] || !eq[1])
			return err_at(l->err, h->path, (unsigned int)h->lineno,
				      "packages: expected BIN=PACKAGE, got \"%s\"", list->v[i]);
	}
	return 0;
}

/*
 * A shell program is asked of busybox by its name (an applet) before the
 * host's PATH: a path or a name busybox could not have is refused here,
 * not left to miss both quietly
 */
static int shell_bins_words(struct loader *l, const struct hdr_line *h, size_t first)
{
	const struct strv *list = &l->p->shell_bins;

	for (size_t i = first; i < list->n; i++)
		if (!profile_program_name_valid(list->v[i]))
			return err_at(l->err, h->path, (unsigned int)h->lineno,
				      "shell-bins: expected a program name (a busybox applet or a "
				      "program in the host's PATH: letters, digits, '.', '_', '+' "
				      "and '-', not a path), got \"%s\"", list->v[i]);
	return 0;
}

static int kconfig_words(struct loader *l, const struct hdr_line *h, size_t first)
{
	int opt = !!strcmp(h->key, "kconfig");
	struct strv *list = opt ? &l->p->kconfig_opt : &l->p->kconfig;
	struct strv *at = opt ? &l->p->kconfig_opt_at : &l->p->kconfig_at;

	for (size_t i = first; i < list->n; i++) {
		int rc = kconfig_entry(l, h->path, h->lineno, h->key, list->v[i]);

		if (rc)
			return rc;
		strv_pushf(at, "%s:%d", h->path, h->lineno);
	}
	return 0;
}

static int conf_type_line(struct loader *l, const struct hdr_line *h)
{
	struct profile *p = l->p;
	struct confkey k;
	char *why, *at;

	if (confkey_type_parse(h->val, &k, &why)) {
		err_at(l->err, h->path, (unsigned int)h->lineno, "conf-type: %s", why);
		free(why);
		return -EINVAL;
	}
	if (confkey_types_find(&p->types, k.key, NULL)) {
		err_at(l->err, h->path, (unsigned int)h->lineno, "conf-type: %s is typed twice", k.key);
		confkey_type_free(&k);
		return -EINVAL;
	}
	at = xasprintf("%s:%d", h->path, h->lineno);
	confkey_types_add(&p->types, &k, at);
	free(at);
	return 0;
}

static int description_line(struct loader *l, const struct hdr_line *h)
{
	if (l->depth)
		return err_at(l->err, h->path, (unsigned int)h->lineno,
			      "description: belongs in the profile, not in a fragment it includes");
	free(l->p->description);
	l->p->description = xstrdup(h->val);
	return 0;
}

/* suite: KEY[/KEY...] NAME: WITHOUT */
static int suite_line(struct loader *l, const struct hdr_line *h)
{
	struct profile *p = l->p;
	const char *val = h->val, *name = val + strcspn(val, " \t"), *colon = strchr(val, ':');
	char *keys = xstrndup(val, (size_t)(name - val)), *k, *save;
	int bad = 0;

	if (p->suite_at) {
		free(keys);
		return err_at(l->err, h->path, (unsigned int)h->lineno,
			      "suite: a profile drives one suite (the first at %s)", p->suite_at);
	}
	name += strspn(name, " \t");
	for (k = strtok_r(keys, "/", &save); k && !bad; k = strtok_r(NULL, "/", &save)) {
		bad = !conf_key_valid(k);
		strv_push(&p->suite_keys, k);
	}
	free(keys);
	/* each part said: the cut's notice is built of them */
	if (bad || !p->suite_keys.n || !colon || colon < name || colon == name ||
	    !colon[1 + strspn(colon + 1, " \t")]) {
		strv_free(&p->suite_keys);
		return err_at(l->err, h->path, (unsigned int)h->lineno,
			      "suite: expected KEY[/KEY...] NAME: WHAT THE IMAGE DOES WITHOUT IT "
			      "(FSTESTS_SRC xfstests: a shell ...), got \"%s\"", val);
	}
	p->suite_name = xstrndup(name, (size_t)(colon - name));
	p->suite_without = xstrdup(colon + 1 + strspn(colon + 1, " \t"));
	p->suite_at = xasprintf("%s:%d", h->path, h->lineno);
	return 0;
}

static int memory_use_line(struct loader *l, const struct hdr_line *h)
{
	struct strv words = STRV_INIT;
	char why[NUM_WHY_LEN];
	unsigned int factor;
	int bad;

	split_words(&words, h->val);
	bad = words.n != 2 || !conf_key_valid(words.v[0]);
	if (bad || num_parse_uint(words.v[1], 1, 64, &factor, why)) {
		*l->err = xasprintf("%s:%d: memory-use: expected a rapido.conf key and a factor of 1 "
				    "to 64 (ZONED_SIZE 2), got \"%s\"", h->path, h->lineno, h->val);
		strv_free(&words);
		return -EINVAL;
	}
	strv_pushf(&l->p->memory_use, "%s=%u", words.v[0], factor);
	strv_pushf(&l->p->memory_use_at, "%s:%d", h->path, h->lineno);
	strv_free(&words);
	return 0;
}

static int virtiofs_line(struct loader *l, const struct hdr_line *h)
{
	const char *val = h->val, *tag = strchr(val, ':');
	struct profile *p = l->p;

	/* ./vm checks the rest (the directory, the tag's characters) when it boots */
	if (val[0] != '/' || !tag || tag[1] == ':' || !tag[1] || strpbrk(val, " \t")) {
		*l->err = xasprintf("%s:%d: virtiofs: expected /DIR:TAG or /DIR:TAG:ro, got \"%s\"",
				    h->path, h->lineno, val);
		return -EINVAL;
	}
	/* ./vm reads one (vm.conf's VIRTIOFS); more shares are the user's to give */
	if (p->virtiofs.n) {
		*l->err = xasprintf("%s:%d: virtiofs: a second share; a profile has one (\"%s\" "
				    "already), more are ./vm --virtiofs or VM_VIRTIOFS",
				    h->path, h->lineno, p->virtiofs.v[0]);
		return -EINVAL;
	}
	strv_push(&p->virtiofs, val);
	return 0;
}

static int memory_line(struct loader *l, const struct hdr_line *h)
{
	char host[HOSTMEM_WHY_LEN];
	uint64_t v;

	if (parse_size(h->val, &v) || v < (64ULL << 20)) {
		*l->err = xasprintf("%s:%d: memory: expected a size of at least 64M such as 512M or 2G, "
				    "got \"%s\"", h->path, h->lineno, h->val);
		return -EINVAL;
	}
	if (hostmem_check(v, host)) {
		*l->err = xasprintf("%s:%d: memory: \"%s\" is %s", h->path, h->lineno, h->val, host);
		return -EINVAL;
	}
	l->p->memory = v;
	return 0;
}

/* How a key's value is read: words into a list, yes or no, a number, or its own reader. */
enum hdr_kind { HDR_LIST, HDR_YESNO, HDR_UINT, HDR_FN };

#define PF(field) offsetof(struct profile, field)
/*
 * Every header key, one row each, in the order the unknown-key message
 * names them. A keyed row ("bins-if KEY") takes a rapido.conf key after its
 * name; a keyed list holds "KEY=word" entries.
 */
static const struct hdr_key {
	const char *name;
	enum hdr_kind kind;
	size_t off;		/* LIST: a struct strv; YESNO: an int; UINT: an unsigned int */
	int keyed;
	unsigned int max;	/* UINT: 1 to max */
	const char *unit;	/* UINT: said after its error */
	int (*line)(struct loader *l, const struct hdr_line *h);	/* FN */
	/* LIST: checks the words the line added, from first */
	int (*words)(struct loader *l, const struct hdr_line *h, size_t first);
} hdr_keys[] = {
	{ "description", HDR_FN, .line = description_line },
	{ "bins", HDR_LIST, .off = PF(bins) },
	{ "bins-optional", HDR_LIST, .off = PF(bins_opt) },
	{ "bins-if", HDR_LIST, .off = PF(bins_if), .keyed = 1 },
	{ "bins-optional-if", HDR_LIST, .off = PF(bins_opt_if), .keyed = 1 },
	{ "shell-bins", HDR_LIST, .off = PF(shell_bins), .words = shell_bins_words },
	{ "modules", HDR_LIST, .off = PF(modules) },
	{ "modules-optional", HDR_LIST, .off = PF(modules_opt) },
	{ "modules-on-demand", HDR_LIST, .off = PF(modules_demand) },
	{ "helpers", HDR_LIST, .off = PF(helpers) },
	{ "conf", HDR_LIST, .off = PF(conf) },
	{ "conf-optional", HDR_LIST, .off = PF(conf_opt) },
	{ "conf-type", HDR_FN, .line = conf_type_line },
	{ "secret", HDR_LIST, .off = PF(secret), .words = secret_words },
	{ "kconfig", HDR_LIST, .off = PF(kconfig), .words = kconfig_words },
	{ "kconfig-optional", HDR_LIST, .off = PF(kconfig_opt), .words = kconfig_words },
	{ "files", HDR_FN, .line = files_line },
	{ "include", HDR_FN, .line = files_line },
	{ "packages", HDR_LIST, .off = PF(packages), .words = packages_words },
	{ "kernel-config", HDR_YESNO, .off = PF(kernel_config) },
	{ "prepare", HDR_FN, .keyed = 1, .line = prepare_line },
	{ "cpus", HDR_UINT, .off = PF(cpus), .max = 1024, .unit = "" },
	{ "memory", HDR_FN, .line = memory_line },
	{ "memory-use", HDR_FN, .line = memory_use_line },
	/* VM_TEST_TIMEOUT's range; 0 (no watchdog) is saying nothing */
	{ "test-timeout", HDR_UINT, .off = PF(test_timeout), .max = PROFILE_TEST_TIMEOUT_MAX,
	  .unit = " (seconds)" },
	{ "virtiofs", HDR_FN, .line = virtiofs_line },
	{ "results", HDR_YESNO, .off = PF(results) },
	{ "suite", HDR_FN, .line = suite_line },
};

/* The row of key (a keyed row's "NAME KEY": *arg its KEY, else NULL), or NULL. */
static const struct hdr_key *hdr_key_find(const char *key, const char **arg)
{
	for (size_t i = 0; i < sizeof(hdr_keys) / sizeof(hdr_keys[0]); i++) {
		const struct hdr_key *k = &hdr_keys[i];
		size_t n = strlen(k->name);

		if (strncmp(key, k->name, n) || key[n] != (k->keyed ? ' ' : '\0'))
			continue;
		*arg = NULL;
		if (k->keyed)
			for (*arg = key + n; **arg == ' '; (*arg)++)
				;
		return k;
	}
	return NULL;
}

static int unknown_key(struct loader *l, const struct hdr_line *h)
{
	char *known = xstrdup("");

	for (size_t i = 0; i < sizeof(hdr_keys) / sizeof(hdr_keys[0]); i++) {
		const struct hdr_key *r = &hdr_keys[i];
		char *k = xasprintf("%s%s%s%s", known, i ? ", " : "", r->name,
				    !r->keyed ? "" : r->kind == HDR_LIST ? " KEY[=VALUE]" : " KEY");

		free(known);
		known = k;
	}
	*l->err = xasprintf("%s:%d: unknown profile key \"%s\" (known: %s)", h->path, h->lineno,
			    h->key, known);
	free(known);
	return -EINVAL;
}

static int header_line(struct loader *l, const char *path, int lineno, char *s)
{
	char *colon = strchr(s, ':'), *key, *val;
	const struct hdr_key *k;
	struct hdr_line h = { .path = path, .lineno = lineno };
	char why[NUM_WHY_LEN], *want = NULL;
	void *field;

	if (!colon) {
		*l->err = xasprintf("%s:%d: expected '#@ key: value'", path, lineno);
		return -EINVAL;
	}
	*colon = '\0';
	key = s;
	while (isspace((unsigned char)*key))
		key++;
	for (char *e = colon - 1; e >= key && isspace((unsigned char)*e); e--)
		*e = '\0';
	val = colon + 1;
	while (isspace((unsigned char)*val))
		val++;
	for (char *e = val + strlen(val); e > val && isspace((unsigned char)e[-1]);)
		*--e = '\0';
	h.key = key;
	h.val = val;

	k = hdr_key_find(key, &h.arg);
	if (!k)
		return unknown_key(l, &h);
	/* a keyed list's KEY=VALUE: only when rapido.conf sets KEY to VALUE (FSTESTS_FS=f2fs) */
	if (k->keyed && k->kind == HDR_LIST) {
		want = strchr(h.arg, '=');
		if (want)
			*want++ = '\0';
	}
	if (k->keyed && !conf_key_valid(h.arg))
		return err_at(l->err, path, (unsigned int)lineno,
			      "%s: expected a rapido.conf key name%s after '%s'", key,
			      k->kind == HDR_LIST ? " (or KEY=VALUE)" : "", k->name);
	if (want && (!*want || strpbrk(want, "= \t\"'$\\")))
		return err_at(l->err, path, (unsigned int)lineno,
			      "%s: expected a value after %s= (no blanks, quotes, $ or =)", key, h.arg);
	field = (char *)l->p + k->off;
	switch (k->kind) {
	case HDR_LIST: {
		struct strv *list = field, words = STRV_INIT;
		size_t first = list->n;

		if (!k->keyed) {
			split_words(list, val);
			return k->words ? k->words(l, &h, first) : 0;
		}
		split_words(&words, val);
		for (size_t i = 0; i < words.n; i++) {
			/* the entry is KEY[=VALUE]=BIN: BIN is after the last '=' */
			if (strchr(words.v[i], '=')) {
				err_at(l->err, path, (unsigned int)lineno,
				       "%s: \"%s\" is not a program name", key, words.v[i]);
				strv_free(&words);
				return -EINVAL;
			}
			if (want)
				strv_pushf(list, "%s=%s=%s", h.arg, want, words.v[i]);
			else
				strv_pushf(list, "%s=%s", h.arg, words.v[i]);
		}
		strv_free(&words);
		return 0;
	}
	case HDR_YESNO:
		if (strcmp(val, "yes") && strcmp(val, "no"))
			return err_at(l->err, path, (unsigned int)lineno,
				      "%s: expected yes or no, got \"%s\"", key, val);
		*(int *)field = !strcmp(val, "yes");
		return 0;
	case HDR_UINT:
		if (num_parse_uint(val, 1, k->max, field, why)) {
			*l->err = xasprintf("%s:%d: %s: %s%s", path, lineno, key, why, k->unit);
			return -EINVAL;
		}
		return 0;
	case HDR_FN:
		break;
	}
	return k->line(l, &h);
}

/* Walk TEXT (modified) of PATH: every "#@" line is a header line. */
static int parse_text(struct loader *l, const char *path, char *text)
{
	char *line, *save = NULL;
	int lineno = 0, rc = 0;

	/* strtok_r would merge empty lines and miscount; walk by hand */
	for (line = text; line && *line; line = save) {
		char *nl = strchr(line, '\n');

		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		lineno++;
		if (strncmp(line, "#@", 2))
			continue;
		rc = header_line(l, path, lineno, line + 2);
		if (rc)
			break;
	}
	return rc;
}

/* A profile or a fragment: a regular file of at most PROFILE_FILE_MAX; *why for a message */
static int profile_read(const char *path, char **text, const char **why)
{
	struct stat st;
	int rc = read_regular_file(path, 0, PROFILE_FILE_MAX, text, NULL, &st);

	if (rc)
		*why = rc == -EFBIG ? "larger than 1 MiB (PROFILE_FILE_MAX): not a profile" :
				      file_strerror(rc, &st);
	return rc;
}

/* Read the fragment NAME that FROM:FROM_LINE includes, in its place. */
static int load_file(struct loader *l, const char *from, int from_line, const char *name)
{
	const char *why;
	char *path, *text;
	int rc;

	if (!profile_name_valid(name))
		return err_at(l->err, from, (unsigned int)from_line,
			      "include: \"%s\" is not a fragment name (letters, digits, '-' "
			      "and '_': the file %s/NAME.inc)", name, l->incdir);
	path = xasprintf("%s/%s.inc", l->incdir, name);
	for (int i = 0; i <= l->depth; i++) {
		char *chain;

		if (strcmp(l->stack[i], path))
			continue;
		chain = xstrdup("");
		for (int j = i; j <= l->depth; j++) {
			const char *slash = strrchr(l->stack[j], '/');
			char *c = xasprintf("%s%s -> ", chain, slash ? slash + 1 : l->stack[j]);

			free(chain);
			chain = c;
		}
		rc = err_at(l->err, from, (unsigned int)from_line,
			    "include: %s: an include cycle: %s%s.inc", name, chain, name);
		free(chain);
		free(path);
		return rc;
	}
	if (l->depth == PROFILE_INCLUDE_DEPTH) {
		rc = err_at(l->err, from, (unsigned int)from_line,
			    "include: %s: fragments nest more than %d deep", name, PROFILE_INCLUDE_DEPTH);
		free(path);
		return rc;
	}
	rc = profile_read(path, &text, &why);
	if (rc) {
		err_at(l->err, from, (unsigned int)from_line, "include: %s: %s: %s", name, path, why);
		free(path);
		return rc;
	}
	strv_push(&l->p->sources, path);
	l->stack[++l->depth] = path;
	rc = parse_text(l, path, text);
	l->depth--;
	free(text);
	free(path);
	return rc;
}

int profile_parse(struct profile *p, const char *name, const char *path, const char *text,
		  char **err)
{
	const char *slash = strrchr(path, '/');
	struct loader l = { .p = p, .err = err };
	char *copy = xstrdup(text);
	int rc;

	memset(p, 0, sizeof(*p));
	*err = NULL;
	p->name = xstrdup(name);
	p->path = xstrdup(path);
	strv_push(&p->sources, path);
	l.incdir = slash ? xasprintf("%.*s/include", (int)(slash - path), path) : xstrdup("include");
	l.stack[0] = p->path;
	rc = parse_text(&l, p->path, copy);
	free(copy);
	free(l.incdir);
	if (!rc)
		rc = check_secrets(p, err);
	if (!rc)
		rc = check_types(p, err);
	if (!rc && !p->description) {
		*err = xasprintf("%s: no '#@ description:' line", path);
		rc = PROFILE_ENODESC;
	}
	if (rc)
		profile_free(p);
	return rc;
}

int profile_load(struct profile *p, const char *name, const char *path, char **err)
{
	const char *why;
	char *text;
	int rc;

	memset(p, 0, sizeof(*p));
	*err = NULL;
	rc = profile_read(path, &text, &why);
	if (rc) {
		*err = xasprintf("%s: %s", path, why);
		return rc;
	}
	rc = profile_parse(p, name, path, text, err);
	free(text);
	return rc;
}

static void push_key(struct strv *out, const char *key)
{
	if (!strv_contains(out, key))
		strv_push(out, key);
}

void profile_conf_keys(const struct profile *p, struct strv *out)
{
	const struct strv *lists[] = { &p->conf, &p->conf_opt };
	const struct strv *cond[] = { &p->bins_if, &p->bins_opt_if };

	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; i < lists[l]->n; i++)
			push_key(out, lists[l]->v[i]);
	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; i < cond[l]->n; i++) {
			char *key = xstrndup(cond[l]->v[i], strcspn(cond[l]->v[i], "="));

			push_key(out, key);
			free(key);
		}
	for (size_t i = 0; i < p->n_files; i++)
		if (p->files[i].key)
			push_key(out, p->files[i].key);
	if (p->prepare_key)
		push_key(out, p->prepare_key);
}

const char *profile_package(const struct profile *p, const char *bin)
{
	size_t len = strlen(bin);

	for (size_t i = 0; i < p->packages.n; i++)
		if (!strncmp(p->packages.v[i], bin, len) && p->packages.v[i][len] == '=')
			return p->packages.v[i] + len + 1;
	return NULL;
}

char *packages_table_lookup(const char *text, const char *bin)
{
	size_t blen = strlen(bin);

	if (!blen)
		return NULL;
	for (const char *l = text; *l; l += strcspn(l, "\n"), l += *l == '\n') {
		const char *pkg;
		size_t n;

		if (*l == '#' || strncmp(l, bin, blen) || (l[blen] != ' ' && l[blen] != '\t'))
			continue;
		pkg = l + blen + strspn(l + blen, " \t");
		/* A|B: A is this release's name, B an older one's */
		n = strcspn(pkg, " \t\n|");
		return n ? xstrndup(pkg, n) : NULL;
	}
	return NULL;
}

void profile_free(struct profile *p)
{
	free(p->name);
	free(p->path);
	free(p->description);
	strv_free(&p->bins);
	strv_free(&p->virtiofs);
	strv_free(&p->bins_opt);
	strv_free(&p->bins_if);
	strv_free(&p->bins_opt_if);
	strv_free(&p->shell_bins);
	strv_free(&p->modules);
	strv_free(&p->modules_opt);
	strv_free(&p->modules_demand);
	strv_free(&p->helpers);
	strv_free(&p->conf);
	strv_free(&p->conf_opt);
	strv_free(&p->secret);
	strv_free(&p->secret_at);
	strv_free(&p->kconfig);
	strv_free(&p->kconfig_at);
	strv_free(&p->kconfig_opt);
	strv_free(&p->kconfig_opt_at);
	strv_free(&p->sources);
	free(p->prepare_key);
	free(p->prepare_at);
	strv_free(&p->suite_keys);
	free(p->suite_name);
	free(p->suite_without);
	free(p->suite_at);
	strv_free(&p->prepare);
	strv_free(&p->packages);
	strv_free(&p->memory_use);
	strv_free(&p->memory_use_at);
	for (size_t i = 0; i < p->n_files; i++) {
		free(p->files[i].key);
		free(p->files[i].path);
		free(p->files[i].dest);
	}
	free(p->files);
	confkey_types_free(&p->types);
	memset(p, 0, sizeof(*p));
}

/*
 * types_have: TYPES already holds KEY typed at AT (FILE:LINE). A type from
 * an include (#@ include: nfs) comes once for every profile that reads it;
 * kept once, a bad value is one error, not one per profile
 */
static bool types_have(const struct confkey_types *types, const char *key, const char *at)
{
	for (size_t i = 0; i < types->n; i++)
		if (!strcmp(types->k[i].key, key) && !strcmp(types->at[i], at))
			return true;
	return false;
}

int profile_dir_conf_keys(const char *dir, struct strv *out, struct confkey_types *types)
{
	struct strv names = STRV_INIT;
	int rc = strv_list_dir(&names, dir, ".sh");

	if (rc)
		return rc;
	for (size_t i = 0; i < names.n; i++) {
		char *path = xasprintf("%s/%s", dir, names.v[i]);
		char *name = xstrndup(names.v[i], strlen(names.v[i]) - 3);
		struct profile p;
		char *err;

		if (!profile_load(&p, name, path, &err)) {
			profile_conf_keys(&p, out);
			for (size_t j = 0; types && j < p.types.n; j++)
				if (!types_have(types, p.types.k[j].key, p.types.at[j]))
					confkey_types_add(types, &p.types.k[j], p.types.at[j]);
			for (size_t j = 0; types && j < p.secret.n; j++)
				if (!strv_contains(&types->secret, p.secret.v[j]))
					strv_push(&types->secret, p.secret.v[j]);
			profile_free(&p);
		}
		free(err);
		free(name);
		free(path);
	}
	strv_free(&names);
	return 0;
}
