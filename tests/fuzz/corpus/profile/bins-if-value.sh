#!/bin/bash
#@ description: bins-if KEY=VALUE
#@ conf-optional: FSTESTS_FS
#@ conf-type: FSTESTS_FS enum btrfs,f2fs
#@ bins-if FSTESTS_FS=f2fs: mkfs.f2fs fsck.f2fs
#@ bins-optional-if FSTESTS_FS=f2fs: dump.f2fs
#@ bins-if FSTESTS_SRC: fio
#@ modules-on-demand: ${FSTESTS_FS}
