// SPDX-License-Identifier: GPL-2.0
/*
 * pvpanic.c: a panic reaches qemu through pvpanic (the guest init loads its
 * driver) and pauses the VM, so ./vm can dump its memory before it quits
 * (monitor.c); vmcoreinfo puts the kernel's VMCOREINFO note in that dump.
 */
#include "devices.h"
#include "vm.h"

static void pvpanic_argv(const struct vm_launch *l, struct strv *argv)
{
	strv_push(argv, "-device");
	strv_push(argv, l->s->im.arch->pvpanic);
	strv_push(argv, "-device");
	strv_push(argv, "vmcoreinfo");
	strv_push(argv, "-action");
	strv_push(argv, "panic=pause");
}

const struct vm_device vm_dev_pvpanic = {
	.name = "pvpanic",
	.argv = pvpanic_argv,
};
