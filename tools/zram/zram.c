// SPDX-License-Identifier: GPL-2.0
/*
 * zram.c: add, reset and remove zram devices, in the order the kernel needs.
 *
 * What drivers/block/zram/zram_drv.c enforces (Linux 4.2 to 6.x):
 *  - Writing disksize initialises the device. After that, comp_algorithm
 *    and disksize writes fail with EBUSY ("Can't change algorithm for
 *    initialized device"), so the algorithm goes first and an initialised
 *    device is reset before it is set up again.
 *  - reset fails with EBUSY while the disk is open (mounted, swapped on,
 *    held by device-mapper, or open in a process), and so does hot_remove.
 *  - Reading /sys/class/zram-control/hot_add creates a device and returns
 *    its index; writing an index to hot_remove deletes that device.
 *  - comp_algorithm lists "lzo [lzo-rle] lz4 zstd" (the current one in
 *    brackets). Up to 6.11 the kernel also accepts any compressor of the
 *    crypto API that is not in the list, so the write, not the list, says
 *    whether a name is known.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "err.h"
#include "num.h"
#include "zram.h"

void zram_ctx_init(struct zram_ctx *z)
{
	memset(z, 0, sizeof(*z));
	z->root = "";
	z->out = stdout;
	z->wait_ms = 5000;
}

void zram_ctx_free(struct zram_ctx *z)
{
	strv_free(&z->notes);
}

void zram_add_opts_init(struct zram_add_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->device = -1;
}

int zram_parse_dev(const char *s, int *idx)
{
	uint64_t v;

	if (!strncmp(s, "/dev/", 5))
		s += 5;
	if (!strncmp(s, "zram", 4))
		s += 4;
	/* No leading zero: the kernel names them zram%d. */
	if ((s[0] == '0' && s[1]) || num_parse(s, 0, INT_MAX, &v, NULL))
		return -EINVAL;
	*idx = (int)v;
	return 0;
}

int zram_alg_listed(const char *list, const char *alg)
{
	char *names = zram_alg_names(list), *tok, *save = NULL;
	int found = 0;

	for (tok = strtok_r(names, " ", &save); tok && !found; tok = strtok_r(NULL, " ", &save))
		found = !strcmp(tok, alg);
	free(names);
	return found;
}

char *zram_alg_names(const char *list)
{
	char *out = xmalloc(strlen(list) + 1), *w = out;
	int space = 0;

	for (; *list; list++) {
		if (*list == '[' || *list == ']')
			continue;
		if (isspace((unsigned char)*list)) {
			space = 1;
			continue;
		}
		if (space && w != out)
			*w++ = ' ';
		space = 0;
		*w++ = *list;
	}
	*w = '\0';
	return out;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The zramN entries of /sys/block, sorted by N. */
static int list_devs(struct zram_ctx *z, int **idx, size_t *n)
{
	char *real = zram_path(z, "/sys/block");
	size_t cap = 0;
	struct dirent *de;
	DIR *dir;
	int rc = 0;

	*idx = NULL;
	*n = 0;
	dir = opendir(real);
	if (!dir) {
		rc = -errno;
		zram_seterr(z, "opendir %s: %s", real, strerror(errno));
		free(real);
		return rc;
	}
	while ((errno = 0, de = readdir(dir))) {
		int i;

		if (strncmp(de->d_name, "zram", 4) || zram_parse_dev(de->d_name, &i) < 0)
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 8;
			*idx = xrealloc(*idx, cap * sizeof(**idx));
		}
		(*idx)[(*n)++] = i;
	}
	if (errno) {
		rc = -errno;
		zram_seterr(z, "readdir %s: %s", real, strerror(errno));
	}
	closedir(dir);
	free(real);
	if (*n)
		qsort(*idx, *n, sizeof(**idx), cmp_int);
	return rc;
}

static int is_dir(struct zram_ctx *z, const char *path)
{
	char *real = zram_path(z, path);
	struct stat st;
	int rc = stat(real, &st) == 0 && S_ISDIR(st.st_mode);

	free(real);
	return rc;
}

