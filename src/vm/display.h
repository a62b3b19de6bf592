/* SPDX-License-Identifier: GPL-2.0 */
/*
 * display.h: the console on ./vm's stdout when ./vm writes it (read from
 * qemu's stdout, interactive, or its one console stream, batch): all of it
 * (-v, stdout not a terminal: CI, a pipe), without the kernel's boot log
 * until the guest init's up mark (upmark.h), or kernel reports only (-q
 * --batch); a kernel report is never hidden. On a terminal with
 * --results, one status line under the console, rewritten in place: the
 * test running, done, passed, failed, elapsed. What it writes waits in a
 * bounded buffer until stdout takes it (outbuf.h): a reader that stops
 * reading never stops ./vm's loop, only costs the display what does not
 * fit (said once; the console log keeps every byte).
 */
#ifndef RAPIDO_VM_DISPLAY_H
#define RAPIDO_VM_DISPLAY_H

#include <stddef.h>

#include "outbuf.h"
#include "results.h"
#include "settings.h"

/* How far stdout's reader may fall behind before the display drops (a boot log: 25 KiB). */
#define DISPLAY_KEEP (1024u * 1024)
/* At the end, how long stdout may take nothing before the rest is given up. */
#define DISPLAY_STALL_SECS 2

struct vm_display {
	enum vm_display_mode mode;
	unsigned int vm;
	const char *log;	/* the console log, named by the up line */
	double started;
	int up;			/* the up mark passed: kernel lines stamped after it are shown */
	double up_ts;		/* the up mark's stamp (the guest's seconds since boot) */
	struct splat_scan sc;	/* the kernel reports, shown when the rest is not */
	/* the line being read: not yet known, a kernel line (kept whole), shown, dropped */
	enum { LINE_NEW, LINE_KERNEL, LINE_SHOW, LINE_HIDE } kind;
	char line[4096];	/* its start: the kernel's stamp, or the whole kernel line */
	size_t len;
	double ts;		/* a kernel line's stamp */
	int bol;		/* stdout is at the start of a line */
	int failed;		/* writing stdout failed: nothing more is written */
	int dropping;		/* stdout's reader fell DISPLAY_KEEP behind (said once) */
	struct outbuf out;	/* what stdout has not taken yet */
	int status_on;		/* a status line is drawn (stdout a terminal, --results) */
	size_t status_shown;	/* the columns it takes on the screen now; 0: not there */
	char status[256];	/* its text, without the time */
};

/*
 * mode DISPLAY_ALL: every byte as it comes (interactive -v: qemu writes
 * the terminal itself, only display_end()'s dropping of a pending SIGPIPE
 * is used). started: mono_secs() of the start.
 */
void display_init(struct vm_display *d, enum vm_display_mode mode, unsigned int vm, const char *log,
		  int status_on, double started);
/* The console's bytes: qemu's stdout (interactive), its console stream (batch). */
void display_feed(struct vm_display *d, const char *p, size_t n);
/* The bytes stdout has not taken yet (0: nothing to wait for it for). */
size_t display_pending(const struct vm_display *d);
/* stdout can take some (poll said so): what it takes now, never waiting. */
void display_flush(struct vm_display *d);
/* The records so far (NULL: none): the status line says where the run is. */
void display_records(struct vm_display *d, const struct rsuite *s, double now);
/* A second passed: the status line's clock. */
void display_tick(struct vm_display *d, double now);
/*
 * qemu is gone: the last partial line, the status line cleared, and what
 * stdout has not taken, waited for while its reader takes some (given up,
 * and said, after DISPLAY_STALL_SECS of nothing taken).
 */
void display_end(struct vm_display *d);
void display_free(struct vm_display *d);

/* The status line's text for the records of s (the pure part, for tests). */
void display_status_text(char *buf, size_t size, const struct rsuite *s);

#endif
