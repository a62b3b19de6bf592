// SPDX-License-Identifier: GPL-2.0
/*
 * launch.c: start qemu, watch it, and turn what happened into ./vm's exit
 * status: the guest's own status from its framed record on the status
 * port, or a distinct code for a guest that died without one, a VM stopped
 * from the host, a timeout, or qemu failing to start.
 *
 * One epoll loop waits on qemu's pidfd, a timerfd (timeout, KVM probe), a
 * signalfd, and three descriptors qemu writes: the status port pipe, the
 * console log pipe (./vm writes the log file, so a full disk costs the log
 * but never the verdict) and ./vm's private QMP monitor.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "mono.h"
#include "rapido.h"
#include "results.h"
#include "status.h"
#include "vm.h"

/* What the status port may hold: far more than a record, bounded against a flood. */
#define STATUS_KEEP (64 * 1024)
/* The console's tail, kept for the panic message. */
#define CONSOLE_KEEP (64 * 1024)

/* A byte window that keeps the last `cap` bytes written to it. */
struct tail {
	char *buf;
	size_t len, cap;
};

static void tail_add(struct tail *t, const char *p, size_t n)
{
	if (n >= t->cap) {
		memcpy(t->buf, p + n - t->cap, t->cap);
		t->len = t->cap;
		return;
	}
	if (t->len + n > t->cap) {
		size_t drop = t->len + n - t->cap;

		memmove(t->buf, t->buf + drop, t->len - drop);
		t->len -= drop;
	}
	memcpy(t->buf + t->len, p, n);
	t->len += n;
}

struct watch {
	const struct vm_launch *l;
	int epfd, pidfd, timerfd, sigfd;
	int status_rd, console_rd, mon_fd;	/* -1 once at EOF */
	int results_rd;			/* --results: the results port; -1 if none or at EOF */
	struct vm_results *results;	/* NULL without --results */
	struct splat_scan splats;	/* kernel reports on the console */
	double started;
	struct tail status, console;
	unsigned long long console_bytes;
	int log_fd, log_failed;
	char mon_line[8192];
	size_t mon_len;
	char shutdown_reason[64];	/* from QMP SHUTDOWN, "" if none seen */
	int panicked;			/* QMP GUEST_PANICKED */
	enum { MON_GREETING, MON_READY, MON_DUMPING, MON_QUITTING } mon_state;
	char *vmcore;			/* the dump asked for, NULL if none */
	int vmcore_ok;			/* qemu said it was written */
	char vmcore_err[256];
};

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

static void log_open(struct watch *w)
{
	w->log_fd = open(w->l->console_log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->log_fd < 0) {
		warn_errno("console log %s cannot be written; the console is not saved, the "
			   "guest's status is still reported", w->l->console_log);
		w->log_failed = 1;
	}
}

static void log_write(struct watch *w, const char *p, size_t n)
{
	int rc;

	if (w->log_failed)
		return;
	rc = write_all(w->log_fd, p, n);
	if (rc) {
		/* once: a full disk must not flood stderr, nor change the verdict */
		warn_err(rc, "console log %s: writing stopped; the console is no longer saved, "
			 "the guest's status is still reported", w->l->console_log);
		w->log_failed = 1;
	}
}

static void mon_send(struct watch *w, const char *cmd)
{
	/* MSG_NOSIGNAL: qemu gone must not kill us with SIGPIPE */
	if (send(w->mon_fd, cmd, strlen(cmd), MSG_NOSIGNAL) < 0 && errno != EPIPE)
		warn_errno("qemu monitor");
}

/* The string value of "key": "..." in a QMP line, or "" */
static void json_str(const char *line, const char *key, char *out, size_t size)
{
	char pat[64];
	const char *p;
	size_t i = 0;

	snprintf(pat, sizeof(pat), "\"%s\": \"", key);
	p = strstr(line, pat);
	if (p)
		for (p += strlen(pat); *p && *p != '"' && i + 1 < size; p++)
			out[i++] = *p;
	out[i] = '\0';
}

/* A JSON string body for s: quotes, backslashes and control characters escaped. */
static char *json_escape(const char *s)
{
	char *out = xmalloc(strlen(s) * 6 + 1), *p = out;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			p += sprintf(p, "\\%c", c);
		else if (c < 0x20)
			p += sprintf(p, "\\u%04x", c);
		else
			*p++ = (char)c;
	}
	*p = '\0';
	return out;
}

