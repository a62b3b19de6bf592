// SPDX-License-Identifier: GPL-2.0
/* lib-colour.c: colour only on a terminal and never with NO_COLOR; the results summary's colours. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "colour.h"
#include "results.h"
#include "tap.h"

static void wanted(void)
{
	int pfd[2], master, pty;

	if (pipe(pfd) < 0) {
		perror("pipe");
		exit(1);
	}
	unsetenv("NO_COLOR");
	tap_ok(!colour_wanted(pfd[1]), "a pipe: no colour");
	close(pfd[0]);
	close(pfd[1]);
	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master) ||
	    (pty = open(ptsname(master), O_RDWR | O_NOCTTY)) < 0) {
		for (int i = 0; i < 3; i++)
			tap_skip("no pseudo-terminal here", "a terminal");
		return;
	}
	tap_ok(colour_wanted(pty), "a terminal: colour");
	setenv("NO_COLOR", "1", 1);
	tap_ok(!colour_wanted(pty), "a terminal with NO_COLOR=1: no colour");
	setenv("NO_COLOR", "", 1);
	tap_ok(colour_wanted(pty), "a terminal with NO_COLOR empty: colour (no-color.org)");
	unsetenv("NO_COLOR");
	close(pty);
	close(master);
}

static void summary(void)
{
	struct rcount c = { .tests = 3, .pass = 2, .fail = 1 };
	char *s = results_summary(&c, 1), *p;

	TAP_EQ_STR(s, "3 tests, \033[32m2 passed\033[0m, \033[31m1 failed\033[0m, 0 skipped, "
		   "0 kernel splats", "coloured: passes green, failures red, a 0 plain");
	free(s);
	s = results_summary(&c, 0);
	TAP_EQ_STR(s, "3 tests, 2 passed, 1 failed, 0 skipped, 0 kernel splats",
		   "not coloured: no escape at all");
	free(s);
	c.fail = 0;
	c.kernel = 1;
	s = results_summary(&c, 1);
	tap_ok(strstr(s, "\033[31m1 kernel splats\033[0m") && strstr(s, ", 0 failed,"),
	       "a splat red, no failure: plain 0 failed");
	free(s);
	p = colourf(0, COLOUR_RED, "%d x", 5);
	TAP_EQ_STR(p, "5 x", "colourf off: the text alone");
	free(p);
}

int main(void)
{
	tap_plan(8);
	wanted();
	summary();
	return tap_done();
}
