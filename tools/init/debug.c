// SPDX-License-Identifier: GPL-2.0
/*
 * debug.c: what the guest does for debugging from the host: load pvpanic
 * (a panic reaches qemu, which pauses the VM so ./vm can dump its memory)
 * and qemu_fw_cfg (which hands qemu the kernel's VMCOREINFO for the dump),
 * and keep a shell on the virtio console (/dev/hvc0) for ./vmctl N shell
 * and exec, respawned whenever it exits, beside the main console.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "guestmods.h"
#include "init.h"

#define HVC "/dev/hvc0"

/* One shell on the virtio console, as a session leader with it as controlling tty. */
static void run_shell(void)
{
	pid_t pid = fork();

	if (pid < 0) {
		warn_errno("fork");
		return;
	}
	if (pid == 0) {
		int fd;

		setsid();
		fd = open(HVC, O_RDWR);
		if (fd < 0) {
			warn_errno("open %s", HVC);
			_exit(1);
		}
		if (ioctl(fd, TIOCSCTTY, 1) < 0)
			warn_errno("TIOCSCTTY %s", HVC);
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
		/* no rc file: the autorun must not run twice */
		execl("/bin/bash", "bash", "--norc", "-i", (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* The keeper: a child of PID 1 that respawns the shell, killed with everything at the end. */
static void start_keeper(void)
{
	pid_t pid = fork();

	if (pid < 0) {
		warn_errno("fork");
		return;
	}
	if (pid)
		return;
	signal(SIGCHLD, SIG_DFL);
	/*
	 * The device node appears once the port is probed: waited for here,
	 * beside the autorun, rather than before it
	 */
	for (int i = 0; i < 100 && access(HVC, F_OK) < 0; i++)
		usleep(10000);
	if (access(HVC, F_OK) < 0) {
		warn("%s did not appear: no second shell for ./vmctl", HVC);
		_exit(1);
	}
	for (;;) {
		time_t start = time(NULL);

		run_shell();
		/* a shell that cannot start must not spin */
		if (time(NULL) - start < 1)
			sleep(1);
	}
}

void init_debug_setup(const struct init_cmdline *cl)
{
	init_modprobe(guestmods_debug, 1);
	if (!cl->hvc)
		return;
	init_modprobe(guestmods_hvc, 1);
	start_keeper();
}
