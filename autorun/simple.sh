#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# simple: the smallest useful image. Prints the kernel release, runs the
# -x/-f extras, then leaves a shell (or powers off in batch mode).
#@ description: print the kernel release, run the -x/-f extras, then a shell or power-off
#@ bins: uname cat ls mkdir rm sleep
#@ bins-optional: dmesg grep sed
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