/*
 * The guest panicked and qemu paused it (-action panic=pause): dump its
 * memory if asked, then quit. Both are answered in order on the monitor.
 */
static void on_panic(struct watch *w)
{
	const struct vm_settings *s = w->l->s;

	w->panicked = 1;
	if (w->mon_state != MON_READY)
		return;
	if (s->vmcore_keep) {
		char *path, *cmd;

		w->vmcore = vm_vmcore_path(s, w->l->vm);
		path = json_escape(w->vmcore);
		cmd = xasprintf("{\"execute\": \"dump-guest-memory\", \"arguments\": {\"paging\": false, "
				"\"protocol\": \"file:%s\", \"format\": \"%s\"}}\n", path, s->vmcore_format);
		mon_send(w, cmd);
		free(cmd);
		free(path);
		w->mon_state = MON_DUMPING;
	} else {
		mon_send(w, "{\"execute\": \"quit\"}\n");
		w->mon_state = MON_QUITTING;
	}
}

static void mon_line(struct watch *w, const char *line)
{
	char ev[64];

	if (!strncmp(line, "{\"QMP\"", 6)) {
		mon_send(w, "{\"execute\": \"qmp_capabilities\"}\n");
		return;
	}
	json_str(line, "event", ev, sizeof(ev));
	if (!strcmp(ev, "SHUTDOWN")) {
		json_str(line, "reason", w->shutdown_reason, sizeof(w->shutdown_reason));
	} else if (!strcmp(ev, "GUEST_PANICKED")) {
		if (!w->panicked)
			on_panic(w);
	} else if (!*ev && (strstr(line, "\"return\"") || strstr(line, "\"error\""))) {
		/* a reply: to qmp_capabilities, then to the dump */
		if (w->mon_state == MON_GREETING) {
			w->mon_state = MON_READY;
			if (w->panicked)	/* the panic came before we were ready */
				on_panic(w);
		} else if (w->mon_state == MON_DUMPING) {
			w->vmcore_ok = strstr(line, "\"return\"") != NULL;
			if (!w->vmcore_ok)
				json_str(line, "desc", w->vmcore_err, sizeof(w->vmcore_err));
			mon_send(w, "{\"execute\": \"quit\"}\n");
			w->mon_state = MON_QUITTING;
		}
	}
}

static void mon_input(struct watch *w, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n') {
			w->mon_line[w->mon_len] = '\0';
			mon_line(w, w->mon_line);
			w->mon_len = 0;
		} else if (w->mon_len + 1 < sizeof(w->mon_line)) {
			w->mon_line[w->mon_len++] = p[i];
		}
	}
}

/* Read what one of qemu's descriptors has; at EOF, take it out of the loop. */
static void drain(struct watch *w, int *fd)
{
	char buf[65536];
	ssize_t n;

	for (;;) {
		n = read(*fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			/* qemu closing its monitor as it quits resets the socket: that is EOF */
			if (n < 0 && errno != ECONNRESET)
				warn_errno("reading from qemu");
			epoll_ctl(w->epfd, EPOLL_CTL_DEL, *fd, NULL);
			close(*fd);
			*fd = -1;
			return;
		}
		if (*fd == w->status_rd) {
			tail_add(&w->status, buf, (size_t)n);
		} else if (*fd == w->results_rd) {
			vm_results_input(w->results, buf, (size_t)n, mono_secs());
		} else if (*fd == w->console_rd) {
			tail_add(&w->console, buf, (size_t)n);
			w->console_bytes += (unsigned long long)n;
			log_write(w, buf, (size_t)n);
			splat_feed(&w->splats, buf, (size_t)n);
			vm_results_console(w->results, buf, (size_t)n);
		} else {
			mon_input(w, buf, (size_t)n);
		}
	}
}

static void watch_add(struct watch *w, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		die_errno("epoll_ctl");
}

static void arm_timer(int fd, double secs)
{
	struct itimerspec its = { 0 };

	its.it_value.tv_sec = (time_t)secs;
	its.it_value.tv_nsec = (long)((secs - (double)(time_t)secs) * 1e9);
	if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
		its.it_value.tv_nsec = 1;
	if (timerfd_settime(fd, 0, &its, NULL) < 0)
		die_errno("timerfd_settime");
}

