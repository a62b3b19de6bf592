// SPDX-License-Identifier: GPL-2.0
/*
 * results.c: the guest's end of ./vm --results: the host's DIR/files on
 * /results (9p), and the virtio serial port named rapido.results that the
 * test records go to (autorun/lib/results.sh writes them).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "guestmods.h"
#include "init.h"
#include "io.h"
#include "protocol.h"

#define RESULTS_DIR "/results"

/*
 * The first record: ./vm counts a run with --results whose port never
 * carried a record as failed (125), so a guest without virtio_console
 * is not mistaken for a profile with no tests.
 */
static void say_hello(const char *port)
{
	static const char hello[] = REC_PREFIX REC_HELLO " rapido-init\n";
	int fd = open(port, O_WRONLY | O_CLOEXEC | O_NOCTTY), rc;

	if (fd < 0) {
		warn_errno("open %s", port);
		return;
	}
	rc = write_all(fd, hello, sizeof(hello) - 1);
	if (rc)
		warn_err(rc, "write %s", port);
	close(fd);
}

/* rapido.status is a line "CODE WHY" (WHY a rapido_fail message); far more is none of the library's */
#define KEPT_MAX (1u << 20)

/* DIR/NAME, the library's file, into *text: 0, -ENOENT, or another -errno (warned). */
static int kept_read(const char *dir, const char *name, char **text)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct stat st;
	int rc = read_regular_file(path, O_NOFOLLOW, KEPT_MAX, text, NULL, &st);

	if (rc && rc != -ENOENT)
		warn("%s: %s", path, rc == -EFBIG ? "larger than a kept status" : file_strerror(rc, &st));
	free(path);
	return rc;
}

/* The status of a kept "CODE WHY" line: CODE, or -1 if it starts with none. */
static long kept_code(const char *text)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	return end == text || errno || (*end != ' ' && *end != '\n' && *end) ? -1 : v;
}

/* The status the guest library's poweroff left in DIR/rapido.poweroff; -ENOENT: it left none. */
static int poweroff_status(const char *dir)
{
	char *text;
	long code;
	int rc = kept_read(dir, "rapido.poweroff", &text);

	if (rc == -ENOENT)
		return rc;
	if (rc)
		return 1;
	code = kept_code(text);
	free(text);
	if (code < 0 || code > 255) {
		warn("%s/rapido.poweroff: no exit status from 0 to 255: status 1", dir);
		return 1;
	}
	return (int)code;
}

/* The power-off signal's name, and the busybox applet that sends it to PID 1. */
static const char *poweroff_signal(int sig, const char **applet)
{
	switch (sig) {
	case SIGUSR1:
		*applet = "halt";
		return "SIGUSR1";
	case SIGUSR2:
		*applet = "poweroff";
		return "SIGUSR2";
	default:
		*applet = "reboot";
		return "SIGTERM";
	}
}

int init_early_verdict(const char *dir, struct status_record *r)
{
	char *text;

	if (kept_read(dir, "rapido.early", &text))
		return 0;
	text[strcspn(text, "\n")] = '\0';
	r->kind = STATUS_INIT_ERROR;
	r->code = 255;
	snprintf(r->msg, sizeof(r->msg), "the guest library ended the run: %s: no verdict", text);
	free(text);
	warn("%s", r->msg);
	return 1;
}

