// SPDX-License-Identifier: GPL-2.0
/*
 * splat.c: find the kernel's own reports on the console as it streams by:
 * Oops, BUG, KASAN, KFENCE, UBSAN, WARNING, lockdep, hung tasks, RCU
 * stalls, soft lockups, panics. Kernel lines carry the printk timestamp
 * (./vm puts printk.time=1 on the command line, last): a test that
 * prints "WARNING:" itself is no splat. A kernel line may land in the
 * middle of a line a program is printing, so the timestamp is looked for
 * anywhere in the line. Until the kernel's first timestamped line (a
 * kernel that does not stamp them: another ./vm, a command line that got
 * no printk.time=1), a line without one counts only when it has the
 * kernel's whole format ("WARNING: CPU: 0 PID: 1 at FILE", "INFO: task
 * NAME:PID blocked for more than N seconds."), not just its first word.
 *
 * A report ends at its kind's end marker ("---[ end trace", the closing
 * "====" of KASAN, KFENCE and UBSAN, the "</TASK>" of a task dump), at a
 * pause of more than 2 s in the kernel's clock, after 300 lines, or when
 * another report starts.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "results.h"

#define REPORT_LINES_MAX 300
#define REPORT_GAP_SECS 2.0

void splat_scan_init(struct splat_scan *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->last_closed_ts = -1e9;
}

void splat_scan_free(struct splat_scan *sc)
{
	for (size_t i = 0; i < sc->n; i++) {
		free(sc->v[i].title);
		free(sc->v[i].text);
	}
	free(sc->v);
	memset(sc, 0, sizeof(*sc));
}

/* "[   12.345678] " anywhere in line: 1 with *ts and *msg (the text after it) set. */
static int kernel_line(const char *line, double *ts, const char **msg)
{
	for (const char *p = strchr(line, '['); p; p = strchr(p + 1, '[')) {
		const char *q = p + 1, *d;

		while (*q == ' ')
			q++;
		d = q;
		while (isdigit((unsigned char)*q))
			q++;
		if (q == d || *q != '.')
			continue;
		q++;
		d = q;
		while (isdigit((unsigned char)*q))
			q++;
		if (q == d || *q != ']')
			continue;
		*ts = strtod(p + 1, NULL);
		*msg = q + 1 + (q[1] == ' ');
		return 1;
	}
	return 0;
}

/*
 * The kind of report msg starts, or -1. Order matters: KASAN and soft
 * lockups say "BUG:", lockdep says "WARNING:".
 */
static int classify(const char *msg)
{
	if (strstr(msg, "BUG: KASAN:"))
		return SPLAT_KASAN;
	if (strstr(msg, "BUG: KFENCE:"))
		return SPLAT_KFENCE;
	if (!strncmp(msg, "UBSAN:", 6))
		return SPLAT_UBSAN;
	if (strstr(msg, "BUG: soft lockup"))
		return SPLAT_SOFT_LOCKUP;
	if (strstr(msg, "possible recursive locking") || strstr(msg, "circular locking dependency") ||
	    strstr(msg, "inconsistent lock state") || strstr(msg, "possible irq lock inversion") ||
	    strstr(msg, "bad unlock balance") || strstr(msg, "suspicious RCU usage"))
		return SPLAT_LOCKDEP;
	if (strstr(msg, "INFO: task ") && strstr(msg, "blocked for more than"))
		return SPLAT_HUNG_TASK;
	if (strstr(msg, "self-detected stall") || !strncmp(msg, "rcu: INFO:", 10) ||
	    strstr(msg, "detected stalls on CPUs"))
		return SPLAT_RCU_STALL;
	if (!strncmp(msg, "kernel BUG at", 13) || !strncmp(msg, "BUG:", 4))
		return SPLAT_BUG;
	if (!strncmp(msg, "Oops:", 5) || !strncmp(msg, "general protection fault", 24))
		return SPLAT_OOPS;
	if (!strncmp(msg, "WARNING: CPU:", 13) || !strncmp(msg, "WARNING: at ", 12))
		return SPLAT_WARNING;
	if (!strncmp(msg, "Kernel panic - not syncing", 26))
		return SPLAT_PANIC;
	return -1;
}

