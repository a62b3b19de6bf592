/* SPDX-License-Identifier: GPL-2.0 */
/* run.h: run a program from an argv vector (never through a shell). */
#ifndef RAPIDO_RUN_H
#define RAPIDO_RUN_H

/*
 * fork + execvp argv; the child's stdout and stderr go to out_fd when it is
 * >= 0. Returns the wait status (as from waitpid), or -errno if fork failed.
 * A program that cannot be executed exits 127 after printing why.
 */
int run_wait(char *const argv[], int out_fd);

/* Search PATH (plus /usr/sbin and /sbin) for NAME; malloc'd path or NULL. */
char *find_in_path(const char *name);

#endif
