/* SPDX-License-Identifier: GPL-2.0 */
/*
 * display.h: the console on ./vm's stdout when ./vm writes it (read from
 * qemu's stdout, interactive, or its console stream, batch): without the
 * kernel's boot log until the guest init's up mark (upmark.h), or kernel
 * reports only (-q --batch); a kernel report is never hidden. On a
 * terminal with --results, one status line under the console, rewritten
 * in place: the test running, done, passed, failed, elapsed.
 */
#ifndef RAPIDO_VM_DISPLAY_H
#define RAPIDO_VM_DISPLAY_H

#include <stddef.h>

#include "results.h"
#include "settings.h"

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
	int status_on;		/* a status line is drawn (stdout a terminal, --results) */
	size_t status_shown;	/* the columns it takes on the screen now; 0: not there */
	char status[256];	/* its text, without the time */
};

/*
 * mode DISPLAY_ALL: qemu writes the console, only display_end()'s dropping
 * of a pending SIGPIPE is used. started: mono_secs() of the start.
 */
void display_init(struct vm_display *d, enum vm_display_mode mode, unsigned int vm, const char *log,
		  int status_on, double started);
/* The console's bytes: qemu's stdout (interactive), its console stream (batch, not DISPLAY_ALL). */
void display_feed(struct vm_display *d, const char *p, size_t n);
/* The records so far (NULL: none): the status line says where the run is. */
void display_records(struct vm_display *d, const struct rsuite *s, double now);
/* A second passed: the status line's clock. */
void display_tick(struct vm_display *d, double now);
/* qemu is gone: the last partial line, the status line cleared. */
void display_end(struct vm_display *d);
void display_free(struct vm_display *d);

/* The status line's text for the records of s (the pure part, for tests). */
void display_status_text(char *buf, size_t size, const struct rsuite *s);

#endif
