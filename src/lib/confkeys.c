// SPDX-License-Identifier: GPL-2.0
/*
 * confkeys.c: which rapido.conf keys mean something. A key nothing reads is
 * almost always a typo (VM_MEMRY=2G), and silently booting with 512M instead
 * is worse than a warning that names the key it probably meant.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "confkeys.h"
#include "err.h"
#include "num.h"
#include "profile.h"
#include "size.h"
#include "strbuf.h"

const char *const confkeys_programs[] = {
	/* the kernel (./cut finds it, ./vm boots what ./cut recorded) */
	"KERNEL_SRC", "KERNEL_INSTALL_MOD_PATH", "KERNEL_RELEASE",
	/* the guest's architecture, and a foreign one's userspace and kernel */
	"ARCH", "SYSROOT",
	/* ./cut */
	"DRACUT_OUT", "DRACUT", "CUT_CACHE_DIR", "CUT_CACHE_SIZE",
	/* ./vm */
	"QEMU_BIN", "QEMU_ACCEL", "KVM_PROBE_SECS", "VM_CPUS", "VM_MEMORY", "VM_TIMEOUT",
	"QEMU_EXTRA_ARGS", "QEMU_EXTRA_KERNEL_PARAMS", "VIRTFS_SHARE_PATH",
	"VM_STATE_DIR", "VM_LOG_DIR", "VM_MAX", "VM_LOCK_DIR", "VM_VMCORE_KEEP", "VM_VMCORE_FORMAT",
	"VM_RESULTS_DIR", "VM_SHARD", "VM_SPLATS", "VM_KERNEL", "QEMU_MPATH_DISKS", "QEMU_MPATH_PATHS",
	/* networking: ./vm and ./netsetup */
	"NET", "BR_DEV", "BR_ADDR", "TAP_DEVS", "TAP_USER", "VM#_IP", "VM#_IP#",
	"LINK_SUBNET", "USER_HOSTFWD",
	/* Ceph: ./cut and ./vm --rbd (the cluster's files), ./ceph-local */
	"CEPH_CONF", "CEPH_KEYRING", "CEPH_USER", "CEPH_TIMEOUT", "QEMU_RBD_DISKS",
	"CEPH_LOCAL_DIR", "CEPH_OSDS", "CEPH_OSD_STORE", "CEPH_OSD_SIZE", "CEPH_POOL_SIZE",
	"CEPH_FS_NAME", "CEPH_RBD_POOL", "CEPH_RBD_IMAGE", "CEPH_RBD_IMAGE_SIZE", "CEPH_UP_TIMEOUT",
	NULL
};

int confkeys_match(const char *pattern, const char *key)
{
	for (; *pattern; pattern++) {
		if (*pattern != '#') {
			if (*key++ != *pattern)
				return 0;
			continue;
		}
		if (!isdigit((unsigned char)*key))
			return 0;
		while (isdigit((unsigned char)*key))
			key++;
	}
	return !*key;
}

int confkeys_known(const char *key, const struct strv *extra)
{
	for (size_t i = 0; confkeys_programs[i]; i++)
		if (confkeys_match(confkeys_programs[i], key))
			return 1;
	return extra && strv_contains(extra, key);
}

/* Optimal string alignment distance, case ignored: VM_MEMROY is one edit from VM_MEMORY. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *d = xcalloc((la + 1) * (lb + 1), sizeof(*d));
	size_t r;

#define D(i, j) d[(i) * (lb + 1) + (j)]
	for (size_t i = 0; i <= la; i++)
		D(i, 0) = i;
	for (size_t j = 0; j <= lb; j++)
		D(0, j) = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int ca = toupper((unsigned char)a[i - 1]), cb = toupper((unsigned char)b[j - 1]);
			size_t best = D(i - 1, j - 1) + (ca != cb);

			if (D(i - 1, j) + 1 < best)
				best = D(i - 1, j) + 1;
			if (D(i, j - 1) + 1 < best)
				best = D(i, j - 1) + 1;
			if (i > 1 && j > 1 && ca == toupper((unsigned char)b[j - 2]) &&
			    toupper((unsigned char)a[i - 2]) == cb && D(i - 2, j - 2) + 1 < best)
				best = D(i - 2, j - 2) + 1;
			D(i, j) = best;
		}
	r = D(la, lb);
#undef D
	free(d);
	return r;
}

/* PATTERN with each '#' replaced by the next number in KEY ("1" past the last). */
static char *instantiate(const char *pattern, const char *key)
{
	struct strbuf out = STRBUF_INIT;

	strbuf_reset(&out);
	for (const char *p = pattern; *p; p++) {
		size_t len;

		if (*p != '#') {
			strbuf_addc(&out, *p);
			continue;
		}
		while (*key && !isdigit((unsigned char)*key))
			key++;
		len = strspn(key, "0123456789");
		if (len)
			strbuf_add(&out, key, len);
		else
			strbuf_addc(&out, '1');
		key += len;
	}
	return out.s;
}

