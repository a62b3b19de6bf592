// SPDX-License-Identifier: GPL-2.0
/*
 * tool-zram.c: unit tests for rapido-zram against a fake sysfs tree.
 *
 * The tree is plain directories and files under a temporary root. Where the
 * kernel would do something a plain file cannot (hot_add making a device,
 * reset failing with EBUSY on a mounted disk, comp_algorithm refusing a
 * name), the ops hook plays the kernel. mount, umount and swapoff never
 * reach the real system calls here: the hook answers them (these tests
 * may run as root).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "tap.h"
#include "../../tools/zram/zram.h"

static char root[4096];

struct fake {
	int hot_add_next;		/* index hot_add hands out; -1: forbid */
	int hot_add_reads;
	const char *fail_op;		/* fail this op on a path ending in fail_path */
	const char *fail_path;
	int fail_err;
	int make_node;			/* hot_add also makes /dev/zramN */
	int mount_err;			/* what mount returns */
};

static struct fake fk;

static void put(const char *rel, const char *content)
{
	char *path = xasprintf("%s/%s", root, rel), *slash;
	int rc;

	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			die_errno("mkdir %s", path);
		*slash = '/';
	}
	rc = write_file_atomic(path, content, strlen(content), 0644);
	if (rc < 0)
		die_err(rc, "write %s", path);
	free(path);
}

static char *get(const char *rel)
{
	char *path = xasprintf("%s/%s", root, rel), *s;

	if (read_file(path, &s, NULL) < 0)
		s = xstrdup("(missing)");
	free(path);
	return s;
}

static int exists(const char *rel)
{
	char *path = xasprintf("%s/%s", root, rel);
	struct stat st;
	int rc = stat(path, &st) == 0;

	free(path);
	return rc;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(p);
}

static void mkdev(int idx, const char *disksize)
{
	char rel[256], val[32];

	snprintf(rel, sizeof(rel), "sys/block/zram%d/", idx);
#define ATTR(name, v) do {						\
		char a[300];						\
		snprintf(a, sizeof(a), "%s%s", rel, name);		\
		put(a, v);						\
	} while (0)
	ATTR("disksize", disksize);
	ATTR("initstate", strcmp(disksize, "0\n") ? "1\n" : "0\n");
	ATTR("comp_algorithm", "lzo [lzo-rle] lz4 zstd \n");
	ATTR("reset", "");
	ATTR("mem_limit", "0\n");
	snprintf(val, sizeof(val), "252:%d\n", idx);
	ATTR("dev", val);
	ATTR("holders/.keep", "");
#undef ATTR
	snprintf(rel, sizeof(rel), "dev/zram%d", idx);
	put(rel, "");
}

/* A fresh tree: zram loaded, no devices, nothing mounted, no swap. */
static void mkfake(void)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	if (mkdir(root, 0755) < 0)
		die_errno("mkdir %s", root);
	put("sys/class/zram-control/hot_add", "");
	put("sys/class/zram-control/hot_remove", "");
	put("sys/block/.keep", "");
	put("dev/.keep", "");
	put("proc/self/mountinfo",
	    "21 1 0:20 / /proc rw,nosuid - proc proc rw\n"
	    "22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n");
	put("proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	memset(&fk, 0, sizeof(fk));
	fk.hot_add_next = -1;
	fk.make_node = 1;
}

static int hook(struct zram_ctx *z, const char *op, const char *path, const char *arg)
{
	size_t lp = strlen(path), lf;

	(void)z, (void)arg;
	if (fk.fail_op && !strcmp(op, fk.fail_op)) {
		lf = strlen(fk.fail_path);
		if (lp >= lf && !strcmp(path + lp - lf, fk.fail_path))
			return -fk.fail_err;
	}
	if (!strcmp(op, "read") && strstr(path, "hot_add")) {
		char n[32];

		fk.hot_add_reads++;
		if (fk.hot_add_next < 0)
			return -EPERM;
		/* What the kernel does: a new disk in sysfs, a node in devtmpfs. */
		mkdev(fk.hot_add_next, "0\n");
		if (!fk.make_node) {
			char *node = xasprintf("%s/dev/zram%d", root, fk.hot_add_next);

			unlink(node);
			free(node);
		}
		snprintf(n, sizeof(n), "%d\n", fk.hot_add_next);
		put("sys/class/zram-control/hot_add", n);
		return 0;
	}
	if (!strcmp(op, "mount"))
		return fk.mount_err ? -fk.mount_err : 1;
	if (!strcmp(op, "umount") || !strcmp(op, "swapoff") || !strcmp(op, "exec"))
		return 1;
	return 0;
}

