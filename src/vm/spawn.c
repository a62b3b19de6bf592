// SPDX-License-Identifier: GPL-2.0
/* spawn.c: fork and exec qemu with its descriptors at fixed numbers (spawn.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "rapido.h"
#include "run.h"
#include "spawn.h"
#include "vm.h"

/*
 * Put fd at number `to` in the child without clobbering the others: every
 * source was first moved above 10 (dup2 clears close-on-exec on the copy).
 */
static int child_fd(int from, int to)
{
	return dup2(from, to) < 0 ? -1 : 0;
}

/* In the child of parent (./vm): never returns. */
static noreturn void exec_qemu(const struct vm_launch *l, char **argv, pid_t parent, int lock_fd,
			       const sigset_t *oldmask, int status_wr, int console_wr, int mon_peer,
			       int results_wr, int display_wr)
{
	int s, c, m, k, r = -1;

	/* qemu dies with us: a killed ./vm never leaves a VM running */
	if (run_die_with_parent(parent))
		_exit(VM_EXIT_FAILED);
	/*
	 * First, while no source has been moved onto a low number: the
	 * chardev's stdio backend writes fd 1, its stdin stays the terminal.
	 */
	if (display_wr >= 0 && dup2(display_wr, STDOUT_FILENO) < 0)
		_exit(VM_EXIT_FAILED);
	s = fcntl(status_wr, F_DUPFD_CLOEXEC, 10);
	c = fcntl(console_wr, F_DUPFD_CLOEXEC, 10);
	m = fcntl(mon_peer, F_DUPFD_CLOEXEC, 10);
	/* qemu keeps the slot locked for as long as it runs */
	k = fcntl(lock_fd, F_DUPFD, 10);
	if (results_wr >= 0)
		r = fcntl(results_wr, F_DUPFD_CLOEXEC, 10);
	if (s < 0 || c < 0 || m < 0 || k < 0 || child_fd(s, VM_FD_STATUS) ||
	    child_fd(c, VM_FD_CONSOLE) || child_fd(m, VM_FD_MONITOR) ||
	    (results_wr >= 0 && (r < 0 || child_fd(r, VM_FD_RESULTS))))
		_exit(VM_EXIT_FAILED);
	if (l->s->batch) {
		int null = open("/dev/null", O_RDWR);

		/*
		 * the console goes to VM_FD_CONSOLE only (./vm shows it, or in
		 * rapido run keeps stdout for the command's output: execout.c)
		 */
		if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0)
			_exit(VM_EXIT_FAILED);
		close(null);
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sigprocmask(SIG_SETMASK, oldmask, NULL);
	execvp(argv[0], argv);
	fprintf(stderr, "vm: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

void qemu_spawn(const struct vm_launch *l, int lock_fd, const sigset_t *oldmask, int results,
		struct qemu_proc *p)
{
	struct strv argv = STRV_INIT;
	int sp[2], cp[2], mp[2], rp[2] = { -1, -1 }, dp[2] = { -1, -1 };
	pid_t parent;

	if (pipe2(sp, O_CLOEXEC | O_NONBLOCK) < 0 || pipe2(cp, O_CLOEXEC | O_NONBLOCK) < 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, mp) < 0)
		die_errno("pipe");
	if (results && (pipe2(rp, O_CLOEXEC | O_NONBLOCK) < 0 || fcntl(rp[1], F_SETFL, 0) < 0))
		die_errno("pipe");
	/* interactive, shown by ./vm: qemu's stdout; batch, the console stream (console.c) */
	if (!l->s->batch && l->s->display != DISPLAY_ALL &&
	    (pipe2(dp, O_CLOEXEC | O_NONBLOCK) < 0 || fcntl(dp[1], F_SETFL, 0) < 0))
		die_errno("pipe");
	/* qemu's ends block: a guest must not lose console bytes to EAGAIN */
	if (fcntl(sp[1], F_SETFL, 0) < 0 || fcntl(cp[1], F_SETFL, 0) < 0 ||
	    fcntl(mp[0], F_SETFL, O_NONBLOCK) < 0)
		die_errno("fcntl");
	vm_qemu_argv(l, &argv);
	fflush(NULL);
	parent = getpid();
	p->pid = fork();
	if (p->pid < 0)
		die_errno("fork");
	if (p->pid == 0)
		exec_qemu(l, argv.v, parent, lock_fd, oldmask, sp[1], cp[1], mp[1], rp[1], dp[1]);
	strv_free(&argv);
	close(sp[1]);
	close(cp[1]);
	close(mp[1]);
	if (rp[1] >= 0)
		close(rp[1]);
	if (dp[1] >= 0)
		close(dp[1]);
	p->status_rd = sp[0];
	p->console_rd = cp[0];
	p->mon_fd = mp[0];
	p->results_rd = rp[0];
	p->display_rd = dp[0];
	p->pidfd = (int)syscall(SYS_pidfd_open, p->pid, 0);
	if (p->pidfd < 0)
		die_errno("pidfd_open");
}

void qemu_kill_and_reap(pid_t pid, int *wstatus)
{
	kill(pid, SIGTERM);
	for (int i = 0; i < 50; i++) {
		if (waitpid(pid, wstatus, WNOHANG) == pid)
			return;
		usleep(20000);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, wstatus, 0) < 0 && errno == EINTR)
		;
}
