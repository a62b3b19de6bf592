// SPDX-License-Identifier: GPL-2.0
/* git.c: git run in the kernel tree, from argv vectors (never a shell). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bisect.h"
#include "err.h"
#include "run.h"

static void git_argv(struct strv *av, const struct bctx *c, const char *arg, va_list ap)
{
	strv_push(av, "git");
	strv_push(av, "-C");
	strv_push(av, c->src);
	for (; arg; arg = va_arg(ap, const char *))
		strv_push(av, arg);
}

static int exit_of(int status)
{
	if (status < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int git_run(const struct bctx *c, int out_fd, const char *arg, ...)
{
	struct strv av = STRV_INIT;
	va_list ap;
	int rc;

	va_start(ap, arg);
	git_argv(&av, c, arg, ap);
	va_end(ap);
	rc = exit_of(run_wait(strv_argv(&av), out_fd));
	strv_free(&av);
	return rc;
}

char *git_out(const struct bctx *c, const char *arg, ...)
{
	struct strv av = STRV_INIT;
	va_list ap;
	char *out;
	int rc;

	va_start(ap, arg);
	git_argv(&av, c, arg, ap);
	va_end(ap);
	/* a day: a deadline no git command here comes near */
	rc = exit_of(run_capture(strv_argv(&av), -1, 86400, &out));
	strv_free(&av);
	if (rc != 0) {
		free(out);
		return NULL;
	}
	out[strcspn(out, "\n")] = '\0';
	return out;
}

char *git_commit_or_null(const struct bctx *c, const char *rev)
{
	char *spec = xasprintf("%s^{commit}", rev), *sha;

	sha = git_out(c, "rev-parse", "-q", "--verify", "--end-of-options", spec, NULL);
	free(spec);
	if (sha && !*sha) {
		free(sha);
		sha = NULL;
	}
	return sha;
}

char *git_subject(const struct bctx *c, const char *sha)
{
	char *s = git_out(c, "log", "-1", "--format=%h %s", sha, NULL);

	return s ? s : xstrdup(sha);
}