/* A context on the fake root whose trace goes to a memory buffer. */
struct run {
	struct zram_ctx z;
	char *trace;
	size_t len;
	char *out;
	size_t out_len;
};

static void run_init(struct run *r, int dry_run)
{
	memset(r, 0, sizeof(*r));
	zram_ctx_init(&r->z);
	r->z.root = root;
	r->z.dry_run = dry_run;
	r->z.hook = hook;
	r->z.wait_ms = 50;
	r->z.trace = open_memstream(&r->trace, &r->len);
	r->z.out = open_memstream(&r->out, &r->out_len);
	if (!r->z.trace || !r->z.out)
		die("open_memstream");
}

static void run_done(struct run *r)
{
	fclose(r->z.trace);
	fclose(r->z.out);
	free(r->trace);
	free(r->out);
	zram_ctx_free(&r->z);
}

static void add_opts(struct zram_add_opts *o)
{
	zram_add_opts_init(o);
	o->size = 1ULL << 30;
	o->algorithm = "zstd";
	o->mem_limit = 256ULL << 20;
	o->has_mem_limit = 1;
}

static void test_parse(void)
{
	static const struct { const char *s; int idx; } good[] = {
		{ "0", 0 }, { "zram3", 3 }, { "/dev/zram12", 12 }, { "2147483647", 2147483647 },
	};
	static const char *const bad[] = {
		"", "zram", "/dev/zram", "x1", "-1", "zram-1", "/dev/sda", "03", "1a",
		"2147483648", "/dev/zram1/", "zram 1",
	};
	int idx, ok = 1;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		idx = -1;
		if (zram_parse_dev(good[i].s, &idx) || idx != good[i].idx) {
			printf("# zram_parse_dev(\"%s\") = %d\n", good[i].s, idx);
			ok = 0;
		}
	}
	tap_ok(ok, "zram_parse_dev accepts /dev/zramN, zramN, N");
	ok = 1;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (zram_parse_dev(bad[i], &idx) != -EINVAL) {
			printf("# zram_parse_dev(\"%s\") accepted\n", bad[i]);
			ok = 0;
		}
	}
	tap_ok(ok, "zram_parse_dev rejects junk");
}

static void test_alg(void)
{
	char *names = zram_alg_names("lzo [lzo-rle] lz4  zstd \n");

	TAP_EQ_STR(names, "lzo lzo-rle lz4 zstd", "comp_algorithm list without brackets");
	free(names);
	tap_ok(zram_alg_listed("lzo [lzo-rle] lz4 zstd", "lzo-rle") &&
	       zram_alg_listed("lzo [lzo-rle] lz4 zstd", "zstd") &&
	       !zram_alg_listed("lzo [lzo-rle] lz4 zstd", "lz") &&
	       !zram_alg_listed("lzo [lzo-rle] lz4 zstd", "[lzo-rle]"),
	       "zram_alg_listed matches whole names");
}

static void test_mounts_parse(void)
{
	const char *mi =
		"22 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
		"40 22 252:0 / /mnt/a\\040b rw,relatime shared:5 - ext4 /dev/zram0 rw\n"
		"41 22 252:1 / /mnt/other rw - ext4 /dev/zram1 rw\n"
		"42 40 252:0 /sub /srv/bind rw - ext4 /dev/zram0 rw\n"
		"43 22 0:50 / /mnt/byname rw - tmpfs /dev/zram0 rw\n"
		"garbage\n";
	struct strv mps = STRV_INIT;

	zram_mounts_parse(mi, "252:0", "/dev/zram0", &mps);
	TAP_EQ_INT(mps.n, 3, "three mounts of zram0 (by maj:min and by source)");
	TAP_EQ_STR(mps.n > 0 ? mps.v[0] : NULL, "/mnt/a b", "octal escape undone");
	TAP_EQ_STR(mps.n > 2 ? mps.v[2] : NULL, "/mnt/byname", "matched by source");
	strv_free(&mps);

	tap_ok(zram_swaps_parse("Filename Type Size Used Priority\n"
				"/dev/zram1                              partition\t1 0 -2\n",
				"/dev/zram1") == 1 &&
	       zram_swaps_parse("Filename Type Size Used Priority\n"
				"/dev/zram10 partition 1 0 -2\n", "/dev/zram1") == 0 &&
	       zram_swaps_parse("Filename\n", "Filename") == 0,
	       "/proc/swaps: device found, prefix and header not taken");
}

