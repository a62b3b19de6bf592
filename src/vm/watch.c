// SPDX-License-Identifier: GPL-2.0
/* watch.c: the epoll loop over a running qemu, and where each descriptor's bytes go (watch.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collect.h"
#include "err.h"
#include "mono.h"
#include "vm.h"
#include "timer.h"
#include "watch.h"

/* What the status port may hold: far more than a record, bounded against a flood. */
#define STATUS_KEEP (64 * 1024)
/* The console's tail, kept for the panic message. */
#define CONSOLE_KEEP (64 * 1024)

static void watch_add(struct vm_watch *w, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		die_errno("epoll_ctl");
}

static void watch_del(struct vm_watch *w, int *fd)
{
	epoll_ctl(w->epfd, EPOLL_CTL_DEL, *fd, NULL);
	close(*fd);
	*fd = -1;
}

/* Bytes from one of qemu's pipes, to where they belong. */
static void take(struct vm_watch *w, int fd, const char *buf, size_t n)
{
	if (fd == w->p.status_rd) {
		tail_add(&w->status, buf, n);
	} else if (fd == w->p.results_rd) {
		results_input(w->results, buf, n, mono_secs(), w->splats.lineno);
		vm_watchdog_records(w);
		display_records(&w->disp, results_suite(w->results), mono_secs());
	} else if (fd == w->p.display_rd) {
		display_feed(&w->disp, buf, n);
	} else {
		tail_add(&w->console, buf, n);
		w->console_bytes += (unsigned long long)n;
		conlog_write(&w->log, buf, n);
		splat_feed(&w->splats, buf, n);
		results_console(w->results, buf, n);
		vm_watchdog_console(w, buf, n);
		vm_execout_feed(w, buf, n);
		/* batch: qemu's one console stream, shown here (console.c), but rapido run's */
		if (w->l->s->batch && !w->l->s->exec)
			display_feed(&w->disp, buf, n);
	}
}

/* Read what one of qemu's descriptors has; at EOF, take it out of the loop. */
static void drain(struct vm_watch *w, int *fd)
{
	char buf[65536];
	ssize_t n;

	if (fd == &w->p.mon_fd) {
		if (vm_monitor_input(&w->mon) < 0) {
			watch_del(w, fd);
			w->mon.q.fd = -1;
		}
		return;
	}
	for (;;) {
		n = read(*fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			if (n < 0)
				warn_errno("reading from qemu");
			watch_del(w, fd);
			return;
		}
		take(w, *fd, buf, (size_t)n);
	}
}

/*
 * stdout in the loop while the display holds bytes its reader has not
 * taken: written as it takes them (display.h), never waited for. A
 * regular file or /dev/null cannot be watched (EPERM), and never needs
 * to be: always ready, it took everything already.
 */
static void watch_stdout(struct vm_watch *w)
{
	struct epoll_event ev = { .events = EPOLLOUT, .data.fd = STDOUT_FILENO };
	int want = display_pending(&w->disp) > 0;

	if (want == w->stdout_watched || w->stdout_unwatchable)
		return;
	if (epoll_ctl(w->epfd, want ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, STDOUT_FILENO, &ev) < 0) {
		w->stdout_unwatchable = 1;
		return;
	}
	w->stdout_watched = want;
}

/* The member of w->p that holds fd, or NULL for another descriptor. */
static int *qemu_fd(struct vm_watch *w, int fd)
{
	int *fds[] = { &w->p.status_rd, &w->p.console_rd, &w->p.mon_fd, &w->p.results_rd,
			&w->p.display_rd };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0 && *fds[i] == fd)
			return fds[i];
	return NULL;
}