/*
 * Put fd at number `to` in the child without clobbering the others: every
 * source was first moved above 10 (dup2 clears close-on-exec on the copy).
 */
static int child_fd(int from, int to)
{
	return dup2(from, to) < 0 ? -1 : 0;
}

static pid_t spawn_qemu(const struct vm_launch *l, int lock_fd, const sigset_t *oldmask,
			int status_wr, int console_wr, int mon_peer, int results_wr)
{
	struct strv argv = STRV_INIT;
	pid_t pid;

	vm_qemu_argv(l, &argv);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (pid == 0) {
		int s, c, m, k, r = -1;

		/* qemu dies with us: a killed ./vm never leaves a VM running */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
			_exit(VM_EXIT_FAILED);
		if (getppid() == 1)
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
			int null = open("/dev/null", O_RDONLY);

			if (null < 0 || dup2(null, 0) < 0)
				_exit(VM_EXIT_FAILED);
			close(null);
		}
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		sigprocmask(SIG_SETMASK, oldmask, NULL);
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

/* Print the first line of the console's tail that names a panic. */
static void report_panic(const struct tail *console)
{
	char *text = xstrndup(console->buf, console->len), *p;

	p = strstr(text, "Kernel panic");
	if (p) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		p[strcspn(p, "\r")] = '\0';
		fprintf(stderr, "vm: %s\n", p);
	}
	free(text);
}

enum wait_result { QEMU_EXITED, QEMU_TIMEOUT, QEMU_KVM_HUNG, QEMU_SIGNALLED };

