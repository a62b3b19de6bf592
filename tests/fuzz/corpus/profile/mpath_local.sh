#@ description: dm-multipath (multipathd, no udev) over ./vm --mpath disks, ext4 mounted, DIR/ready for the host
#@ bins: multipathd multipath dmsetup mkfs.ext4 mount cat cmp dd head ln mkdir mv rm sync tail
#@ bins-optional: dmesg umount ls grep sleep
#@ files: /lib/multipath:/lib/multipath
#@ modules: virtio_pci virtio_scsi sd_mod dm_mod dm_multipath dm_service_time ext4
#@ modules-optional: dm_round_robin dm_queue_length crc32c_generic crc32c_intel
#@ kconfig: CONFIG_DM_MULTIPATH CONFIG_DM_MULTIPATH_ST CONFIG_SCSI_VIRTIO CONFIG_BLK_DEV_SD CONFIG_EXT4_FS
#@ cpus: 1
#@ memory: 512M
