#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fstests_cifs: xfstests on SMB, server and client in one guest: two zram
# disks with KSMBD_FS on them are shared by ksmbd (Debian's ksmbd-tools, as
# in ksmbd_local) as //127.0.0.1/test and //127.0.0.1/scratch, the way
# xfstests documents FSTYP=cifs: TEST_DEV and SCRATCH_DEV are those
# shares, the test one mounted at /mnt/test, CIFS_MOUNT_OPTIONS carries the
# dialect and the login. With FSTESTS_SRC (a built xfstests tree) the image
# carries it at /fstests and the tests FSTESTS_GROUPS/FSTESTS_TESTS pick
# run through rapido_fstests_check, as in fstests_local, each a testcase
# of ./vm --results.
#
# rapido.conf (or environment) keys:
#   KSMBD_VERS, KSMBD_FS  as in ksmbd_local (3.1.1, ext4)
#   KSMBD_ZRAM_SIZE       each of the two disks (default 1G)
#   FSTESTS_SRC           a built xfstests tree on the host (optional)
#   FSTESTS_AUTORUN_CMD   command run in /fstests after set-up (optional)
#   FSTESTS_GROUPS, FSTESTS_TESTS, FSTESTS_EXCLUDE_GROUPS,
#   FSTESTS_EXCLUDE_TESTS, FSTESTS_EXCLUDE_FILE   as in fstests_local
#@ description: xfstests on SMB over loopback: ksmbd shares two zram disks, FSTYP=cifs, KSMBD_VERS, FSTESTS_SRC at /fstests
#@ results: yes
#@ include: ksmbd
#@ include: fstests-net
#@ conf-optional: KSMBD_ZRAM_SIZE
#@ conf-type: KSMBD_ZRAM_SIZE size 16M
#@ cpus: 2
#@ memory: 2G

FSTYP=cifs
TEST_DIR=/mnt/test
SCRATCH_MNT=/mnt/scratch
fstests_selection_ok
ksmbd_prepare
ksmbd_share test "${KSMBD_FS:-ext4}" "${KSMBD_ZRAM_SIZE:-1G}"
ksmbd_share scratch "${KSMBD_FS:-ext4}" "${KSMBD_ZRAM_SIZE:-1G}"
ksmbd_server_up
ksmbd_mount_options
TEST_DEV=//127.0.0.1/test
SCRATCH_DEV=//127.0.0.1/scratch
CIFS_MOUNT_OPTIONS="-o $REPLY"
mkdir -p "$TEST_DIR" "$SCRATCH_MNT" || rapido_fail "mkdir $TEST_DIR $SCRATCH_MNT failed"
ksmbd_mount test "$TEST_DIR" "$REPLY" ||
	rapido_fail "cannot mount TEST_DEV=$TEST_DEV on $TEST_DIR with vers=${KSMBD_VERS:-3.1.1}"
ksmbd_check_mount "$TEST_DIR"
export FSTYP TEST_DEV TEST_DIR SCRATCH_DEV SCRATCH_MNT CIFS_MOUNT_OPTIONS
# the options without the login
echo "fstests: cifs TEST_DEV=$TEST_DEV mounted at $TEST_DIR (vers=${KSMBD_VERS:-3.1.1});" \
	"SCRATCH_DEV=$SCRATCH_DEV unmounted, SCRATCH_MNT=$SCRATCH_MNT"
fstests_net_run cifs
