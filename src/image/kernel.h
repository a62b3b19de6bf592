/* SPDX-License-Identifier: GPL-2.0 */
/* kernel.h: find the kernel to boot and what its modules and config offer. */
#ifndef RAPIDO_KERNEL_H
#define RAPIDO_KERNEL_H

#include "arch.h"
#include "conf.h"
#include "moddep.h"
#include "strv.h"

struct kernel {
	char *release;	/* uname -r of the kernel */
	char *image;	/* bzImage, Image or BOOT_DIR/vmlinuz-REL */
	char *config;	/* .config or /boot/config-REL; NULL if absent */
	char *moddir;	/* .../lib/modules/REL; NULL: no modules at all */
	char *kmoddir_root; /* KERNEL_INSTALL_MOD_PATH, for dracut --kmoddir; NULL: installed */
	int from_src;	/* 1: KERNEL_SRC tree */
	struct strv mods;	/* loadable modules, names normalised (- -> _) */
	struct strv builtin;	/* built-in modules */
	int compressed;		/* modules.dep names a compressed module (.ko.xz, ...) */
};

/*
 * KERNEL_SRC set: a built tree for architecture a (a->kernel_image,
 * include/config/kernel.release, .config) with modules under
 * KERNEL_INSTALL_MOD_PATH/lib/modules/REL (or none, for a kernel with
 * everything built in). Otherwise an installed kernel: KERNEL_RELEASE, or
 * the newest BOOT_DIR/vmlinuz-REL that has MOD_ROOT/REL.
 * boot_dir and mod_root are "/boot" and "/lib/modules" except in tests.
 * Returns 0 or -errno with *err naming what is missing.
 */
int kernel_locate(const struct conf *c, const struct arch *a, const char *boot_dir,
		  const char *mod_root, struct kernel *k, char **err);
void kernel_free(struct kernel *k);

/* "zram" or "dm-multipath": 2 loadable, 1 built in, 0 absent. */
int kernel_has_module(const struct kernel *k, const char *name);

/*
 * Check kconfig requirements ("CONFIG_X" = y or m, "CONFIG_X=y" = built in,
 * "CONFIG_X=m" = y or m both fine... see kernel.c) against k->config.
 * Appends one human-readable line per unmet requirement to missing.
 * Returns 0, or -errno if the config cannot be read.
 */
int kernel_check_kconfig(const struct kernel *k, const struct strv *reqs, struct strv *missing);

#endif