static void test_add_free(void)
{
	struct zram_add_opts o;
	struct zram_dev d;
	struct run r;
	int rc;

	mkfake();
	mkdev(0, "1073741824\n");	/* in use */
	mkdev(1, "0\n");		/* free */
	put("proc/self/mountinfo", "40 22 252:0 / /mnt rw - ext4 /dev/zram0 rw\n");
	run_init(&r, 0);
	add_opts(&o);
	rc = zram_add(&r.z, &o, &d);
	TAP_EQ_INT(rc, 0, "add picks a free device (%s)", r.z.msg);
	TAP_EQ_STR(d.name, "zram1", "the free device is zram1");
	TAP_EQ_STR(r.trace,
		   "write /sys/block/zram1/comp_algorithm zstd\n"
		   "write /sys/block/zram1/mem_limit 268435456\n"
		   "write /sys/block/zram1/disksize 1073741824\n"
		   "wait /dev/zram1\n",
		   "add: algorithm, mem_limit, then disksize");
	TAP_EQ_INT(fk.hot_add_reads, 0, "hot_add not read when a device is free");
	strv_free(&o.mkfs_args);
	run_done(&r);
	{
		char *s = get("sys/block/zram1/disksize");

		TAP_EQ_STR(s, "1073741824", "disksize written in one piece, no newline");
		free(s);
	}
}

static void test_add_hot_add(void)
{
	struct zram_add_opts o;
	struct zram_dev d;
	struct run r;
	int rc;

	mkfake();
	mkdev(0, "4096\n");
	fk.hot_add_next = 1;
	run_init(&r, 0);
	add_opts(&o);
	o.has_mem_limit = 0;
	o.algorithm = NULL;
	rc = zram_add(&r.z, &o, &d);
	TAP_EQ_INT(rc, 0, "add with no free device uses hot_add (%s)", r.z.msg);
	TAP_EQ_STR(r.trace,
		   "read /sys/class/zram-control/hot_add -> zram1\n"
		   "write /sys/block/zram1/disksize 1073741824\n"
		   "wait /dev/zram1\n",
		   "add: hot_add, then disksize only (kernel's algorithm)");
	TAP_EQ_INT(fk.hot_add_reads, 1, "hot_add read exactly once");
	run_done(&r);
}

static void test_add_skips_held(void)
{
	struct zram_add_opts o;
	struct zram_dev d;
	struct run r;
	int rc;

	/* disksize 0 but stacked under device-mapper, or listed as swap: not free */
	mkfake();
	mkdev(0, "0\n");
	put("sys/block/zram0/holders/dm-0", "");
	mkdev(1, "0\n");
	put("proc/swaps", "Filename Type Size Used Priority\n/dev/zram1 partition 4 0 -2\n");
	mkdev(2, "0\n");
	run_init(&r, 0);
	add_opts(&o);
	rc = zram_add(&r.z, &o, &d);
	tap_ok(rc == 0 && d.idx == 2, "devices held or swapped on are not picked (%s, %s)",
	       d.name, r.z.msg);
	run_done(&r);
}

static void test_add_device_reset(void)
{
	struct zram_add_opts o;
	struct zram_dev d;
	struct run r;
	int rc;

	mkfake();
	mkdev(2, "4096\n");
	run_init(&r, 0);
	add_opts(&o);
	o.device = 2;
	rc = zram_add(&r.z, &o, &d);
	TAP_EQ_INT(rc, 0, "add --device on a set-up device (%s)", r.z.msg);
	TAP_EQ_STR(r.trace,
		   "write /sys/block/zram2/reset 1\n"
		   "write /sys/block/zram2/comp_algorithm zstd\n"
		   "write /sys/block/zram2/mem_limit 268435456\n"
		   "write /sys/block/zram2/disksize 1073741824\n"
		   "wait /dev/zram2\n",
		   "add --device: reset first, then algorithm, mem_limit, disksize");
	run_done(&r);
}

