// SPDX-License-Identifier: GPL-2.0
/*
 * vm-verdict.c: the one rule for "the run failed" (verdict.c) and what
 * --results writes at the end (collect.c): failed and unfinished records
 * fail a run the guest called 0; a failed run without a failed test gets
 * a testcase of its own; no record on the results port is 125; the
 * results.txt reader's strict meta exit and times; a report that cannot be
 * written makes meta exit 125 and leaves no half of the reports; the
 * splat scanner on a kernel without timestamps; how the VM stopped
 * (verdict_stop): the guest's record, its init's error, a panic, a QMP
 * quit, a signal to qemu, qemu failing, a timeout, a signal to ./vm.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collect.h"
#include "err.h"
#include "io.h"
#include "known.h"
#include "rapido.h"
#include "resctx.h"
#include "results.h"
#include "status.h"
#include "tap.h"
#include "verdict.h"
#include "vm.h"

static int decide(int rc, unsigned int splats, const struct rsuite *s, char **cause)
{
	struct verdict_in in = { .vm = 1, .rc = rc, .splats = splats, .s = s };

	return verdict_decide(&in, cause);
}

static void suite_of(struct rsuite *s, const char *const *lines)
{
	rsuite_init(s);
	for (; *lines; lines++)
		rsuite_record(s, *lines, 0, 1.0);
	rsuite_close_running(s, 2.0, "the guest exited");
}

/* the last line of a file (without its newline), malloc'd */
static char *last_line(const char *path)
{
	char *text = NULL, *nl, *p;

	if (read_file(path, &text, NULL))
		return strdup("");
	nl = strrchr(text, '\n');
	if (nl && !nl[1])
		*nl = '\0';
	p = strrchr(text, '\n');
	p = strdup(p ? p + 1 : text);
	free(text);
	return p;
}

#define NONCE "0123456789abcdef0123456789abcdef"

/* stderr into a pipe until capture_end, which puts its first line in msg */
static int capture_begin(int p[2])
{
	int saved = dup(2);

	if (pipe(p) < 0 || saved < 0)
		exit(1);
	fflush(stderr);
	dup2(p[1], 2);
	close(p[1]);
	return saved;
}

static void capture_end(int p[2], int saved, char *msg, size_t len)
{
	ssize_t n;

	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = read(p[0], msg, len - 1);
	msg[n > 0 ? n : 0] = '\0';
	msg[strcspn(msg, "\n")] = '\0';
	close(p[0]);
}

/* verdict_stop for one end, with stderr (its first line) in msg */
static int stop(struct verdict_stop *st, char *why, char *msg, size_t len)
{
	int p[2], saved = capture_begin(p), rc, tests_only;

	rc = verdict_stop(st, why, 600, &tests_only);
	capture_end(p, saved, msg, len);
	return rc;
}

/* the closing line at a terminal for rc and why, as ./vm decides its cause */
static void summary_is(int rc, const char *why, const char *want, const char *what)
{
	struct verdict_in in = { .vm = 2, .rc = rc, .why = why && *why ? why : NULL };
	char msg[1024], *cause;
	int p[2], saved;

	rc = verdict_decide(&in, &cause);
	saved = capture_begin(p);
	verdict_summary(2, rc, cause, 6.94, "/s/vm2.log");
	capture_end(p, saved, msg, sizeof(msg));
	free(cause);
	TAP_EQ_STR(msg, want, "%s", what);
}

