// SPDX-License-Identifier: GPL-2.0
/* verdict.c: one rule for "the run failed", one wording per exit status (see verdict.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "err.h"
#include "num.h"
#include "rapido.h"
#include "status.h"
#include "verdict.h"

void verdict_help(FILE *f)
{
	fprintf(f, "Exit status: the guest scripts' status, or\n"
		" %d   with --results: the scripts exited 0 but a test failed or never ended\n"
		" %d  the scripts passed but the kernel reported an Oops, BUG, WARNING, KASAN,\n"
		"      lockdep, hung task, RCU stall, soft lockup... (see --splats)\n"
		" %d  the VM was stopped from the host (QMP quit, a signal to qemu)\n"
		" %d  the guest stopped without reporting a status (kernel panic, crash,\n"
		"      a power-off or reboot in the guest), or the guest init failed (its\n"
		"      message is printed)\n"
		" %d  the timeout expired; qemu was killed\n"
		" %d  vm or qemu failed to start (bad image, config or qemu arguments),\n"
		"      or --results failed: no record on the results port (no virtio_console\n"
		"      in the guest), a record out of the protocol or past a cap (see\n"
		"      RECORDS in vm(1)), a report that could not be written\n",
		VM_EXIT_TESTS_FAILED, VM_EXIT_SPLAT, VM_EXIT_HOST_STOPPED, VM_EXIT_NO_STATUS,
		VM_EXIT_TIMEOUT, VM_EXIT_FAILED);
}

/* ./vm's own exit statuses in words: a few (./bisect's) and whole (./vm's cause) */
static const struct {
	int rc;
	const char *brief, *whole;	/* whole NULL: a guest's status too (1) */
} status_words[] = {
	{ 0, "passed", "passed" },
	{ VM_EXIT_TESTS_FAILED, "a test failed", NULL },
	{ VM_EXIT_SPLAT, "a kernel report",
	  "the scripts passed but the kernel reported a problem on the console" },
	{ VM_EXIT_HOST_STOPPED, "stopped from the host",
	  "the VM was stopped from the host before the guest reported" },
	{ VM_EXIT_NO_STATUS, "the guest died: panic or crash",
	  "the guest stopped without reporting a status (kernel panic, crash, power-off "
	  "or reboot in the guest, or guest init failure)" },
	{ VM_EXIT_TIMEOUT, "timed out", "timeout: --timeout expired and qemu was killed" },
	{ VM_EXIT_FAILED, "vm or qemu failed to start",
	  "./vm or qemu failed (qemu did not start, or the results could not be "
	  "collected or written)" },
};

const char *verdict_words(int rc, enum verdict_len len, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof(status_words) / sizeof(status_words[0]); i++)
		if (status_words[i].rc == rc && (len == VERDICT_BRIEF || status_words[i].whole))
			return len == VERDICT_BRIEF ? status_words[i].brief : status_words[i].whole;
	/* the guest's own status, or ./vm's shell telling of a signal (128+N) */
	if (len == VERDICT_BRIEF)
		return rc > 128 && rc < 160 ? "killed by a signal" : "the guest's status";
	if (rc > 128 && rc < 128 + 65)
		snprintf(buf, size, "the guest's scripts failed, or ./vm was stopped by signal %d",
			 rc - 128);
	else
		snprintf(buf, size, "the guest's scripts failed");
	return buf;
}

static unsigned int failed_guest_tests(const struct rsuite *s)
{
	unsigned int n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += !s->t[i].kernel && !s->t[i].hidden && s->t[i].state == RT_FAIL;
	return n;
}

