// SPDX-License-Identifier: GPL-2.0
/*
 * meta.c: the record of a cache entry, layers/KEY.meta (docs/CACHE.md):
 * "rapido-layer 1", then one "NAME VALUE" line each (kind, size, xxh64,
 * sig, desc, ldcache; a bins layer's loader and apart, build.c; lib and
 * dep lines repeat). Paths in it are
 * %XX-escaped (pct.h), so that each stays one word of one line.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "io.h"
#include "layer.h"
#include "pct.h"

/* '%xx' for blanks, '%' and controls (pct.h). */
void cut_meta_escape(FILE *f, const char *s)
{
	char *e = xmalloc(3 * strlen(s) + 1);

	pct_escape(e, 3 * strlen(s), s);
	fputs(e, f);
	free(e);
}

int cut_meta_parse(char *text, struct cut_meta *m)
{
	char *save = NULL;
	int first = 1;

	memset(m, 0, sizeof(*m));
	m->text = text;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');

		if (first) {
			if (strcmp(line, CACHE_FORMAT))
				return -EINVAL;
			first = 0;
			continue;
		}
		if (!sp)
			return -EINVAL;
		*sp++ = '\0';
		if (!strcmp(line, "kind"))
			m->kind = sp;
		else if (!strcmp(line, "size"))
			m->size = sp;
		else if (!strcmp(line, "xxh64"))
			m->xxh = sp;
		else if (!strcmp(line, "sig"))
			m->sig = sp;
		else if (!strcmp(line, "desc"))
			m->desc = sp;
		else if (!strcmp(line, "ldcache"))
			m->ldcache = sp;
		else if (!strcmp(line, "loader")) {
			pct_unescape(sp);
			m->loader = sp;
		} else if (!strcmp(line, "apart"))
			m->apart = sp;
		else if (!strcmp(line, "lib")) {
			pct_unescape(sp);
			strv_push(&m->libs, sp);
		} else if (!strcmp(line, "dep")) {
			sp[-1] = ' ';
			strv_push(&m->deps, line);
		}
	}
	return m->kind && m->size && m->xxh && m->sig ? 0 : -EINVAL;
}

void cut_meta_free(struct cut_meta *m)
{
	free(m->text);
	strv_free(&m->libs);
	strv_free(&m->deps);
}

char *cut_meta_text(const struct cut_layer *ly, const char *sig)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		die_errno("open_memstream");
	fprintf(f, "%s\nkind %s\nsize %" PRIu64 "\nxxh64 %016" PRIx64 "\nsig %s\ndesc %s\n",
		CACHE_FORMAT, ly->kind, ly->size, ly->xxh, sig, ly->desc ? ly->desc : "");
	for (size_t i = 0; i < ly->libs.n; i++) {
		fputs("lib ", f);
		cut_meta_escape(f, ly->libs.v[i]);
		fputc('\n', f);
	}
	if (ly->ldcache)
		fprintf(f, "ldcache %s\n", ly->ldcache);
	if (ly->loader) {
		fputs("loader ", f);
		cut_meta_escape(f, ly->loader);
		fprintf(f, "\napart %zu\n", ly->apart);
	}
	if (ly->deps)
		fputs(ly->deps, f);
	if (fclose(f))
		die_errno("open_memstream");
	return text;
}

void cut_meta_resign(const char *meta_path, const char *sig)
{
	char *text, *at, *eol, *fixed;
	size_t len;

	if (read_regular_file(meta_path, O_NOFOLLOW, CUT_META_MAX, &text, &len, NULL))
		return;
	at = strstr(text, "\nsig ");
	eol = at ? strchr(at + 1, '\n') : NULL;
	if (eol) {
		fixed = xasprintf("%.*s\nsig %s%s", (int)(at - text), text, sig, eol);
		write_file_atomic(meta_path, fixed, strlen(fixed), 0644);	/* best effort */
		free(fixed);
	}
	free(text);
}