static void stop_cases(void)
{
	char status[STATUS_RECORD_MAX * 2], why[600], msg[1024];
	struct status_record rec = { .kind = STATUS_EXIT, .code = 7 };
	const char *console = "[    1.0] Kernel panic - not syncing: VFS: Unable to mount root\r\nmore\n";
	struct verdict_stop st = {
		.vm = 2, .console_log = "/s/vm2.log", .nonce = NONCE, .shutdown_reason = "",
		.console = console, .console_len = strlen(console), .vmcore_err = "",
		.vmcore_format = "elf",
	};
	size_t n;

	err_prog = "vm";
	/* a record for another boot's nonce is not this boot's */
	n = status_record_format(status, "ffffffffffffffffffffffffffffffff", &rec);
	rec.code = 3;
	n += status_record_format(status + n, NONCE, &rec);
	st.status = status;
	st.status_len = n;
	TAP_EQ_INT(stop(&st, why, msg, sizeof(msg)), 3, "the guest's record for this boot: its code");
	TAP_EQ_STR(why, "", "  no cause in words");
	summary_is(3, why, "vm: vm2: the guest exited 3 after 6.9s; console log /s/vm2.log",
		   "  the closing line: the guest's status as a number");
	summary_is(0, why, "vm: vm2: the guest exited 0 after 6.9s; console log /s/vm2.log",
		   "  and its 0");
	rec.kind = STATUS_INIT_ERROR;
	snprintf(rec.msg, sizeof(rec.msg), "cannot mount /proc");
	n = status_record_format(status, NONCE, &rec);
	st.status_len = n;
	TAP_EQ_INT(stop(&st, why, msg, sizeof(msg)), VM_EXIT_NO_STATUS, "the init's error: 123");
	TAP_EQ_STR(why, "guest init: cannot mount /proc", "  its message is the cause");
	TAP_EQ_STR(msg, "vm: vm2: guest init: cannot mount /proc", "  and said");
	summary_is(VM_EXIT_NO_STATUS, why, "vm: vm2: guest init: cannot mount /proc (exit 123) after "
		   "6.9s; console log /s/vm2.log", "  the closing line says it too");

	st.status_len = 0;
	st.panicked = 1;
	st.vmcore = "/s/vm2.vmcore";
	TAP_EQ_INT(stop(&st, why, msg, sizeof(msg)), VM_EXIT_NO_STATUS, "a panic without a record: 123");
	TAP_EQ_STR(msg, "vm: Kernel panic - not syncing: VFS: Unable to mount root",
		   "  the console's panic line first, from the panic on, without its CR");
	/* the first hour: the last line said the generic words for 123 after a panic was named */
	summary_is(VM_EXIT_NO_STATUS, why, "vm: vm2: kernel panic (exit 123) after 6.9s; console log "
		   "/s/vm2.log", "  the closing line: a kernel panic, not every cause of 123");
	st.panicked = 0;
	st.shutdown_reason = "host-qmp-quit";
	TAP_EQ_INT(stop(&st, why, msg, sizeof(msg)), VM_EXIT_HOST_STOPPED, "a QMP quit: 122");
	TAP_EQ_STR(msg, "vm: vm2 was stopped from the host by a QMP 'quit' (./vmctl 2 quit or another "
		   "QMP client) before the guest reported a status", "  said so");
	summary_is(VM_EXIT_HOST_STOPPED, why, "vm: vm2: stopped from the host by a QMP 'quit' before "
		   "the guest reported (exit 122) after 6.9s; console log /s/vm2.log",
		   "  the closing line names the QMP quit");
	{
		/* issue 40: what qemu's console multiplexer writes when Ctrl-a x quits it */
		static const char ctrl_a_x[] = "login: QEMU: Terminated\n\r";
		const char *console = st.console;
		size_t console_len = st.console_len;

		st.console = ctrl_a_x;
		st.console_len = sizeof(ctrl_a_x) - 1;
		TAP_EQ_INT(stop(&st, why, msg, sizeof(msg)), VM_EXIT_HOST_STOPPED, "Ctrl-a x: 122");
		TAP_EQ_STR(msg, "vm: vm2 was stopped with Ctrl-a x on its console before the guest "
			   "reported a status", "  named as Ctrl-a x, not a QMP client's quit");
		summary_is(VM_EXIT_HOST_STOPPED, why, "vm: vm2: stopped with Ctrl-a x on the console "
			   "before the guest reported (exit 122) after 6.9s; console log /s/vm2.log",
			   "  the closing line names Ctrl-a x");
		st.interactive = 1;
		TAP_EQ_INT(stop(&st, why, msg, sizeof(msg)), 0, "Ctrl-a x, interactive: no verdict, 0");
		summary_is(0, why, "vm: vm2: quit from the console (Ctrl-a x), no verdict (exit 0) after "
			   "6.9s; console log /s/vm2.log", "  the closing line: a quit, not a pass");
		{
			/* with --results too: its records passed, the session was still quit */
			static const char *const passed[] = { "R1 hello rapido-init", "R1 start t",
							      "R1 pass t 0.1 -",
							      NULL };
			struct verdict_in in = { .vm = 2, .why = why };
			struct rsuite s;
			char *cause;

			suite_of(&s, passed);
			in.s = &s;
			TAP_EQ_INT(verdict_decide(&in, &cause), 0, "  with --results: 0");
			TAP_EQ_STR(cause, "quit from the console (Ctrl-a x), no verdict",
				   "  its cause the quit, not \"passed\"");
			free(cause);
			rsuite_free(&s);
		}
		st.interactive = 0;
		st.console = console;
		st.console_len = console_len;
	}
	st.shutdown_reason = "host-signal";
	TAP_EQ_INT(stop(&st, why, msg, sizeof(msg)), VM_EXIT_HOST_STOPPED, "a signal to qemu: 122");
	summary_is(VM_EXIT_HOST_STOPPED, why, "vm: vm2: qemu was stopped by a signal on the host "
		   "before the guest reported (exit 122) after 6.9s; console log /s/vm2.log",
		   "  the closing line names the signal to qemu");
	st.shutdown_reason = "guest-shutdown";
	st.wstatus = 0;
	TAP_EQ_INT(stop(&st, why, msg, sizeof(msg)), VM_EXIT_NO_STATUS,
		   "qemu exited 0 without a record: 123");
	/* issue 40: a power-off or a reset in the guest is named as one, and stays a failure */
	TAP_EQ_STR(msg, "vm: vm2: the guest powered off without reporting a status (a poweroff, or "
		   "sysrq o, in the guest before the rapido init ended; console log: /s/vm2.log)",
		   "  a power-off in the guest, named as one");
	summary_is(VM_EXIT_NO_STATUS, why, "vm: vm2: a power-off in the guest before the rapido init "
		   "reported a status (exit 123) after 6.9s; console log /s/vm2.log",
		   "  the closing line names the power-off");
	st.shutdown_reason = "guest-reset";
	/* a panic before the init loaded pvpanic reboots (panic=-1): qemu says reset */
	TAP_EQ_INT(stop(&st, why, msg, sizeof(msg)), VM_EXIT_NO_STATUS,
		   "a reset after the console's Kernel panic: 123");
	TAP_EQ_STR(msg, "vm: Kernel panic - not syncing: VFS: Unable to mount root",
		   "  the console's panic line said");
	TAP_EQ_STR(why, "kernel panic (before pvpanic was loaded)", "  its cause the panic, not a reset");
	st.console = "[    1.0] reboot: Restarting system\n";
	st.console_len = strlen(st.console);
	TAP_EQ_INT(stop(&st, why, msg, sizeof(msg)), VM_EXIT_NO_STATUS, "a reset in the guest: 123");
	TAP_EQ_STR(msg, "vm: vm2: the guest reset without reporting a status (a reboot in the guest, "
		   "or a triple fault; console log: /s/vm2.log)", "  named as one");
	summary_is(VM_EXIT_NO_STATUS, why, "vm: vm2: a reset in the guest (a reboot or a triple fault) "
		   "before the rapido init reported a status (exit 123) after 6.9s; console log "
		   "/s/vm2.log", "  the closing line names the reset");
	st.console = console;
	st.console_len = strlen(console);
	st.shutdown_reason = "guest-panic";
	TAP_EQ_INT(stop(&st, why, msg, sizeof(msg)), VM_EXIT_NO_STATUS, "qemu's guest-panic: 123");
	TAP_EQ_STR(why, "kernel panic", "  its cause a kernel panic");
	st.shutdown_reason = "guest-shutdown";
	st.wstatus = 1 << 8;
	TAP_EQ_INT(stop(&st, why, msg, sizeof(msg)), VM_EXIT_FAILED, "qemu failing: 125");
	TAP_EQ_STR(msg, "vm: qemu failed (exit status 1; console log: /s/vm2.log)", "  with its status");
	TAP_EQ_STR(why, "qemu failed (exit status 1)", "  its cause");
	st.wstatus = SIGKILL;
	TAP_EQ_INT(stop(&st, why, msg, sizeof(msg)), VM_EXIT_FAILED, "qemu killed: 125");
	st.end = VERDICT_TIMEOUT;
	st.timeout = 30;
	TAP_EQ_INT(stop(&st, why, msg, sizeof(msg)), VM_EXIT_TIMEOUT, "the timeout: 124");
	TAP_EQ_STR(msg, "vm: timeout: vm2 killed after 30s (console log: /s/vm2.log)", "  said so");
	summary_is(VM_EXIT_TIMEOUT, why, "vm: vm2: timeout: --timeout (30s) expired and qemu was "
		   "killed (exit 124) after 6.9s; console log /s/vm2.log",
		   "  the closing line gives the timeout");
	st.end = VERDICT_SIGNALLED;
	st.sig = SIGTERM;
	TAP_EQ_INT(stop(&st, why, msg, sizeof(msg)), 128 + SIGTERM, "./vm stopped by SIGTERM: 143");
	summary_is(128 + SIGTERM, why, "vm: vm2: ./vm was stopped by signal 15 (Terminated) (exit "
		   "143) after 6.9s; console log /s/vm2.log",
		   "  the closing line: ./vm's signal, not a guest's status 143");

	{
		char *cause = xstrdup("passed");

		TAP_EQ_INT(verdict_unwritten(0, "results: full", &cause), VM_EXIT_FAILED,
			   "results not written whole: a passing run is 125");
		TAP_EQ_STR(cause, "results: full", "  with that cause");
		TAP_EQ_INT(verdict_unwritten(3, "results: full", &cause), 3, "  a failed run keeps its status");
		free(cause);
	}
}

