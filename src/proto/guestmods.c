// SPDX-License-Identifier: GPL-2.0
/* guestmods.c: the guest's on-demand module lists (guestmods.h). */
#include <stddef.h>

#include "guestmods.h"
#include "protocol.h"

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

/* tools/init/setup.c, debug.c and results.c load each list on these words */
const struct guestmods_feature guestmods_features[] = {
	{ KP_SHARES, guestmods_share },
	{ KP_VIRTIOFS, guestmods_virtiofs },
	{ KP_IP, guestmods_net },
	{ KP_HVC, guestmods_hvc },
	{ KP_RESULTS, guestmods_results },
	{ NULL, guestmods_pvpanic_isa },
	{ NULL, guestmods_pvpanic_pci },
	{ NULL, guestmods_vmcore },
	{ NULL, NULL },
};
