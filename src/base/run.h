/* SPDX-License-Identifier: GPL-2.0 */
/* run.h: run a program from an argv vector (never through a shell). */
#ifndef RAPIDO_RUN_H
#define RAPIDO_RUN_H

#include <sys/types.h>

/*
 * fork + execvp argv; the child's stdout and stderr go to out_fd when it is
 * >= 0. Returns the wait status (as from waitpid), or -errno if fork failed.
 * A program that cannot be executed exits 127 after printing why.
 */
int run_wait(char *const argv[], int out_fd);

/* Wait for pid (EINTR retried): its wait status, or -errno. */
int run_reap(pid_t pid);

/*
 * run_wait with a deadline and stdout apart from stderr (either fd -1:
 * inherited): a child still running after secs seconds is killed
 * (SIGKILL) and reaped, and *timed_out is set. Returns the wait status, or
 * -errno if it could not be started or waited for.
 */
int run_wait_timeout(char *const argv[], int out_fd, int err_fd, unsigned int secs,
		     int *timed_out);
/* run_wait_timeout with stdin from in_fd (-1: inherited). */
int run_wait_io(char *const argv[], int in_fd, int out_fd, int err_fd, unsigned int secs,
		int *timed_out);

/*
 * Start a long-lived ARGV: stdin from /dev/null, stdout and stderr to OUT_FD,
 * in a session of its own (a Ctrl-C at the terminal does not reach it), in /
 * (so a relative path in ARGV is relative to /).
 * Returns its pid only once it has exec'd, so /proc/PID/cmdline is ARGV by
 * then (a caller that later checks whose a PID is never sees the forked copy
 * of itself), or -errno with *ERR (malloc'd) when fork or exec failed.
 */
pid_t run_daemon(char *const argv[], int out_fd, char **err);

/*
 * run_wait_timeout with the child's stdout captured into *out (malloc'd,
 * NUL-terminated; through a memfd, so output of any size cannot block
 * it); stderr goes to err_fd, or is inherited when -1; killed after secs.
 * Returns the wait status, or -errno (*out NULL) when it could not run,
 * -ETIMEDOUT when it was killed.
 */
int run_capture(char *const argv[], int err_fd, unsigned int secs, char **out);
/*
 * The first line argv prints on stdout (malloc'd, without its newline),
 * whatever its exit status; NULL if it printed nothing or could not run.
 * Its stderr goes to err_fd (-1: inherited); it is killed after secs.
 */
char *run_first_line(char *const argv[], int err_fd, unsigned int secs);

/*
 * In a child just forked by parent (its getpid() before fork()): the
 * kernel kills it (SIGKILL) when parent ends. -1 when that cannot be set,
 * or when parent is already gone: the child was reparented, to PID 1 or
 * to a subreaper (a parent that is PID 1 itself, a container's init, is
 * no sign of that); the caller then _exits.
 */
int run_die_with_parent(pid_t parent);

/* Search PATH (plus /usr/sbin and /sbin) for NAME; malloc'd path or NULL. */
char *find_in_path(const char *name);

#endif