static void collect_cases(void)
{
	char dir[] = "/tmp/rapido-verdict.XXXXXX", *path, *line;
	struct known_opts none = { 0 };
	struct results_ctx c;
	struct results_run *r;
	struct splat_scan sc;
	static const char rec[] = "R1 hello rapido-init\nR1 start t1\nR1 pass t1 0.1 -\n";
	char *cause;
	int rc;

	if (!mkdtemp(dir)) {
		for (int i = 0; i < 10; i++)
			tap_skip("no temporary directory", "collect");
		return;
	}
	/* the door alone (resctx.h): no launch struct */
	memset(&c, 0, sizeof(c));
	c.dir = dir;
	c.profile = "p";
	c.release = "6.1";
	c.splat_mask = SPLAT_ALL;
	c.known = &none;
	c.vm = 1;

	/* results.tap cannot be written (a directory in its place): 125, and meta exit says so */
	r = results_open(&c);
	results_input(r, rec, sizeof(rec) - 1, 1.0, 0);
	path = xasprintf("%s/results.tap", dir);
	mkdir(path, 0755);
	free(path);
	path = xasprintf("%s/results.tap/keep", dir);
	close(open(path, O_WRONLY | O_CREAT, 0644));
	free(path);
	splat_scan_init(&sc);
	rc = results_finish(r, &c, &sc, 0, NULL, 1.0, 2.0, &cause);
	results_free(r);
	splat_scan_free(&sc);
	TAP_EQ_INT(rc, VM_EXIT_FAILED, "a report that cannot be written: 125");
	tap_ok(!strncmp(cause, "results: ", 9), "  the final cause for the closing line: %s", cause);
	free(cause);
	path = xasprintf("%s/results.txt", dir);
	line = last_line(path);
	TAP_EQ_STR(line, "R1 meta exit 125", "results.txt ends with the final status, not the guest's 0");
	free(line);
	free(path);
	path = xasprintf("%s/junit.xml", dir);
	tap_ok(access(path, F_OK) != 0, "no junit.xml without its results.tap");
	free(path);

	/* the old files/ of an earlier run are gone */
	path = xasprintf("%s/results.tap", dir);
	tap_rm_tree(path);
	free(path);
	path = xasprintf("%s/files", dir);
	mkdir(path, 0755);	/* as an earlier run left it */
	free(path);
	path = xasprintf("%s/files/old-artifact", dir);
	close(open(path, O_WRONLY | O_CREAT, 0644));
	tap_ok(access(path, F_OK) == 0, "an earlier run's artifact in files/");
	r = results_open(&c);
	tap_ok(access(path, F_OK) != 0, "--results clears files/ of an earlier run");
	free(path);
	path = xasprintf("%s/files", dir);
	tap_ok(access(path, F_OK) == 0, "  and makes it anew");
	free(path);
	results_free(r);

	/* a timeout between tests, an init error: each a failed testcase of its own */
	for (int i = 0; i < 2; i++) {
		char *junit, *tap;

		r = results_open(&c);
		results_input(r, rec, sizeof(rec) - 1, 1.0, 0);
		splat_scan_init(&sc);
		rc = results_finish(r, &c, &sc, i ? VM_EXIT_NO_STATUS : VM_EXIT_TIMEOUT,
				    i ? "guest init: exec /bin/bash: Exec format error" : NULL, 1.0, 2.0,
				    &cause);
		free(cause);
		results_free(r);
		splat_scan_free(&sc);
		path = xasprintf("%s/junit.xml", dir);
		junit = NULL;
		read_file(path, &junit, NULL);
		free(path);
		path = xasprintf("%s/results.tap", dir);
		tap = NULL;
		read_file(path, &tap, NULL);
		free(path);
		if (i)
			tap_ok(rc == VM_EXIT_NO_STATUS && junit &&
			       strstr(junit, "name=\"rapido: exit status 123: guest init: exec /bin/bash: Exec format error\""),
			       "an init error: its message in the failed testcase");
		else
			tap_ok(rc == VM_EXIT_TIMEOUT && junit &&
			       strstr(junit, "name=\"rapido: exit status 124: timeout") &&
			       strstr(junit, "failures=\"1\""), "a timeout after the last test: a failed testcase");
		/* issue 40 #3: nothing planned what came after the last result */
		tap_ok(junit && strstr(junit, "name=\"rapido: tests not run\"") &&
		       strstr(junit, "<error message=\"not run: the VM stopped before the autorun ended ("),
		       "  and an error: the tests after the last result may not have run");
		tap_ok(tap && strstr(tap, "\nnot ok 1 p\n"), "  results.tap: not ok");
		free(junit);
		free(tap);
	}

	/*
	 * issue 43 #8: the kernel's OOM killer took the autorun (status 137)
	 * while a test ran: the verdict and that test's failure name it
	 */
	{
		static const char oom_rec[] = "R1 hello rapido-init\nR1 start z/btrfs\n";
		static const char console[] = "[   41.250000] Out of memory: Killed process 321 (bash) "
					      "total-vm:9000kB, anon-rss:100kB\r\nafter\n";
		char *junit = NULL;

		r = results_open(&c);
		results_input(r, oom_rec, sizeof(oom_rec) - 1, 1.0, 0);
		splat_scan_init(&sc);
		splat_feed(&sc, console, sizeof(console) - 1);
		rc = results_finish(r, &c, &sc, 128 + 9, NULL, 1.0, 2.0, &cause);
		free(cause);
		results_free(r);
		splat_scan_free(&sc);
		path = xasprintf("%s/junit.xml", dir);
		read_file(path, &junit, NULL);
		free(path);
		TAP_EQ_INT(rc, 137, "an OOM kill: the guest's status 137 stays");
		tap_ok(junit && strstr(junit, "<failure message=\"did not finish: killed by the OOM killer "
				       "(Out of memory: Killed process 321 (bash) total-vm:9000kB"),
		       "  the test it stopped: killed by the OOM killer, the kernel's line");
		free(junit);
		junit = NULL;
		path = xasprintf("%s/results.txt", dir);
		read_file(path, &junit, NULL);
		free(path);
		tap_ok(junit && strstr(junit, "R1 meta cause killed%20by%20the%20OOM%20killer%20("),
		       "  and the run's cause in results.txt");
		free(junit);

		/* an earlier OOM kill does not name a run that ended otherwise: a timeout stays one */
		junit = NULL;
		r = results_open(&c);
		results_input(r, oom_rec, sizeof(oom_rec) - 1, 1.0, 0);
		splat_scan_init(&sc);
		splat_feed(&sc, console, sizeof(console) - 1);
		rc = results_finish(r, &c, &sc, VM_EXIT_TIMEOUT, NULL, 1.0, 2.0, &cause);
		free(cause);
		results_free(r);
		splat_scan_free(&sc);
		path = xasprintf("%s/results.txt", dir);
		read_file(path, &junit, NULL);
		free(path);
		TAP_EQ_INT(rc, VM_EXIT_TIMEOUT, "a timeout after an OOM kill: 124");
		tap_ok(junit && strstr(junit, "R1 meta cause timeout") && !strstr(junit, "OOM"),
		       "  its cause the timeout, not the OOM killer");
		free(junit);
	}
	tap_rm_tree(dir);
}