/*
 * A line without a timestamp, of a kernel that does not stamp its lines:
 * does it have the whole format of the report classify() took it for?
 * A program's "WARNING: disk nearly full" or "BUG: 12" has not.
 */
static int full_format(int kind, const char *msg)
{
	static const char *const lockdep[] = {
		"WARNING: possible circular locking dependency detected",
		"WARNING: possible recursive locking detected",
		"WARNING: inconsistent lock state",
		"WARNING: bad unlock balance detected!",
		"WARNING: suspicious RCU usage",
		"WARNING: possible irq lock inversion dependency detected",
	};
	unsigned int a, b;
	char c = 0;

	switch (kind) {
	case SPLAT_WARNING:
		return sscanf(msg, "WARNING: CPU: %u PID: %u at %c", &a, &b, &c) == 3;
	case SPLAT_OOPS:
		return (sscanf(msg, "Oops: %4x [#%u%c", &a, &b, &c) == 3 && c == ']') ||
		       (!strncmp(msg, "general protection fault", 24) && strstr(msg, " [#"));
	case SPLAT_BUG:
		return !strncmp(msg, "BUG: kernel NULL pointer dereference, address: ", 48) ||
		       !strncmp(msg, "BUG: unable to handle page fault for address: ", 46) ||
		       !strncmp(msg, "BUG: scheduling while atomic: ", 30) ||
		       !strncmp(msg, "BUG: sleeping function called from invalid context at ", 55) ||
		       (sscanf(msg, "kernel BUG at %*[^:]:%u%c", &a, &c) == 2 && c == '!');
	case SPLAT_KASAN:
	case SPLAT_KFENCE:
	case SPLAT_UBSAN:
		return (!strncmp(msg, "BUG: KASAN: ", 12) || !strncmp(msg, "BUG: KFENCE: ", 13) ||
			!strncmp(msg, "UBSAN: ", 7)) && strstr(msg, " in ");
	case SPLAT_LOCKDEP:
		for (size_t i = 0; i < sizeof(lockdep) / sizeof(lockdep[0]); i++)
			if (!strncmp(msg, lockdep[i], strlen(lockdep[i])))
				return 1;
		return 0;
	case SPLAT_HUNG_TASK:
		return sscanf(msg, "INFO: task %*[^:]:%u blocked for more than %u seconds%c", &a, &b,
			      &c) == 3 && c == '.';
	case SPLAT_RCU_STALL:
		return !strncmp(msg, "rcu: INFO: rcu_", 15) &&
		       (strstr(msg, "self-detected stall on CPU") || strstr(msg, "detected stalls on CPUs"));
	case SPLAT_SOFT_LOCKUP:
		return !strncmp(msg, "watchdog: BUG: soft lockup - CPU#", 33);
	case SPLAT_PANIC:
		return !strncmp(msg, "Kernel panic - not syncing: ", 28);
	default:
		return 0;
	}
}

static int is_rule(const char *msg)
{
	size_t n = strspn(msg, "=");

	return n >= 20 && !msg[n];
}

static void report_add_line(struct splat *s, const char *line, double ts, unsigned long lineno)
{
	size_t old = s->text ? strlen(s->text) : 0, n = strlen(line);

	s->text = xrealloc(s->text, old + n + 2);
	memcpy(s->text + old, line, n);
	s->text[old + n] = '\n';
	s->text[old + n + 1] = '\0';
	s->lines++;
	s->last_ts = ts;
	s->last_line = lineno;
}

static void report_close(struct splat_scan *sc)
{
	if (!sc->open)
		return;
	sc->open = 0;
	sc->in_trace = 0;
	sc->last_closed_ts = sc->v[sc->n - 1].last_ts;
}

