// SPDX-License-Identifier: GPL-2.0
/*
 * jobs.c: ./vm --jobs N (jobs.h). The settings are resolved once; each
 * VM is a fork of ./vm that boots one shard as `--shard I/N --results
 * DIR/shard-I` would, taking its own VM number under the machine-wide
 * slot lock. The shards list the tests they left to the serial VM
 * (JOBS_DEFERRED_FILE); that VM runs once they are all done, when one
 * left a test or one did not finish cleanly (what it never reached may
 * be a serial test). What their results say is src/results/jobsres.c's:
 * the merge as rapido results merge does (a missing or unreadable shard
 * is a failure there), and whether the serial VM ran every test left to it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "jobs.h"
#include "lookup.h"
#include "mono.h"
#include "rapido.h"
#include "resctx.h"
#include "vm.h"

#define MIB (1024.0 * 1024.0)

int meminfo_available(const char *text, uint64_t *bytes)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long kb;
		char unit[4];

		if (strncmp(p, "MemAvailable:", 13))
			continue;
		if (sscanf(p + 13, "%llu %3s", &kb, unit) != 2 || strcmp(unit, "kB") ||
		    kb > UINT64_MAX / 1024)
			return -EINVAL;
		*bytes = (uint64_t)kb * 1024;
		return 0;
	}
	return -EINVAL;
}

int jobs_memory_check(unsigned int jobs, uint64_t memory, uint64_t avail, char **err)
{
	uint64_t fit = memory ? avail / memory : 0;
	char most[64];

	if (memory && fit >= jobs)
		return 0;
	snprintf(most, sizeof(most), fit ? "at most %" PRIu64 " fit" : "not one fits", fit);
	*err = xasprintf("%u VMs of %.0f MiB need %.0f MiB, and MemAvailable is %.0f MiB: %s", jobs,
			 memory / MIB, jobs * (memory / MIB), avail / MIB, most);
	return -ENOMEM;
}

/* A --jobs VM: what needs one VM's own console, disk or port cannot be shared by N. */
static void jobs_exclusive_or_die(const struct vm_settings *s, const char *jobs)
{
	const char *clash = s->dry_run ? "--dry-run prints one VM's command line" :
			    s->shard_n ? "--shard (VM_SHARD) is one shard of a split run by hand" :
			    s->log ? "--log PATH would be written by every VM" :
			    s->gdb ? "--gdb stops a VM for a debugger" :
			    s->tap ? "--tap NAME is one TAP device" :
			    s->hostfwd.n ? "--hostfwd forwards one host port" :
			    s->n_links ? "--link-listen/--link-connect pair two VMs" :
			    s->n_mpath ? "a multipath disk (--mpath) would be written by every VM" :
			    s->rbd.disks.n ? "an RBD disk (--rbd) would be written by every VM" : NULL;

	if (clash)
		die("%s: not with --jobs: %s", jobs, clash);
	if (!s->batch)
		die("%s: needs --batch: N VMs cannot share one console", jobs);
	if (!s->results_dir)
		die("%s: needs --results DIR (or VM_RESULTS_DIR): the shards' results are merged there",
		    jobs);
	if (s->jobs > s->max_vms)
		die("%s: %u VMs, but VM_MAX allows %u VM numbers", jobs, s->jobs, s->max_vms);
}

/* N x the memory against MemAvailable, N x the CPUs against the host's. */
static void jobs_fit_or_die(const struct vm_settings *s, const char *jobs)
{
	char *text, *err, where[512];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t avail;
	int rc = read_file("/proc/meminfo", &text, NULL);

	if (rc)
		die_err(rc, "%s: cannot check the memory N VMs need: /proc/meminfo", jobs);
	if (meminfo_available(text, &avail))
		die("%s: /proc/meminfo has no MemAvailable (Linux >= 3.14): cannot check the memory "
		    "N VMs need", jobs);
	free(text);
	if (jobs_memory_check(s->jobs, s->memory, avail, &err))
		die("%s: %s (memory from %s)", jobs, err, vm_src_str(&s->memory_src, where, sizeof(where)));
	if (cpus > 0 && (uint64_t)s->jobs * s->cpus > (uint64_t)cpus)
		warn("%s: %u VMs of %u CPUs on %ld host CPUs: they share them, each runs slower",
		     jobs, s->jobs, s->cpus, cpus);
}