static void test_reset_busy(void)
{
	struct run r;
	int rc;

	mkfake();
	mkdev(0, "4096\n");
	put("proc/self/mountinfo", "40 22 252:0 / /mnt/a\\040b rw - ext4 /dev/zram0 rw\n");
	fk.fail_op = "write";
	fk.fail_path = "/zram0/reset";
	fk.fail_err = EBUSY;
	run_init(&r, 0);
	rc = zram_reset(&r.z, 0);
	TAP_EQ_INT(rc, -EBUSY, "reset of a mounted device fails with EBUSY");
	tap_ok(strstr(r.z.msg, "cannot reset /dev/zram0: it is in use (mounted on /mnt/a b)") &&
	       strstr(r.z.msg, "Device or resource busy") && strstr(r.z.msg, "zram0/reset"),
	       "EBUSY message names the device, its mount and the path: %s", r.z.msg);
	run_done(&r);

	put("proc/self/mountinfo", "");
	run_init(&r, 0);
	rc = zram_remove(&r.z, 0);
	tap_ok(rc == -EBUSY && strstr(r.z.msg, "mounted, used as swap, or held open by a process"),
	       "EBUSY with no mount or swap: says it may be open (%s)", r.z.msg);
	run_done(&r);
}

static void test_bad_algorithm(void)
{
	struct zram_add_opts o;
	struct zram_dev d;
	struct run r;
	int rc;

	mkfake();
	fk.hot_add_next = 0;
	fk.fail_op = "write";
	fk.fail_path = "/comp_algorithm";
	fk.fail_err = EINVAL;
	run_init(&r, 0);
	add_opts(&o);
	o.algorithm = "lzma";
	rc = zram_add(&r.z, &o, &d);
	TAP_EQ_INT(rc, -EINVAL, "unknown algorithm fails with EINVAL");
	tap_ok(strstr(r.z.msg, "unknown compression algorithm 'lzma' for /dev/zram0; available: lzo lzo-rle lz4 zstd") != NULL,
	       "message lists the available algorithms: %s", r.z.msg);
	TAP_EQ_STR(r.trace,
		   "read /sys/class/zram-control/hot_add -> zram0\n"
		   "write /sys/block/zram0/comp_algorithm lzma\n"
		   "write /sys/class/zram-control/hot_remove 0\n",
		   "the device made by hot_add is removed again");
	run_done(&r);
}

