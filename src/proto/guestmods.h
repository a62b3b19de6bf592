/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guestmods.h: the kernel modules the guest init loads only when the kernel
 * command line asks for a feature. One list per feature, read by both
 * ends: tools/init modprobes a list, and ./cut (src/cut/check.c) puts every
 * module of every list into each image, so that no list can name a module
 * the image lacks: those of a feature named by a kernel parameter into a
 * layer that ./vm adds only when its command line has that parameter.
 */
#ifndef RAPIDO_GUESTMODS_H
#define RAPIDO_GUESTMODS_H

/* Each list is NULL-terminated. */
extern const char *const guestmods_share[];	/* rapido.shares=N: 9p on /host, /hostN */
extern const char *const guestmods_virtiofs[];	/* rapido.virtiofs=N: mounted by tag */
extern const char *const guestmods_net[];	/* rapido.ip=: the virtio NIC */
extern const char *const guestmods_hvc[];	/* rapido.hvc=1: a shell on /dev/hvc0 */
/* every boot: the driver of the pvpanic device there is, VMCOREINFO for dumps */
extern const char *const guestmods_pvpanic_isa[];
extern const char *const guestmods_pvpanic_pci[];
extern const char *const guestmods_vmcore[];
extern const char *const guestmods_results[];	/* rapido.results=1: the results port and 9p share */

/* A list above, and the kernel parameter that has the init load it. */
struct guestmods_feature {
	const char *kparam;		/* protocol.h's KP_SHARES...; NULL: every boot loads it */
	const char *const *mods;
};
/* Every list above, ended by { NULL, NULL }. */
extern const struct guestmods_feature guestmods_features[];

#endif
