// SPDX-License-Identifier: GPL-2.0
/*
 * main.c: rapido-ktap, the guest's TAP/KTAP reader for results.sh
 * (rapido_test_tap): the stream from stdin, or from COMMAND's stdout and
 * stderr, is copied to stdout line by line (the console) while the
 * records of tools/lib/ktapread.c go to the records fd:
 *	D<TAB>LINE			an output line of the next record
 *	pass<TAB>SECS<TAB>NAME
 *	fail<TAB>SECS<TAB>NAME<TAB>REASON
 *	skip<TAB>SECS<TAB>NAME<TAB>REASON
 *	end				the stream was read to its end
 * NAME "" is the stream itself. A COMMAND that exits non-zero or dies is a
 * failed record of its own: its crash is a failure even when what it
 * printed passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "ktap.h"
#include "ktapread.h"

#define PROG "rapido-ktap"

static const struct option longopts[] = {
	{ "records",	required_argument,	NULL, 'r' },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(void)
{
	printf("Usage:\n"
	       " %s [--records FD] [-- COMMAND [ARG...]]\n"
	       "\n"
	       "Read TAP or KTAP from stdin or from COMMAND's output, copy it to stdout,\n"
	       "and write one record per test to FD (default 3) for results.sh.\n"
	       "\n"
	       "Options:\n"
	       " -r, --records FD   the file descriptor the records go to\n"
	       " -h, --help         display this help\n", PROG);
}

static uint64_t now_usecs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* a field on one line: tabs and newlines would split it */
static void put_field(FILE *f, const char *s)
{
	fputc('\t', f);
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static int emit(const struct ktap_record *rec, void *arg)
{
	static const char *const kind[] = { "pass", "fail", "skip" };
	FILE *f = arg;
	const char *o = rec->output;

	while (*o) {
		const char *nl = strchr(o, '\n');
		size_t n = nl ? (size_t)(nl - o) : strlen(o);

		fprintf(f, "D\t%.*s\n", (int)n, o);
		o += n + (nl != NULL);
	}
	fprintf(f, "%s\t%llu.%03llu", kind[rec->verdict], (unsigned long long)(rec->usecs / 1000000),
		(unsigned long long)(rec->usecs % 1000000 / 1000));
	put_field(f, rec->name);
	if (rec->verdict != KTAP_PASS)
		put_field(f, rec->reason);
	fputc('\n', f);
	if (fflush(f) == EOF || ferror(f))
		return -EIO;
	return 0;
}

/* COMMAND with its stdout and stderr on a pipe; the read end in *fd */
static pid_t spawn(char **argv, int *fd)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		die_errno("pipe");
	pid = fork();
	if (pid < 0)
		die_errno("fork");
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s: %s\n", PROG, argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	*fd = p[0];
	return pid;
}

int cmd_ktap(int argc, char **argv)
{
	int recfd = 3, in = 0, c, st, rc = 0;
	pid_t pid = -1;
	FILE *rec, *fin;
	struct ktapread *r;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	err_prog = PROG;
	while ((c = getopt_long(argc, argv, "+r:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': {
			char *end;
			long v = strtol(optarg, &end, 10);

			if (*end || end == optarg || v < 0 || v > INT_MAX)
				usage_die(2, "--records: '%s' is not a file descriptor", optarg);
			recfd = (int)v;
			break;
		}
		case 'h':
			usage();
			return 0;
		default:
			usage_die(2, NULL);
		}
	}
	rec = fdopen(recfd, "w");
	if (!rec)
		die_errno("records fd %d", recfd);
	if (optind < argc)
		pid = spawn(argv + optind, &in);
	fin = fdopen(in, "r");
	if (!fin)
		die_errno("fdopen");
	r = ktapread_new(emit, rec, now_usecs());
	while (!rc && (n = getline(&line, &cap, fin)) > 0) {
		/* the console sees the stream as it comes, not when a buffer fills */
		if (write_all(1, line, (size_t)n) < 0 && errno != EPIPE)
			warn_errno("stdout");
		if (line[n - 1] == '\n')
			n--;
		rc = ktapread_line(r, line, (size_t)n, now_usecs());
	}
	if (ferror(fin))
		die_errno("reading the stream");
	if (!rc)
		rc = ktapread_end(r, now_usecs());
	ktapread_free(r);
	free(line);
	if (pid > 0) {
		while (waitpid(pid, &st, 0) < 0)
			if (errno != EINTR)
				die_errno("waitpid %s", argv[optind]);
		if (!rc && st) {
			char *why = WIFEXITED(st) ? xasprintf("%s: exit status %d", argv[optind], WEXITSTATUS(st)) :
				xasprintf("%s: killed by signal %d (%s)", argv[optind], WTERMSIG(st),
					  strsignal(WTERMSIG(st)));
			struct ktap_record k = { KTAP_FAIL, "", why, "", 0 };

			rc = emit(&k, rec);
			free(why);
		}
	}
	if (rc)
		die_err(-rc, "records fd %d", recfd);
	fputs("end\n", rec);
	if (fclose(rec) == EOF)
		die_errno("records fd %d", recfd);
	return 0;
}