static enum wait_result wait_qemu(struct watch *w, pid_t pid, double timeout,
				  unsigned int kvm_probe_secs, int *wstatus, int *sig)
{
	double start = mono_secs();
	enum wait_result res;

	if (timeout || kvm_probe_secs)
		arm_timer(w->timerfd, kvm_probe_secs && (!timeout || kvm_probe_secs < timeout) ?
			  kvm_probe_secs : timeout);
	for (;;) {
		struct epoll_event evs[8];
		int n = epoll_wait(w->epfd, evs, 8, -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die_errno("epoll_wait");
		for (int i = 0; i < n; i++) {
			int fd = evs[i].data.fd;

			if (fd == w->status_rd || fd == w->console_rd || fd == w->mon_fd ||
			    fd == w->results_rd) {
				drain(w, fd == w->status_rd ? &w->status_rd :
					 fd == w->console_rd ? &w->console_rd :
					 fd == w->results_rd ? &w->results_rd : &w->mon_fd);
			} else if (fd == w->pidfd) {
				while (waitpid(pid, wstatus, 0) < 0)
					if (errno != EINTR)
						die_errno("waitpid");
				res = QEMU_EXITED;
				goto done;
			} else if (fd == w->sigfd) {
				struct signalfd_siginfo si;

				if (read(w->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
					*sig = (int)si.ssi_signo;
					kill_and_reap(pid, wstatus);
					res = QEMU_SIGNALLED;
					goto done;
				}
			} else if (fd == w->timerfd) {
				uint64_t ticks;
				double t = mono_secs() - start;

				if (read(w->timerfd, &ticks, sizeof(ticks)) < 0 && errno != EAGAIN)
					die_errno("timerfd");
				if (kvm_probe_secs && t >= kvm_probe_secs) {
					/* drain what the console said so far, then judge */
					if (w->console_rd >= 0)
						drain(w, &w->console_rd);
					if (!w->console_bytes) {
						kill_and_reap(pid, wstatus);
						res = QEMU_KVM_HUNG;
						goto done;
					}
					kvm_probe_secs = 0;	/* the guest talks: KVM works */
				}
				if (timeout && t >= timeout) {
					kill_and_reap(pid, wstatus);
					res = QEMU_TIMEOUT;
					goto done;
				}
				if (timeout)
					arm_timer(w->timerfd, timeout - t);
			}
		}
	}
done:
	/* qemu is gone: its write ends are closed, so these reach EOF */
	while (w->status_rd >= 0)
		drain(w, &w->status_rd);
	while (w->console_rd >= 0)
		drain(w, &w->console_rd);
	while (w->mon_fd >= 0)
		drain(w, &w->mon_fd);
	while (w->results_rd >= 0)
		drain(w, &w->results_rd);
	return res;
}

static void watch_init(struct watch *w, const struct vm_launch *l, int sigfd)
{
	memset(w, 0, sizeof(*w));
	w->l = l;
	w->sigfd = sigfd;
	w->status.cap = STATUS_KEEP;
	w->status.buf = xmalloc(STATUS_KEEP);
	w->console.cap = CONSOLE_KEEP;
	w->console.buf = xmalloc(CONSOLE_KEEP);
	w->epfd = epoll_create1(EPOLL_CLOEXEC);
	w->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (w->epfd < 0 || w->timerfd < 0)
		die_errno("epoll/timerfd");
	watch_add(w, w->timerfd);
	watch_add(w, w->sigfd);
	w->log_fd = -1;
	log_open(w);
	w->results_rd = -1;
	w->results = vm_results_open(l);
	splat_scan_init(&w->splats);
	w->started = mono_secs();
}

static void watch_free(struct watch *w)
{
	if (w->log_fd >= 0 && close(w->log_fd) < 0 && !w->log_failed)
		warn_errno("console log %s", w->l->console_log);
	close(w->epfd);
	close(w->timerfd);
	if (w->pidfd >= 0)
		close(w->pidfd);
	free(w->status.buf);
	free(w->console.buf);
	free(w->vmcore);
	vm_results_free(w->results);
	splat_scan_free(&w->splats);
}

/* One qemu run: pipes, spawn, wait. */
static enum wait_result run_once(struct watch *w, const struct vm_launch *l, int lock_fd,
				 const sigset_t *oldmask, double timeout,
				 unsigned int probe, int *wstatus, int *sig)
{
	int sp[2], cp[2], mp[2], rp[2] = { -1, -1 };
	pid_t pid;

	if (pipe2(sp, O_CLOEXEC | O_NONBLOCK) < 0 || pipe2(cp, O_CLOEXEC | O_NONBLOCK) < 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, mp) < 0)
		die_errno("pipe");
	if (w->results && (pipe2(rp, O_CLOEXEC | O_NONBLOCK) < 0 || fcntl(rp[1], F_SETFL, 0) < 0))
		die_errno("pipe");
	/* qemu's ends block: a guest must not lose console bytes to EAGAIN */
	if (fcntl(sp[1], F_SETFL, 0) < 0 || fcntl(cp[1], F_SETFL, 0) < 0 ||
	    fcntl(mp[0], F_SETFL, O_NONBLOCK) < 0)
		die_errno("fcntl");
	pid = spawn_qemu(l, lock_fd, oldmask, sp[1], cp[1], mp[1], rp[1]);
	close(sp[1]);
	close(cp[1]);
	close(mp[1]);
	if (rp[1] >= 0)
		close(rp[1]);
	w->results_rd = rp[0];
	w->status_rd = sp[0];
	w->console_rd = cp[0];
	w->mon_fd = mp[0];
	w->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (w->pidfd < 0)
		die_errno("pidfd_open");
	watch_add(w, w->status_rd);
	watch_add(w, w->console_rd);
	watch_add(w, w->mon_fd);
	if (w->results_rd >= 0)
		watch_add(w, w->results_rd);
	watch_add(w, w->pidfd);
	return wait_qemu(w, pid, timeout, probe, wstatus, sig);
}

static void reset_for_retry(struct watch *w)
{
	epoll_ctl(w->epfd, EPOLL_CTL_DEL, w->pidfd, NULL);
	close(w->pidfd);
	w->pidfd = -1;
	w->status.len = w->console.len = 0;
	w->console_bytes = 0;
	w->mon_len = 0;
	w->shutdown_reason[0] = '\0';
	w->panicked = 0;
	w->mon_state = MON_GREETING;
	free(w->vmcore);
	w->vmcore = NULL;
	w->vmcore_ok = 0;
	if (w->log_fd >= 0)
		close(w->log_fd);
	w->log_fd = -1;
	w->log_failed = 0;
	log_open(w);
	vm_results_reset(w->results);
	splat_scan_free(&w->splats);
	splat_scan_init(&w->splats);
	w->started = mono_secs();
}

/* No record from the guest: say what stopped it, and with which code. */
static int explain_no_status(const struct watch *w, const struct vm_launch *l, int wstatus)
{
	const char *r = w->shutdown_reason;

	if (w->panicked) {
		report_panic(&w->console);
		warn("vm%u: kernel panic: the guest stopped without reporting an exit status "
		     "(console log: %s)", l->vm, l->console_log);
		if (w->vmcore && w->vmcore_ok)
			warn("vm%u: memory dump (%s) in %s; open it with crash or drgn and the vmlinux "
			     "that has the symbols", l->vm, l->s->vmcore_format, w->vmcore);
		else if (w->vmcore)
			warn("vm%u: no memory dump: qemu: %s", l->vm,
			     *w->vmcore_err ? w->vmcore_err : "no answer");
		return VM_EXIT_NO_STATUS;
	}
	if (!strcmp(r, "host-qmp-quit")) {
		warn("vm%u was stopped from the host by a QMP 'quit' (./vmctl %u quit or another "
		     "QMP client) before the guest reported a status", l->vm, l->vm);
		return VM_EXIT_HOST_STOPPED;
	}
	if (!strcmp(r, "host-signal")) {
		warn("vm%u: qemu was stopped by a signal sent to it on the host before the guest "
		     "reported a status", l->vm);
		return VM_EXIT_HOST_STOPPED;
	}
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) {
		report_panic(&w->console);
		warn("vm%u: the guest stopped without reporting an exit status (%s; console log: %s)",
		     l->vm, w->panicked || !strcmp(r, "guest-panic") ? "kernel panic" :
		     "kernel panic or crash", l->console_log);
		return VM_EXIT_NO_STATUS;
	}
	if (WIFEXITED(wstatus))
		warn("qemu failed (exit status %d; console log: %s)", WEXITSTATUS(wstatus),
		     l->console_log);
	else
		warn("qemu killed by signal %d (console log: %s)", WTERMSIG(wstatus), l->console_log);
	return VM_EXIT_FAILED;
}

