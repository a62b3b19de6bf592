/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jobs.h: ./vm --jobs N, the profile's tests as N shards in N VMs on this
 * machine at once, then the tests that must run alone (--serial-tests,
 * xfstests' unreliable_in_parallel group) in one VM after them, all
 * merged into --results DIR with one exit status. jobs.c runs them,
 * serial.c tells each guest its part.
 */
#ifndef RAPIDO_VM_JOBS_H
#define RAPIDO_VM_JOBS_H

#include <stdint.h>

#include "conf.h"
#include "jobsres.h"	/* JOBS_DEFERRED_FILE, JOBS_SERIAL_DIR: the results' side */
#include "settings.h"
#include "strv.h"

/*
 * serial.c: the lines of a --serial-tests file (text, changed in place):
 * a test name or glob per line, blanks around it dropped, '#' at the start
 * of a line or after a blank starts a comment. 0, or -EINVAL with *err
 * (malloc'd) naming path:LINE: a name the kernel command line cannot carry
 * ('"', a control character).
 */
int serial_tests_parse(const char *path, char *text, struct strv *out, char **err);

/*
 * jobs.c: MemAvailable of a /proc/meminfo text in bytes; 0, or -EINVAL
 * when there is none (kernels before 3.14).
 */
int meminfo_available(const char *text, uint64_t *bytes);
/*
 * Whether jobs VMs of memory bytes each fit in avail bytes: 0, or -ENOMEM
 * with *err (malloc'd) saying how many would fit.
 */
int jobs_memory_check(unsigned int jobs, uint64_t memory, uint64_t avail, char **err);

/* --jobs, --serial-tests and what they rule out; dies naming the source. */
void vm_jobs_resolve_or_die(struct vm_settings *s, const struct vm_opts *o, const struct conf *c);
/* Boot the shards and the serial VM, merge; ./vm's exit status. */
int vm_jobs_run(struct vm_settings *s);

#endif