/* ./vm's exit statuses in its whole words (verdict_words): the cause junit.xml and KTAP give */
static void status_words(void)
{
	static const struct { int rc; const char *want; } t[] = {
		{ 0, "passed" },
		{ VM_EXIT_TESTS_FAILED, "the guest's scripts failed" },
		{ VM_EXIT_SPLAT, "the scripts passed but the kernel reported a problem on the console" },
		{ VM_EXIT_HOST_STOPPED, "the VM was stopped from the host before the guest reported" },
		{ VM_EXIT_NO_STATUS, "the guest stopped without reporting a status (kernel panic, crash, "
				     "power-off or reboot in the guest, or guest init failure)" },
		{ VM_EXIT_TIMEOUT, "timeout: --timeout expired and qemu was killed" },
		{ VM_EXIT_FAILED, "./vm or qemu failed (qemu did not start, or the results could not be "
				  "collected or written)" },
		{ 7, "the guest's scripts failed" },
		{ 137, "the guest's scripts failed, or ./vm was stopped by signal 9" },
		{ 192, "the guest's scripts failed, or ./vm was stopped by signal 64" },
		{ 193, "the guest's scripts failed" },
	};
	char buf[128];

	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++)
		TAP_EQ_STR(verdict_words(t[i].rc, VERDICT_WHOLE, buf, sizeof(buf)), t[i].want,
			   "exit %d in words", t[i].rc);
}

