/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mpath.h: one path of a multipath disk, described once. ./vm renders it
 * as a qemu -device argument and lists it in vmN.mpath; ./vmctl reads that
 * list and renders the same path as a QMP device_add to restore it, so a
 * restored path comes back with exactly the properties it was born with.
 */
#ifndef RAPIDO_MPATH_H
#define RAPIDO_MPATH_H

#include <stddef.h>

struct mpath_path {
	unsigned int disk, path;
	char id[24];		/* mp<DISK>p<PATH>, the qdev id */
	char node[16];		/* mp<DISK>, the -blockdev node (the backing file) */
	char serial[32];	/* VPD 0x80, the same on every path of a disk */
	char wwn[24];		/* NAA-5 WWN for VPD 0x83, 0x-prefixed hex */
	unsigned int scsi_id;	/* fixed per path: a restored path returns where it was */
};

/* Describe path `path` of disk `disk` on a VM with `paths` paths per disk. */
void mpath_path_init(struct mpath_path *p, unsigned int disk, unsigned int path, unsigned int paths);
/* "scsi-hd,bus=scsi0.0,drive=mp0,id=mp0p1,..." for qemu -device (malloc'd). */
char *mpath_path_device_arg(const struct mpath_path *p);
/* {"execute": "device_add", ...} with the same properties (malloc'd). */
char *mpath_path_device_add_json(const struct mpath_path *p);
/* One line of vmN.mpath: "ID DISK PATH PATHS FILE\n" (malloc'd). */
char *mpath_path_list_line(const struct mpath_path *p, unsigned int paths, const char *file);
/* Parse such a line back (the file is not needed to restore a path); 0 or -EINVAL. */
int mpath_path_parse_line(const char *line, struct mpath_path *p);

#endif
