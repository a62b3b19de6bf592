// SPDX-License-Identifier: GPL-2.0
/*
 * launch.c: run qemu and turn what happened into ./vm's exit status. With
 * QEMU_ACCEL=auto a KVM run that hangs silent (KVM_PROBE_SECS) or dies
 * before the guest says a word is run again under TCG, and the host boot
 * is marked so later runs skip KVM. The pieces: spawn.c starts qemu,
 * watch.c waits on it, verdict.c says what its end means, collect.c adds
 * the records.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collect.h"
#include "err.h"
#include "mono.h"
#include "rapido.h"
#include "status.h"
#include "verdict.h"
#include "vm.h"
#include "watch.h"

void vm_new_nonce(char nonce[33])
{
	unsigned char r[16];
	ssize_t n;

	do
		n = getrandom(r, sizeof(r), 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(r))
		die_errno("getrandom");
	for (size_t i = 0; i < sizeof(r); i++)
		sprintf(nonce + 2 * i, "%02x", r[i]);
}

/* The verdict's view of a run's end. */
static int stop_verdict(const struct vm_watch *w, const struct vm_launch *l, enum wait_result res,
			int wstatus, int sig, char *why, size_t len, int *tests_only)
{
	struct verdict_stop st = {
		.vm = l->vm, .wstatus = wstatus, .sig = sig, .timeout = l->s->timeout,
		.console_log = l->console_log, .status = w->status.buf, .status_len = w->status.len,
		.nonce = l->nonce, .console = w->console.buf, .console_len = w->console.len,
		.shutdown_reason = w->mon.shutdown_reason, .panicked = w->mon.panicked,
		.vmcore = w->mon.vmcore, .vmcore_ok = w->mon.vmcore_ok,
		.vmcore_err = w->mon.vmcore_err, .vmcore_format = l->s->vmcore_format,
		/* with --results a quit stops the tests: the host stopped them (122) */
		.interactive = !l->s->batch && !w->results,
	};

	st.end = res == QEMU_TIMEOUT ? VERDICT_TIMEOUT :
		 res == QEMU_SIGNALLED ? VERDICT_SIGNALLED : VERDICT_EXITED;
	return verdict_stop(&st, why, len, tests_only);
}

int vm_run(struct vm_launch *l, int lock_fd, char **cause)
{
	const struct vm_settings *s = l->s;
	unsigned int kvm_probe_secs = s->kvm_probe_secs;
	int auto_accel = s->accel == ACCEL_AUTO;
	struct qemu_proc p;
	struct vm_watch w;
	sigset_t mask, oldmask;
	enum wait_result res;
	int wstatus = 0, sig = 0, rc, sigfd, tests_only, unrun;
	char why[STATUS_MSG_MAX + 32];

	/* interactive: Ctrl-c belongs to the guest; batch: it stops the VM */
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	if (s->batch)
		sigaddset(&mask, SIGINT);
	else
		signal(SIGINT, SIG_IGN);
	if (sigprocmask(SIG_BLOCK, &mask, &oldmask) < 0)
		die_errno("sigprocmask");
	sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sigfd < 0)
		die_errno("signalfd");
	vm_deadline_step("opening the console log");
	vm_watch_init(&w, l, sigfd);

	for (;;) {
		/* from here this loop's timer kills qemu at the deadline, results kept */
		double left = vm_deadline_stop();
		int probing = auto_accel && l->accel == ACCEL_KVM;

		vm_new_nonce(l->nonce);
		qemu_spawn(l, lock_fd, &oldmask, w.results != NULL, &p);
		res = vm_watch_qemu(&w, &p, left, probing ? kvm_probe_secs : 0, &wstatus, &sig);
		if (res == QEMU_EXITED && probing && !w.console_bytes &&
		    !(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)) {
			/* e.g. "failed to set MSR": qemu died before the guest said a word */
			warn("KVM: qemu failed before any console output; falling back to TCG "
			     "(set QEMU_ACCEL=kvm or tcg to choose)");
		} else if (res == QEMU_KVM_HUNG) {
			warn("KVM: no console output within %us, KVM is unusable here; falling back "
			     "to TCG (set QEMU_ACCEL=kvm or tcg to choose)", kvm_probe_secs);
		} else {
			break;
		}
		vm_kvm_mark_broken(s->state_dir);
		l->accel = ACCEL_TCG;
		vm_watch_reset(&w);
	}

	unrun = vm_execout_end(&w);
	rc = stop_verdict(&w, l, res, wstatus, sig, why, sizeof(why), &tests_only);
	if (unrun && rc == 0) {
		/* e.g. a profile's poweroff before CMD: the guest's 0 is not CMD's */
		rc = VM_EXIT_NO_STATUS;
		snprintf(why, sizeof(why), "the command given to rapido run did not finish");
	}
	results_tests_only(w.results, tests_only);
	vm_watchdog_verdict(&w, &rc, why, sizeof(why));
	rc = results_finish(w.results, &w.rctx, &w.splats, rc, *why ? why : NULL,
			    mono_secs() - w.started, mono_secs(), cause);
	vm_watch_free(&w);
	close(sigfd);
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	return rc;
}
