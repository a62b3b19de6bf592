/* SPDX-License-Identifier: GPL-2.0 */
/*
 * monitor.h: ./vm's own QMP monitor on qemu (VM_FD_MONITOR): it learns why
 * qemu stopped (SHUTDOWN's reason), sees a guest panic, and then has qemu
 * dump the guest's memory (VM_VMCORE_KEEP) before it quits.
 */
#ifndef RAPIDO_VM_MONITOR_H
#define RAPIDO_VM_MONITOR_H

#include "qmp.h"

struct vm_settings;

struct vm_monitor {
	struct qmp q;			/* q.fd -1 once at its end */
	const struct vm_settings *s;
	unsigned int vm;
	enum { MON_GREETING, MON_READY, MON_DUMPING, MON_QUITTING } state;
	char shutdown_reason[64];	/* from QMP SHUTDOWN, "" if none seen */
	int panicked;			/* QMP GUEST_PANICKED */
	char *vmcore;			/* the dump asked for, NULL if none */
	int vmcore_ok;			/* qemu said it was written */
	char vmcore_err[256];		/* else its reason, "" for no answer */
};

/* A monitor for VM vm of s on fd (non-blocking); fd -1: none yet. */
void vm_monitor_init(struct vm_monitor *m, const struct vm_settings *s, unsigned int vm, int fd);
/* fd is readable: act on what qemu said. 0, or -1 at its end (the caller closes q). */
int vm_monitor_input(struct vm_monitor *m);
void vm_monitor_free(struct vm_monitor *m);
/* Send a command whose reply does not matter (the watchdog's sysrq keys). */
void vm_monitor_send(struct vm_monitor *m, const char *json);
/*
 * Stop the VM: dump its memory to vmcore (taken over; NULL: no dump) and
 * quit. -EAGAIN when the monitor is not ready for it (busy with a panic).
 */
int vm_monitor_stop(struct vm_monitor *m, char *vmcore);

#endif
