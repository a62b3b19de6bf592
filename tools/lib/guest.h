/* SPDX-License-Identifier: GPL-2.0 */
/* guest.h: is this machine a rapido guest? Helpers that change devices ask first. */
#ifndef RAPIDO_GUEST_H
#define RAPIDO_GUEST_H

#include "protocol.h"

/* ./vm puts rapido.vm=N on every guest's kernel command line (src/vm/qemu.c). */
#define GUEST_CMDLINE "/proc/cmdline"
#define GUEST_CMDLINE_KEY KP_VM

/*
 * Does the kernel command line in the file at path (GUEST_CMDLINE, or a
 * fixture under a test root) carry rapido.vm=N? 1 if so (*vm = N when vm
 * is non-NULL), 0 if not, -errno if the file cannot be read.
 */
int guest_cmdline_vm(const char *path, unsigned int *vm);

/*
 * 0 if path says this is a rapido guest. Else -EPERM (it is not) or
 * -errno (path cannot be read), with *why (malloc'd) saying which, naming
 * path, for a "refusing to ..." message.
 */
int guest_check(const char *path, char **why);

#endif
