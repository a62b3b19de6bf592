// SPDX-License-Identifier: GPL-2.0
/*
 * ldd.c: dracut's DRACUT_LDD while ./cut runs it. dracut-install runs ldd
 * on every ELF file of the image (its lazy resolution); glibc's ldd is a
 * bash script that asks each loader of its RTLDLIST for its --version and
 * --verify before the trace: six programs and a bash per file, most of a
 * first cut's dracut run. This does what ldd does for the common case, a
 * dynamic ELF file of a loader's own class and machine: the --verify of
 * that one loader, then the trace with ldd's environment. Everything else
 * (an option, a relative path, no ELF, a static program, an ldd script it
 * does not read plainly, a loader that says no) is handed to ldd itself,
 * so the answer is ldd's answer, byte for byte (tests/unit/ldd-compare.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elfdyn.h"
#include "err.h"
#include "io.h"
#include "lddscript.h"
#include "ldd.h"
#include "run.h"

/* the longest ldd script read (glibc's is about 6 KiB) */
#define LDD_SCRIPT_MAX (1 << 20)
/* ldd waits for its loaders without limit; this only keeps a wedged one from hanging dracut forever */
#define LOADER_SECS 600

enum { ET_EXEC_ = 2, ET_DYN_ = 3 };

const char *ldd_pick_rtld(int fd, const struct strv *rtlds)
{
	struct elf_deps f;
	const char *pick = NULL;

	if (elf_read_deps(fd, &f))
		return NULL;
	if (f.dynamic && (f.type == ET_EXEC_ || f.type == ET_DYN_)) {
		for (size_t i = 0; i < rtlds->n && !pick; i++) {
			struct elf_deps l;

			/* ldd's "test -x $rtld" */
			if (access(rtlds->v[i], X_OK))
				continue;
			if (elf_read_deps_path(rtlds->v[i], &l))
				continue;
			if (l.klass == f.klass && l.data == f.data && l.machine == f.machine)
				pick = rtlds->v[i];
			elf_deps_free(&l);
		}
	}
	elf_deps_free(&f);
	return pick;
}

int ldd_rtlds(struct strv *rtlds)
{
	char *ldd = find_in_path("ldd"), *text = NULL;
	size_t len;
	int rc;

	if (!ldd)
		return -ENOENT;
	rc = read_file(ldd, &text, &len);
	free(ldd);
	if (rc)
		return rc;
	rc = len > LDD_SCRIPT_MAX ? -EFBIG : ldd_script_rtlds(text, len, rtlds);
	free(text);
	return rc;
}

/* ldd's add_env (without -d, -r, -u or -v), LD_LIBRARY_VERSION the --verify output */
static int trace_env(const char *verify_out)
{
	return setenv("LD_TRACE_LOADED_OBJECTS", "1", 1) || setenv("LD_WARN", "", 1) ||
	       setenv("LD_BIND_NOW", "", 1) || setenv("LD_LIBRARY_VERSION", verify_out, 1) ||
	       setenv("LD_VERBOSE", "", 1) ? -errno : 0;
}

/*
 * Start the trace into a new memfd (*out): the loader's stdout and stderr,
 * in the order written. ldd's environment is the child's alone: the
 * --verify runs without it, as in ldd.
 */
static pid_t trace_start(const char *rtld, const char *file, const char *verify_out, int *out)
{
	char *argv[] = { (char *)rtld, (char *)file, NULL };
	pid_t pid;

	*out = memfd_create("rapido-ldd", MFD_CLOEXEC);
	if (*out < 0)
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (dup2(*out, STDOUT_FILENO) < 0 || dup2(*out, STDERR_FILENO) < 0 ||
		    trace_env(verify_out))
			_exit(127);
		execv(rtld, argv);
		fprintf(stderr, "rapido-ldd: cannot run %s: %s\n", rtld, strerror(errno));
		_exit(127);
	}
	return pid;
}

/* Copy the trace's output to to_fd and give ldd's status for the trace's wait status. */
static int trace_finish(int out, int status, int to_fd)
{
	char buf[65536];
	ssize_t n;

	/* once output may have started, a failure is ldd's 1: handing over to ldd would repeat it */
	if (lseek(out, 0, SEEK_SET) < 0)
		return -1;
	while ((n = read(out, buf, sizeof(buf))) > 0)
		if (write_all(to_fd, buf, (size_t)n))
			return 1;
	if (n < 0)
		return 1;
	/* try_trace: any failure of the trace is ldd's exit status 1 */
	return status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

int ldd_trace(const char *rtld, const char *file, int to_fd)
{
	char *verify_argv[] = { (char *)rtld, "--verify", (char *)file, NULL };
	char *verify_out = NULL;
	int status, out = -1, rc = -1;
	size_t n;
	pid_t trace;

	/*
	 * ldd runs the trace after the loader's --verify said yes; both are
	 * run at once here (the trace into a memfd, shown only on that yes),
	 * as the verify's output (LD_LIBRARY_VERSION) is empty in practice
	 */
	trace = trace_start(rtld, file, "", &out);
	/* ldd: verify_out=`$rtld --verify "$file"` (its stderr not redirected) */
	status = run_capture(verify_argv, -1, LOADER_SECS, &verify_out);
	if (status >= 0 && WIFEXITED(status) &&
	    (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 2)) {
		/* a command substitution drops the trailing newlines */
		n = strlen(verify_out);
		while (n && verify_out[n - 1] == '\n')
			verify_out[--n] = '\0';
		rc = 0;
	}
	status = trace > 0 ? run_reap(trace) : -1;
	if (!rc && (trace <= 0 || *verify_out)) {
		/* the trace ldd would run differs from (or is not) the one started: run it now */
		if (out >= 0)
			close(out);
		trace = trace_start(rtld, file, verify_out, &out);
		status = trace > 0 ? run_reap(trace) : -1;
		rc = trace > 0 ? 0 : -1;
	}
	if (!rc)
		rc = trace_finish(out, status, to_fd);
	if (out >= 0)
		close(out);
	free(verify_out);
	return rc;
}
