// SPDX-License-Identifier: GPL-2.0
/* proccrypto.c: /proc/crypto parser (see proccrypto.h for the format). */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "io.h"
#include "proccrypto.h"

static char *trim(char *s, char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	*end = '\0';
	return s;
}

static void entry_clear(struct pc_entry *e)
{
	free(e->name);
	free(e->driver);
	free(e->module);
	free(e->type);
	free(e->selftest);
	memset(e, 0, sizeof(*e));
}

static void set_field(char **field, const char *val)
{
	free(*field);
	*field = xstrdup(val);
}

/* End of a block: keep it if it names an implementation. */
static void entry_flush(struct pc_list *l, struct pc_entry *e, bool *any)
{
	if (!*any)
		return;
	*any = false;
	if (!e->name || !e->driver || !*e->name || !*e->driver) {
		l->dropped++;
		entry_clear(e);
		return;
	}
	if (!e->module)
		e->module = xstrdup("");
	if (!e->type)
		e->type = xstrdup("");
	if (!e->selftest)
		e->selftest = xstrdup("");
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = *e;
	memset(e, 0, sizeof(*e));
}

void pc_parse(const char *text, struct pc_list *out)
{
	char *copy = xstrdup(text), *line = copy;
	struct pc_entry e = { 0 };
	bool any = false;

	memset(out, 0, sizeof(*out));
	while (line) {
		char *nl = strchr(line, '\n'), *end = nl ? nl : line + strlen(line);
		char *colon = memchr(line, ':', (size_t)(end - line));
		char *key, *val;

		if (nl)
			*nl = '\0';
		if (!colon) {
			/* A blank (or junk) line ends a block. */
			if (!*trim(line, end))
				entry_flush(out, &e, &any);
			line = nl ? nl + 1 : NULL;
			continue;
		}
		key = trim(line, colon);
		val = trim(colon + 1, end);
		any = true;
		if (!strcmp(key, "name"))
			set_field(&e.name, val);
		else if (!strcmp(key, "driver"))
			set_field(&e.driver, val);
		else if (!strcmp(key, "module"))
			set_field(&e.module, val);
		else if (!strcmp(key, "type"))
			set_field(&e.type, val);
		else if (!strcmp(key, "selftest"))
			set_field(&e.selftest, val);
		else if (!strcmp(key, "priority"))
			e.priority = atoi(val);
		else if (!strcmp(key, "internal"))
			e.internal = !strcmp(val, "yes");
		line = nl ? nl + 1 : NULL;
	}
	entry_flush(out, &e, &any);
	free(copy);
}

int pc_load(const char *path, struct pc_list *out)
{
	char *text;
	int rc = read_file(path, &text, NULL);

	if (rc)
		return rc;
	pc_parse(text, out);
	free(text);
	return 0;
}

void pc_free(struct pc_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		entry_clear(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

bool pc_file_has(const char *path, const char *name)
{
	struct pc_list l;
	bool found = false;

	if (pc_load(path, &l))
		return false;
	for (size_t i = 0; i < l.n && !found; i++)
		found = !strcmp(l.v[i].name, name);
	pc_free(&l);
	return found;
}

bool pc_type_is_hash(const char *type)
{
	return !strcmp(type, "shash") || !strcmp(type, "ahash") ||
	       !strcmp(type, "digest") || !strcmp(type, "hash");
}
