#@ description: LIO target: fileio, zram and dm-delay LUNs over tcm_loop and iSCSI (127.0.0.1:3260); I/O, ext4, teardown
#@ bins: cat cp mkdir rm sleep find sort dd cmp stat od timeout mount umount mkfs.ext4 e2fsck dmsetup blockdev
#@ bins-optional: diff dmesg lsscsi
#@ modules: configfs target_core_mod target_core_file target_core_iblock tcm_loop
#@ modules: iscsi_target_mod dm_mod dm_delay zram sd_mod ext4
#@ helpers: configfs zram
#@ kconfig: CONFIG_CONFIGFS_FS CONFIG_TARGET_CORE CONFIG_TCM_FILEIO CONFIG_TCM_IBLOCK
#@ kconfig: CONFIG_LOOPBACK_TARGET CONFIG_ISCSI_TARGET CONFIG_BLK_DEV_DM CONFIG_DM_DELAY
#@ kconfig: CONFIG_ZRAM CONFIG_BLK_DEV_SD CONFIG_EXT4_FS
#@ cpus: 1
#@ memory: 1G