static void test_no_module(void)
{
	struct zram_add_opts o;
	struct zram_dev d;
	struct run r;
	char *ctl = xasprintf("%s/sys/class/zram-control", root);
	int rc;

	mkfake();
	nftw(ctl, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	run_init(&r, 0);
	add_opts(&o);
	rc = zram_add(&r.z, &o, &d);
	TAP_EQ_INT(rc, -ENOENT, "no zram-control and no devices: error");
	tap_ok(strstr(r.z.msg, "zram module is not loaded") && strstr(r.z.msg, "modprobe zram") &&
	       strstr(r.z.msg, "/sys/class/zram-control"),
	       "message says to load the zram module: %s", r.z.msg);
	run_done(&r);

	/* Linux < 4.2: devices but no control directory; a free one still works. */
	mkdev(0, "0\n");
	run_init(&r, 0);
	rc = zram_add(&r.z, &o, &d);
	TAP_EQ_INT(rc, 0, "no zram-control but a free device: add works (%s)", r.z.msg);
	run_done(&r);
	free(ctl);
}

static void test_dry_run(void)
{
	struct zram_add_opts o;
	struct zram_dev d;
	struct run r;
	char *before, *after;
	int rc;

	mkfake();
	mkdev(0, "4096\n");
	put("sys/class/zram-control/hot_add", "untouched\n");
	before = get("sys/block/zram0/comp_algorithm");
	run_init(&r, 1);
	add_opts(&o);
	o.mkfs = "xfs";
	strv_push(&o.mkfs_args, "-f");
	o.mount = "/nonexistent-rapido/mnt";
	rc = zram_add(&r.z, &o, &d);
	TAP_EQ_INT(rc, 0, "dry run of add (%s)", r.z.msg);
	TAP_EQ_INT(fk.hot_add_reads, 0, "dry run never reads hot_add");
	after = get("sys/class/zram-control/hot_add");
	TAP_EQ_STR(after, "untouched\n", "hot_add file untouched");
	free(after);
	TAP_EQ_STR(r.out,
		   "read /sys/class/zram-control/hot_add -> zramN\n"
		   "write /sys/block/zramN/comp_algorithm zstd\n"
		   "write /sys/block/zramN/mem_limit 268435456\n"
		   "write /sys/block/zramN/disksize 1073741824\n"
		   "wait /dev/zramN\n"
		   "exec mkfs.xfs -f /dev/zramN\n"
		   "mkdir /nonexistent-rapido\n"
		   "mkdir /nonexistent-rapido/mnt\n"
		   "mount /dev/zramN /nonexistent-rapido/mnt xfs\n",
		   "dry run prints the plan with a zramN placeholder");
	after = get("sys/block/zram0/comp_algorithm");
	TAP_EQ_STR(after, before, "dry run writes nothing");
	free(after);
	free(before);
	TAP_EQ_INT(r.z.notes.n, 0, "zstd is in the list: no note");
	strv_free(&o.mkfs_args);
	run_done(&r);

	run_init(&r, 1);
	add_opts(&o);
	o.algorithm = "lzma";
	rc = zram_add(&r.z, &o, &d);
	tap_ok(rc == 0 && r.z.notes.n == 1 &&
	       strstr(r.z.notes.v[0], "'lzma' is not in the kernel's list (lzo lzo-rle lz4 zstd)"),
	       "dry run notes an algorithm not in the list: %s",
	       r.z.notes.n ? r.z.notes.v[0] : "(none)");
	run_done(&r);
}

static void test_remove(void)
{
	struct run r;
	int rc;

	mkfake();
	mkdev(3, "4096\n");
	put("proc/self/mountinfo",
	    "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
	    "40 22 252:3 / /mnt/z rw - ext4 /dev/zram3 rw\n"
	    "41 40 252:3 /d /mnt/z/bind rw - ext4 /dev/zram3 rw\n");
	put("proc/swaps", "Filename Type Size Used Priority\n/dev/zram3 partition 4 0 -2\n");
	run_init(&r, 0);
	rc = zram_remove(&r.z, 3);
	TAP_EQ_INT(rc, 0, "remove (%s)", r.z.msg);
	TAP_EQ_STR(r.trace,
		   "umount /mnt/z/bind\n"
		   "umount /mnt/z\n"
		   "swapoff /dev/zram3\n"
		   "write /sys/block/zram3/reset 1\n"
		   "write /sys/class/zram-control/hot_remove 3\n",
		   "remove: umount newest first, swapoff, reset, hot_remove");
	run_done(&r);

	run_init(&r, 0);
	rc = zram_remove(&r.z, 4);
	tap_ok(rc == -ENODEV && strstr(r.z.msg, "no such zram device: /dev/zram4"),
	       "remove of a missing device: %s", r.z.msg);
	run_done(&r);

	fk.fail_op = "write";
	fk.fail_path = "/hot_remove";
	fk.fail_err = EBUSY;
	put("proc/self/mountinfo", "");
	put("proc/swaps", "Filename Type Size Used Priority\n");
	run_init(&r, 0);
	rc = zram_remove(&r.z, 3);
	tap_ok(rc == -EBUSY && strstr(r.z.msg, "cannot remove /dev/zram3: it is in use"),
	       "hot_remove EBUSY names the device: %s", r.z.msg);
	run_done(&r);
}

static void test_undo(void)
{
	struct zram_add_opts o;
	struct zram_dev d;
	struct run r;
	char *mnt;
	int rc;

	/* The node never appears: reset and remove what hot_add made. */
	mkfake();
	fk.hot_add_next = 5;
	fk.make_node = 0;
	run_init(&r, 0);
	add_opts(&o);
	o.algorithm = NULL;
	o.has_mem_limit = 0;
	rc = zram_add(&r.z, &o, &d);
	tap_ok(rc == -ETIMEDOUT && strstr(r.z.msg, "/dev/zram5 did not appear within 50 ms"),
	       "missing node times out: %s", r.z.msg);
	TAP_EQ_STR(r.trace,
		   "read /sys/class/zram-control/hot_add -> zram5\n"
		   "write /sys/block/zram5/disksize 1073741824\n"
		   "wait /dev/zram5\n"
		   "write /sys/block/zram5/reset 1\n"
		   "write /sys/class/zram-control/hot_remove 5\n",
		   "undo after a timeout: reset, hot_remove");
	run_done(&r);

	/* mount fails: the directories made are removed, then the device. */
	mkfake();
	fk.hot_add_next = 0;
	fk.mount_err = EPERM;
	mnt = xasprintf("%s/m/n", root);
	run_init(&r, 0);
	add_opts(&o);
	o.algorithm = NULL;
	o.has_mem_limit = 0;
	o.mkfs = "ext4";
	o.mount = mnt;
	rc = zram_add(&r.z, &o, &d);
	tap_ok(rc == -EPERM && strstr(r.z.msg, "mount ") && strstr(r.z.msg, "(type ext4)"),
	       "mount failure reported: %s", r.z.msg);
	{
		char *want = xasprintf("read /sys/class/zram-control/hot_add -> zram0\n"
				       "write /sys/block/zram0/disksize 1073741824\n"
				       "wait /dev/zram0\n"
				       "exec mkfs.ext4 -F /dev/zram0\n"
				       "mkdir %s/m\n"
				       "mkdir %s/m/n\n"
				       "mount /dev/zram0 %s/m/n ext4\n"
				       "rmdir %s/m/n\n"
				       "rmdir %s/m\n"
				       "write /sys/block/zram0/reset 1\n"
				       "write /sys/class/zram-control/hot_remove 0\n",
				       root, root, root, root, root);

		TAP_EQ_STR(r.trace, want, "undo after mount failure: rmdir, reset, hot_remove");
		free(want);
	}
	tap_ok(!exists("m"), "directories made for the mount are gone");
	run_done(&r);
	free(mnt);

	/* The device was taken meanwhile (disksize EBUSY): leave it alone. */
	mkfake();
	mkdev(0, "0\n");
	fk.fail_op = "write";
	fk.fail_path = "/disksize";
	fk.fail_err = EBUSY;
	run_init(&r, 0);
	add_opts(&o);
	o.algorithm = NULL;
	o.has_mem_limit = 0;
	rc = zram_add(&r.z, &o, &d);
	tap_ok(rc == -EBUSY && strstr(r.z.msg, "set up by someone else"), "disksize EBUSY: %s",
	       r.z.msg);
	TAP_EQ_STR(r.trace, "write /sys/block/zram0/disksize 1073741824\n",
		   "a device someone else set up is not reset");
	run_done(&r);
}

static void test_run(void)
{
	char *const fail[] = { "sh", "-c", "exit 3", NULL };
	char *const none[] = { "rapido-no-such-mkfs", NULL };
	char *const echo[] = { "sh", "-c", "echo to-stdout", NULL };
	char *log = xasprintf("%s/stderr", root), *s = NULL;
	struct zram_ctx z;
	int rc, saved, fd;

	zram_ctx_init(&z);
	rc = zram_run(&z, fail, fail);
	tap_ok(rc < 0 && strstr(z.msg, "sh -c 'exit 3' failed with exit status 3"),
	       "exit status reported: %s", z.msg);
	rc = zram_run(&z, none, none);
	tap_ok(rc == -ENOENT && strstr(z.msg, "cannot run rapido-no-such-mkfs: No such file"),
	       "exec failure reported: %s", z.msg);

	/* The child's stdout goes to our stderr: stdout is for the device path. */
	fflush(stdout);
	saved = dup(2);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (saved < 0 || fd < 0 || dup2(fd, 2) < 0)
		die_errno("redirect stderr");
	close(fd);
	rc = zram_run(&z, echo, echo);
	dup2(saved, 2);
	close(saved);
	read_file(log, &s, NULL);
	tap_ok(rc == 0 && s && !strcmp(s, "to-stdout\n"), "command's stdout sent to stderr");
	free(s);
	free(log);
	zram_ctx_free(&z);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(root, sizeof(root), "%s/rapido-zram-test.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		die_errno("mkdtemp %s", root);
	tap_plan(49);
	test_parse();
	test_alg();
	test_mounts_parse();
	test_add_free();
	test_add_hot_add();
	test_add_skips_held();
	test_add_device_reset();
	test_reset_busy();
	test_bad_algorithm();
	test_no_module();
	test_dry_run();
	test_remove();
	test_undo();
	test_run();
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return tap_done();
}
