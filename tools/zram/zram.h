/* SPDX-License-Identifier: GPL-2.0 */
/* zram.h: zram device set-up and teardown through sysfs, for rapido-zram. */
#ifndef RAPIDO_ZRAM_H
#define RAPIDO_ZRAM_H

#include <stdint.h>
#include <stdio.h>

#include "strv.h"

struct zram_ctx;

/*
 * Test hook, called just before each operation that changes something
 * (and before the read of hot_add, which creates a device). op is "read",
 * "write", "exec", "mkdir", "rmdir", "mount", "umount" or "swapoff"; path
 * is as seen inside the root (for "exec", the command line as traced);
 * arg is the value written or the filesystem type, else NULL.
 * Return 0 to go on with the real operation, > 0 to skip it as if it had
 * succeeded (except "read", which is always done), or -errno to fail it
 * with that error. A test uses it to play
 * the kernel: make the directory hot_add would create, or fail a reset
 * with EBUSY as a mounted device would.
 */
typedef int (*zram_hook_fn)(struct zram_ctx *z, const char *op, const char *path,
			    const char *arg);

struct zram_ctx {
	const char *root;	/* "" or a directory that stands in for "/" */
	int dry_run;		/* log operations to out instead of doing them */
	FILE *out;		/* where a dry run's plan goes (stdout) */
	FILE *trace;		/* if set, each operation is logged here too */
	int wait_ms;		/* how long to wait for /dev/zramN (5000) */
	zram_hook_fn hook;
	void *hook_data;
	struct strv notes;	/* warnings for the caller to print */
	char msg[2048];		/* what went wrong, when a function returns < 0 */
};

/* A device; idx -1 stands for the one hot_add would create in a dry run. */
struct zram_dev {
	int idx;
	char name[24];		/* "zram3", or "zramN" */
};

struct zram_add_opts {
	uint64_t size;		/* disksize in bytes, > 0 */
	uint64_t mem_limit;
	int has_mem_limit;
	const char *algorithm;	/* NULL: keep the kernel's default */
	int device;		/* -1: a free device, or a new one from hot_add */
	const char *mkfs;	/* filesystem type, or NULL */
	struct strv mkfs_args;	/* extra arguments for mkfs */
	const char *mount;	/* mount point, or NULL (needs mkfs) */
};

#define ZRAM_CONTROL "/sys/class/zram-control"

/* zram.c: commands. Each returns 0, or -errno with z->msg set. */
void zram_ctx_init(struct zram_ctx *z);
void zram_ctx_free(struct zram_ctx *z);
void zram_add_opts_init(struct zram_add_opts *o);
int zram_add(struct zram_ctx *z, const struct zram_add_opts *o, struct zram_dev *d);
int zram_reset(struct zram_ctx *z, int idx);
int zram_remove(struct zram_ctx *z, int idx);

/* Accepts "/dev/zramN", "zramN" or "N"; returns 0 or -EINVAL. */
int zram_parse_dev(const char *s, int *idx);
/* 1 if alg is one of the names in comp_algorithm's "lzo [lzo-rle] lz4" list. */
int zram_alg_listed(const char *list, const char *alg);
/* The names in such a list without the brackets: "lzo lzo-rle lz4" (malloc'd). */
char *zram_alg_names(const char *list);

/* ops.c: the operations, each logged, hooked and skipped in a dry run. */
__attribute__((format(printf, 2, 3)))
void zram_seterr(struct zram_ctx *z, const char *fmt, ...);
__attribute__((format(printf, 2, 3)))
void zram_log(struct zram_ctx *z, const char *fmt, ...);
/* Name d after its index: "zram3", or "zramN" for -1 (hot_add's device in a dry run). */
void zram_dev_set(struct zram_dev *d, int idx);
/* root + path, malloc'd. */
char *zram_path(const struct zram_ctx *z, const char *path);
/* "/sys/block/zramN/attr", malloc'd. */
char *zram_attr(const struct zram_dev *d, const char *attr);
/* Read a sysfs file without its trailing newline; not logged, no side effect. */
int zram_read(struct zram_ctx *z, const char *path, char **out);
int zram_write(struct zram_ctx *z, const char *path, const char *val);
int zram_hot_add(struct zram_ctx *z, struct zram_dev *d);
int zram_wait_node(struct zram_ctx *z, const struct zram_dev *d);
/* Run argv (stdout sent to stderr); shown is what the trace prints. */
int zram_run(struct zram_ctx *z, char *const argv[], char *const shown[]);
int zram_mkdir(struct zram_ctx *z, const char *dir);
int zram_rmdir(struct zram_ctx *z, const char *dir);
int zram_mount(struct zram_ctx *z, const struct zram_dev *d, const char *dir,
	       const char *fstype);
int zram_umount(struct zram_ctx *z, const char *dir);
int zram_swapoff(struct zram_ctx *z, const struct zram_dev *d);

/* mounts.c: who uses a device. */
/* Mount points of the device in mountinfo text, in mount order. */
void zram_mounts_parse(const char *mountinfo, const char *majmin, const char *devpath,
		       struct strv *out);
/* 1 if devpath is listed in /proc/swaps text. */
int zram_swaps_parse(const char *swaps, const char *devpath);
/* From the files under the root; missing_ok: no mountinfo means no mounts. */
int zram_mounts(struct zram_ctx *z, const struct zram_dev *d, int missing_ok,
		struct strv *out);
int zram_is_swap(struct zram_ctx *z, const struct zram_dev *d);
/* Devices stacked on it (sysfs holders/), e.g. "dm-0"; 0 if none. */
int zram_holders(struct zram_ctx *z, const struct zram_dev *d, struct strv *out);

#endif