int main(void)
{
	static const char *const fail_then_pass[] = { "R1 start a", "R1 fail a 1 bad -", "R1 start b",
						      "R1 pass b 1 -", NULL };
	static const char *const unfinished[] = { "R1 start a", "R1 pass a 1 -", "R1 start b", NULL };
	static const char *const passes[] = { "R1 start a", "R1 pass a 1 -", NULL };
	static const char *const twice[] = { "R1 start a", "R1 start a", "R1 pass a 1 -", NULL };
	struct rsuite s;
	struct rcount c;
	struct splat_scan sc;
	char *cause, *text;
	int rc;

	tap_plan(98);

	suite_of(&s, fail_then_pass);
	rc = decide(0, 0, &s, &cause);
	TAP_EQ_INT(rc, VM_EXIT_TESTS_FAILED, "guest 0, a failed record: exit 1");
	tap_ok(strstr(cause, "1 test failed"), "  the cause says so: %s", cause);
	free(cause);
	rc = decide(0, 2, &s, &cause);
	TAP_EQ_INT(rc, VM_EXIT_SPLAT, "guest 0, a failed record and kernel reports: 121");
	free(cause);
	rc = decide(7, 0, &s, &cause);
	TAP_EQ_INT(rc, 7, "the guest's own failure stays");
	free(cause);
	rsuite_free(&s);

	suite_of(&s, unfinished);
	rc = decide(0, 0, &s, &cause);
	TAP_EQ_INT(rc, VM_EXIT_TESTS_FAILED, "guest 0, a test that did not finish: exit 1");
	free(cause);
	rsuite_free(&s);

	suite_of(&s, passes);
	rc = decide(0, 0, &s, &cause);
	TAP_EQ_INT(rc, 0, "guest 0, passing records: 0");
	free(cause);
	rc = decide(0, 1, &s, &cause);
	TAP_EQ_INT(rc, VM_EXIT_SPLAT, "guest 0, passing records, a kernel report: 121");
	free(cause);
	rc = decide(0, 1, NULL, &cause);
	TAP_EQ_INT(rc, VM_EXIT_SPLAT, "without --results too");
	free(cause);
	rsuite_free(&s);

	rsuite_init(&s);
	rc = decide(0, 0, &s, &cause);
	TAP_EQ_INT(rc, VM_EXIT_FAILED, "--results and not one record on the port: 125");
	free(cause);
	rsuite_record(&s, "R1 hello rapido-init", 0, 1.0);
	rc = decide(0, 0, &s, &cause);
	TAP_EQ_INT(rc, 0, "the init's hello alone: the port works, a profile without tests passes");
	free(cause);
	s.exit = VM_EXIT_TIMEOUT;
	verdict_add_case(&s);
	verdict_add_case(&s);
	rsuite_count(&s, &c);
	tap_ok(c.tests == 1 && c.fail == 1, "a timeout without a failed test: one failed testcase (once)");
	tap_ok(s.n && !strncmp(s.t[0].name, "rapido: exit status 124: timeout", 32),
	       "  named for the status and cause: %s", s.n ? s.t[0].name : "");
	rsuite_free(&s);

	suite_of(&s, twice);
	rsuite_count(&s, &c);
	tap_ok(c.tests == 2 && c.pass == 1 && c.fail == 1 && s.t[1].state == RT_PASS,
	       "an end record ends the latest start of its name; the other did not finish");
	rsuite_free(&s);

	/* the reader: strict meta exit, one only, and plain decimal times */
	rsuite_init(&s);
	text = strdup("R1 meta exit 0\nR1 pass a nan -\nR1 pass b 0x10 -\nR1 pass c 2.5 -\n");
	rsuite_parse(&s, text);
	free(text);
	TAP_EQ_INT(s.exit, 0, "meta exit 0");
	tap_ok(s.t[0].secs == 0 && s.t[1].secs == 0 && s.t[2].secs == 2.5, "times: nan and hex read as 0");
	rsuite_free(&s);
	rsuite_init(&s);
	text = strdup("R1 meta exit 1\nR1 meta exit 0\n");
	rsuite_parse(&s, text);
	free(text);
	TAP_EQ_INT(s.exit, -1, "two meta exit lines: unknown");
	tap_ok(s.cause && strstr(s.cause, "2 meta exit"), "  and why");
	rsuite_free(&s);
	rsuite_init(&s);
	text = strdup("R1 meta exit %30\n");
	rsuite_parse(&s, text);
	free(text);
	TAP_EQ_INT(s.exit, -1, "meta exit %%30: unknown");
	rsuite_free(&s);

	/* a kernel without timestamps: the whole format, and only that, counts */
	splat_scan_init(&sc);
	text = "guest: WARNING: disk nearly full\n"
	       "WARNING: something the guest printed\n"
	       "BUG: 12 open\n"
	       "------------[ cut here ]------------\n"
	       "WARNING: CPU: 0 PID: 1 at fs/x.c:10 f+0x1/0x2\n"
	       "Call Trace:\n"
	       "---[ end trace 0000000000000000 ]---\n"
	       "INFO: task dd:99 blocked for more than 1 seconds.\n"
	       "INFO: task list follows\n";
	splat_feed(&sc, text, strlen(text));
	splat_finish(&sc);
	TAP_EQ_INT(sc.n, 2, "no timestamps: the WARNING and the hung task, not the guest's lines");
	if (sc.n == 2) {
		TAP_EQ_INT(sc.v[0].kind, SPLAT_WARNING, "  a WARNING");
		TAP_EQ_INT(sc.v[0].lines, 3, "  up to its end marker");
		TAP_EQ_INT(sc.v[1].kind, SPLAT_HUNG_TASK, "  a hung task");
	} else {
		for (int i = 0; i < 3; i++)
			tap_skip("wrong count", "splat");
	}
	splat_scan_free(&sc);
	splat_scan_init(&sc);
	text = "[    0.000000] Linux version 6.1\n"
	       "WARNING: CPU: 0 PID: 1 at fs/x.c:10 f+0x1/0x2\n";
	splat_feed(&sc, text, strlen(text));
	splat_finish(&sc);
	TAP_EQ_INT(sc.n, 0, "a kernel that stamps its lines: an unstamped line is not the kernel's");
	splat_scan_free(&sc);

	status_words();
	collect_cases();
	stop_cases();
	return tap_done();
}
