#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ksmbd_local: the kernel's SMB server and client in one guest. A zram disk
# with KSMBD_FS on it is shared by ksmbd (Debian's ksmbd-tools: the share
# and user written by ksmbd.addshare and ksmbd.adduser, ksmbd.mountd
# serving them) as //127.0.0.1/share and mounted with cifs over loopback at
# /mnt/cifs with SMB dialect KSMBD_VERS, as the user rapido (password
# rapido). Two tests: a line written through the mount is read back on the
# shared file system, and 8 MiB of random data written through it reads
# back the same on the server's side and, after a new mount, through the
# client. Then the -x/-f extras run (e.g. -x 'dd if=/dev/zero
# of=/mnt/cifs/f bs=1M count=64').
#
# rapido.conf (or environment) keys:
#   KSMBD_VERS       the SMB dialect of the mount (vers=): 2.1, 3.0, 3.02 or
#                    3.1.1 (default)
#   KSMBD_FS         the shared file system: ext4 (default), xfs or btrfs
#   KSMBD_ZRAM_SIZE  its zram disk (default 512M)
#@ description: ksmbd sharing a zram KSMBD_FS, mounted with cifs over loopback at /mnt/cifs (KSMBD_VERS 2.1 to 3.1.1)
#@ include: ksmbd
#@ bins: dd cmp
#@ conf-optional: KSMBD_ZRAM_SIZE
#@ conf-type: KSMBD_ZRAM_SIZE size 16M
#@ cpus: 2
#@ memory: 1G

ksmbd_prepare
ksmbd_share share "${KSMBD_FS:-ext4}" "${KSMBD_ZRAM_SIZE:-512M}"
ksmbd_server_up
ksmbd_mount_options
# kept apart: REPLY is every helper's scratch (rapido_test's too)
_ksmbd_opts=$REPLY
_ksmbd_srv=/srv/smb/share
mkdir -p /mnt/cifs && ksmbd_mount share /mnt/cifs "$_ksmbd_opts" ||
	rapido_fail "cannot mount //127.0.0.1/share on /mnt/cifs with vers=${KSMBD_VERS:-3.1.1}"
# the options without the password, which /proc/mounts does not show either
ksmbd_check_mount /mnt/cifs
# a new mount: what is read next comes from the server, not the client's cache
ksmbd_remount() {
	umount /mnt/cifs && ksmbd_mount share /mnt/cifs "$_ksmbd_opts"
}

_ksmbd_data="written through SMB ${KSMBD_VERS:-3.1.1} by rapido$RAPIDO_VM"
ksmbd_round_trip() {
	local got
	echo "$_ksmbd_data" > /mnt/cifs/rapido-round-trip && ksmbd_remount || return 1
	read -r got < "$_ksmbd_srv/rapido-round-trip" && [ "$got" = "$_ksmbd_data" ] || {
		echo "the share holds '$got', not what the client wrote"
		return 1
	}
}
rapido_test ksmbd/round-trip ksmbd_round_trip

# many SMB writes and reads (cifs sends at most its wsize, 1 MiB here, a request)
ksmbd_data() {
	dd if=/dev/urandom of=/tmp/ksmbd-data bs=1M count=8 status=none &&
		dd if=/tmp/ksmbd-data of=/mnt/cifs/data bs=64K conv=fsync status=none || return 1
	cmp /tmp/ksmbd-data "$_ksmbd_srv/data" || {
		echo "the shared file system holds other bytes than the client wrote"
		return 1
	}
	ksmbd_remount && cmp /tmp/ksmbd-data /mnt/cifs/data || {
		echo "the client reads back other bytes than it wrote"
		return 1
	}
}
rapido_test ksmbd/data ksmbd_data
