// SPDX-License-Identifier: GPL-2.0
/* devices.c: the table of ./vm's devices (devices.h). */
#include <stddef.h>

#include "devices.h"

/*
 * The order is qemu's and the kernel command line's: pvpanic's ISA or PCI
 * slot before the rest, as it always was; the shares' rapido.shares= before
 * the console's rapido.hvc=; the console's virtio-serial bus before the
 * results port on it; the NICs last, so the user's extra arguments after
 * them can refer to them.
 */
const struct vm_device *const vm_devices[] = {
	&vm_dev_pvpanic,
	&vm_dev_share,
	/* its -numa node (the shared memory vhost-user needs) before the other devices */
	&vm_dev_virtiofs,
	&vm_dev_console,
	&vm_dev_control,
	&vm_dev_results,
	&vm_dev_serial,
	&vm_dev_known,
	&vm_dev_gdb,
	&vm_dev_mpath,
	&vm_dev_rbd,
	&vm_dev_net,
	/* no qemu device: --test-timeout's sysrq_always_enabled, --splats-allow */
	&vm_dev_testopts,
	/* no qemu device: rapido run's command, on the kernel command line */
	&vm_dev_execout,
	NULL,
};