/* 0 with *control set if zram is loaded; else -ENOENT and advice. */
static int check_module(struct zram_ctx *z, int *control)
{
	size_t n;
	int *idx, rc;

	*control = is_dir(z, ZRAM_CONTROL);
	if (*control)
		return 0;
	/* Before Linux 4.2 there is no zram-control, only num_devices devices. */
	rc = list_devs(z, &idx, &n);
	free(idx);
	if (rc == 0 && n)
		return 0;
	if (rc == 0 || rc == -ENOENT) {
		char *real = zram_path(z, ZRAM_CONTROL);

		zram_seterr(z, "the zram module is not loaded: %s does not exist (run 'modprobe zram', or build the kernel with CONFIG_ZRAM)",
			    real);
		free(real);
		rc = -ENOENT;
	}
	return rc;
}

static int check_exists(struct zram_ctx *z, const struct zram_dev *d)
{
	char *path = xasprintf("/sys/block/%s", d->name);
	int rc = 0;

	if (!is_dir(z, path)) {
		char *real = zram_path(z, path);

		zram_seterr(z, "no such zram device: /dev/%s (%s does not exist)", d->name, real);
		free(real);
		rc = -ENODEV;
	}
	free(path);
	return rc;
}

/* Read a number attribute; -errno with z->msg set on failure. */
static int read_u64(struct zram_ctx *z, const struct zram_dev *d, const char *attr,
		    unsigned long long *v)
{
	char *path = zram_attr(d, attr), *s;
	uint64_t n;
	int rc;

	rc = zram_read(z, path, &s);
	if (rc == 0) {
		if (num_parse(s, 0, UINT64_MAX, &n, NULL) == 0) {
			*v = n;
		} else {
			zram_seterr(z, "%s%s: expected a number, got '%s'", z->root, path, s);
			rc = -EIO;
		}
		free(s);
	}
	free(path);
	return rc;
}

static int is_initialised(struct zram_ctx *z, const struct zram_dev *d)
{
	unsigned long long v;
	int rc;

	/* initstate is there since 3.15; disksize != 0 means the same. */
	rc = read_u64(z, d, "initstate", &v);
	if (rc == -ENOENT)
		rc = read_u64(z, d, "disksize", &v);
	return rc < 0 ? rc : v != 0;
}

/*
 * Say who uses the device, e.g. "mounted on /mnt; used as swap". Knowing
 * who merely has it open would mean walking /proc/PID/fd: not worth it.
 */
static char *describe_use(struct zram_ctx *z, const struct zram_dev *d)
{
	struct strv mps = STRV_INIT, holders = STRV_INIT;
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	char saved[sizeof(z->msg)];

	if (!f)
		die("out of memory");
	memcpy(saved, z->msg, sizeof(saved));
	if (zram_mounts(z, d, 1, &mps) == 0 && mps.n) {
		fputs("mounted on", f);
		for (size_t i = 0; i < mps.n; i++)
			fprintf(f, "%s %s", i ? "," : "", mps.v[i]);
	}
	if (zram_is_swap(z, d) > 0)
		fprintf(f, "%sused as swap", ftell(f) ? "; " : "");
	if (zram_holders(z, d, &holders) == 0 && holders.n) {
		fprintf(f, "%sheld by", ftell(f) ? "; " : "");
		for (size_t i = 0; i < holders.n; i++)
			fprintf(f, " %s", holders.v[i]);
	}
	if (!ftell(f))
		fputs("mounted, used as swap, or held open by a process", f);
	if (fclose(f) != 0)
		die("out of memory");
	memcpy(z->msg, saved, sizeof(saved));
	strv_free(&mps);
	strv_free(&holders);
	return s;
}

/* Write 1 to reset; EBUSY means the disk is open, and the message says by whom. */
static int reset_dev(struct zram_ctx *z, const struct zram_dev *d)
{
	char *path = zram_attr(d, "reset");
	int rc = zram_write(z, path, "1");

	if (rc == -EBUSY) {
		char *why = describe_use(z, d);

		zram_seterr(z, "cannot reset /dev/%s: it is in use (%s); unmount it, swapoff it or close it first, or use 'rapido-zram remove' (%s)",
			    d->name, why, z->msg);
		free(why);
	}
	free(path);
	return rc;
}

