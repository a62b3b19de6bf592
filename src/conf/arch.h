/* SPDX-License-Identifier: GPL-2.0 */
/* arch.h: what differs between guest architectures, in one table (ARCH=). */
#ifndef RAPIDO_ARCH_H
#define RAPIDO_ARCH_H

#include "conf.h"

/*
 * One guest architecture. Adding one (riscv64: qemu-system-riscv64,
 * machine virt, console ttyS0, status on a virtio port) is one entry in
 * arch.c plus its cross compiler in the Makefile's CROSS_arch.
 */
struct arch {
	const char *name;	/* Debian's name, the ARCH= value: amd64, arm64 */
	const char *uname;	/* uname -m in the guest (also accepted as ARCH=) */
	const char *triplet;	/* multiarch triplet: library dirs, cross compiler prefix */
	const char *kbuild;	/* the kernel's ARCH=: x86, arm64 */
	const char *kernel_image; /* in a built KERNEL_SRC tree */
	unsigned int elf_machine; /* e_machine of its programs */
	const char *qemu;	/* default QEMU_BIN */
	const char *qemu_pkg;	/* the Debian package that has it */
	const char *machine;	/* -machine */
	const char *tcg_cpu;	/* -cpu under TCG (KVM: host) */
	const char *console;	/* the console's tty (console=) */
	/*
	 * Where the guest init writes its status record: NULL for a second
	 * serial port (ttyS1); else the name of a virtio serial port (the
	 * "virt" machine has one UART only).
	 */
	const char *status_port;
	const char *pvpanic;	/* qemu's pvpanic device for the machine */
	/*
	 * The console shell's port (./vmctl N shell, exec): a third ISA UART
	 * with an IRQ of its own, NULL for the virtio console (hvc0), whose
	 * modules each boot would load (virtio_pci's probe: 0.1-0.2 s of a
	 * TCG boot)
	 */
	const char *shell_tty;
	const char *tcg_kparams; /* kernel parameters under TCG, "" if none */
};

/* By Debian name, uname -m or kbuild ARCH ("amd64", "x86_64", "x86"); NULL if unknown. */
const struct arch *arch_find(const char *name);
/* The architecture this program was built for. */
const struct arch *arch_host(void);
/* 1 when a is not the host's: no KVM, a sysroot, cross-built helpers. */
int arch_foreign(const struct arch *a);
/* "amd64, arm64": the known names, for messages (static). */
const char *arch_names(void);

/*
 * ARCH from the configuration (environment over rapido.conf), default the
 * host's. Returns 0, or -EINVAL with *err naming where ARCH was set and
 * the names known (malloc'd).
 */
int arch_from_conf(const struct conf *c, const struct arch **out, char **err);

/*
 * SYSROOT: the foreign architecture's userspace and kernel (host/sysroot
 * fills it): the configured value, else rapido_cache_dir()/NAME/sysroot
 * (~/.cache/rapido/NAME/sysroot). malloc'd; NULL if there is neither.
 */
char *arch_sysroot(const struct conf *c, const struct arch *a);

#endif