int verdict_decide(const struct verdict_in *in, char **cause)
{
	char buf[128];
	unsigned int failed;
	int guest_status = in->rc > 0 && (in->rc < VM_EXIT_SPLAT || in->rc > VM_EXIT_FAILED);

	if (in->s && !in->s->port_seen && (in->rc == 0 || guest_status))
		warn("vm%u: --results: no record came over the results port (rapido.results), not "
		     "even the guest init's hello: the guest has no virtio_console (not in the image, "
		     "or the kernel lacks it) or its init predates this ./vm; per-test results are "
		     "lost%s", in->vm, in->rc ? "" : " (exit status 125)");
	if (in->rc) {
		*cause = xstrdup(in->why ? in->why : verdict_words(in->rc, VERDICT_WHOLE, buf, sizeof(buf)));
		return in->rc;
	}
	if (in->splats) {
		warn("vm%u: the scripts passed but the kernel reported %u problem%s (exit status %d; "
		     "VM_SPLATS or --splats choose the kinds that count)", in->vm, in->splats,
		     in->splats == 1 ? "" : "s", VM_EXIT_SPLAT);
		*cause = xasprintf("the scripts passed but the kernel reported %u problem%s",
				   in->splats, in->splats == 1 ? "" : "s");
		return VM_EXIT_SPLAT;
	}
	if (!in->s) {
		/* a 0 that is no pass (Ctrl-a x leaving an interactive session) says so */
		*cause = xstrdup(in->why ? in->why : verdict_words(0, VERDICT_WHOLE, buf, sizeof(buf)));
		return 0;
	}
	failed = failed_guest_tests(in->s);
	if (failed) {
		*cause = xasprintf("the guest exited 0 but %u test%s failed or did not finish", failed,
				   failed == 1 ? "" : "s");
		warn("vm%u: %s (exit status %d)", in->vm, *cause, VM_EXIT_TESTS_FAILED);
		return VM_EXIT_TESTS_FAILED;
	}
	if (!in->s->port_seen) {
		*cause = xstrdup("--results: the results port never worked (no virtio_console in "
				 "the guest?)");
		return VM_EXIT_FAILED;
	}
	/* a 0 that is no pass (Ctrl-a x leaving an interactive session) says so */
	*cause = xstrdup(in->why ? in->why : verdict_words(0, VERDICT_WHOLE, buf, sizeof(buf)));
	return 0;
}

int verdict_suite_failed(const struct rsuite *s)
{
	if (s->exit != 0)
		return 1;
	/* an earlier run of a re-run test is counted in its last (known.h) */
	for (size_t i = 0; i < s->n; i++)
		if (s->t[i].state == RT_FAIL && !s->t[i].hidden)
			return 1;
	return 0;
}

void verdict_add_case(struct rsuite *s)
{
	char buf[128], *name;
	const char *cause;
	struct rtest *t;

	if (!verdict_suite_failed(s))
		return;
	/*
	 * a failed test says why; ./vm's own testcases ("rapido: tests not
	 * run") do not, but this one, added once, does
	 */
	for (size_t i = 0; i < s->n; i++)
		if (s->t[i].state == RT_FAIL && !s->t[i].hidden &&
		    (strncmp(s->t[i].name, "rapido:", 7) ||
		     !strncmp(s->t[i].name, "rapido: exit status ", 20)))
			return;
	cause = s->cause ? s->cause : verdict_words(s->exit, VERDICT_WHOLE, buf, sizeof(buf));
	if (s->exit >= 0)
		name = xasprintf("rapido: exit status %d: %s", s->exit, cause);
	else
		name = xasprintf("rapido: exit status unknown: %s", cause);
	t = rsuite_add_test(s, name);
	t->state = RT_FAIL;
	t->reason = xstrdup(cause);
	free(name);
}

/* "I/N" of a suite's meta shard: 1, 0 for none, -1 for one that is no shard. */
static int shard_parse(const char *v, unsigned int *i, unsigned int *n)
{
	if (!v)
		return 0;
	return num_parse_shard(v, i, n, NULL) ? -1 : 1;
}

/* The profile of a shard's suite name, "PROFILE shard I/N" (malloc'd). */
static char *shard_profile(const struct rsuite *s)
{
	const char *name = s->name ? s->name : "rapido", *sp = strstr(name, " shard ");

	return sp ? xstrndup(name, (size_t)(sp - name)) : xstrdup(name);
}

