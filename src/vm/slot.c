// SPDX-License-Identifier: GPL-2.0
/*
 * slot.c: VM numbers. Number N is taken while someone holds flock() on
 * STATE/vmN.lock. The lock goes with the last process holding the file
 * open (./vm and qemu, which inherits it), so a VM that died leaves a file
 * but never a taken slot, and two ./vm started together cannot both win.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "err.h"
#include "vm.h"

int vm_slot_take(const char *state_dir, unsigned int max, unsigned int *vm, int *lock_fd)
{
	for (unsigned int n = 1; n <= max; n++) {
		char *path = xasprintf("%s/vm%u.lock", state_dir, n);
		char pid[32];
		int fd, len;

		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0) {
			int err = -errno;

			free(path);
			return err;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			int err = errno;

			close(fd);
			free(path);
			if (err == EWOULDBLOCK)
				continue;
			return -err;
		}
		/* for people looking: who holds it */
		len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
		if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)len, 0) < 0)
			warn_errno("%s", path);
		free(path);
		*vm = n;
		*lock_fd = fd;
		return 0;
	}
	return -EBUSY;
}
