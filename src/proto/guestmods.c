// SPDX-License-Identifier: GPL-2.0
/* guestmods.c: the guest's on-demand module lists (guestmods.h). */
#include <stddef.h>

#include "guestmods.h"

const char *const guestmods_share[] = { "virtio_pci", "9pnet_virtio", "9p", NULL };
const char *const guestmods_virtiofs[] = { "virtio_pci", "virtiofs", NULL };
const char *const guestmods_net[] = { "virtio_pci", "virtio_net", NULL };
const char *const guestmods_hvc[] = { "virtio_pci", "virtio_console", NULL };
/*
 * pvpanic: a panic reaches qemu, which pauses the VM for ./vm's dump. The
 * ISA device (x86's) is ACPI's QEMU0001, driven by pvpanic_mmio since
 * Linux 5.12 (by one pvpanic before); pvpanic-pci (arm64's) by pvpanic_pci.
 */
const char *const guestmods_pvpanic_isa[] = { "pvpanic_mmio", "pvpanic", NULL };
const char *const guestmods_pvpanic_pci[] = { "pvpanic_pci", NULL };
/* qemu_fw_cfg hands qemu the kernel's VMCOREINFO for that dump */
const char *const guestmods_vmcore[] = { "qemu_fw_cfg", NULL };
const char *const guestmods_results[] = { "virtio_pci", "virtio_console", "9pnet_virtio", "9p", NULL };

const char *const *const guestmods_on_demand[] = {
	guestmods_share, guestmods_virtiofs, guestmods_net, guestmods_hvc, guestmods_pvpanic_isa,
	guestmods_pvpanic_pci, guestmods_vmcore, guestmods_results, NULL,
};