/* A suite for shard i/of that is missing, named after shard sibling's profile. */
static void add_missing(struct rsuite **v, size_t *n, size_t sibling, unsigned int i, unsigned int of)
{
	struct rsuite *s;
	struct rtest *t;
	char *profile = shard_profile(&(*v)[sibling]), *name;
	char *kernel = (*v)[sibling].kernel ? xstrdup((*v)[sibling].kernel) : NULL;

	/* *v moves: nothing of it is used past here */
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	s = &(*v)[(*n)++];
	rsuite_init(s);
	s->name = xasprintf("%s shard %u/%u", profile, i, of);
	s->shard = xasprintf("%u/%u", i, of);
	s->kernel = kernel;
	s->cause = xasprintf("shard %u/%u missing: no result directory of it was merged", i, of);
	name = xasprintf("rapido: shard %u/%u missing", i, of);
	t = rsuite_add_test(s, name);
	t->state = RT_FAIL;
	t->reason = xstrdup(s->cause);
	free(name);
	free(profile);
}

unsigned int verdict_check_shards(struct rsuite **vp, size_t *np, char *const *dirs)
{
	size_t n0 = *np;
	unsigned int *si = xcalloc(n0 + 1, sizeof(*si)), *sn = xcalloc(n0 + 1, sizeof(*sn));
	unsigned int problems = 0, splits = 0;

	for (size_t j = 0; j < n0; j++) {
		char *dir = text_oneline(dirs[j]), *v = text_oneline((*vp)[j].shard);

		if (shard_parse((*vp)[j].shard, &si[j], &sn[j]) < 0) {
			warn("%s: meta shard '%s' is no I/N", dir, v);
			problems++;
			sn[j] = 0;
		}
		free(dir);
		free(v);
	}
	for (size_t j = 0; j < n0; j++) {
		unsigned int of = sn[j];
		size_t *first;
		int seen_before = 0;

		if (!of)
			continue;
		for (size_t k = 0; k < j && !seen_before; k++)
			seen_before = sn[k] == of;
		if (seen_before)
			continue;
		splits++;
		first = xmalloc((of + 1) * sizeof(*first));
		for (unsigned int i = 0; i <= of; i++)
			first[i] = SIZE_MAX;
		for (size_t k = j; k < n0; k++) {
			if (sn[k] != of)
				continue;
			if (first[si[k]] != SIZE_MAX) {
				char *a = text_oneline(dirs[first[si[k]]]), *b = text_oneline(dirs[k]);

				warn("shard %u/%u is in both %s and %s", si[k], of, a, b);
				problems++;
				free(a);
				free(b);
			} else {
				first[si[k]] = k;
			}
		}
		for (unsigned int i = 1; i <= of; i++) {
			if (first[i] != SIZE_MAX)
				continue;
			warn("shard %u/%u is missing: no result directory of it was given", i, of);
			problems++;
			add_missing(vp, np, j, i, of);
		}
		free(first);
	}
	if (splits > 1) {
		warn("the directories hold shards of %u different splits (different N in I/N)", splits);
		problems++;
	}
	free(si);
	free(sn);
	return problems;
}

/* Print the first line of the console's tail that names a panic. */
static void report_panic(const char *console, size_t len)
{
	char *text = xstrndup(console, len), *p;

	p = strstr(text, "Kernel panic");
	if (p) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		p[strcspn(p, "\r")] = '\0';
		fprintf(stderr, "vm: %s\n", p);
	}
	free(text);
}

/*
 * Whether the console ends with what qemu's console multiplexer writes when
 * Ctrl-a x quits it: qemu 7.2 then reports the SHUTDOWN a QMP quit does
 * (host-qmp-quit), so the console is what tells the two apart.
 */
static int console_ctrl_a_x(const char *console, size_t len)
{
	static const char mark[] = "QEMU: Terminated";

	while (len && (console[len - 1] == '\r' || console[len - 1] == '\n'))
		len--;
	return len >= sizeof(mark) - 1 && !memcmp(console + len - (sizeof(mark) - 1), mark,
						     sizeof(mark) - 1);
}

