// SPDX-License-Identifier: GPL-2.0
/*
 * mpath.c: multipath disks. One backing file is one -blockdev node; each
 * path is a scsi-hd on the virtio-scsi controller with the same serial, so
 * the guest sees one LUN through N paths. -blockdev (not -drive) keeps the
 * node alive when a path's device is unplugged, so ./vmctl can plug it back.
 * share-rw=on lets the paths share the node; locking=off because qemu's
 * own image locking would refuse the second writer. Each path's identity
 * (id, serial, WWN, SCSI id) comes from src/qemu/mpath.c, which ./vmctl
 * uses too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devices.h"
#include "err.h"
#include "io.h"
#include "lookup.h"
#include "mpath.h"
#include "qopt.h"
#include "vm.h"

static void check_or_die(const char *file)
{
	struct stat st;

	if (stat(file, &st) < 0)
		die_errno("multipath backing file %s", file);
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		die("multipath backing file %s is not a regular file or block device", file);
	if (access(file, R_OK | W_OK) < 0)
		die_errno("multipath backing file %s", file);
}

static void mpath_resolve(struct vm_settings *s, struct vm_opts *o, const struct conf *c)
{
	struct strv files = STRV_INIT;
	struct vm_src src;

	/* the options replace the key's list */
	if (o->mpath.n)
		strv_push_all(&files, &o->mpath);
	else
		vm_split(c, "QEMU_MPATH_DISKS", &files);
	s->mpath_paths = vm_opt_number(c, o, "QEMU_MPATH_PATHS", &src);
	if (files.n && s->mpath_paths < 1)
		die("a multipath disk needs at least one path");
	if (files.n * s->mpath_paths > 256)
		die("%zu multipath disks x %u paths need more than the 256 SCSI targets of one "
		    "virtio-scsi controller", files.n, s->mpath_paths);
	s->n_mpath = files.n;
	s->mpath = xcalloc(s->n_mpath ? s->n_mpath : 1, sizeof(*s->mpath));
	for (size_t i = 0; i < files.n; i++) {
		s->mpath[i].file = xstrdup(files.v[i]);
		check_or_die(files.v[i]);
	}
	strv_free(&files);
}

/* cache=none needs O_DIRECT, which tmpfs and some others refuse: 1 if it works, else 0 */
static int direct_works_or_die(const char *file)
{
	int fd = open(file, O_RDWR | O_DIRECT | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return 1;
	}
	if (errno != EINVAL)
		die_errno("multipath backing file %s", file);
	warn("%s: the filesystem does not support O_DIRECT; using cache=writeback instead of cache=none",
	     file);
	return 0;
}

static void mpath_plan(struct vm_launch *l)
{
	const struct vm_settings *s = l->s;

	l->mpath_direct = xcalloc(s->n_mpath ? s->n_mpath : 1, sizeof(*l->mpath_direct));
	for (size_t i = 0; i < s->n_mpath; i++)
		l->mpath_direct[i] = (unsigned char)direct_works_or_die(s->mpath[i].file);
}

static void mpath_argv(const struct vm_launch *l, struct strv *argv)
{
	const struct vm_settings *s = l->s;

	if (!s->n_mpath)
		return;
	strv_push(argv, "-device");
	strv_push(argv, "virtio-scsi-pci,id=scsi0");
	for (unsigned int d = 0; d < s->n_mpath; d++) {
		char *file = qopt(s->mpath[d].file);

		strv_push(argv, "-blockdev");
		strv_pushf(argv, "driver=file,node-name=mp%u,filename=%s,cache.direct=%s,locking=off",
			   d, file, l->mpath_direct[d] ? "on" : "off");
		for (unsigned int p = 0; p < s->mpath_paths; p++) {
			struct mpath_path mp;

			char *dev;

			mpath_path_init(&mp, d, p, s->mpath_paths);
			dev = mpath_path_device_arg(&mp);
			strv_push(argv, "-device");
			strv_push(argv, dev);
			free(dev);
		}
		free(file);
	}
}

/* vmN.mpath tells ./vmctl which paths exist (mpath.h: one line per path) */
static void mpath_start(const struct vm_launch *l)
{
	const struct vm_settings *s = l->s;
	const char *path = l->mpath_list;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (!f)
		die_errno("open_memstream");
	for (unsigned int d = 0; d < s->n_mpath; d++) {
		for (unsigned int p = 0; p < s->mpath_paths; p++) {
			struct mpath_path mp;
			char *line;

			mpath_path_init(&mp, d, p, s->mpath_paths);
			line = mpath_path_list_line(&mp, s->mpath_paths, s->mpath[d].file);
			fputs(line, f);
			free(line);
		}
	}
	if (fclose(f))
		die_errno("open_memstream");
	rc = write_file_atomic(path, text, len, 0644);
	if (rc)
		die_err(rc, "%s", path);
	free(text);
}

static void mpath_stop(const struct vm_launch *l)
{
	unlink(l->mpath_list);
}

static void mpath_free(struct vm_settings *s, struct vm_launch *l)
{
	if (l) {
		free(l->mpath_direct);
		l->mpath_direct = NULL;
	}
	if (!s)
		return;
	for (size_t i = 0; i < s->n_mpath; i++)
		free((char *)s->mpath[i].file);
	free(s->mpath);
	s->mpath = NULL;
	s->n_mpath = 0;
}

const struct vm_device vm_dev_mpath = {
	.name = "mpath",
	.resolve = mpath_resolve,
	.plan = mpath_plan,
	.start = mpath_start,
	.stop = mpath_stop,
	.argv = mpath_argv,
	.free = mpath_free,
};
