// SPDX-License-Identifier: GPL-2.0
/*
 * deadline.c: --timeout covers all of ./vm, not only qemu's run. Armed as
 * soon as the timeout is known, a SIGALRM ends ./vm with 124 in whatever
 * step is stuck (a layer on a hung file system, a console log that is a
 * FIFO nobody reads); before qemu starts there is no process to stop. The
 * qemu loop stops the alarm and waits with its own timer for what is left,
 * so that a timeout there still kills qemu and keeps the results.
 */
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "mono.h"
#include "rapido.h"
#include "vm.h"

static double deadline;		/* CLOCK_MONOTONIC seconds; 0: no timeout */
static const char *volatile step = "starting";

static void put(const char *s)
{
	/* non-blocking where it can be (errout.c): a stalled stderr ends here too */
	if (write(vm_errout_fd(), s, strlen(s)) < 0)
		_exit(VM_EXIT_TIMEOUT);
}

static void on_alarm(int sig)
{
	(void)sig;
	/* async-signal-safe: write(2) and _exit(2) only */
	put("vm: timeout: --timeout (VM_TIMEOUT) expired while ");
	put(step);
	put("; nothing was booted\n");
	_exit(VM_EXIT_TIMEOUT);
}

void vm_deadline_arm(unsigned int secs)
{
	struct sigaction sa;

	if (!secs)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) < 0)
		die_errno("sigaction");
	deadline = mono_secs() + secs;
	alarm(secs);
}

void vm_deadline_step(const char *what)
{
	step = what;
}

double vm_deadline_left(void)
{
	double left;

	if (!deadline)
		return 0;
	left = deadline - mono_secs();
	return left > 0 ? left : 1e-9;
}

double vm_deadline_stop(void)
{
	alarm(0);
	return vm_deadline_left();
}