/*
 * No record from the guest: say what stopped it, and with which code; why
 * (len bytes) gets the cause in a few words, for results.txt, junit.xml and
 * the closing line.
 */
static int explain_no_status(const struct verdict_stop *st, char *why, size_t len)
{
	const char *r = st->shutdown_reason;
	int wstatus = st->wstatus;

	if (st->panicked) {
		report_panic(st->console, st->console_len);
		warn("vm%u: kernel panic: the guest stopped without reporting an exit status "
		     "(console log: %s)", st->vm, st->console_log);
		if (st->vmcore && st->vmcore_ok)
			warn("vm%u: memory dump (%s) in %s; open it with crash or drgn and the vmlinux "
			     "that has the symbols", st->vm, st->vmcore_format, st->vmcore);
		else if (st->vmcore)
			warn("vm%u: no memory dump: qemu: %s", st->vm,
			     *st->vmcore_err ? st->vmcore_err : "no answer");
		snprintf(why, len, "kernel panic");
		return VM_EXIT_NO_STATUS;
	}
	if (!strcmp(r, "host-qmp-quit") && console_ctrl_a_x(st->console, st->console_len) &&
	    st->interactive) {
		/* a person leaving the session: no verdict, as leaving its shell is none */
		warn("vm%u: quit from the console (Ctrl-a x): an interactive session, no verdict "
		     "(exit status 0 unless the kernel reported a problem)", st->vm);
		snprintf(why, len, "quit from the console (Ctrl-a x), no verdict");
		return 0;
	}
	if (!strcmp(r, "host-qmp-quit") && console_ctrl_a_x(st->console, st->console_len)) {
		warn("vm%u was stopped with Ctrl-a x on its console before the guest reported a "
		     "status", st->vm);
		snprintf(why, len, "stopped with Ctrl-a x on the console before the guest reported");
		return VM_EXIT_HOST_STOPPED;
	}
	if (!strcmp(r, "host-qmp-quit")) {
		warn("vm%u was stopped from the host by a QMP 'quit' (./vmctl %u quit or another "
		     "QMP client) before the guest reported a status", st->vm, st->vm);
		snprintf(why, len, "stopped from the host by a QMP 'quit' before the guest reported");
		return VM_EXIT_HOST_STOPPED;
	}
	if (!strcmp(r, "host-signal")) {
		warn("vm%u: qemu was stopped by a signal sent to it on the host before the guest "
		     "reported a status", st->vm);
		snprintf(why, len, "qemu was stopped by a signal on the host before the guest reported");
		return VM_EXIT_HOST_STOPPED;
	}
	/* still failures: only the rapido init's own power-off carries a status */
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0 && !strcmp(r, "guest-shutdown")) {
		warn("vm%u: the guest powered off without reporting a status (a poweroff, or sysrq "
		     "o, in the guest before the rapido init ended; console log: %s)", st->vm,
		     st->console_log);
		snprintf(why, len, "a power-off in the guest before the rapido init reported a status");
		return VM_EXIT_NO_STATUS;
	}
	/*
	 * a panic before the init loaded pvpanic (no root, a broken
	 * initramfs, a kernel without pvpanic) reboots the guest (panic=-1):
	 * qemu says reset, the console says panic
	 */
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0 && !strcmp(r, "guest-reset") &&
	    memmem(st->console, st->console_len, "Kernel panic - not syncing", 26)) {
		report_panic(st->console, st->console_len);
		warn("vm%u: kernel panic before pvpanic was loaded: the guest reset without "
		     "reporting an exit status (console log: %s)", st->vm, st->console_log);
		snprintf(why, len, "kernel panic (before pvpanic was loaded)");
		return VM_EXIT_NO_STATUS;
	}
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0 && !strcmp(r, "guest-reset")) {
		warn("vm%u: the guest reset without reporting a status (a reboot in the guest, or a "
		     "triple fault; console log: %s)", st->vm, st->console_log);
		snprintf(why, len, "a reset in the guest (a reboot or a triple fault) before the "
			 "rapido init reported a status");
		return VM_EXIT_NO_STATUS;
	}
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) {
		const char *what = !strcmp(r, "guest-panic") ? "kernel panic" : "kernel panic or crash";

		report_panic(st->console, st->console_len);
		warn("vm%u: the guest stopped without reporting an exit status (%s; console log: %s)",
		     st->vm, what, st->console_log);
		snprintf(why, len, "%s", what);
		return VM_EXIT_NO_STATUS;
	}
	if (WIFEXITED(wstatus)) {
		warn("qemu failed (exit status %d; console log: %s)", WEXITSTATUS(wstatus),
		     st->console_log);
		snprintf(why, len, "qemu failed (exit status %d)", WEXITSTATUS(wstatus));
	} else {
		warn("qemu killed by signal %d (console log: %s)", WTERMSIG(wstatus), st->console_log);
		snprintf(why, len, "qemu killed by signal %d", WTERMSIG(wstatus));
	}
	return VM_EXIT_FAILED;
}

