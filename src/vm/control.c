// SPDX-License-Identifier: GPL-2.0
/*
 * control.c: the two QMP monitors: the socket ./vmctl finds from the VM
 * number, and ./vm's own on VM_FD_MONITOR (monitor.c), which hears events
 * such as SHUTDOWN with its reason.
 */
#include <stdlib.h>

#include "devices.h"
#include "qopt.h"
#include "vm.h"

static void control_argv(const struct vm_launch *l, struct strv *argv)
{
	char *qmp = qopt(l->qmp_path);

	strv_push(argv, "-qmp");
	strv_pushf(argv, "unix:%s,server=on,wait=off", qmp);
	strv_push(argv, "-chardev");
	strv_pushf(argv, "socket,id=rapido-mon,fd=%d", VM_FD_MONITOR);
	strv_push(argv, "-mon");
	strv_push(argv, "chardev=rapido-mon,mode=control");
	free(qmp);
}

const struct vm_device vm_dev_control = {
	.name = "control",
	.argv = control_argv,
};
