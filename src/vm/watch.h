/* SPDX-License-Identifier: GPL-2.0 */
/*
 * watch.h: one epoll loop over a running qemu: its pidfd, a timerfd (the
 * timeout, the KVM probe), a signalfd, and the descriptors qemu writes:
 * the status port (kept), the console (kept, logged, scanned for kernel
 * reports, copied to --results, shown), the results port, ./vm's
 * monitor, qemu's stdout when ./vm shows an interactive console, and
 * ./vm's own stdout while the display has bytes its reader has not taken
 * (display.h).
 */
#ifndef RAPIDO_VM_WATCH_H
#define RAPIDO_VM_WATCH_H

#include "conlog.h"
#include "display.h"
#include "monitor.h"
#include "resctx.h"
#include "results.h"
#include "spawn.h"
#include "tail.h"
#include "watchdog.h"

struct vm_launch;
struct results_run;
struct execframe_reader;

/* What one qemu run left: kept across the loop, started over for a retry. */
struct vm_watch {
	const struct vm_launch *l;
	int epfd, timerfd, sigfd;
	struct qemu_proc p;		/* the descriptors are -1 once at EOF */
	struct results_ctx rctx;	/* what the results code gets of l (resctx.h) */
	struct results_run *results;	/* NULL without --results */
	struct splat_scan splats;	/* kernel reports on the console */
	double started;
	struct tail status, console;
	unsigned long long console_bytes;
	struct conlog log;
	struct vm_monitor mon;
	struct vm_watchdog dog;		/* --test-timeout */
	struct vm_display disp;		/* the console on stdout, when ./vm writes it */
	int tickfd;			/* each second: the status line's clock; -1 without one */
	int stdout_watched;		/* stdout in the loop: the display waits for its reader */
	int stdout_unwatchable;		/* stdout cannot be polled (a regular file: always ready) */
	struct execframe_reader *exec;	/* rapido run's command's output (execout.c), or NULL */
};

/*
 * execout.c: rapido run -- CMD. The guest runs CMD through rapido-exec on
 * its console, in frames (execframe.h) keyed by this boot's nonce; the
 * console goes to the log only, and CMD's own stdout and stderr, taken
 * out of its frames here, to ./vm's.
 */
void vm_execout_start(struct vm_watch *w);
void vm_execout_feed(struct vm_watch *w, const char *buf, size_t n);
/*
 * At the end: say when CMD's output did not come whole; 1 when CMD never
 * started or never finished (its status then is no pass, whatever the
 * guest reported), else 0.
 */
int vm_execout_end(struct vm_watch *w);

enum wait_result { QEMU_EXITED, QEMU_TIMEOUT, QEMU_KVM_HUNG, QEMU_SIGNALLED };

/* Opens the console log and --results (dies if they cannot be written). */
void vm_watch_init(struct vm_watch *w, const struct vm_launch *l, int sigfd);
/* Start over: a KVM run that fell back to TCG. */
void vm_watch_reset(struct vm_watch *w);
void vm_watch_free(struct vm_watch *w);
/*
 * Watch qemu p until it exits (*wstatus), timeout seconds pass (0: none;
 * qemu killed), a blocked signal arrives (*sig; qemu killed), or, with
 * kvm_probe_secs, the console stays silent that long (qemu killed). Then
 * read what qemu wrote to its end.
 */
enum wait_result vm_watch_qemu(struct vm_watch *w, const struct qemu_proc *p, double timeout,
			       unsigned int kvm_probe_secs, int *wstatus, int *sig);

#endif
