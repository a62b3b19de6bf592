// SPDX-License-Identifier: GPL-2.0
/* moddep.c: a module directory's dependency lists and the walk over them (moddep.h). */
#include <errno.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hash.h"
#include "io.h"
#include "moddep.h"

void module_name_normalise(char *s)
{
	for (; *s; s++)
		if (*s == '-')
			*s = '_';
}

/* kmod's alias_normalize: '-' -> '_' outside a bracket expression. */
static void alias_normalise(char *s)
{
	int in = 0;

	for (; *s; s++) {
		if (*s == '[')
			in = 1;
		else if (*s == ']')
			in = 0;
		else if (*s == '-' && !in)
			*s = '_';
	}
}

/* The module name of a path in modules.dep: its base name without .ko[.xz|.zst|.gz], normalised. */
static char *name_of(const char *path, size_t len)
{
	const char *base = path;
	char *name, *ko;

	for (size_t i = 0; i < len; i++)
		if (path[i] == '/')
			base = path + i + 1;
	name = xstrndup(base, len - (size_t)(base - path));
	ko = strstr(name, ".ko");
	if (ko)
		*ko = '\0';
	module_name_normalise(name);
	return name;
}

static uint64_t hash_name(const char *s)
{
	return fnv1a64(s, strlen(s));
}

static void hash_build(struct moddep *d)
{
	d->hcap = 16;
	while (d->hcap < 2 * d->n)
		d->hcap <<= 1;
	d->hash = xcalloc(d->hcap, sizeof(*d->hash));
	for (size_t i = 0; i < d->n; i++) {
		size_t h = hash_name(d->v[i].name) & (d->hcap - 1);

		while (d->hash[h])
			h = (h + 1) & (d->hcap - 1);
		d->hash[h] = i + 1;
	}
}

long moddep_find(const struct moddep *d, const char *name)
{
	char *n = xstrdup(name);
	long found = -1;

	module_name_normalise(n);
	for (size_t h = d->hcap ? hash_name(n) & (d->hcap - 1) : 0; d->hcap && d->hash[h];
	     h = (h + 1) & (d->hcap - 1))
		if (!strcmp(d->v[d->hash[h] - 1].name, n)) {
			found = (long)d->hash[h] - 1;
			break;
		}
	free(n);
	return found;
}

/* "softdep MOD pre: A B post: C": words before pre:/post: count for neither (as in kmod). */
static void parse_softdep(struct moddep *d, const char *text)
{
	char *copy = xstrdup(text), *save = NULL;

	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *wsave = NULL, *w = strtok_r(line, " \t", &wsave), *name;
		struct moddep_soft *s;
		int mode = 0;

		if (!w || strcmp(w, "softdep") || !(name = strtok_r(NULL, " \t", &wsave)))
			continue;
		d->soft = xrealloc(d->soft, (d->nsoft + 1) * sizeof(*d->soft));
		s = &d->soft[d->nsoft++];
		memset(s, 0, sizeof(*s));
		s->name = xstrdup(name);
		module_name_normalise(s->name);
		while ((w = strtok_r(NULL, " \t", &wsave))) {
			if (!strcmp(w, "pre:"))
				mode = 1;
			else if (!strcmp(w, "post:"))
				mode = 2;
			else if (mode)
				strv_push(mode == 1 ? &s->pre : &s->post, w);
		}
	}
	free(copy);
}

/* "alias PATTERN MODULE", split in place (26000 lines: no copy of each word) */
static void parse_alias(struct moddep *d)
{
	char *save = NULL;
	size_t cap = 0;

	d->alias_parsed = 1;
	for (char *line = strtok_r(d->alias_text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *wsave = NULL, *w = strtok_r(line, " \t", &wsave), *pat, *mod;

		if (!w || strcmp(w, "alias") || !(pat = strtok_r(NULL, " \t", &wsave)) ||
		    !(mod = strtok_r(NULL, " \t", &wsave)))
			continue;
		alias_normalise(pat);
		module_name_normalise(mod);
		if (d->nalias == cap) {
			cap = cap ? 2 * cap : 1024;
			d->alias_pat = xrealloc(d->alias_pat, cap * sizeof(*d->alias_pat));
			d->alias_mod = xrealloc(d->alias_mod, cap * sizeof(*d->alias_mod));
		}
		d->alias_pat[d->nalias] = pat;
		d->alias_mod[d->nalias++] = mod;
	}
}

static void parse_builtin(struct moddep *d, const char *text)
{
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		if (len) {
			char *name = name_of(line, len);

			strv_push(&d->builtin, name);
			free(name);
		}
		line = nl ? nl + 1 : line + len;
	}
}

int moddep_parse(struct moddep *d, char *dep, const char *softdep, const char *alias,
		 const char *builtin)
{
	size_t cap = 0;

	memset(d, 0, sizeof(*d));
	d->text = dep;
	for (char *line = dep; line && *line;) {
		char *nl = strchr(line, '\n'), *colon;
		struct moddep_mod *m;

		if (nl)
			*nl = '\0';
		if (*line) {
			colon = strchr(line, ':');
			if (!colon)
				return -EINVAL;
			*colon = '\0';
			if (d->n == cap) {
				cap = cap ? 2 * cap : 256;
				d->v = xrealloc(d->v, cap * sizeof(*d->v));
			}
			m = &d->v[d->n++];
			m->path = line;
			m->name = name_of(line, strlen(line));
			m->deps = colon + 1;
			m->seen = 0;
		}
		line = nl ? nl + 1 : NULL;
	}
	hash_build(d);
	if (softdep)
		parse_softdep(d, softdep);
	if (alias)
		d->alias_text = xstrdup(alias);
	if (builtin)
		parse_builtin(d, builtin);
	return 0;
}

