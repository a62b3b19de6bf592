// SPDX-License-Identifier: GPL-2.0
/*
 * child.c: run dracut so that stopping ./cut stops all of it.
 *
 * CI runners and systemd signal the main pid alone. dracut is a shell
 * script that forks many children, and a shell killed by SIGTERM leaves its
 * running child orphaned (bash runs no EXIT trap then). So dracut runs in a
 * process group of its own, cut is a child subreaper (orphans of the run
 * become cut's children, and "no child left" means "nothing of the run
 * left"), and the stop signals are taken through a signalfd, one loop
 * watching them, the children and dracut's output. On SIGTERM, SIGINT or
 * SIGHUP, cut signals the whole group, SIGKILLs it after a grace period,
 * reaps every process, and only then its caller removes the temporaries.
 * If cut itself is SIGKILLed, the kernel kills dracut (PR_SET_PDEATHSIG).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cut.h"
#include "err.h"
#include "io.h"
#include "mono.h"
#include "run.h"

#define TERM_GRACE_MS 3000	/* after SIGTERM, before SIGKILL */
#define REAP_GRACE_MS 5000	/* after SIGKILL, for the last processes to go */
#define TAIL_MAX (64 << 10)	/* dracut output kept for an error message */

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
static sigset_t orig_mask;
static int sig_fd = -1;
static pid_t run_pgid;	/* the group of a dracut still running, for cut_child_kill */
static pid_t helper_pid;	/* cut_child_spawn's, SIGKILLed when dracut's run ends */

void cut_signals_take(void)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		struct sigaction old;

		/* nohup's SIGHUP stays ignored; an ignored signal never reaches the signalfd */
		if (stop_signals[i] == SIGHUP && !sigaction(SIGHUP, NULL, &old) &&
		    old.sa_handler == SIG_IGN)
			continue;
		/* a background job of a script starts with SIGINT ignored: take it back */
		sigaction(stop_signals[i], &sa, NULL);
		sigaddset(&set, stop_signals[i]);
	}
	/* inherited SIG_IGN would make the kernel reap children for us */
	sigaction(SIGCHLD, &sa, NULL);
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, &orig_mask) < 0)
		die_errno("sigprocmask");
	sig_fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sig_fd < 0)
		die_errno("signalfd");
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		die_errno("prctl(PR_SET_CHILD_SUBREAPER)");
}

int cut_signal_pending(void)
{
	struct signalfd_siginfo si;
	int sig = 0;

	if (sig_fd < 0)
		return 0;
	while (read(sig_fd, &si, sizeof(si)) == sizeof(si))
		if (si.ssi_signo != SIGCHLD && !sig)
			sig = (int)si.ssi_signo;
	return sig;
}

void cut_die_signal(int sig, void (*cleanup)(void))
{
	sigset_t set;

	cleanup();
	fflush(NULL);
	/* die of the signal itself: a calling shell then sees 128+SIG and stops too */
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

/* Reap every child that has exited; note the leader's status. 1 when none is left. */
static int reap(pid_t leader, int *leader_done, int *status, long long *deadline)
{
	for (;;) {
		siginfo_t si;
		int st;

		si.si_pid = 0;
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0) {
			if (errno == EINTR)
				continue;
			return errno == ECHILD;
		}
		if (!si.si_pid)
			return 0;
		if (si.si_pid == leader) {
			/*
			 * The unreaped leader keeps its pid, and so the group id,
			 * from being reused: kill what is left of the group now.
			 */
			kill(-leader, SIGKILL);
			/* the helper worked for this run only */
			if (helper_pid > 0)
				kill(helper_pid, SIGKILL);
			*leader_done = 1;
			*deadline = 0;
		}
		while (waitpid(si.si_pid, &st, 0) < 0 && errno == EINTR)
			;
		if (si.si_pid == leader) {
			*status = st;
			run_pgid = 0;
		}
		if (si.si_pid == helper_pid)
			helper_pid = 0;
	}
}

/* Keep the end of dracut's output; note the first "out of space" it reports. */
static void take_output(struct cut_child_result *r, const char *buf, size_t n)
{
	static const struct {
		const char *text;
		int err;
	} space[] = {
		{ "No space left on device", ENOSPC },
		{ "Disk quota exceeded", EDQUOT },
	};
	size_t from;

	if (r->len + n > TAIL_MAX) {
		size_t drop = r->len + n - TAIL_MAX;

		memmove(r->tail, r->tail + drop, r->len - drop);
		r->len -= drop;
		r->truncated = 1;
	}
	memcpy(r->tail + r->len, buf, n);
	/* a message split over two reads is still found: search from before the new bytes */
	from = r->len > 32 ? r->len - 32 : 0;
	r->len += n;
	r->tail[r->len] = '\0';
	for (size_t i = 0; i < sizeof(space) / sizeof(space[0]) && !r->space_err; i++)
		if (memmem(r->tail + from, r->len - from, space[i].text, strlen(space[i].text)))
			r->space_err = space[i].err;
}

