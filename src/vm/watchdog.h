/* SPDX-License-Identifier: GPL-2.0 */
/*
 * watchdog.h: the per-test watchdog (--test-timeout SECS). A test that
 * runs longer than SECS has the guest's blocked and all task stacks
 * collected (sysrq w and t, pressed through QMP), is recorded as error
 * "no progress after SECS s" with the stacks as its output, and the VM
 * is stopped (--test-timeout-dump: after a vmcore). The tests not yet run
 * become errors too (collect.c: "not run: the VM was stopped during TEST").
 */
#ifndef RAPIDO_VM_WATCHDOG_H
#define RAPIDO_VM_WATCHDOG_H

#include <stddef.h>

struct vm_watch;

struct vm_watchdog {
	int timerfd;			/* -1: no watchdog */
	enum { WD_WATCHING, WD_COLLECTING, WD_STOPPING } state;
	size_t test;			/* the running test it watches, + 1; 0: none */
	char *fired;			/* the test it stopped the VM in, NULL if none */
	double fired_at, last_output;	/* host clock */
	char *stacks;			/* the console from the sysrq on */
	size_t stacks_len;
	char *vmcore;			/* the dump asked for, NULL if none */
};

/* For w (its settings and results set): a timerfd in w's epoll set, or none. */
void vm_watchdog_init(struct vm_watch *w);
void vm_watchdog_free(struct vm_watch *w);
/* Records arrived: watch the oldest running test. */
void vm_watchdog_records(struct vm_watch *w);
/* Console bytes: kept while the stacks are collected. */
void vm_watchdog_console(struct vm_watch *w, const char *p, size_t n);
/* Its timerfd is readable. */
void vm_watchdog_timer(struct vm_watch *w);
/*
 * After qemu stopped: the watchdog stopped it? Then *rc is the timeout's
 * (124) and why says which test, and the vmcore is named on stderr.
 */
void vm_watchdog_verdict(const struct vm_watch *w, int *rc, char *why, size_t len);

#endif
