// SPDX-License-Identifier: GPL-2.0
/* guestmods.c: the guest's on-demand module lists (guestmods.h). */
#include <stddef.h>

#include "guestmods.h"

const char *const guestmods_share[] = { "virtio_pci", "9pnet_virtio", "9p", NULL };
const char *const guestmods_virtiofs[] = { "virtio_pci", "virtiofs", NULL };
const char *const guestmods_net[] = { "virtio_pci", "virtio_net", NULL };
const char *const guestmods_hvc[] = { "virtio_pci", "virtio_console", NULL };
/*
 * pvpanic: a panic reaches qemu, which pauses the VM for ./vm's dump
 * (pvpanic_mmio and pvpanic_pci since Linux 5.12, one pvpanic before);
 * qemu_fw_cfg hands qemu the kernel's VMCOREINFO for that dump.
 */
const char *const guestmods_debug[] = { "pvpanic_mmio", "pvpanic", "pvpanic_pci", "qemu_fw_cfg", NULL };
const char *const guestmods_results[] = { "virtio_pci", "virtio_console", "9pnet_virtio", "9p", NULL };

const char *const *const guestmods_on_demand[] = {
	guestmods_share, guestmods_virtiofs, guestmods_net, guestmods_hvc, guestmods_debug, guestmods_results, NULL,
};
