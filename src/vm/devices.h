/* SPDX-License-Identifier: GPL-2.0 */
/*
 * devices.h: what ./vm gives the guest, one file per device, each
 * registered in vm_devices[] (devices.c) as kvmtool's devices register
 * themselves. settings.c walks the table to resolve, vm.c to plan, start
 * and stop, qemu.c for the qemu arguments and kernel parameters, each in
 * the table's order. Any hook may be NULL. A device's options are rows of
 * vm_options[] (options.c); its resolve reads them by their rapido.conf
 * key (vm_opt_setting, lookup.h) or from their struct vm_opts field.
 */
#ifndef RAPIDO_VM_DEVICES_H
#define RAPIDO_VM_DEVICES_H

#include "conf.h"
#include "strv.h"

struct vm_settings;
struct vm_opts;
struct vm_launch;

struct vm_device {
	const char *name;
	/* Settings from the options and rapido.conf, checked; no I/O that leaves a trace. */
	void (*resolve)(struct vm_settings *s, struct vm_opts *o, const struct conf *c);
	/* A VM number is taken (a dry run too): what needs the host or the number, into l. */
	void (*plan)(struct vm_launch *l);
	/* A real run, before qemu starts; and after it stopped. */
	void (*start)(const struct vm_launch *l);
	void (*stop)(const struct vm_launch *l);
	void (*argv)(const struct vm_launch *l, struct strv *argv);
	void (*kparams)(const struct vm_launch *l, struct strv *kparams);
	/* What resolve and plan allocated. */
	void (*free)(struct vm_settings *s, struct vm_launch *l);
};

/* NULL-terminated; the order of their qemu arguments and kernel parameters. */
extern const struct vm_device *const vm_devices[];

extern const struct vm_device vm_dev_pvpanic, vm_dev_share, vm_dev_console, vm_dev_control,
	vm_dev_results, vm_dev_serial, vm_dev_known, vm_dev_gdb, vm_dev_mpath, vm_dev_rbd, vm_dev_net,
	vm_dev_testopts, vm_dev_execout, vm_dev_virtiofs;

#endif