/*
 * hot_remove resets the device itself, but like reset it refuses with
 * EBUSY while the disk is open; ENODEV if there is no such device.
 */
static int hot_remove(struct zram_ctx *z, const struct zram_dev *d)
{
	char *val = xasprintf("%d", d->idx);
	int rc = zram_write(z, ZRAM_CONTROL "/hot_remove", val);

	if (rc == -EBUSY) {
		char *why = describe_use(z, d);

		zram_seterr(z, "cannot remove /dev/%s: it is in use (%s) (%s)", d->name, why,
			    z->msg);
		free(why);
	}
	free(val);
	return rc;
}

/*
 * A free device: disksize 0 (not set up) and nobody using it. A disk of
 * size 0 can be neither mounted nor swapped on, so the usage checks only
 * guard against a stale state; holders catches a device-mapper user.
 */
static int find_free(struct zram_ctx *z, struct zram_dev *d)
{
	size_t n, i;
	int *idx, rc;

	rc = list_devs(z, &idx, &n);
	if (rc == -ENOENT)
		return rc;
	for (i = 0; rc == 0 && i < n; i++) {
		struct strv users = STRV_INIT;
		int busy;

		zram_dev_set(d, idx[i]);
		rc = is_initialised(z, d);
		if (rc == -ENOENT) {	/* removed while we looked */
			rc = 0;
			continue;
		}
		if (rc != 0) {
			rc = rc > 0 ? 0 : rc;
			continue;
		}
		rc = zram_mounts(z, d, 1, &users);
		if (rc == 0)
			rc = zram_holders(z, d, &users);
		busy = users.n != 0;
		strv_free(&users);
		if (rc == 0 && !busy) {
			busy = zram_is_swap(z, d);
			if (busy < 0)
				rc = busy;
		}
		if (rc == 0 && !busy)
			break;
	}
	if (rc == 0 && i == n)
		rc = -ENOENT;
	free(idx);
	return rc;
}

/* The list of comp_algorithm, from d or, for a device not made yet, any other. */
static char *alg_list(struct zram_ctx *z, const struct zram_dev *d)
{
	char saved[sizeof(z->msg)], *path, *list = NULL;
	struct zram_dev any;
	size_t n;
	int *idx;

	memcpy(saved, z->msg, sizeof(saved));
	if (d->idx < 0) {
		if (list_devs(z, &idx, &n) == 0 && n) {
			zram_dev_set(&any, idx[0]);
			d = &any;
		}
		free(idx);
	}
	if (d->idx >= 0) {
		path = zram_attr(d, "comp_algorithm");
		if (zram_read(z, path, &list) < 0)
			list = NULL;
		free(path);
	}
	memcpy(z->msg, saved, sizeof(saved));
	return list;
}

static int set_algorithm(struct zram_ctx *z, const struct zram_dev *d, const char *alg)
{
	char *path = zram_attr(d, "comp_algorithm"), *list;
	int rc;

	if (z->dry_run) {
		/* The write decides; in a plan, the list is the best guess. */
		list = alg_list(z, d);
		if (list && !zram_alg_listed(list, alg)) {
			char *names = zram_alg_names(list);

			strv_pushf(&z->notes, "compression algorithm '%s' is not in the kernel's list (%s); the write may fail",
				   alg, names);
			free(names);
		}
		free(list);
	}
	rc = zram_write(z, path, alg);
	if (rc == -EINVAL) {
		list = alg_list(z, d);
		if (list && zram_alg_listed(list, alg)) {
			/* zram lists what it was built to know, not what the crypto API has loaded */
			zram_seterr(z, "compression algorithm '%s' is listed for /dev/%s but the kernel "
				    "refused it: its crypto module (e.g. %s) is probably not loaded or not "
				    "in the image (%s)", alg, d->name, alg, z->msg);
		} else if (list) {
			char *names = zram_alg_names(list);

			zram_seterr(z, "unknown compression algorithm '%s' for /dev/%s; available: %s (%s)",
				    alg, d->name, names, z->msg);
			free(names);
		} else {
			zram_seterr(z, "unknown compression algorithm '%s' for /dev/%s (%s)", alg,
				    d->name, z->msg);
		}
		free(list);
	} else if (rc == -EBUSY) {
		zram_seterr(z, "/dev/%s was set up by someone else meanwhile (%s)", d->name, z->msg);
	}
	free(path);
	return rc;
}

