// SPDX-License-Identifier: GPL-2.0
/*
 * mpath.c: multipath disks. One backing file is one -blockdev node; each
 * path is a scsi-hd on the virtio-scsi controller with the same serial, so
 * the guest sees one LUN through N paths. -blockdev (not -drive) keeps the
 * node alive when a path's device is unplugged, so ./vmctl can plug it back.
 * share-rw=on lets the paths share the node; locking=off because qemu's
 * own image locking would refuse the second writer. Each path's identity
 * (id, serial, WWN, SCSI id) comes from src/lib/mpath.c, which ./vmctl
 * uses too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "mpath.h"
#include "vm.h"

void vm_mpath_check_or_die(const char *file, int *direct)
{
	struct stat st;
	int fd;

	if (stat(file, &st) < 0)
		die_errno("multipath backing file %s", file);
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		die("multipath backing file %s is not a regular file or block device", file);
	if (access(file, R_OK | W_OK) < 0)
		die_errno("multipath backing file %s", file);
	/* cache=none needs O_DIRECT, which tmpfs and some others refuse */
	fd = open(file, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		*direct = 1;
		return;
	}
	if (errno != EINVAL)
		die_errno("multipath backing file %s", file);
	warn("%s: the filesystem does not support O_DIRECT; using cache=writeback instead of cache=none",
	     file);
	*direct = 0;
}

void vm_mpath_argv(const struct vm_settings *s, struct strv *argv)
{
	if (!s->n_mpath)
		return;
	strv_push(argv, "-device");
	strv_push(argv, "virtio-scsi-pci,id=scsi0");
	for (unsigned int d = 0; d < s->n_mpath; d++) {
		char *file = qopt(s->mpath[d].file);

		strv_push(argv, "-blockdev");
		strv_pushf(argv, "driver=file,node-name=mp%u,filename=%s,cache.direct=%s,locking=off",
			   d, file, s->mpath[d].direct ? "on" : "off");
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
void vm_mpath_write_list(const struct vm_settings *s, const char *path)
{
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
