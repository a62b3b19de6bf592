// SPDX-License-Identifier: GPL-2.0
/*
 * slot.c: VM numbers. Number N is taken while someone holds flock() on
 * LOCKDIR/vmN.lock. The lock goes with the last process holding the file
 * open (./vm and qemu, which inherits it), so a VM that died leaves a file
 * but never a taken slot, and two ./vm started together cannot both win.
 *
 * The lock directory is one per machine (not per VM_STATE_DIR): the number
 * names the TAP device, the MAC and the hostname, so two users or two state
 * dirs handing out the same N would collide on rapido-tapN.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confget.h"
#include "err.h"
#include "io.h"
#include "vm.h"

#define LOCK_DIR_RUN "/run/lock/rapido"
#define LOCK_DIR_TMP "/tmp/rapido-locks"

char *vm_lock_dir_or_die(const struct conf *c)
{
	const char *v = conf_str(c, "VM_LOCK_DIR", NULL);
	struct stat st;
	char *dir;

	if (v)
		dir = xstrdup(v);
	else
		dir = xstrdup(stat("/run/lock", &st) == 0 && S_ISDIR(st.st_mode) ?
			      LOCK_DIR_RUN : LOCK_DIR_TMP);
	if (mkdir(dir, 01777) == 0) {
		/* every user's ./vm takes numbers here: world-writable, sticky like /tmp */
		if (chmod(dir, 01777) < 0)
			die_errno("VM lock directory %s", dir);
	} else if (errno != EEXIST) {
		die_errno("cannot create the VM lock directory %s (VM_LOCK_DIR)", dir);
	}
	if (stat(dir, &st) < 0)
		die_errno("VM lock directory %s", dir);
	if (!S_ISDIR(st.st_mode))
		die("VM lock directory %s is not a directory (VM_LOCK_DIR)", dir);
	return dir;
}

/*
 * Open a slot's lock file, creating it if need be. With fs.protected_regular
 * an O_CREAT open of another user's file in a sticky directory fails, so
 * create only with O_EXCL, and open an existing file without O_CREAT; read
 * access is enough for flock(). The directory is everyone's (1777): never
 * through a symbolic link, never a FIFO or a device (open_regular()), and
 * *writable (the PID written into it) only for a file of our own with no
 * other name, so that no one else's file can be put in its place.
 */
static int open_lock(const char *path, int *writable)
{
	for (int tries = 0; tries < 8; tries++) {
		struct stat st;
		int fd = open_regular(path, O_RDWR | O_NOFOLLOW, &st);

		if (fd == -EACCES)
			fd = open_regular(path, O_NOFOLLOW, &st);
		if (fd >= 0) {
			*writable = (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR &&
				    st.st_uid == geteuid() && st.st_nlink == 1;
			return fd;
		}
		if (fd != -ENOENT)
			return fd;
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0) {
			*writable = 1;
			return fd;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EAGAIN;
}

int vm_slot_take(const char *lock_dir, unsigned int max, unsigned int *vm, int *lock_fd)
{
	for (unsigned int n = 1; n <= max; n++) {
		char *path = xasprintf("%s/vm%u.lock", lock_dir, n);
		char pid[32];
		int fd, len, writable;

		fd = open_lock(path, &writable);
		if (fd < 0) {
			free(path);
			*vm = n;
			return fd;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			int err = errno;

			close(fd);
			free(path);
			if (err == EWOULDBLOCK)
				continue;
			return -err;
		}
		/* for people looking: who holds it (best effort: it may be another user's file) */
		len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
		if (writable && ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)len, 0) < 0)
			warn_errno("%s", path);
		free(path);
		*vm = n;
		*lock_fd = fd;
		return 0;
	}
	return -EBUSY;
}