void init_poweroff_verdict(const char *dir, int sig, pid_t sender, struct status_record *r)
{
	char *path, *comm = NULL, *text;
	const char *name, *applet;
	struct stat st;
	int code = poweroff_status(dir);

	r->kind = STATUS_EXIT;
	r->msg[0] = '\0';
	if (code != -ENOENT) {
		r->code = code;
		return;
	}
	/* the library marks the prompt, a regular file it made: no link, no test's leftover dir */
	path = xasprintf("%s/rapido.prompt", dir);
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		free(path);
		/* leaving the interactive shell is no verdict: the failure kept before it, else 0 */
		r->code = 0;
		if (!kept_read(dir, "rapido.status", &text)) {
			long kept = kept_code(text);

			r->code = kept >= 1 && kept <= 255 ? (int)kept : 1;
			free(text);
		}
		return;
	}
	free(path);
	if (init_early_verdict(dir, r))
		return;
	r->kind = STATUS_INIT_ERROR;
	r->code = 255;
	if (sender > 0) {
		path = xasprintf("/proc/%d/comm", (int)sender);
		if (!read_regular_file(path, O_NOFOLLOW, 64, &comm, NULL, &st))
			comm[strcspn(comm, "\n")] = '\0';
		free(path);
	}
	name = poweroff_signal(sig, &applet);
	snprintf(r->msg, sizeof(r->msg),
		 "the init was signalled (%s from pid %d%s%s%s, as busybox's %s asks it) before the "
		 "profile finished: no verdict (a suite powered the guest off, or killed PID 1)",
		 name, (int)sender, comm ? " (" : "", comm ? comm : "", comm ? ")" : "", applet);
	warn("%s", r->msg);
	free(comm);
}

int init_kept_status(const char *dir, int code)
{
	char *text, what[32];
	long kept;
	int rc;

	if (code)
		return code;
	rc = kept_read(dir, "rapido.status", &text);
	if (rc == -ENOENT)
		return 0;
	kept = rc ? -1 : kept_code(text);
	if (!rc)
		free(text);
	/* a failure is all the library keeps: one that is no exit status is 1 */
	code = kept >= 1 && kept <= 255 ? (int)kept : 1;
	if (kept < 0)
		snprintf(what, sizeof(what), "no status");
	else
		snprintf(what, sizeof(what), "status %ld", kept);
	warn("the autorun exited 0 after the guest library kept a failure in %s/rapido.status "
	     "(%s): a profile's EXIT trap or a status bash cut to 8 bits cannot undo it; exit "
	     "status %d", dir, what, code);
	return code;
}

int init_tests_only(const char *dir, int code)
{
	char *text, *other = xasprintf("%s/rapido.status-other", dir);
	int same = access(other, F_OK) < 0 && errno == ENOENT;

	free(other);
	if (!code || !same)
		return 0;
	if (kept_read(dir, "rapido.status", &text))
		return 0;
	/* the kept failure is the status the autorun exited with */
	same = kept_code(text) == code;
	free(text);
	return same;
}

void init_results_setup(const struct init_cmdline *cl)
{
	char *port;

	if (*cl->shard)
		setenv("RAPIDO_SHARD", cl->shard, 1);
	if (*cl->serial)
		setenv("RAPIDO_SERIAL", cl->serial, 1);
	if (cl->serial_tests)
		setenv("RAPIDO_SERIAL_TESTS", cl->serial_tests, 1);
	if (cl->rerun) {
		char n[16];

		snprintf(n, sizeof(n), "%u", cl->rerun);
		setenv("RAPIDO_RERUN_FAILURES", n, 1);
	}
	if (!cl->results)
		return;
	init_modprobe(guestmods_results, 1);
	port = init_wait_port(PORT_RESULTS, 200);
	if (port) {
		setenv("RAPIDO_RESULTS_PORT", port, 1);
		say_hello(port);
	} else
		warn("the results port %s did not appear: no per-test results for ./vm --results",
		     PORT_RESULTS);
	free(port);
	if (mkdir(RESULTS_DIR, 0755) < 0 && errno != EEXIST)
		warn_errno("mkdir %s", RESULTS_DIR);
	else if (mount(PORT_RESULTS, RESULTS_DIR, "9p", 0,
		       "trans=virtio,version=9p2000.L,msize=262144,cache=none") < 0)
		warn_errno("mount 9p share %s on %s: tests cannot leave files for ./vm --results",
			   PORT_RESULTS, RESULTS_DIR);
	else
		setenv("RAPIDO_RESULTS_DIR", RESULTS_DIR, 1);
}