void vm_jobs_resolve_or_die(struct vm_settings *s, const struct vm_opts *o, const struct conf *c)
{
	struct vm_src src;
	struct conf_value cv;
	char jobs[512], *text, *err;
	const char *v;
	int rc;

	s->jobs = vm_opt_number(c, o, "VM_JOBS", &s->jobs_src);
	/* rapido.conf's VM_JOBS is for batch runs: an interactive ./vm stays one VM,
	 * and rapido run's one command is one VM (its output is this VM's stdout) */
	if (s->jobs_src.kind != SRC_OPTION && (!s->batch || s->exec))
		s->jobs = 0;
	v = vm_opt_setting(c, o, "VM_SERIAL_TESTS", &src, &cv);
	if (v && !s->jobs && src.kind == SRC_OPTION)
		die("--serial-tests: only with --jobs (VM_JOBS)");
	if (!s->jobs)
		return;
	vm_src_str(&s->jobs_src, jobs, sizeof(jobs));
	jobs_exclusive_or_die(s, jobs);
	if (v) {
		char where[512];

		vm_src_str(&src, where, sizeof(where));
		rc = read_regular_file(v, 0, 1 << 20, &text, NULL, NULL);
		if (rc)
			die_err(rc, "%s: %s", where, v);
		rc = serial_tests_parse(v, text, &s->serial_tests, &err);
		free(text);
		if (rc)
			die("%s: %s", where, err);
	}
	jobs_fit_or_die(s, jobs);
}

struct job {
	char *dir;		/* its --results */
	unsigned int shard;	/* I of N; 0: the serial VM */
	pid_t pid;		/* 0: not started */
	int done, code;		/* code: its exit status, 128+SIG if killed */
};

/* The job's name in messages: "shard I/N" or "the serial VM". */
static char *job_name(const struct job *j, unsigned int n)
{
	return j->shard ? xasprintf("shard %u/%u", j->shard, n) : xstrdup("the serial VM");
}

/* The child: this ./vm as one VM of the split; never returns. */
static noreturn void job_child(struct vm_settings *s, const struct job *j, const sigset_t *oldmask)
{
	double left = vm_deadline_left();
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	sigprocmask(SIG_SETMASK, oldmask, NULL);
	vm_errout_init();	/* a shard's messages wait for a stalled reader no more than ./vm's */
	/* N consoles on one stdout are noise: each is in its DIR/console.log */
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0)
		die_errno("/dev/null");
	close(null);
	s->display = DISPLAY_ALL;	/* shown on that /dev/null: the log has it */
	err_prog = j->shard ? xasprintf("vm shard %u/%u", j->shard, s->jobs) : "vm serial";
	s->shard_i = j->shard;
	s->shard_n = j->shard ? s->jobs : 0;
	s->serial = j->shard ? SERIAL_DEFER : SERIAL_ONLY;
	s->results_dir = j->dir;
	/* --timeout is the whole run's: each VM gets what is left of it */
	if (left > 0)
		vm_deadline_arm((unsigned int)left + (left > (unsigned int)left));
	fflush(NULL);
	_exit(vm_boot(s));
}

static void job_start(struct vm_settings *s, struct job *j, const sigset_t *oldmask)
{
	fflush(NULL);
	j->pid = fork();
	if (j->pid < 0)
		die_errno("fork");
	if (!j->pid)
		job_child(s, j, oldmask);
}

/*
 * Wait for the started jobs; a SIGINT, SIGTERM or SIGHUP is passed on to
 * each (which stops its VM and keeps its results) and returned.
 */