static void read_output(struct cut_child_result *r, int *fd, int verbose)
{
	char buf[4096];
	ssize_t n = read(*fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		close(*fd);
		*fd = -1;
		return;
	}
	if (verbose)
		write_all(2, buf, (size_t)n);	/* best effort: the tail is kept anyway */
	take_output(r, buf, (size_t)n);
}

static noreturn void exec_child(char *const argv[], pid_t parent, int out)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

	/* its own group, so that one kill(-pgid) reaches every process of the run */
	setpgid(0, 0);
	/* cut SIGKILLed: the kernel stops dracut too (its children then end with their task) */
	if (run_die_with_parent(parent))
		_exit(127);
	/* in a background group, a read of the terminal would stop dracut (SIGTTIN) */
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
		_exit(127);
	sigprocmask(SIG_SETMASK, &orig_mask, NULL);
	execvp(argv[0], argv);
	fprintf(stderr, "%s: cannot run %s: %s\n", err_prog, argv[0], strerror(errno));
	_exit(127);
}

int cut_child_run(char *const argv[], int verbose, struct cut_child_result *r)
{
	pid_t parent = getpid(), pid;
	int pipefd[2], leader_done = 0, none_left = 0;
	long long deadline = 0;

	memset(r, 0, sizeof(*r));
	r->tail = xmalloc(TAIL_MAX + 1);
	r->tail[0] = '\0';
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(pipefd[0]);
		close(pipefd[1]);
		return err;
	}
	if (pid == 0)
		exec_child(argv, parent, pipefd[1]);
	/* also here: the group must exist before any kill(-pid) */
	setpgid(pid, pid);
	run_pgid = pid;
	close(pipefd[1]);

	while (!none_left) {
		struct pollfd fds[2] = {
			{ .fd = sig_fd, .events = POLLIN },
			{ .fd = pipefd[0], .events = POLLIN },
		};
		int timeout = -1;

		if (deadline) {
			long long left = deadline - mono_ms();

			timeout = left > 0 ? (int)left : 0;
		}
		if (poll(fds, pipefd[0] >= 0 ? 2 : 1, timeout) < 0 && errno != EINTR)
			die_errno("poll");
		if (pipefd[0] >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
			read_output(r, &pipefd[0], verbose);
		if (fds[0].revents & POLLIN) {
			int sig = cut_signal_pending();

			if (sig && !r->stop_sig && !leader_done) {
				r->stop_sig = sig;
				kill(-pid, SIGTERM);
				deadline = mono_ms() + TERM_GRACE_MS;
			} else if (sig && !leader_done) {
				kill(-pid, SIGKILL);	/* asked twice: no more grace */
			} else if (sig && !r->stop_sig) {
				r->stop_sig = sig;
			}
		}
		none_left = reap(pid, &leader_done, &r->status, &deadline);
		if (!none_left && !deadline && leader_done)
			deadline = mono_ms() + REAP_GRACE_MS;
		if (deadline && mono_ms() >= deadline) {
			if (!leader_done) {
				kill(-pid, SIGKILL);
				deadline = mono_ms() + REAP_GRACE_MS;
			} else {
				warn("processes dracut started did not end %d s after SIGKILL; "
				     "not waiting for them", REAP_GRACE_MS / 1000);
				break;
			}
		}
	}
	/* every writer is gone: what is left in the pipe ends in EOF */
	if (pipefd[0] >= 0) {
		fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
		while (pipefd[0] >= 0) {
			char buf[4096];
			ssize_t n = read(pipefd[0], buf, sizeof(buf));

			if (n <= 0) {
				close(pipefd[0]);
				pipefd[0] = -1;
				break;
			}
			if (verbose)
				write_all(2, buf, (size_t)n);
			take_output(r, buf, (size_t)n);
		}
	}
	return 0;
}

pid_t cut_child_spawn(char *const argv[])
{
	pid_t parent = getpid(), pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		/* cut SIGKILLed or gone: the helper goes too */
		if (run_die_with_parent(parent) || null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
		    dup2(null, 2) < 0)
			_exit(127);
		sigprocmask(SIG_SETMASK, &orig_mask, NULL);
		execv(argv[0], argv);
		_exit(127);
	}
	helper_pid = pid;
	return pid;
}

void cut_child_kill(void)
{
	int st;

	if (helper_pid > 0)
		kill(helper_pid, SIGKILL);
	if (!run_pgid) {
		if (helper_pid > 0)
			while (waitpid(helper_pid, &st, 0) < 0 && errno == EINTR)
				;
		helper_pid = 0;
		return;
	}
	kill(-run_pgid, SIGKILL);
	while (waitpid(-1, &st, 0) > 0 || errno == EINTR)
		;
	run_pgid = 0;
	helper_pid = 0;
}

void cut_child_result_free(struct cut_child_result *r)
{
	free(r->tail);
	r->tail = NULL;
}
