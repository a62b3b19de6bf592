// SPDX-License-Identifier: GPL-2.0
/*
 * launch.c: start qemu, watch it, and turn what happened into ./vm's exit
 * status: the guest's own status from the status port, or a distinct code
 * for a guest that died without one, a timeout, or qemu failing to start.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "rapido.h"
#include "vm.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : 0;
}

static pid_t spawn_qemu(const struct vm_launch *l, int lock_fd)
{
	struct strv argv = STRV_INIT;
	pid_t pid;

	vm_qemu_argv(l, &argv);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (pid == 0) {
		/* qemu dies with us: a killed ./vm never leaves a VM running */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
			_exit(VM_EXIT_FAILED);
		if (getppid() == 1)
			_exit(VM_EXIT_FAILED);
		/* qemu keeps the slot locked for as long as it runs */
		if (fcntl(lock_fd, F_SETFD, 0) < 0)
			_exit(VM_EXIT_FAILED);
		if (l->batch) {
			int null = open("/dev/null", O_RDONLY);

			if (null < 0 || dup2(null, 0) < 0)
				_exit(VM_EXIT_FAILED);
			close(null);
		}
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv.v[0], argv.v);
		fprintf(stderr, "vm: cannot run %s: %s\n", argv.v[0], strerror(errno));
		_exit(127);
	}
	strv_free(&argv);
	return pid;
}

static void kill_and_reap(pid_t pid, int *wstatus)
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

/* The guest's exit status from the status port file; -1 if none. */
static int read_status(const char *path)
{
	char *text, *end;
	long v;

	if (read_file(path, &text, NULL))
		return -1;
	v = strtol(text, &end, 10);
	if (end == text || v < 0 || v > 255) {
		free(text);
		return -1;
	}
	free(text);
	return (int)v;
}

/* Print the first line of the console log that names a panic. */
static void report_panic(const char *log)
{
	char *text, *p;

	if (read_file(log, &text, NULL))
		return;
	p = strstr(text, "Kernel panic");
	if (p) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		if (nl && nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		fprintf(stderr, "vm: %s\n", p);
	}
	free(text);
}

enum wait_result { QEMU_EXITED, QEMU_TIMEOUT, QEMU_KVM_HUNG, QEMU_SIGNALLED };

static enum wait_result wait_qemu(pid_t pid, const struct vm_launch *l, unsigned int timeout,
				  unsigned int kvm_probe_secs, int *wstatus)
{
	double start = now();

	for (;;) {
		pid_t w = waitpid(pid, wstatus, WNOHANG);
		double t;

		if (w == pid)
			return QEMU_EXITED;
		if (w < 0 && errno != EINTR)
			die_errno("waitpid");
		if (got_signal) {
			kill_and_reap(pid, wstatus);
			return QEMU_SIGNALLED;
		}
		t = now() - start;
		if (timeout && t >= timeout) {
			kill_and_reap(pid, wstatus);
			return QEMU_TIMEOUT;
		}
		if (kvm_probe_secs && t >= kvm_probe_secs) {
			if (file_size(l->console_log) == 0) {
				kill_and_reap(pid, wstatus);
				return QEMU_KVM_HUNG;
			}
			kvm_probe_secs = 0;	/* the guest talks: KVM works */
		}
		usleep(t < 2 ? 10000 : 50000);
	}
}

int vm_run(struct vm_launch *l, unsigned int timeout,
	   unsigned int kvm_probe_secs, int auto_accel, const char *state_dir, int lock_fd)
{
	struct sigaction sa = { .sa_handler = on_signal };
	enum wait_result res;
	int wstatus = 0, status;
	pid_t pid;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* interactive: Ctrl-c belongs to the guest; batch: it stops the VM */
	if (l->batch)
		sigaction(SIGINT, &sa, NULL);
	else
		signal(SIGINT, SIG_IGN);

	for (;;) {
		unlink(l->status_path);
		pid = spawn_qemu(l, lock_fd);
		res = wait_qemu(pid, l, timeout,
				auto_accel && l->accel == ACCEL_KVM ? kvm_probe_secs : 0, &wstatus);
		if (res == QEMU_EXITED && auto_accel && l->accel == ACCEL_KVM &&
		    file_size(l->console_log) == 0 &&
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
		vm_kvm_mark_broken(state_dir);
		l->accel = ACCEL_TCG;
	}

	status = read_status(l->status_path);
	switch (res) {
	case QEMU_TIMEOUT:
		warn("timeout: vm%u killed after %us (console log: %s)", l->vm, timeout, l->console_log);
		return VM_EXIT_TIMEOUT;
	case QEMU_SIGNALLED:
		warn("vm%u stopped by signal %d", l->vm, (int)got_signal);
		return 128 + got_signal;
	default:
		break;
	}
	if (status >= 0)
		return status;
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) {
		report_panic(l->console_log);
		warn("vm%u: the guest stopped without reporting an exit status "
		     "(kernel panic or crash; console log: %s)", l->vm, l->console_log);
		return VM_EXIT_NO_STATUS;
	}
	if (WIFEXITED(wstatus))
		warn("qemu failed (exit status %d; console log: %s)", WEXITSTATUS(wstatus),
		     l->console_log);
	else
		warn("qemu killed by signal %d (console log: %s)", WTERMSIG(wstatus), l->console_log);
	return VM_EXIT_FAILED;
}
