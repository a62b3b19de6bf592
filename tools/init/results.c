// SPDX-License-Identifier: GPL-2.0
/*
 * results.c: the guest's end of ./vm --results: the host's DIR/files on
 * /results (9p), and the virtio serial port named rapido.results that the
 * test records go to (autorun/lib/results.sh writes them).
 */
#include <errno.h>
#include <fcntl.h>
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

#define RESULTS_TAG "rapido.results"
#define RESULTS_DIR "/results"

/*
 * The first record: ./vm counts a run with --results whose port never
 * carried a record as failed (125), so a guest without virtio_console
 * is not mistaken for a profile with no tests.
 */
static void say_hello(const char *port)
{
	static const char hello[] = "R1 hello rapido-init\n";
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

int init_tests_only(int code)
{
	char *text, *end;
	long kept;
	int same;

	if (!code || access("/run/rapido.status-other", F_OK) == 0 || errno != ENOENT)
		return 0;
	if (read_file("/run/rapido.status", &text, NULL))
		return 0;
	/* the kept failure is the status the autorun exited with */
	kept = strtol(text, &end, 10);
	same = end != text && (*end == ' ' || *end == '\n') && kept == code;
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
	port = init_wait_port(RESULTS_TAG, 200);
	if (port) {
		setenv("RAPIDO_RESULTS_PORT", port, 1);
		say_hello(port);
	} else
		warn("the results port %s did not appear: no per-test results for ./vm --results",
		     RESULTS_TAG);
	free(port);
	if (mkdir(RESULTS_DIR, 0755) < 0 && errno != EEXIST)
		warn_errno("mkdir %s", RESULTS_DIR);
	else if (mount(RESULTS_TAG, RESULTS_DIR, "9p", 0,
		       "trans=virtio,version=9p2000.L,msize=262144,cache=none") < 0)
		warn_errno("mount 9p share %s on %s: tests cannot leave files for ./vm --results",
			   RESULTS_TAG, RESULTS_DIR);
	else
		setenv("RAPIDO_RESULTS_DIR", RESULTS_DIR, 1);
}
