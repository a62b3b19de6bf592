/* SPDX-License-Identifier: GPL-2.0 */
/* guestpath.h: the guest's PATH, set by its init, and where ./cut puts busybox's applets. */
#ifndef RAPIDO_GUESTPATH_H
#define RAPIDO_GUESTPATH_H

/* What a suite's harness runs with: the image's own programs only */
#define GUEST_PATH "/usr/sbin:/usr/bin:/sbin:/bin"
/*
 * busybox and a link per applet (src/cut/helpers.c): at the end of the
 * shell's PATH, so that a real program of the image always wins; the init
 * exports it as RAPIDO_BUSYBOX_DIR for the guest library, which takes it
 * off the PATH of the profile's own part and of the harnesses it starts
 */
#define GUEST_BUSYBOX_DIR "/usr/lib/rapido/busybox"
/*
 * What the init mounts a file system on (tools/init/main.c's mounts[]):
 * what an image holds under them is hidden in the guest, so ./cut refuses
 * a program of --bins there (src/cut/check.c). NULL-terminated.
 */
#define GUEST_MOUNTED_DIRS { "/proc", "/sys", "/dev", "/tmp", "/run", NULL }

#endif
