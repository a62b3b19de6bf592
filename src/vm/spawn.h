/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spawn.h: start qemu with its descriptors in place: the status port and
 * console pipes, ./vm's monitor socket and (with --results) the results
 * pipe at VM_FD_STATUS..VM_FD_RESULTS, the slot's lock, and nothing else;
 * its stdout a pipe to ./vm where ./vm shows an interactive console,
 * ./vm's where qemu writes it itself (interactive -v), and /dev/null in a
 * batch run (./vm shows the console from the console pipe: console.c).
 */
#ifndef RAPIDO_VM_SPAWN_H
#define RAPIDO_VM_SPAWN_H

#include <signal.h>
#include <sys/types.h>

struct vm_launch;

/* A running qemu and ./vm's ends of its descriptors (non-blocking), -1 for none. */
struct qemu_proc {
	pid_t pid;
	int pidfd;
	int status_rd, console_rd, mon_fd, results_rd;
	int display_rd;		/* qemu's stdout, when ./vm shows an interactive console (display.h) */
};

/*
 * Fork and exec qemu for l (dies on errors; a qemu that cannot exec
 * exits 127). oldmask: the signal mask qemu gets; results: open a results
 * pipe. The child keeps lock_fd open: qemu holds the slot while it runs.
 */
void qemu_spawn(const struct vm_launch *l, int lock_fd, const sigset_t *oldmask, int results,
		struct qemu_proc *p);
/* SIGTERM, a second to go, then SIGKILL; reaps it into *wstatus. */
void qemu_kill_and_reap(pid_t pid, int *wstatus);

#endif
