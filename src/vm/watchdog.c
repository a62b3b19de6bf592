// SPDX-License-Identifier: GPL-2.0
/*
 * watchdog.c: the per-test watchdog while qemu runs (watchdog.h; its
 * settings are testopts.c's). The sysrq keys go to the PS/2 keyboard
 * (x86's i8042); a machine without one (arm64's virt) gets no stacks,
 * and the test is still stopped.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "collect.h"
#include "err.h"
#include "mono.h"
#include "pct.h"
#include "rapido.h"
#include "timer.h"
#include "vm.h"
#include "watch.h"

/* The stacks are in once the console stays quiet this long, or at the latest after STACKS_MAX_SECS. */
#define STACKS_QUIET_SECS 3.0
#define STACKS_MAX_SECS 60.0
/* What a test's output keeps of them: sysrq w first, then t's (a few hundred tasks fit). */
#define STACKS_KEEP (512 * 1024)

void vm_watchdog_init(struct vm_watch *w)
{
	struct vm_watchdog *d = &w->dog;
	struct epoll_event ev = { .events = EPOLLIN };

	memset(d, 0, sizeof(*d));
	d->timerfd = -1;
	if (!w->l->s->test_timeout)
		return;
	if (!w->results) {
		warn("--test-timeout needs --results DIR: the tests' start and end records tell "
		     "the watchdog which test runs; no watchdog for this run");
		return;
	}
	d->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (d->timerfd < 0)
		die_errno("timerfd_create");
	ev.data.fd = d->timerfd;
	if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, d->timerfd, &ev) < 0)
		die_errno("epoll_ctl");
}

void vm_watchdog_free(struct vm_watch *w)
{
	struct vm_watchdog *d = &w->dog;

	if (d->timerfd >= 0)
		close(d->timerfd);
	free(d->fired);
	free(d->stacks);
	free(d->vmcore);
	memset(d, 0, sizeof(*d));
	d->timerfd = -1;
}

/*
 * The oldest running test, + 1 (0: none). From the end: tests run one
 * after the other, so the running one is near it.
 */
static size_t oldest_running(const struct rsuite *s)
{
	size_t found = 0, seen = 0;

	for (size_t i = s->n; i > 0 && seen < s->running; i--)
		if (s->t[i - 1].state == RT_RUNNING) {
			seen++;
			found = i;
		}
	return found;
}

void vm_watchdog_records(struct vm_watch *w)
{
	struct vm_watchdog *d = &w->dog;
	const struct rsuite *s;
	size_t t;

	if (d->timerfd < 0 || d->state != WD_WATCHING)
		return;
	s = results_suite(w->results);
	if (d->test && d->test <= s->n && s->t[d->test - 1].state == RT_RUNNING)
		return;		/* still the same test: its deadline stands */
	t = oldest_running(s);
	d->test = t;
	if (!t) {
		vm_timer_disarm(d->timerfd);
		return;
	}
	vm_timer_arm(d->timerfd, s->t[t - 1].started + w->l->s->test_timeout - mono_secs());
}

void vm_watchdog_console(struct vm_watch *w, const char *p, size_t n)
{
	struct vm_watchdog *d = &w->dog;

	if (d->state != WD_COLLECTING)
		return;
	d->last_output = mono_secs();
	if (d->stacks_len + n > STACKS_KEEP)
		n = STACKS_KEEP - d->stacks_len;
	if (!n)
		return;
	d->stacks = xrealloc(d->stacks, d->stacks_len + n + 1);
	memcpy(d->stacks + d->stacks_len, p, n);
	d->stacks_len += n;
	d->stacks[d->stacks_len] = '\0';
}

/* Alt-SysRq-KEY on the guest's keyboard. */
static void sysrq(struct vm_watch *w, const char *key)
{
	char *cmd = xasprintf("{\"execute\": \"send-key\", \"arguments\": {\"keys\": ["
			      "{\"type\": \"qcode\", \"data\": \"alt\"}, "
			      "{\"type\": \"qcode\", \"data\": \"sysrq\"}, "
			      "{\"type\": \"qcode\", \"data\": \"%s\"}]}}", key);

	vm_monitor_send(&w->mon, cmd);
	free(cmd);
}

static void fire(struct vm_watch *w, const struct rtest *t)
{
	struct vm_watchdog *d = &w->dog;
	char where[512];

	d->fired = xstrdup(t->name);
	/* where the timeout came from: the option, rapido.conf or the profile's header */
	warn("vm%u: test %s made no progress after %us (%s): collecting the blocked "
	     "and all task stacks (sysrq w, t), then stopping the VM", w->l->vm, t->name,
	     w->l->s->test_timeout, vm_src_str(&w->l->s->test_timeout_src, where, sizeof(where)));
	d->state = WD_COLLECTING;
	d->fired_at = d->last_output = mono_secs();
	sysrq(w, "w");
	sysrq(w, "t");
	vm_timer_arm(d->timerfd, 1);
}