static void report_open(struct splat_scan *sc, int kind, const char *line, const char *msg, double ts)
{
	struct splat *s;

	if (sc->n == sc->cap) {
		sc->cap = sc->cap ? 2 * sc->cap : 8;
		sc->v = xrealloc(sc->v, sc->cap * sizeof(*sc->v));
	}
	s = &sc->v[sc->n++];
	memset(s, 0, sizeof(*s));
	s->kind = (enum splat_kind)kind;
	s->title = xstrdup(msg);
	s->first_ts = ts;
	s->first_line = sc->lineno;
	sc->open = 1;
	report_add_line(s, line, ts, sc->lineno);
}

/* Does msg end the open report of this kind (the line is part of it)? */
static int ends_report(struct splat_scan *sc, const struct splat *s, const char *msg)
{
	if (strstr(msg, "---[ end "))
		return 1;
	switch (s->kind) {
	case SPLAT_KASAN:
	case SPLAT_KFENCE:
	case SPLAT_UBSAN:
		return is_rule(msg);
	case SPLAT_LOCKDEP:
	case SPLAT_HUNG_TASK:
	case SPLAT_RCU_STALL:
	case SPLAT_SOFT_LOCKUP:
		return sc->in_trace && strstr(msg, "</TASK>");
	default:
		return 0;
	}
}

static void scan_line(struct splat_scan *sc, const char *line)
{
	const char *msg;
	double ts;
	int kind;

	/* console.log's line number: every line counts, a program's too */
	sc->lineno++;
	if (kernel_line(line, &ts, &msg)) {
		sc->timestamps = 1;
		kind = classify(msg);
		if (!sc->oom[0] && strstr(msg, "ut of memory: Killed process "))
			snprintf(sc->oom, sizeof(sc->oom), "%s", msg);
	} else if (sc->timestamps) {
		return;
	} else {
		/* no clock to go by: a report ends at its marker, another report or its size */
		msg = line;
		ts = sc->open ? sc->v[sc->n - 1].last_ts : 0;
		kind = classify(msg);
		if (kind >= 0 && !full_format(kind, msg))
			kind = -1;
		if (kind < 0 && !sc->open)
			return;
	}
	if (sc->open) {
		struct splat *s = &sc->v[sc->n - 1];

		if (ts - s->last_ts > REPORT_GAP_SECS || s->lines >= REPORT_LINES_MAX) {
			report_close(sc);
		} else if (kind < 0 || kind == SPLAT_OOPS || kind == SPLAT_PANIC) {
			/* an Oops line inside a BUG report, the panic that ends an Oops */
			report_add_line(s, line, ts, sc->lineno);
			if (strstr(msg, "Call Trace:") || strstr(msg, "stack backtrace:"))
				sc->in_trace = 1;
			if (ends_report(sc, s, msg))
				report_close(sc);
			return;
		} else {
			report_close(sc);
		}
	}
	if (kind == SPLAT_PANIC && sc->n && ts - sc->last_closed_ts <= REPORT_GAP_SECS) {
		/* "Kernel panic - not syncing: Fatal exception" right after the Oops it is about */
		sc->open = 1;
		report_add_line(&sc->v[sc->n - 1], line, ts, sc->lineno);
		return;
	}
	if (kind >= 0)
		report_open(sc, kind, line, msg, ts);
}

void splat_feed(struct splat_scan *sc, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n') {
			sc->line[sc->len] = '\0';
			scan_line(sc, sc->line);
			sc->len = 0;
		} else if (p[i] != '\r' && p[i] != '\0' && sc->len + 1 < sizeof(sc->line)) {
			sc->line[sc->len++] = p[i];
		}
	}
}

void splat_finish(struct splat_scan *sc)
{
	if (sc->len) {
		sc->line[sc->len] = '\0';
		scan_line(sc, sc->line);
		sc->len = 0;
	}
	report_close(sc);
}