int verdict_stop(const struct verdict_stop *st, char *why, size_t len, int *tests_only)
{
	struct status_record rec;

	*why = '\0';
	*tests_only = 0;
	switch (st->end) {
	case VERDICT_TIMEOUT:
		warn("timeout: vm%u killed after %us (console log: %s)", st->vm, st->timeout,
		     st->console_log);
		snprintf(why, len, "timeout: --timeout (%us) expired and qemu was killed", st->timeout);
		return VM_EXIT_TIMEOUT;
	case VERDICT_SIGNALLED:
		warn("vm%u stopped by signal %d", st->vm, st->sig);
		snprintf(why, len, "./vm was stopped by signal %d (%s)", st->sig, strsignal(st->sig));
		return 128 + st->sig;
	default:
		break;
	}
	if (status_record_find_last(st->status, st->status_len, st->nonce, &rec))
		return explain_no_status(st, why, len);
	if (rec.kind == STATUS_INIT_ERROR) {
		warn("vm%u: guest init: %s", st->vm, rec.msg);
		snprintf(why, len, "guest init: %s", rec.msg);
		return VM_EXIT_NO_STATUS;
	}
	*tests_only = rec.tests_only;
	return rec.code;
}

const char *verdict_unfinished(int rc, char *buf, size_t len)
{
	if (rc == VM_EXIT_NO_STATUS)
		return "the guest stopped without reporting a status (kernel panic, crash, power-off)";
	if (rc == VM_EXIT_TIMEOUT)
		return "the timeout expired";
	if (rc == VM_EXIT_HOST_STOPPED)
		return "the VM was stopped from the host";
	snprintf(buf, len, "the guest stopped with exit status %d", rc);
	return buf;
}

int verdict_unwritten(int rc, const char *what, char **cause)
{
	if (rc)
		return rc;
	free(*cause);
	*cause = xstrdup(what);
	return VM_EXIT_FAILED;
}

void verdict_summary(unsigned int vm, int rc, const char *cause, double secs,
		     const char *console_log)
{
	char buf[128];
	int own = rc >= VM_EXIT_SPLAT && rc <= VM_EXIT_FAILED;

	/*
	 * a guest's status with no more than the words every such status gets
	 * ("passed", "the guest's scripts failed") is said as the number itself
	 */
	if (!cause || !*cause || (!own && !strcmp(cause, verdict_words(rc, VERDICT_WHOLE, buf, sizeof(buf)))))
		cause = own ? verdict_words(rc, VERDICT_WHOLE, buf, sizeof(buf)) : NULL;
	if (cause)
		fprintf(stderr, "vm: vm%u: %s (exit %d) after %.1fs; console log %s\n", vm, cause, rc,
			secs, console_log);
	else
		fprintf(stderr, "vm: vm%u: the guest exited %d after %.1fs; console log %s\n", vm, rc,
			secs, console_log);
}