/* Where --test-timeout-dump writes: beside the results, else the state dir's vmcores. */
static char *vmcore_path(const struct vm_watch *w)
{
	const struct vm_settings *s = w->l->s;

	if (s->results_dir)
		return xasprintf("%s/vmcore", s->results_dir);
	if (s->vmcore_keep)
		return vm_vmcore_path(s, w->l->vm);
	return xasprintf("%s/vm%u.vmcore", s->state_dir, w->l->vm);
}

/* The stacks are in: the test is an error with them as its output; stop the VM. */
static void stop(struct vm_watch *w)
{
	struct vm_watchdog *d = &w->dog;
	const struct rsuite *s = results_suite(w->results);
	const struct rtest *t = &s->t[d->test - 1];
	unsigned int secs = w->l->s->test_timeout;
	char *reason = xasprintf("no progress after %u s", secs);
	char *out = xasprintf("--- blocked and all task stacks (sysrq w, t), %.0f s into the test ---\n%s",
			      d->fired_at - t->started, d->stacks ? d->stacks : "(no console output)\n");
	char *fname = pct_field(rtest_guest_name(t)), *freason = pct_field(reason), *fout = pct_field(out);
	char *line = xasprintf("R1 error %s %.3f %s %s", fname, mono_secs() - t->started, freason,
			       fout);

	results_host_record(w->results, line);
	results_stopped_during(w->results, d->fired);
	free(line);
	free(fname);
	free(freason);
	free(fout);
	free(reason);
	free(out);
	if (w->l->s->test_timeout_dump) {
		d->vmcore = vmcore_path(w);
		warn("vm%u: writing a vmcore of the stuck guest to %s", w->l->vm, d->vmcore);
	}
	d->state = WD_STOPPING;
	if (vm_monitor_stop(&w->mon, d->vmcore ? xstrdup(d->vmcore) : NULL) < 0) {
		if (w->mon.q.fd >= 0) {
			/* busy with a panic: its dump, then its quit, stop the VM */
			warn("vm%u: the guest panicked meanwhile: the VM stops as the panic says",
			     w->l->vm);
		} else {
			/* no monitor to ask: qemu quits on SIGTERM */
			warn("vm%u: qemu's monitor is gone; sending qemu SIGTERM", w->l->vm);
			if (kill(w->p.pid, SIGTERM) < 0 && errno != ESRCH)
				warn_errno("kill qemu (pid %d)", (int)w->p.pid);
		}
	}
	/* qemu's end comes on its pidfd; --timeout still bounds it */
	vm_timer_disarm(d->timerfd);
}

void vm_watchdog_timer(struct vm_watch *w)
{
	struct vm_watchdog *d = &w->dog;
	const struct rsuite *s = results_suite(w->results);
	uint64_t ticks;
	double now = mono_secs();

	if (read(d->timerfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
		die_errno("timerfd");
	if (d->state == WD_WATCHING) {
		const struct rtest *t = d->test && d->test <= s->n ? &s->t[d->test - 1] : NULL;

		if (!t || t->state != RT_RUNNING) {
			d->test = 0;
			vm_watchdog_records(w);
		} else if (now - t->started >= w->l->s->test_timeout) {
			fire(w, t);
		} else {
			vm_timer_arm(d->timerfd, t->started + w->l->s->test_timeout - now);
		}
	} else if (d->state == WD_COLLECTING) {
		if (now - d->last_output >= STACKS_QUIET_SECS || now - d->fired_at >= STACKS_MAX_SECS)
			stop(w);
		else
			vm_timer_arm(d->timerfd, 1);
	}
}

void vm_watchdog_verdict(const struct vm_watch *w, int *rc, char *why, size_t len)
{
	const struct vm_watchdog *d = &w->dog;
	char where[512];

	if (!d->fired)
		return;
	snprintf(why, len, "test timeout (%s): test %s made no progress after %u s; the VM was "
		 "stopped", vm_src_str(&w->l->s->test_timeout_src, where, sizeof(where)), d->fired,
		 w->l->s->test_timeout);
	warn("vm%u: %s (exit status %d)", w->l->vm, why, VM_EXIT_TIMEOUT);
	if (d->vmcore && w->mon.vmcore_ok)
		warn("vm%u: memory dump (%s) in %s; open it with crash or drgn and the vmlinux "
		     "that has the symbols", w->l->vm, w->l->s->vmcore_format, d->vmcore);
	else if (d->vmcore)
		warn("vm%u: no memory dump: qemu: %s", w->l->vm,
		     *w->mon.vmcore_err ? w->mon.vmcore_err : "no answer");
	*rc = VM_EXIT_TIMEOUT;
}
