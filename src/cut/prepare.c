// SPDX-License-Identifier: GPL-2.0
/*
 * prepare.c: a profile's "#@ prepare KEY: PROGRAM ARG...". Some suites must
 * match the kernel they test (kselftest's tree from KERNEL_SRC, or from
 * Debian's linux-source of the installed kernel): rather than make the user
 * build one by hand and name it, ./cut has the profile's PROGRAM build (or
 * find in its cache) the tree and takes the path it prints as KEY's value.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "confget.h"
#include "cut.h"
#include "err.h"
#include "run.h"
#include "strv.h"

/* a build of a few suites' targets; a hung one is killed, not waited for */
#define PREPARE_SECS 3600

/* The last non-empty line of TEXT (modified), or NULL. */
static char *last_line(char *text)
{
	char *last = NULL;

	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		if (*line)
			last = line;
	return last;
}

void cut_prepare(struct cut_plan *p)
{
	const struct profile *prof = &p->prof;
	const char *kernel_keys[] = { "KERNEL_SRC", "KERNEL_INSTALL_MOD_PATH" };
	struct strv argv = STRV_INIT, keys = STRV_INIT;
	const char *prog, *val;
	char *text = NULL, *line;
	int fd, st, timed_out;
	off_t len;

	if (!prof->prepare_key)
		return;
	val = conf_value(&p->conf, prof->prepare_key, NULL);
	if (val && *val)
		return;
	/* env(1) sets the environment of the child alone: ./cut's own stays as it was */
	strv_push(&argv, "env");
	profile_conf_keys(prof, &keys);
	for (size_t i = 0; i < sizeof(kernel_keys) / sizeof(kernel_keys[0]); i++)
		strv_push(&keys, kernel_keys[i]);
	for (size_t i = 0; i < keys.n; i++) {
		val = conf_value(&p->conf, keys.v[i], NULL);
		if (val && *val)
			strv_pushf(&argv, "%s=%s", keys.v[i], val);
	}
	strv_pushf(&argv, "RAPIDO_KERNEL_RELEASE=%s", p->kern.release);
	strv_pushf(&argv, "RAPIDO_DIR=%s", p->rapido_dir);
	prog = prof->prepare.v[0];
	if (prog[0] == '/')
		strv_push(&argv, prog);
	else
		strv_pushf(&argv, "%s/%s", p->rapido_dir, prog);
	for (size_t i = 1; i < prof->prepare.n; i++)
		strv_push(&argv, prof->prepare.v[i]);

	fd = memfd_create("cut-prepare", MFD_CLOEXEC);
	if (fd < 0)
		die_errno("memfd_create");
	cut_progress("preparing %s: %s", prof->prepare_key, prog);
	st = run_wait_timeout(strv_argv(&argv), fd, -1, PREPARE_SECS, &timed_out);
	if (st < 0)
		die("%s (prepare %s at %s): %s", prog, prof->prepare_key, prof->prepare_at,
		    strerror(-st));
	if (timed_out)
		die("%s (prepare %s at %s) did not finish in %d s; set %s in rapido.conf to skip it",
		    prog, prof->prepare_key, prof->prepare_at, PREPARE_SECS, prof->prepare_key);
	/* its own stderr said why; this names who failed and how to go round it */
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		die("%s (prepare %s at %s) failed (%s %d); set %s in rapido.conf, or see its "
		    "message above", prog, prof->prepare_key, prof->prepare_at,
		    WIFEXITED(st) ? "exit status" : "signal",
		    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), prof->prepare_key);
	len = lseek(fd, 0, SEEK_CUR);
	if (len < 0)
		die_errno("lseek on %s's output", prog);
	text = xmalloc((size_t)len + 1);
	if (pread(fd, text, (size_t)len, 0) != len)
		die_errno("reading %s's output", prog);
	text[len] = '\0';
	close(fd);
	line = last_line(text);
	if (!line)
		die("%s (prepare %s at %s) printed no value for %s", prog, prof->prepare_key,
		    prof->prepare_at, prof->prepare_key);
	conf_set(&p->conf, prof->prepare_key, line);
	free(text);
	strv_free(&keys);
	strv_free(&argv);
}
