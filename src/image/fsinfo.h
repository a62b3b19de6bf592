/* SPDX-License-Identifier: GPL-2.0 */
/* fsinfo.h: which file system holds a path, where it is mounted, how much is free. */
#ifndef RAPIDO_FSINFO_H
#define RAPIDO_FSINFO_H

#include <stdint.h>

struct fs_info {
	char *mount_point;	/* "/srv" */
	char *source;		/* "/dev/sda2", "tmpfs" */
	char *fstype;		/* "ext4" */
	uint64_t bytes_free;	/* what an unprivileged writer may still use */
};

/*
 * Describe the file system holding PATH (which must exist), from
 * /proc/self/mountinfo and statvfs(). Returns 0 or -errno.
 */
int fs_info_get(const char *path, struct fs_info *fi);
/* Same, from a mountinfo file other than /proc/self/mountinfo (tests). */
int fs_info_get_from(const char *path, const char *mountinfo, struct fs_info *fi);
void fs_info_free(struct fs_info *fi);

/*
 * "tmpfs scratch (mounted at /mnt, 4096 bytes free)": how a message names
 * a full file system (the source is left out when it only repeats the type).
 * Malloc'd. Falls back to "the file system of PATH: STRERROR" on failure.
 */
char *fs_describe(const char *path);

#endif
