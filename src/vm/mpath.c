// SPDX-License-Identifier: GPL-2.0
/*
 * mpath.c: multipath disks. One backing file is one -blockdev node; each
 * path is a scsi-hd on the virtio-scsi controller with the same serial, so
 * the guest sees one LUN through N paths. -blockdev (not -drive) keeps the
 * node alive when a path's device is unplugged, so ./vmctl can plug it back.
 * share-rw=on lets the paths share the node; locking=off because qemu's
 * own image locking would refuse the second writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "vm.h"

char *vm_mpath_serial(size_t disk)
{
	return xasprintf("RAPIDOMP%zu", disk);
}

/*
 * NAA-5 WWN for VPD page 0x83, the same on every path: without one, qemu's
 * scsi-hd reports only a vendor-specific designator, which the kernel's
 * sysfs wwid attribute and multipath's udev-free mode cannot use.
 */
char *vm_mpath_wwn(size_t disk)
{
	return xasprintf("0x5000c0de%08zx", disk);
}

size_t vm_mpath_scsi_id(size_t disk, unsigned int path, unsigned int paths)
{
	return disk * paths + path;
}

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

void vm_mpath_argv(const struct vm_launch *l, struct strv *argv)
{
	if (!l->n_mpath)
		return;
	strv_push(argv, "-device");
	strv_push(argv, "virtio-scsi-pci,id=scsi0");
	for (size_t d = 0; d < l->n_mpath; d++) {
		char *file = qopt(l->mpath[d].file);
		char *serial = vm_mpath_serial(d);

		strv_push(argv, "-blockdev");
		strv_pushf(argv, "driver=file,node-name=mp%zu,filename=%s,cache.direct=%s,locking=off",
			   d, file, l->mpath[d].direct ? "on" : "off");
		char *wwn = vm_mpath_wwn(d);

		for (unsigned int p = 0; p < l->mpath_paths; p++) {
			/* a fixed SCSI address per path, so a restored path comes back where it was */
			strv_push(argv, "-device");
			strv_pushf(argv, "scsi-hd,bus=scsi0.0,drive=mp%zu,id=mp%zup%u,serial=%s,wwn=%s,"
				   "scsi-id=%zu,lun=0,share-rw=on", d, d, p, serial, wwn,
				   vm_mpath_scsi_id(d, p, l->mpath_paths));
		}
		free(wwn);
		free(serial);
		free(file);
	}
}