char *confkeys_suggest(const char *key, const struct strv *extra)
{
	size_t len = strlen(key);
	/* one edit for short keys, up to three for long ones */
	size_t limit = len / 4 < 1 ? 1 : len / 4 > 3 ? 3 : len / 4;
	size_t best_d = limit + 1;
	char *best = NULL;
	size_t n_prog = 0;

	while (confkeys_programs[n_prog])
		n_prog++;
	for (size_t i = 0; i < n_prog + (extra ? extra->n : 0); i++) {
		char *cand = i < n_prog ? instantiate(confkeys_programs[i], key)
					: xstrdup(extra->v[i - n_prog]);
		size_t d = edit_distance(key, cand);

		if (d < best_d) {
			free(best);
			best = cand;
			best_d = d;
		} else {
			free(cand);
		}
	}
	return best;
}

int confkeys_from_profiles(const char *dir, struct strv *out)
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
			profile_free(&p);
		}
		free(err);
		free(name);
		free(path);
	}
	strv_free(&names);
	return 0;
}

void confkeys_check(const struct conf *c, const struct strv *extra, struct strv *msgs)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct conf_entry *e = &c->e[i];
		char *near;

		/* only the file's own keys; a helper key other lines expand is in use */
		if (!e->origin || e->used || confkeys_known(e->key, extra))
			continue;
		near = confkeys_suggest(e->key, extra);
		if (near)
			strv_pushf(msgs, "%s: warning: unknown key %s: no program or profile reads it "
				   "(did you mean %s?)", e->origin, e->key, near);
		else
			strv_pushf(msgs, "%s: warning: unknown key %s: no program or profile reads it "
				   "(rapido.conf.example lists the keys)", e->origin, e->key);
		free(near);
	}
}

/*
 * The types of the program keys that have one, with the limits ./vm applies
 * (src/vm/settings.c), so ./cut --check-conf finds before a boot what ./vm
 * would refuse, and of profile keys whose profile checks the same. A key
 * not listed is free text (paths, argument lists).
 */
const struct confkey_type confkeys_types[] = {
	{ "CUT_CACHE_SIZE", CONFKEY_SIZE, 0, 0, NULL },	/* 0: no cache */
	{ "KVM_PROBE_SECS", CONFKEY_UINT, 0, 3600, NULL },
	{ "VM_CPUS", CONFKEY_UINT, 1, 1024, NULL },
	{ "VM_MEMORY", CONFKEY_SIZE, 64ULL << 20, 0, NULL },
	{ "VM_TIMEOUT", CONFKEY_UINT, 0, 7 * 24 * 3600, NULL },
	{ "VM_MAX", CONFKEY_UINT, 1, 100000, NULL },
	{ "VM_VMCORE_KEEP", CONFKEY_UINT, 0, 1000, NULL },
	{ "QEMU_MPATH_PATHS", CONFKEY_UINT, 1, 16, NULL },
	{ "QEMU_ACCEL", CONFKEY_ENUM, 0, 0, "auto kvm tcg" },
	{ "NET", CONFKEY_ENUM, 0, 0, "tap user none" },
	{ "VM_VMCORE_FORMAT", CONFKEY_ENUM, 0, 0, "elf kdump-zlib kdump-lzo kdump-snappy" },
	/* profile keys the profile itself would refuse, caught before a boot */
	{ "USB_RBD_CRYPT", CONFKEY_ENUM, 0, 0, "0 1" },
	{ "USB_RBD_BENCH", CONFKEY_UINT, 1, 1 << 20, NULL },
	{ NULL, 0, 0, 0, NULL }
};

static int enum_has(const char *words, const char *v)
{
	size_t len = strlen(v);

	for (const char *w = words; *w; ) {
		size_t wl = strcspn(w, " ");

		if (wl == len && !strncmp(w, v, len))
			return 1;
		w += wl;
		w += strspn(w, " ");
	}
	return 0;
}

const struct confkey_type *confkeys_type(const char *key)
{
	const struct confkey_type *t;

	for (t = confkeys_types; t->key; t++)
		if (!strcmp(t->key, key))
			return t;
	return NULL;
}

int confkeys_check_type(const char *key, const char *val, char **err)
{
	const struct confkey_type *t = confkeys_type(key);
	char why[NUM_WHY_LEN];
	uint64_t size;

	*err = NULL;
	if (!t)
		return 0;
	switch (t->type) {
	case CONFKEY_UINT:
		if (num_parse(val, t->min, t->max, &size, why)) {
			*err = xstrdup(why);
			return -EINVAL;
		}
		return 0;
	case CONFKEY_SIZE:
		if (parse_size(val, &size) || size < t->min) {
			*err = xasprintf("expected a size of at least %lluM such as 512M or 2G, got '%s'",
					 t->min >> 20, val);
			return -EINVAL;
		}
		return 0;
	case CONFKEY_ENUM:
		if (!enum_has(t->words, val)) {
			*err = xasprintf("expected one of: %s, got '%s'", t->words, val);
			return -EINVAL;
		}
		return 0;
	}
	return 0;
}