/* A missing optional file reads as empty; another error is ignored too (its lookups fail). */
static char *read_optional(const char *moddir, const char *name)
{
	char *path = xasprintf("%s/%s", moddir, name), *text = NULL;

	if (read_file(path, &text, NULL))
		text = NULL;
	free(path);
	return text;
}

int moddep_read(struct moddep *d, const char *moddir)
{
	char *path = xasprintf("%s/modules.dep", moddir), *dep, *soft, *alias, *builtin;
	int rc = read_file(path, &dep, NULL);

	free(path);
	if (rc) {
		memset(d, 0, sizeof(*d));
		return rc;
	}
	soft = read_optional(moddir, "modules.softdep");
	alias = read_optional(moddir, "modules.alias");
	builtin = read_optional(moddir, "modules.builtin");
	rc = moddep_parse(d, dep, soft, alias, builtin);
	free(soft);
	free(alias);
	free(builtin);
	return rc;
}

void moddep_free(struct moddep *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->v[i].name);
	for (size_t i = 0; i < d->nsoft; i++) {
		free(d->soft[i].name);
		strv_free(&d->soft[i].pre);
		strv_free(&d->soft[i].post);
	}
	free(d->soft);
	free(d->v);
	free(d->hash);
	free(d->text);
	free(d->alias_text);
	free(d->alias_pat);
	free(d->alias_mod);
	strv_free(&d->builtin);
	memset(d, 0, sizeof(*d));
}

void moddep_reset(struct moddep *d)
{
	for (size_t i = 0; i < d->n; i++)
		d->v[i].seen = 0;
}

struct walk {
	struct moddep *d;
	size_t **order, *norder, cap;
};

static void visit(struct walk *w, size_t i);

/* kmod's lookup of a softdep's name: the module, else what aliases name; 0 if none. */
static int visit_name(struct walk *w, const char *name)
{
	long i = moddep_find(w->d, name);
	char *n;
	int found = 0;

	if (i >= 0) {
		visit(w, (size_t)i);
		return 1;
	}
	/* 26000 lines in a distribution kernel's: read only when a softdep is an alias */
	if (w->d->alias_text && !w->d->alias_parsed)
		parse_alias(w->d);
	n = xstrdup(name);
	alias_normalise(n);
	for (size_t k = 0; k < w->d->nalias; k++) {
		const char *pat = w->d->alias_pat[k];

		/* a literal first character that differs cannot match (most patterns: "pci:v...") */
		if (!strchr("*?[\\", pat[0]) && pat[0] != n[0])
			continue;
		if (fnmatch(pat, n, 0))
			continue;
		i = moddep_find(w->d, w->d->alias_mod[k]);
		if (i >= 0) {
			visit(w, (size_t)i);
			found = 1;
		}
	}
	free(n);
	return found;
}

static const struct moddep_soft *soft_of(const struct moddep *d, const char *name)
{
	for (size_t i = 0; i < d->nsoft; i++)
		if (!strcmp(d->soft[i].name, name))
			return &d->soft[i];
	return NULL;
}

static void visit(struct walk *w, size_t i)
{
	struct moddep_mod *m = &w->d->v[i];
	const struct moddep_soft *s;
	const char *p;

	if (m->seen)
		return;
	m->seen = 1;
	s = soft_of(w->d, m->name);
	for (size_t k = 0; s && k < s->pre.n; k++)
		visit_name(w, s->pre.v[k]);
	/* depmod lists what a module needs with the deepest last: load from the end */
	p = m->deps + strlen(m->deps);
	while (p > m->deps) {
		const char *end, *start;
		char *name;
		long dep;

		while (p > m->deps && (p[-1] == ' ' || p[-1] == '\t'))
			p--;
		end = p;
		while (p > m->deps && p[-1] != ' ' && p[-1] != '\t')
			p--;
		start = p;
		if (end == start)
			break;
		name = name_of(start, (size_t)(end - start));
		dep = moddep_find(w->d, name);
		free(name);
		if (dep >= 0)
			visit(w, (size_t)dep);
	}
	if (*w->norder == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 32;
		*w->order = xrealloc(*w->order, w->cap * sizeof(**w->order));
	}
	(*w->order)[(*w->norder)++] = i;
	for (size_t k = 0; s && k < s->post.n; k++)
		visit_name(w, s->post.v[k]);
}

void moddep_walk(struct moddep *d, const char *const *names, size_t n, size_t **order,
		 size_t *norder, struct strv *missing)
{
	struct walk w = { .d = d, .order = order, .norder = norder, .cap = *norder };

	/* the array grows by doubling from what it holds; keep its capacity a power of two */
	if (w.cap) {
		size_t c = 32;

		while (c < w.cap)
			c <<= 1;
		*order = xrealloc(*order, c * sizeof(**order));
		w.cap = c;
	}
	for (size_t k = 0; k < n; k++) {
		long i = moddep_find(d, names[k]);
		char *norm;

		if (i >= 0) {
			visit(&w, (size_t)i);
			continue;
		}
		norm = xstrdup(names[k]);
		module_name_normalise(norm);
		if (!strv_contains(&d->builtin, norm) && !visit_name(&w, names[k]) && missing)
			strv_push(missing, names[k]);
		free(norm);
	}
}
