// SPDX-License-Identifier: GPL-2.0
/*
 * debug.c: what the guest does for debugging from the host: load pvpanic's
 * driver (a panic reaches qemu, which pauses the VM so ./vm can dump its memory)
 * and qemu_fw_cfg (which hands qemu the kernel's VMCOREINFO for the dump),
 * and keep a shell on the console shell's port (rapido.shell=ttyS2, a
 * third UART, or rapido.hvc=1, the virtio console /dev/hvc0) for ./vmctl
 * N shell and exec, respawned whenever it exits, beside the main console.
 * The shell starts when the host first sends something (./vmctl sends a
 * line at once): a bash starting at every boot would take the CPU from
 * the profile (under TCG, with one CPU, ~70 ms) for nothing most times.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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

/* One shell on the port tty, as a session leader with it as controlling tty. */
static void run_shell(const char *tty)
{
	pid_t pid = fork();

	if (pid < 0) {
		warn_errno("fork");
		return;
	}
	if (pid == 0) {
		int fd;

		setsid();
		fd = open(tty, O_RDWR);
		if (fd < 0) {
			warn_errno("open %s", tty);
			_exit(1);
		}
		if (ioctl(fd, TIOCSCTTY, 1) < 0)
			warn_errno("TIOCSCTTY %s", tty);
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

/*
 * Until the host sends a line: poll() on the port. The descriptor stays
 * open for the keeper's life: were it the tty's last, closing it would
 * free the line discipline's buffer, and the line would be lost before
 * the shell reads it. The tty echoes it meanwhile, as it would for a shell.
 */
static void wait_for_input(const char *tty)
{
	struct pollfd p = { .events = POLLIN };

	p.fd = open(tty, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (p.fd < 0) {
		warn_errno("open %s", tty);
		return;
	}
	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
}

/* The keeper: a child of PID 1 that respawns the shell, killed with everything at the end. */
static void start_keeper(const char *tty)
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
	 * The virtio console's node appears once the port is probed: waited
	 * for here, beside the autorun, rather than before it
	 */
	for (int i = 0; i < 100 && access(tty, F_OK) < 0; i++)
		usleep(10000);
	if (access(tty, F_OK) < 0) {
		warn("%s did not appear: no second shell for ./vmctl", tty);
		_exit(1);
	}
	wait_for_input(tty);
	for (;;) {
		time_t start = time(NULL);

		run_shell(tty);
		/* a shell that cannot start must not spin */
		if (time(NULL) - start < 1)
			sleep(1);
	}
}

/* The device ./vm's pvpanic is (src/conf/arch.c): ACPI names x86's ISA one */
#define PVPANIC_ISA_ACPI "/sys/bus/acpi/devices/QEMU0001:00"

void init_debug_setup(const struct init_cmdline *cl)
{
	char *tty;

	/*
	 * only the driver of the device there is: each module a boot loads
	 * is a few ms of TCG, and the other driver would find nothing
	 */
	init_modprobe(access(PVPANIC_ISA_ACPI, F_OK) == 0 ? guestmods_pvpanic_isa :
			guestmods_pvpanic_pci, 1);
	init_modprobe(guestmods_vmcore, 1);
	if (cl->shell[0]) {
		tty = xasprintf("/dev/%s", cl->shell);
	} else if (cl->hvc) {
		init_modprobe(guestmods_hvc, 1);
		tty = xstrdup("/dev/hvc0");
	} else {
		return;
	}
	start_keeper(tty);
	free(tty);
}
