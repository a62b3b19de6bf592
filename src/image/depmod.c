// SPDX-License-Identifier: GPL-2.0
/*
 * depmod.c: depmod -a's output for a set of modules (depmod.h), by the
 * rules of kmod 30's tools/depmod.c, and kmod 34's where they differ:
 * - modules are numbered in modules.order's order (kmod 30: the last line
 *   naming one counts; kmod 34: the first), a compressed module by its
 *   name there (.ko); without a usable modules.order, in the order of
 *   kmod's hash table of names (512 buckets); that number is each index
 *   value's priority;
 * - a symbol's owner is the last module in that order exporting it;
 *   a module depends on the owners of the symbols it needs, in the order
 *   it first needs them;
 * - modules.dep lists each module's dependencies, all of them, in the order
 *   of a topological sort (a stack of the modules no other needs, seeded
 *   in number order);
 * - modules.symbols follows kmod's hash table of symbols (2048 buckets,
 *   Paul Hsieh's SuperFastHash, names sorted within a bucket);
 * - modules.builtin.bin and modules.builtin.alias.bin come from the lists
 *   alone, parsed as depmod's fgets()/fgetc() loops parse them;
 * - kmod 34 writes each index's nodes parent first (modindex.h) and adds
 *   modules.weakdep (the "weakdep" .modinfo strings), after modules.softdep.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "depmod.h"
#include "err.h"
#include "hash.h"
#include "kmodelf.h"
#include "kmodfile.h"
#include "modindex.h"
#include "strv.h"
#include "toolver.h"

/* depmod's buffers (PATH_MAX): longer lines or names it would cut or split */
#define DEPMOD_LINE 4096

/* kmod 34's files in its order; kmod 30 writes them but modules.weakdep */
enum { F_DEP, F_DEP_BIN, F_ALIAS, F_ALIAS_BIN, F_SOFTDEP, F_WEAKDEP, F_SYMBOLS, F_SYMBOLS_BIN,
       F_BUILTIN_BIN, F_BUILTIN_ALIAS_BIN, F_DEVNAME };
static const char *const names[DEPMOD_NFILES] = {
	"modules.dep", "modules.dep.bin", "modules.alias", "modules.alias.bin",
	"modules.softdep", "modules.weakdep", "modules.symbols", "modules.symbols.bin",
	"modules.builtin.bin", "modules.builtin.alias.bin", "modules.devname",
};

struct dmod {
	const char *relpath;
	char *uncrelpath;	/* relpath as modules.order names it: .ko, compressed or not */
	char *modname;
	long sort_idx;
	size_t idx;		/* the number: position in depmod's array */
	struct strv info, exports, needs;
	size_t *deps, ndeps;	/* direct, as found */
	size_t users, dep_sort_idx;
	int mark;
};

struct state {
	struct dmod *m;
	size_t n;
	enum depmod_layout layout;
	struct dmod **arr;	/* in number order */
	char *why;
};

static int unsure(struct state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int unsure(struct state *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->why) {
		va_start(ap, fmt);
		if (vasprintf(&s->why, fmt, ap) < 0)
			die("out of memory");
		va_end(ap);
	}
	return -ENOTSUP;
}