enum wait_result vm_watch_qemu(struct vm_watch *w, const struct qemu_proc *p, double timeout,
			       unsigned int kvm_probe_secs, int *wstatus, int *sig)
{
	double start = mono_secs();
	enum wait_result res;
	pid_t pid = p->pid;

	w->p = *p;
	w->mon.q.fd = p->mon_fd;
	vm_execout_start(w);
	watch_add(w, w->p.status_rd);
	watch_add(w, w->p.console_rd);
	watch_add(w, w->p.mon_fd);
	if (w->p.results_rd >= 0)
		watch_add(w, w->p.results_rd);
	if (w->p.display_rd >= 0)
		watch_add(w, w->p.display_rd);
	watch_add(w, w->p.pidfd);
	if (timeout || kvm_probe_secs)
		vm_timer_arm(w->timerfd, kvm_probe_secs && (!timeout || kvm_probe_secs < timeout) ?
			  kvm_probe_secs : timeout);
	for (;;) {
		struct epoll_event evs[8];
		int n = epoll_wait(w->epfd, evs, 8, -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die_errno("epoll_wait");
		for (int i = 0; i < n; i++) {
			int fd = evs[i].data.fd, *q = qemu_fd(w, fd);

			if (q) {
				drain(w, q);
			} else if (fd == STDOUT_FILENO) {
				display_flush(&w->disp);
			} else if (fd == w->p.pidfd) {
				while (waitpid(pid, wstatus, 0) < 0)
					if (errno != EINTR)
						die_errno("waitpid");
				res = QEMU_EXITED;
				goto done;
			} else if (fd == w->sigfd) {
				struct signalfd_siginfo si;

				if (read(w->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
					*sig = (int)si.ssi_signo;
					qemu_kill_and_reap(pid, wstatus);
					res = QEMU_SIGNALLED;
					goto done;
				}
			} else if (fd == w->tickfd) {
				uint64_t ticks;

				if (read(w->tickfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
					die_errno("timerfd");
				display_tick(&w->disp, mono_secs());
			} else if (fd == w->dog.timerfd) {
				vm_watchdog_timer(w);
			} else if (fd == w->timerfd) {
				uint64_t ticks;
				double t = mono_secs() - start;

				if (read(w->timerfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
					die_errno("timerfd");
				if (kvm_probe_secs && t >= kvm_probe_secs) {
					/* drain what the console said so far, then judge */
					if (w->p.console_rd >= 0)
						drain(w, &w->p.console_rd);
					if (!w->console_bytes) {
						qemu_kill_and_reap(pid, wstatus);
						res = QEMU_KVM_HUNG;
						goto done;
					}
					kvm_probe_secs = 0;	/* the guest talks: KVM works */
				}
				if (timeout && t >= timeout) {
					qemu_kill_and_reap(pid, wstatus);
					res = QEMU_TIMEOUT;
					goto done;
				}
				if (timeout)
					vm_timer_arm(w->timerfd, timeout - t);
			}
		}
		watch_stdout(w);
	}
done:
	/* qemu is gone: its write ends are closed, so these reach EOF */
	while (w->p.status_rd >= 0)
		drain(w, &w->p.status_rd);
	while (w->p.console_rd >= 0)
		drain(w, &w->p.console_rd);
	while (w->p.mon_fd >= 0)
		drain(w, &w->p.mon_fd);
	while (w->p.results_rd >= 0)
		drain(w, &w->p.results_rd);
	while (w->p.display_rd >= 0)
		drain(w, &w->p.display_rd);
	if (w->stdout_watched) {
		epoll_ctl(w->epfd, EPOLL_CTL_DEL, STDOUT_FILENO, NULL);
		w->stdout_watched = 0;
	}
	display_end(&w->disp);
	return res;
}

/* The console on stdout; on a terminal with --results, a status line and its clock. */
static void display_start(struct vm_watch *w)
{
	const struct vm_settings *s = w->l->s;
	int status = w->results && s->display != DISPLAY_ALL && isatty(STDOUT_FILENO);
	struct itimerspec each = { .it_interval = { 1, 0 }, .it_value = { 1, 0 } };

	display_init(&w->disp, s->display, w->l->vm, w->l->console_log, status, w->started);
	if (!status || w->tickfd >= 0)
		return;
	w->tickfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (w->tickfd < 0 || timerfd_settime(w->tickfd, 0, &each, NULL) < 0)
		die_errno("timerfd");
	watch_add(w, w->tickfd);
}

void vm_watch_init(struct vm_watch *w, const struct vm_launch *l, int sigfd)
{
	memset(w, 0, sizeof(*w));
	w->l = l;
	w->sigfd = sigfd;
	w->p.pidfd = w->p.status_rd = w->p.console_rd = w->p.mon_fd = w->p.results_rd = -1;
	w->p.display_rd = w->tickfd = -1;
	tail_init(&w->status, STATUS_KEEP);
	tail_init(&w->console, CONSOLE_KEEP);
	w->epfd = epoll_create1(EPOLL_CLOEXEC);
	w->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (w->epfd < 0 || w->timerfd < 0)
		die_errno("epoll/timerfd");
	watch_add(w, w->timerfd);
	watch_add(w, w->sigfd);
	conlog_open(&w->log, l->console_log);
	vm_monitor_init(&w->mon, l->s, l->vm, -1);
	vm_results_ctx(&w->rctx, l->s, l->vm, l->accel);
	w->results = results_open(&w->rctx);
	vm_watchdog_init(w);
	splat_scan_init(&w->splats);
	w->started = mono_secs();
	display_start(w);
	if (!l->s->batch)
		fprintf(stderr, "vm: vm%u: `exit` or Ctrl-a x leaves; `./vmctl %u shell` opens a "
			"second shell\n", l->vm, l->vm);
}

void vm_watch_reset(struct vm_watch *w)
{
	if (w->p.pidfd >= 0)
		watch_del(w, &w->p.pidfd);
	w->status.len = w->console.len = 0;
	w->console_bytes = 0;
	vm_monitor_free(&w->mon);
	vm_monitor_init(&w->mon, w->l->s, w->l->vm, -1);
	conlog_close(&w->log);
	conlog_open(&w->log, w->l->console_log);
	/* the accelerator changed (KVM to TCG): run.json says so */
	vm_results_ctx(&w->rctx, w->l->s, w->l->vm, w->l->accel);
	results_reset(w->results);
	vm_watchdog_free(w);
	vm_watchdog_init(w);
	splat_scan_free(&w->splats);
	splat_scan_init(&w->splats);
	w->started = mono_secs();
	display_free(&w->disp);
	display_start(w);
}

void vm_watch_free(struct vm_watch *w)
{
	conlog_close(&w->log);
	close(w->epfd);
	close(w->timerfd);
	if (w->p.pidfd >= 0)
		close(w->p.pidfd);
	tail_free(&w->status);
	tail_free(&w->console);
	vm_monitor_free(&w->mon);
	vm_watchdog_free(w);
	free(w->exec);
	results_free(w->results);
	splat_scan_free(&w->splats);
	display_free(&w->disp);
	if (w->tickfd >= 0)
		close(w->tickfd);
}