static int jobs_wait(struct job *v, size_t n, const sigset_t *set, int stop)
{
	size_t running = 0;

	for (size_t i = 0; i < n; i++)
		running += v[i].pid > 0 && !v[i].done;
	while (running) {
		siginfo_t si;
		int sig = sigwaitinfo(set, &si), st;
		pid_t pid;

		if (sig < 0 && errno == EINTR)
			continue;
		if (sig < 0)
			die_errno("sigwaitinfo");
		if (sig != SIGCHLD) {
			if (!stop)
				warn("--jobs: %s: stopping %zu VM%s", strsignal(sig), running,
				     running == 1 ? "" : "s");
			stop = stop ? stop : sig;
			for (size_t i = 0; i < n; i++)
				if (v[i].pid > 0 && !v[i].done && kill(v[i].pid, sig) < 0 && errno != ESRCH)
					warn_errno("kill %d", (int)v[i].pid);
			continue;
		}
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
			for (size_t i = 0; i < n; i++) {
				if (v[i].pid != pid || v[i].done)
					continue;
				v[i].done = 1;
				v[i].code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
				running--;
			}
		}
		if (pid < 0 && errno != ECHILD)
			die_errno("waitpid");
	}
	return stop;
}

int vm_jobs_run(struct vm_settings *s)
{
	unsigned int n = s->jobs, problems = 0;
	struct job *v = xcalloc(n + 1, sizeof(*v)), *serial = &v[n];
	struct results_job *rv = xcalloc(n + 1, sizeof(*rv));
	struct results_deferred *def = NULL;
	struct results_ctx rc_ctx;
	size_t n_def = 0;
	sigset_t set, oldmask;
	int stop, rc = 0, unclean = 0;
	char *dir = xstrdup(s->results_dir), ts[32];
	double start = mono_secs();
	time_t now = time(NULL);

	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	/* the accelerator as asked (auto: each VM decides; each VM's run.json has its own) */
	vm_results_ctx(&rc_ctx, s, 0, s->accel);
	results_jobs_prepare(&rc_ctx);
	results_jobs_provenance(&rc_ctx, ts);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, &oldmask) < 0)
		die_errno("sigprocmask");
	/* the VMs keep the deadline; this process only waits for them */
	vm_deadline_stop();
	for (unsigned int i = 0; i < n; i++) {
		v[i].shard = i + 1;
		v[i].dir = xasprintf("%s/shard-%u", dir, i + 1);
		job_start(s, &v[i], &oldmask);
	}
	serial->dir = xasprintf("%s/%s", dir, JOBS_SERIAL_DIR);
	stop = jobs_wait(v, n, &set, 0);
	for (unsigned int i = 0; i < n; i++) {
		results_deferred_read(v[i].dir, v[i].shard, &def, &n_def);
		unclean |= v[i].code > VM_EXIT_TESTS_FAILED;
	}
	if (!stop && (n_def || unclean)) {
		if (n_def)
			warn("--jobs: %zu test%s left to one VM after the others", n_def,
			     n_def == 1 ? "" : "s");
		else
			warn("--jobs: a shard did not finish: the serial VM runs what may be left to it");
		job_start(s, serial, &oldmask);
		stop = jobs_wait(serial, 1, &set, 0);
	}
	if (sigprocmask(SIG_SETMASK, &oldmask, NULL) < 0)
		die_errno("sigprocmask");

	for (unsigned int i = 0; i <= n; i++) {
		char *name = job_name(&v[i], n);

		if (v[i].pid > 0 && v[i].code) {
			warn("--jobs: %s failed: exit status %d (%s)", name, v[i].code, v[i].dir);
			rc = v[i].code > rc ? v[i].code : rc;
		}
		free(name);
	}
	if (serial->pid > 0)
		problems += results_deferred_check(serial->dir, def, n_def, n);
	else if (n_def)
		problems += (unsigned int)n_def;	/* stopped before the serial VM: lost */
	for (unsigned int i = 0; i <= n; i++)
		rv[i] = (struct results_job){ v[i].dir, v[i].shard, v[i].pid > 0, v[i].code };
	if (results_jobs_merge(dir, rv, n + 1) || problems)
		rc = rc ? rc : 1;
	if (stop)
		rc = 128 + stop;
	results_jobs_records(&rc_ctx, rv, n + 1, rc, !problems && !stop, ts, mono_secs() - start);
	results_deferred_free(def, n_def);
	free(rv);
	for (unsigned int i = 0; i <= n; i++)
		free(v[i].dir);
	free(v);
	free(dir);
	return rc;
}