/* reset if initialised, comp_algorithm, mem_limit, disksize: in that order. */
static int configure(struct zram_ctx *z, const struct zram_dev *d,
		     const struct zram_add_opts *o, int *initialised)
{
	char *path, *val;
	int rc;

	if (d->idx >= 0) {
		rc = is_initialised(z, d);
		if (rc > 0)
			rc = reset_dev(z, d);
		if (rc < 0)
			return rc;
	}
	if (o->algorithm) {
		rc = set_algorithm(z, d, o->algorithm);
		if (rc < 0)
			return rc;
	}
	if (o->has_mem_limit) {
		path = zram_attr(d, "mem_limit");
		val = xasprintf("%llu", (unsigned long long)o->mem_limit);
		rc = zram_write(z, path, val);
		free(val);
		free(path);
		if (rc < 0)
			return rc;
	}
	path = zram_attr(d, "disksize");
	val = xasprintf("%llu", (unsigned long long)o->size);
	rc = zram_write(z, path, val);
	if (rc == -EBUSY)
		zram_seterr(z, "/dev/%s was set up by someone else meanwhile (%s)", d->name, z->msg);
	else if (rc == -ENOMEM)
		zram_seterr(z, "%s (not enough memory for a %s-byte zram disk)", z->msg, val);
	/*
	 * Only a successful write makes the device ours to reset: after EBUSY
	 * it belongs to whoever beat us to it.
	 */
	*initialised = rc == 0;
	free(val);
	free(path);
	return rc;
}

static int run_mkfs(struct zram_ctx *z, const struct zram_dev *d,
		    const struct zram_add_opts *o)
{
	struct strv argv = STRV_INIT, shown = STRV_INIT;
	int rc;

	strv_pushf(&argv, "mkfs.%s", o->mkfs);
	/* mke2fs asks before overwriting what looks like a filesystem. */
	if (!strcmp(o->mkfs, "ext2") || !strcmp(o->mkfs, "ext3") || !strcmp(o->mkfs, "ext4"))
		strv_push(&argv, "-F");
	strv_push_all(&argv, &o->mkfs_args);
	strv_push_all(&shown, &argv);
	strv_pushf(&argv, "%s/dev/%s", z->root, d->name);
	strv_pushf(&shown, "/dev/%s", d->name);
	rc = zram_run(z, strv_argv(&argv), strv_argv(&shown));
	strv_free(&argv);
	strv_free(&shown);
	return rc;
}

