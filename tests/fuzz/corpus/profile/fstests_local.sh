#@ description: xfstests on zram: FSTESTS_FS on /mnt/test, a bare scratch disk, FSTESTS_SRC at /fstests
#@ helpers: zram
#@ modules: zram
#@ modules-optional: btrfs xfs ext4 crc32c_generic
#@ kconfig: CONFIG_ZRAM
#@ conf-optional: FSTESTS_FS FSTESTS_ZRAM_SIZE FSTESTS_SRC FSTESTS_AUTORUN_CMD
#@ files: ${FSTESTS_SRC}:/fstests
#@ cpus: 2
#@ memory: 2G
#@ bins: cat grep mkdir chown uname mount umount
#@ bins-optional: findmnt blkid blockdev df ls cp mv rm sync dd stat head tail cut tr sha256sum
#@ bins-optional: mkfs.btrfs btrfs mkfs.xfs xfs_repair xfs_db mkfs.ext4 mke2fs e2fsck tune2fs
#@ bins-if FSTESTS_SRC: awk sed bc wc xfs_io perl diff fio
#@ bins-optional-if FSTESTS_SRC: btrfstune btrfs-image btrfs-convert btrfs-select-super
#@ bins-optional-if FSTESTS_SRC: xfs_admin xfs_growfs xfs_quota xfs_freeze xfs_logprint xfs_metadump
#@ bins-optional-if FSTESTS_SRC: xfs_mdrestore xfs_copy xfs_info xfs_spaceman xfs_estimate xfs_fsr
#@ bins-optional-if FSTESTS_SRC: xfs_mkfile fsck.ext4 dumpe2fs debugfs resize2fs e2image e4defrag
#@ bins-optional-if FSTESTS_SRC: filefrag chattr lsattr fsck mkfs mkswap swapon swapoff wipefs
#@ bins-optional-if FSTESTS_SRC: losetup lsblk dmsetup fstrim blkdiscard fallocate mountpoint flock
#@ bins-optional-if FSTESTS_SRC: getopt setsid su runuser nsenter unshare dmesg logger
#@ bins-optional-if FSTESTS_SRC: gawk mawk dc cmp find xargs getfattr setfattr getfacl setfacl chacl
#@ bins-optional-if FSTESTS_SRC: ps pgrep pkill free sysctl killall fuser
#@ bins-optional-if FSTESTS_SRC: ln touch chmod chgrp du truncate
#@ bins-optional-if FSTESTS_SRC: wc sort uniq tee seq sleep date basename dirname readlink
#@ bins-optional-if FSTESTS_SRC: realpath mktemp env expr od md5sum cksum sum id nproc yes
#@ bins-optional-if FSTESTS_SRC: tac comm split timeout nice mknod mkfifo true false hostname whoami
#@ bins-optional-if FSTESTS_SRC: stdbuf base64 shuf rmdir printf getconf getent tar gzip xz
#@ bins-optional-if FSTESTS_SRC: quota quotacheck quotaon quotaoff setquota repquota