/* 16 bits at p in the host's byte order (kmod's get_unaligned) */
static unsigned int u16_at(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * kmod's hash_superfast (shared/hash.c, after Paul Hsieh): its bucket
 * order is the order modules.symbols lists symbols in. Keys are 7-bit
 * here (checked), so char's signedness does not matter.
 */
static unsigned int superfast(const char *key)
{
	const unsigned char *k = (const unsigned char *)key;
	unsigned int len = (unsigned int)strlen(key), hash = len, tmp, rem = len & 3;

	for (len /= 4; len > 0; len--, k += 4) {
		hash += u16_at(k);
		tmp = (u16_at(k + 2) << 11) ^ hash;
		hash = (hash << 16) ^ tmp;
		hash += hash >> 11;
	}
	switch (rem) {
	case 3:
		hash += u16_at(k);
		hash ^= hash << 16;
		hash ^= (unsigned int)k[2] << 18;
		hash += hash >> 11;
		break;
	case 2:
		hash += u16_at(k);
		hash ^= hash << 11;
		hash += hash >> 17;
		break;
	case 1:
		hash += k[0];
		hash ^= hash << 10;
		hash += hash >> 1;
	}
	hash ^= hash << 3;
	hash += hash >> 5;
	hash ^= hash << 4;
	hash += hash >> 17;
	hash ^= hash << 25;
	hash += hash >> 6;
	return hash;
}

/* An entry of one of kmod's hash tables, for sorting into its iteration order. */
struct hent {
	const char *key;
	unsigned int bucket;
	size_t val;
};

static int hent_cmp(const void *a, const void *b)
{
	const struct hent *x = a, *y = b;

	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* modname_normalize of the basename: up to the first '.', '-' as '_' */
static char *path_modname(const char *path)
{
	const char *b = strrchr(path, '/');
	char *m = xstrdup(b ? b + 1 : path), *dot = strchr(m, '.');

	if (dot)
		*dot = '\0';
	for (char *c = m; *c; c++)
		if (*c == '-')
			*c = '_';
	return m;
}

/* kmod's alias_normalize: '-' as '_' outside [...]; -1 for an unmatched bracket */
static int alias_normalize(const char *a, char *buf)
{
	size_t i;

	for (i = 0; a[i]; i++) {
		if (a[i] == '-') {
			buf[i] = '_';
		} else if (a[i] == ']') {
			return -1;
		} else if (a[i] == '[') {
			while (a[i] && a[i] != ']') {
				buf[i] = a[i];
				i++;
			}
			if (a[i] != ']')
				return -1;
			buf[i] = a[i];
		} else {
			buf[i] = a[i];
		}
	}
	buf[i] = '\0';
	return 0;
}

/* A module's name, ELF, modinfo, exports and needs; what depmod would walk past or choke on, unsure. */
static int mod_load(struct state *s, struct dmod *d, const struct depmod_module *in,
		    unsigned int comp_read)
{
	struct kmod_elf e;
	int comp = kmod_file_comp(in->relpath);
	const char *ext;

	d->relpath = in->relpath;
	d->modname = path_modname(in->relpath);
	if (comp < 0)
		return unsure(s, "%s is not named .ko, .ko.xz, .ko.zst or .ko.gz", in->relpath);
	/* depmod's walk takes only the compressions its kmod was built with */
	if (comp && !(comp & (int)comp_read))
		return unsure(s, "%s: the host's kmod reads no %s modules", in->relpath,
			      kmod_file_comp_name((unsigned int)comp));
	ext = strstr(in->relpath + strlen(in->relpath) - (comp ? 7 : 3), ".ko");
	d->uncrelpath = xasprintf("%.*s.ko", (int)(ext - in->relpath), in->relpath);
	/*
	 * depmod's walk skips directories called build or source; a path
	 * with an empty, "." or ".." part (or a dot file) is not the one its
	 * walk would name
	 */
	for (const char *c = in->relpath; c; c = strchr(c, '/')) {
		c += c != in->relpath;
		if (!strncmp(c, "build/", 6) || !strncmp(c, "source/", 7) || *c == '.' ||
		    *c == '/' || !*c)
			return unsure(s, "depmod's walk would not find %s as it is named", in->relpath);
	}
	if (!modindex_ascii(in->relpath))
		return unsure(s, "%s: depmod takes 7-bit names only", in->relpath);
	if (kmod_elf_open(&e, in->data, in->len))
		return unsure(s, "%s: not an ELF64 of the host's byte order", in->relpath);
	kmod_elf_strings(&e, ".modinfo", &d->info);
	if (kmod_elf_exports(&e, &d->exports) || kmod_elf_needs(&e, &d->needs))
		return unsure(s, "%s: its symbol table is not one depmod reads whole", in->relpath);
	for (size_t i = 0; i < d->info.n; i++)
		if (!modindex_ascii(d->info.v[i]) || strlen(d->info.v[i]) >= DEPMOD_LINE - 8)
			return unsure(s, "%s: a .modinfo string depmod would refuse or cut",
				      in->relpath);
	for (size_t i = 0; i < d->exports.n; i++)
		if (!modindex_ascii(d->exports.v[i]))
			return unsure(s, "%s exports a symbol that is not 7-bit", in->relpath);
	return 0;
}

static int arr_cmp(const void *a, const void *b)
{
	const struct dmod *x = *(struct dmod *const *)a, *y = *(struct dmod *const *)b;

	return x->sort_idx < y->sort_idx ? -1 : x->sort_idx > y->sort_idx;
}

/*
 * modules.order, read as depmod_modules_sort reads it (a module by its
 * uncompressed name; kmod 30: the last line naming it counts, kmod 34:
 * the first, each then numbered from -n up): 1 if it sorted,
 * 0 if depmod would leave its hash order (no file, a line without its
 * newline), or unsure.
 */
static int order_apply(struct state *s, const char *text, size_t len)
{
	size_t lines = 0, unlisted = 0, cap, *tab;
	long idx = 0, next = -(long)s->n;

	if (!text)
		return 0;
	if (memchr(text, '\0', len))
		return unsure(s, "modules.order holds a NUL byte");
	for (size_t off = 0; off < len; lines++) {
		const char *nl = memchr(text + off, '\n', len - off);

		/* fgets() with depmod's buffer: a longer line comes in pieces, one without '\n' */
		if (!nl || (size_t)(nl - (text + off)) + 1 > DEPMOD_LINE - 1)
			return 0;
		off = (size_t)(nl - text) + 1;
	}
	/* the modules by path (index + 1, 0 free): modules.order has thousands of lines */
	for (cap = 16; cap < 2 * s->n + 2; cap *= 2)
		;
	tab = xcalloc(cap, sizeof(*tab));
	for (size_t i = 0; i < s->n; i++) {
		size_t h = (size_t)fnv1a64(s->m[i].uncrelpath, strlen(s->m[i].uncrelpath)) & (cap - 1);

		while (tab[h])
			h = (h + 1) & (cap - 1);
		tab[h] = i + 1;
	}
	for (size_t off = 0; off < len;) {
		const char *line = text + off, *nl = memchr(line, '\n', len - off);
		size_t ll = (size_t)(nl - line);

		idx++;
		off += ll + 1;
		for (size_t h = (size_t)fnv1a64(line, ll) & (cap - 1); tab[h]; h = (h + 1) & (cap - 1)) {
			struct dmod *d = &s->m[tab[h] - 1];

			if (strncmp(d->uncrelpath, line, ll) || d->uncrelpath[ll])
				continue;
			if (s->layout == DEPMOD_KMOD30)
				d->sort_idx = idx - (long)(lines + 1);
			else if (d->sort_idx > 0)
				d->sort_idx = next++;
		}
	}
	free(tab);
	for (size_t i = 0; i < s->n; i++)
		unlisted += s->m[i].sort_idx > 0;
	/* those keep the order depmod's directory walk found them in */
	if (unlisted > 1)
		return unsure(s, "%zu modules are not in modules.order", unlisted);
	qsort(s->arr, s->n, sizeof(*s->arr), arr_cmp);
	return 1;
}

/* The array depmod numbers: its hash table of names, then sorted by modules.order. */
static int number(struct state *s, const struct depmod_in *in)
{
	struct hent *h = xcalloc(s->n + 1, sizeof(*h));
	int rc;

	for (size_t i = 0; i < s->n; i++) {
		h[i] = (struct hent){ s->m[i].modname, superfast(s->m[i].modname) & 511, i };
		for (size_t j = 0; j < i; j++)
			if (!strcmp(s->m[j].modname, s->m[i].modname)) {
				free(h);
				return unsure(s, "%s and %s have the same name", s->m[j].relpath,
					      s->m[i].relpath);
			}
	}
	qsort(h, s->n, sizeof(*h), hent_cmp);
	for (size_t i = 0; i < s->n; i++) {
		s->arr[i] = &s->m[h[i].val];
		/* depmod_module_add: count + 1 when it was found, the unlisted ones' key */
		s->arr[i]->sort_idx = (long)i + 1;
	}
	free(h);
	rc = order_apply(s, in->order, in->order_len);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < s->n; i++)
		s->arr[i]->idx = i;
	return 0;
}

/* name -> owner, the last exporter in number order (kmod's hash_add replaces) */
struct symtab {
	struct hent *v;
	size_t cap, n;
};

static struct hent *sym_find(struct symtab *t, const char *name)
{
	size_t h = superfast(name) & (t->cap - 1);

	while (t->v[h].key && strcmp(t->v[h].key, name))
		h = (h + 1) & (t->cap - 1);
	return &t->v[h];
}

static void symbols(struct state *s, struct symtab *t)
{
	size_t total = 0;

	for (size_t i = 0; i < s->n; i++)
		total += s->m[i].exports.n;
	for (t->cap = 16; t->cap < 2 * total + 2; t->cap *= 2)
		;
	t->v = xcalloc(t->cap, sizeof(*t->v));
	for (size_t i = 0; i < s->n; i++) {
		struct dmod *d = s->arr[i];

		for (size_t k = 0; k < d->exports.n; k++) {
			struct hent *e = sym_find(t, d->exports.v[k]);

			if (!e->key) {
				e->key = d->exports.v[k];
				t->n++;
			}
			e->val = i;
		}
	}
}

/* depmod_load_dependencies: each needed symbol's owner, once, in the order first needed */
static void dependencies(struct state *s, struct symtab *t)
{
	for (size_t i = 0; i < s->n; i++) {
		struct dmod *d = s->arr[i];

		d->deps = xcalloc(d->needs.n + 1, sizeof(*d->deps));
		for (size_t k = 0; k < d->needs.n; k++) {
			const char *name = d->needs.v[k];
			struct hent *e;
			size_t j;

			if (*name == '.')	/* PPC64: .foo is foo */
				name++;
			e = sym_find(t, name);
			if (!e->key)
				continue;
			for (j = 0; j < d->ndeps && d->deps[j] != e->val; j++)
				;
			if (j < d->ndeps)
				continue;
			d->deps[d->ndeps++] = e->val;
			s->arr[e->val]->users++;
		}
	}
}

/* depmod_calculate_dependencies' topological sort; unsure (depmod fails) on a cycle */
static int topo_sort(struct state *s)
{
	size_t *users = xcalloc(s->n + 1, sizeof(*users)), *roots = xcalloc(s->n + 1, sizeof(*roots));
	size_t nroots = 0, sorted = 0;

	for (size_t i = 0; i < s->n; i++) {
		users[i] = s->arr[i]->users;
		if (!users[i])
			roots[nroots++] = i;
	}
	while (nroots) {
		struct dmod *src = s->arr[roots[--nroots]];

		src->dep_sort_idx = sorted++;
		for (size_t k = 0; k < src->ndeps; k++)
			if (--users[src->deps[k]] == 0)
				roots[nroots++] = src->deps[k];
	}
	free(users);
	free(roots);
	if (sorted < s->n)
		return unsure(s, "the modules depend on each other in a circle");
	return 0;
}

static void closure(struct state *s, size_t i, size_t *out, size_t *n, int mark)
{
	struct dmod *d = s->arr[i];

	for (size_t k = 0; k < d->ndeps; k++) {
		struct dmod *dep = s->arr[d->deps[k]];

		if (dep->mark == mark)
			continue;
		dep->mark = mark;
		out[(*n)++] = d->deps[k];
		closure(s, d->deps[k], out, n, mark);
	}
}

static struct state *cmp_state;

static int dep_cmp(const void *a, const void *b)
{
	size_t x = cmp_state->arr[*(const size_t *)a]->dep_sort_idx;
	size_t y = cmp_state->arr[*(const size_t *)b]->dep_sort_idx;

	return x < y ? -1 : x > y;
}

/* modules.dep and its index: every dependency, in topological order */
static void write_deps(struct state *s, struct depmod_out *out)
{
	struct modindex *ix = modindex_new();
	size_t *all = xcalloc(s->n + 1, sizeof(*all));
	struct strbuf line = STRBUF_INIT;

	for (size_t i = 0; i < s->n; i++) {
		size_t n = 0;

		closure(s, i, all, &n, (int)i + 1);
		cmp_state = s;
		qsort(all, n, sizeof(*all), dep_cmp);
		strbuf_reset(&line);
		strbuf_adds(&line, s->arr[i]->relpath);
		strbuf_addc(&line, ':');
		for (size_t k = 0; k < n; k++) {
			strbuf_addc(&line, ' ');
			strbuf_adds(&line, s->arr[all[k]]->relpath);
		}
		modindex_add(ix, s->arr[i]->modname, line.s, (unsigned int)i);
		strbuf_add(&out->f[F_DEP].data, line.s, line.len);
		strbuf_addc(&out->f[F_DEP].data, '\n');
	}
	modindex_write(ix, s->layout == DEPMOD_KMOD34, &out->f[F_DEP_BIN].data);
	modindex_free(ix);
	strbuf_free(&line);
	free(all);
}

/* a .modinfo string's value if its key is key (libkmod: a string without '=' is a key with value "") */
static const char *info_value(const char *s, const char *key)
{
	size_t kl = strlen(key);

	if (strncmp(s, key, kl))
		return NULL;
	if (s[kl] == '=')
		return s + kl + 1;
	return s[kl] ? NULL : "";
}

/* modules.alias, its index, modules.softdep, modules.devname: from each module's .modinfo */
static void write_modinfo(struct state *s, struct depmod_out *out)
{
	struct modindex *ix = modindex_new();
	char buf[DEPMOD_LINE];
	int devnames = 0;

	strbuf_adds(&out->f[F_ALIAS].data, "# Aliases extracted from modules themselves.\n");
	strbuf_adds(&out->f[F_SOFTDEP].data, "# Soft dependencies extracted from modules themselves.\n");
	strbuf_adds(&out->f[F_WEAKDEP].data, "# Weak dependencies extracted from modules themselves.\n");
	strbuf_reset(&out->f[F_DEVNAME].data);
	for (size_t i = 0; i < s->n; i++) {
		struct dmod *d = s->arr[i];
		const char *devname = NULL;
		char type = '\0';
		unsigned int major = 0, minor = 0;

		for (size_t k = 0; k < d->info.n; k++) {
			const char *v = info_value(d->info.v[k], "alias");

			if (!v)
				continue;
			strbuf_addf(&out->f[F_ALIAS].data, "alias %s %s\n", v, d->modname);
			/* depmod warns of an unmatched bracket and leaves it out */
			if (!alias_normalize(v, buf))
				modindex_add(ix, buf, d->modname, (unsigned int)i);
		}
		for (size_t k = 0; k < d->info.n; k++) {
			const char *v = info_value(d->info.v[k], "softdep");

			if (v)
				strbuf_addf(&out->f[F_SOFTDEP].data, "softdep %s %s\n", d->modname, v);
		}
		for (size_t k = 0; k < d->info.n; k++) {
			const char *v = info_value(d->info.v[k], "weakdep");

			if (v)
				strbuf_addf(&out->f[F_WEAKDEP].data, "weakdep %s %s\n", d->modname, v);
		}
		/* output_devname: the last devname: and char/block-major alias seen until both are */
		for (size_t k = 0; k < d->info.n; k++) {
			const char *v = info_value(d->info.v[k], "alias");
			unsigned int maj, min;

			if (!v)
				continue;
			if (!strncmp(v, "devname:", 8)) {
				devname = v + 8;
			} else if (sscanf(v, "char-major-%u-%u", &maj, &min) == 2) {
				type = 'c';
				major = maj;
				minor = min;
			} else if (sscanf(v, "block-major-%u-%u", &maj, &min) == 2) {
				type = 'b';
				major = maj;
				minor = min;
			}
			if (type && devname)
				break;
		}
		if (devname && type) {
			if (!devnames++)
				strbuf_adds(&out->f[F_DEVNAME].data,
					    "# Device nodes to trigger on-demand module loading.\n");
			strbuf_addf(&out->f[F_DEVNAME].data, "%s %s %c%u:%u\n", d->modname, devname, type,
			     major, minor);
		}
	}
	modindex_write(ix, s->layout == DEPMOD_KMOD34, &out->f[F_ALIAS_BIN].data);
	modindex_free(ix);
}

/* modules.symbols and its index, in the order of kmod's symbol hash table */
static void write_symbols(struct state *s, struct symtab *t, struct depmod_out *out)
{
	struct hent *v = xcalloc(t->n + 1, sizeof(*v));
	struct modindex *ix = modindex_new();
	struct strbuf key = STRBUF_INIT;
	size_t n = 0;

	for (size_t h = 0; h < t->cap; h++)
		if (t->v[h].key) {
			v[n] = t->v[h];
			v[n++].bucket = superfast(t->v[h].key) & 2047;
		}
	qsort(v, n, sizeof(*v), hent_cmp);
	strbuf_adds(&out->f[F_SYMBOLS].data, "# Aliases for symbols, used by symbol_request().\n");
	for (size_t i = 0; i < n; i++) {
		const struct dmod *owner = s->arr[v[i].val];

		strbuf_addf(&out->f[F_SYMBOLS].data, "alias symbol:%s %s\n", v[i].key, owner->modname);
		strbuf_reset(&key);
		strbuf_adds(&key, "symbol:");
		strbuf_adds(&key, v[i].key);
		modindex_add(ix, key.s, owner->modname, (unsigned int)owner->idx);
	}
	modindex_write(ix, s->layout == DEPMOD_KMOD34, &out->f[F_SYMBOLS_BIN].data);
	modindex_free(ix);
	strbuf_free(&key);
	free(v);
}

/*
 * modules.builtin.bin: each line's module name, value "" (depmod skips a
 * line that does not start with a letter). Without the list depmod still
 * writes the file, empty.
 */
static int write_builtin(struct state *s, const struct depmod_in *in, struct depmod_out *out)
{
	struct modindex *ix;

	strbuf_reset(&out->f[F_BUILTIN_BIN].data);
	if (!in->builtin)
		return 0;
	if (memchr(in->builtin, '\0', in->builtin_len) || !modindex_ascii(in->builtin))
		return unsure(s, "modules.builtin is not 7-bit text");
	ix = modindex_new();
	for (size_t off = 0; off < in->builtin_len;) {
		const char *line = in->builtin + off, *nl = memchr(line, '\n', in->builtin_len - off);
		size_t ll = nl ? (size_t)(nl - line) : in->builtin_len - off;
		char *l, *m;

		off += ll + 1;
		if (ll + 1 > DEPMOD_LINE - 1) {
			modindex_free(ix);
			return unsure(s, "modules.builtin has a line longer than depmod reads");
		}
		if (!isalpha((unsigned char)line[0]))
			continue;
		/* the name stops at the first '.'; a line without one keeps its newline */
		l = xstrndup(line, ll + (nl != NULL));
		if (l[strlen(l) - 1] == '\n' && strrchr(l, '/') == l + strlen(l) - 2) {
			free(l);
			modindex_free(ix);
			return unsure(s, "modules.builtin has a line ending in '/'");
		}
		m = path_modname(l);
		modindex_add(ix, m, "", 0);
		free(m);
		free(l);
	}
	modindex_write(ix, s->layout == DEPMOD_KMOD34, &out->f[F_BUILTIN_BIN].data);
	modindex_free(ix);
	return 0;
}

/*
 * flush_stream_to: the bytes up to stop (or a NUL, or the end) into dst;
 * their count if it ended at stop, else 0. One past *pos is consumed.
 */
static size_t field(const char *t, size_t len, size_t *pos, char stop, char *dst, int *cut)
{
	size_t i = 0;
	int c = -1;

	while (*pos < len) {
		c = (unsigned char)t[(*pos)++];
		if (c == stop || c == '\0')
			break;
		if (i == DEPMOD_LINE - 1) {
			*cut = 1;
			break;
		}
		dst[i++] = (char)c;
		c = -1;
	}
	dst[i] = '\0';
	return c == (unsigned char)stop ? i : 0;
}

/* modules.builtin.alias.bin: "MOD.alias=VALUE\0" strings of modules.builtin.modinfo */
static int write_builtin_alias(struct state *s, const struct depmod_in *in, struct depmod_out *out)
{
	static char mod[DEPMOD_LINE], key[DEPMOD_LINE], val[DEPMOD_LINE], alias[DEPMOD_LINE];
	const char *t = in->builtin_modinfo;
	size_t len = in->builtin_modinfo_len, pos = 0;
	struct modindex *ix;
	int cut = 0;

	strbuf_reset(&out->f[F_BUILTIN_ALIAS_BIN].data);
	if (!t)
		return 0;
	ix = modindex_new();
	while (pos < len && !cut) {
		if (!field(t, len, &pos, '.', mod, &cut))
			continue;
		if (!field(t, len, &pos, '=', key, &cut) || strcmp(key, "alias")) {
			/* flush_stream: to the next NUL */
			while (pos < len && t[pos++] != '\0')
				;
			continue;
		}
		if (!field(t, len, &pos, '\0', val, &cut))
			continue;
		if (alias_normalize(val, alias))
			continue;
		if (!modindex_ascii(alias) || !modindex_ascii(mod)) {
			modindex_free(ix);
			return unsure(s, "modules.builtin.modinfo has an alias that is not 7-bit");
		}
		modindex_add(ix, alias, mod, 0);
	}
	if (cut) {
		modindex_free(ix);
		return unsure(s, "modules.builtin.modinfo has a string longer than depmod reads");
	}
	modindex_write(ix, s->layout == DEPMOD_KMOD34, &out->f[F_BUILTIN_ALIAS_BIN].data);
	modindex_free(ix);
	return 0;
}

int depmod_compute(const struct depmod_in *in, struct depmod_out *out, char **why)
{
	struct state s = { .n = in->n, .layout = in->layout };
	struct symtab t = { NULL, 0, 0 };
	int rc = 0;

	*why = NULL;
	out->n = DEPMOD_NFILES;
	for (int i = 0; i < DEPMOD_NFILES; i++) {
		out->f[i].name = names[i];
		out->f[i].data = (struct strbuf)STRBUF_INIT;
		strbuf_reset(&out->f[i].data);
	}
	s.m = xcalloc(in->n + 1, sizeof(*s.m));
	s.arr = xcalloc(in->n + 1, sizeof(*s.arr));
	for (size_t i = 0; i < in->n && !rc; i++)
		rc = mod_load(&s, &s.m[i], &in->mods[i], in->comp);
	if (!rc)
		rc = number(&s, in);
	if (!rc) {
		symbols(&s, &t);
		dependencies(&s, &t);
		rc = topo_sort(&s);
	}
	if (!rc) {
		write_deps(&s, out);
		write_modinfo(&s, out);
		write_symbols(&s, &t, out);
		rc = write_builtin(&s, in, out);
	}
	if (!rc)
		rc = write_builtin_alias(&s, in, out);
	if (in->layout == DEPMOD_KMOD30) {
		/* kmod 30 writes no modules.weakdep */
		strbuf_free(&out->f[F_WEAKDEP].data);
		memmove(&out->f[F_WEAKDEP], &out->f[F_WEAKDEP + 1],
			(DEPMOD_NFILES - F_WEAKDEP - 1) * sizeof(out->f[0]));
		out->n = DEPMOD_NFILES - 1;
	}
	for (size_t i = 0; i < in->n; i++) {
		free(s.m[i].modname);
		free(s.m[i].uncrelpath);
		strv_free(&s.m[i].info);
		strv_free(&s.m[i].exports);
		strv_free(&s.m[i].needs);
		free(s.m[i].deps);
	}
	free(s.m);
	free(s.arr);
	free(t.v);
	*why = s.why;
	return rc;
}

void depmod_out_free(struct depmod_out *out)
{
	for (size_t i = 0; i < out->n; i++)
		strbuf_free(&out->f[i].data);
}

/* kmod's --version features ("+ZSTD +XZ -ZLIB ..."): the compressions it reads */
static unsigned int kmod_comp(const char *features)
{
	static const struct {
		const char *word;
		unsigned int comp;
	} f[] = { { "+XZ", KMOD_COMP_XZ }, { "+ZSTD", KMOD_COMP_ZSTD }, { "+ZLIB", KMOD_COMP_GZ } };
	unsigned int comp = 0;

	for (const char *w = features; w && *w;) {
		size_t l;

		w += strspn(w, " \t\n");
		l = strcspn(w, " \t\n");
		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			if (l == strlen(f[i].word) && !strncmp(w, f[i].word, l))
				comp |= f[i].comp;
		w += l;
	}
	return comp;
}

int depmod_host_layout(enum depmod_layout *layout, unsigned int *comp, char **why)
{
	static const struct {
		const char *version;
		enum depmod_layout layout;
	} proven[] = { { "30", DEPMOD_KMOD30 }, { "34.2", DEPMOD_KMOD34 } };
	const struct toolver *v = toolver_kmod();

	*why = NULL;
	*layout = DEPMOD_KMOD30;
	*comp = 0;
	if (!v->path)
		return 0;
	for (size_t i = 0; v->version && i < sizeof(proven) / sizeof(proven[0]); i++)
		if (!strcmp(v->version, proven[i].version)) {
			*layout = proven[i].layout;
			*comp = kmod_comp(v->more);
			return 0;
		}
	if (v->version)
		*why = xasprintf("kmod %s's depmod: its indexes are built by depmod, "
				 "the built-in writer is proven for kmod 30 and 34.2 only", v->version);
	else
		*why = xasprintf("%s --version printed %s%s%s, not kmod's version: its indexes are "
				 "built by depmod, the built-in writer is proven for kmod 30 and 34.2 only",
				 v->path, v->line ? "\"" : "nothing", v->line ? v->line : "",
				 v->line ? "\"" : "");
	return -ENOTSUP;
}
