#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# simple: the smallest useful image. Prints the kernel release, runs the
# -x/-f extras, then leaves a shell (or powers off in batch mode).
#@ description: print the kernel release, run the -x/-f extras, then a shell or power-off
# busybox (in every image) serves the shell's ls, mkdir, grep and sed: the
# host's, with libselinux and libpcre2 under them, were 1.4 MiB of a 12 MiB
# image, which the kernel unpacks on every boot before /init runs
# (bench/boot). The profile runs none of these: they are for a person at
# its shell, busybox's applets where the image has busybox (the host's, and
# the libc, libtinfo and libgcc_s under them, were 2.8 MiB more), the
# host's in an image without (a foreign ARCH's, CUT_BUSYBOX=)
#@ shell-bins: uname cat rm sleep dmesg
# nothing beyond kernel/base.config; of that, what must be built in for the
# image to boot at all (else a silent hang, not an error)
#@ kconfig: CONFIG_BLK_DEV_INITRD=y CONFIG_BINFMT_ELF=y CONFIG_DEVTMPFS=y CONFIG_SERIAL_8250_CONSOLE=y
#@ cpus: 1
#@ memory: 512M

# what uname -r and hostname print, read by bash itself: each $(...) is a
# fork and an exec, tens of ms apiece under TCG, on every boot
read -r _rel < /proc/sys/kernel/osrelease
read -r _host < /proc/sys/kernel/hostname
echo "rapido: $_rel up on $_host"
