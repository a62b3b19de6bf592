#@ description: the host's userspace, read-only over virtiofs with a tmpfs overlay, runs HOSTFS_CMD or rapido run's CMD
#@ results: yes
#@ virtiofs: /:host:ro
#@ modules: overlay
#@ kconfig: CONFIG_VIRTIO_FS=m CONFIG_OVERLAY_FS=m
#@ conf-optional: HOSTFS_CMD
#@ bins: mount umount mkdir chroot
#@ cpus: 2
#@ memory: 1G