int vm_run(struct vm_launch *l, int lock_fd)
{
	const struct vm_settings *s = l->s;
	unsigned int timeout = s->timeout, kvm_probe_secs = s->kvm_probe_secs;	/* timeout: for messages */
	int auto_accel = s->accel == ACCEL_AUTO;
	struct status_record rec;
	struct watch w;
	sigset_t mask, oldmask;
	enum wait_result res;
	int wstatus = 0, sig = 0, rc, sigfd;
	char why[STATUS_MSG_MAX + 32] = "";

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
	watch_init(&w, l, sigfd);

	for (;;) {
		/* from here this loop's timer kills qemu at the deadline, results kept */
		double left = vm_deadline_stop();

		vm_new_nonce(l->nonce);
		res = run_once(&w, l, lock_fd, &oldmask, left,
			       auto_accel && l->accel == ACCEL_KVM ? kvm_probe_secs : 0, &wstatus, &sig);
		if (res == QEMU_EXITED && auto_accel && l->accel == ACCEL_KVM && !w.console_bytes &&
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
		reset_for_retry(&w);
	}

	switch (res) {
	case QEMU_TIMEOUT:
		warn("timeout: vm%u killed after %us (console log: %s)", l->vm, timeout, l->console_log);
		rc = VM_EXIT_TIMEOUT;
		break;
	case QEMU_SIGNALLED:
		warn("vm%u stopped by signal %d", l->vm, sig);
		rc = 128 + sig;
		break;
	default:
		if (status_record_find_last(w.status.buf, w.status.len, l->nonce, &rec)) {
			rc = explain_no_status(&w, l, wstatus);
		} else if (rec.kind == STATUS_INIT_ERROR) {
			warn("vm%u: guest init: %s", l->vm, rec.msg);
			snprintf(why, sizeof(why), "guest init: %s", rec.msg);
			rc = VM_EXIT_NO_STATUS;
		} else {
			rc = rec.code;
		}
		break;
	}
	rc = vm_results_finish(w.results, l, &w.splats, rc, *why ? why : NULL, mono_secs() - w.started,
			       mono_secs());
	watch_free(&w);
	close(sigfd);
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	return rc;
}