/* mkdir -p, noting each directory made so a failure can remove them again. */
static int make_dirs(struct zram_ctx *z, const char *dir, struct strv *made)
{
	char *p = xstrdup(dir), *s;
	int rc = 0, missing = 0;

	for (s = p + 1;; s++) {
		struct stat st;
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (missing || stat(p, &st) < 0) {
			if (!missing && errno != ENOENT) {
				rc = -errno;
				zram_seterr(z, "stat %s: %s", p, strerror(errno));
				break;
			}
			/* In a dry run nothing is made: what follows is missing too. */
			missing = z->dry_run;
			rc = zram_mkdir(z, p);
			if (rc < 0)
				break;
			strv_push(made, p);
		} else if (!S_ISDIR(st.st_mode)) {
			rc = -ENOTDIR;
			zram_seterr(z, "cannot mount on %s: %s is not a directory", dir, p);
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return rc;
}

/* Put the device back as it was found; a failure here is added to z->msg. */
static void undo_device(struct zram_ctx *z, const struct zram_dev *d, int added,
			int initialised)
{
	char first[sizeof(z->msg)];
	int rc = 0;

	if (z->dry_run)
		return;
	memcpy(first, z->msg, sizeof(first));
	if (initialised)
		rc = reset_dev(z, d);
	if (rc == 0 && added)
		rc = hot_remove(z, d);
	if (rc < 0) {
		char then[sizeof(z->msg)];

		memcpy(then, z->msg, sizeof(then));
		zram_seterr(z, "%s; undoing that failed too: %s", first, then);
	} else {
		memcpy(z->msg, first, sizeof(first));
	}
}

int zram_add(struct zram_ctx *z, const struct zram_add_opts *o, struct zram_dev *d)
{
	struct strv made = STRV_INIT;
	int control, added = 0, initialised = 0, rc;

	rc = check_module(z, &control);
	if (rc < 0)
		return rc;
	if (o->device >= 0) {
		zram_dev_set(d, o->device);
		rc = check_exists(z, d);
	} else {
		rc = find_free(z, d);
		if (rc == -ENOENT) {
			if (!control) {
				zram_seterr(z, "no free zram device, and no %s%s to make one (Linux < 4.2: load zram with num_devices=N)",
					    z->root, ZRAM_CONTROL "/hot_add");
				return -ENODEV;
			}
			rc = zram_hot_add(z, d);
			added = rc == 0;
		}
	}
	if (rc < 0)
		return rc;

	rc = configure(z, d, o, &initialised);
	if (rc < 0)
		goto undo_device;
	rc = zram_wait_node(z, d);
	if (rc < 0)
		goto undo_device;
	if (o->mkfs) {
		rc = run_mkfs(z, d, o);
		if (rc < 0)
			goto undo_device;
	}
	if (o->mount) {
		rc = make_dirs(z, o->mount, &made);
		if (rc < 0)
			goto undo_dirs;
		rc = zram_mount(z, d, o->mount, o->mkfs);
		if (rc < 0)
			goto undo_dirs;
	}
	strv_free(&made);
	return 0;

undo_dirs:
	if (!z->dry_run) {
		char first[sizeof(z->msg)];

		/* Newest first; the mount's error is the one to report. */
		memcpy(first, z->msg, sizeof(first));
		for (size_t i = made.n; i > 0; i--)
			if (zram_rmdir(z, made.v[i - 1]) < 0)
				break;
		memcpy(z->msg, first, sizeof(first));
	}
	strv_free(&made);
undo_device:
	undo_device(z, d, added, initialised);
	return rc;
}

int zram_reset(struct zram_ctx *z, int idx)
{
	struct zram_dev d;
	int control, rc;

	zram_dev_set(&d, idx);
	rc = check_module(z, &control);
	if (rc == 0)
		rc = check_exists(z, &d);
	if (rc == 0)
		rc = reset_dev(z, &d);
	return rc;
}

/* umount (newest first), swapoff, reset, hot_remove. */
int zram_remove(struct zram_ctx *z, int idx)
{
	struct strv mps = STRV_INIT;
	struct zram_dev d;
	int control, rc;

	zram_dev_set(&d, idx);
	rc = check_module(z, &control);
	if (rc == 0)
		rc = check_exists(z, &d);
	if (rc == 0)
		rc = zram_mounts(z, &d, 0, &mps);
	/* Newest first, so a mount on top of another comes off before it. */
	for (size_t i = mps.n; rc == 0 && i > 0; i--)
		rc = zram_umount(z, mps.v[i - 1]);
	strv_free(&mps);
	if (rc < 0)
		return rc;
	rc = zram_is_swap(z, &d);
	if (rc > 0)
		rc = zram_swapoff(z, &d);
	if (rc == 0)
		rc = reset_dev(z, &d);
	if (rc < 0)
		return rc;
	if (!control) {
		zram_seterr(z, "reset /dev/%s but cannot remove it: no %s%s (Linux < 4.2)", d.name,
			    z->root, ZRAM_CONTROL);
		return -EOPNOTSUPP;
	}
	return hot_remove(z, &d);
}
