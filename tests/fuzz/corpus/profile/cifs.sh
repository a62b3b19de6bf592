#@ description: mount //CIFS_SERVER/CIFS_SHARE (SMB, kernel cifs) at /mnt/cifs as CIFS_USER, then run the extras
#@ kconfig: CONFIG_VIRTIO_NET CONFIG_CIFS
#@ bins: mount umount cat mkdir sleep timeout
#@ bins-optional: mount.cifs
#@ bins-optional: ls cp mv rm touch stat df dd cmp sync ip ping ps grep sed hostname dmesg
#@ bins-optional: head tail less sha256sum
#@ modules: cifs virtio_net
#@ modules-optional: gcm ccm cmac ecb ctr ghash_generic sha512_generic nls_utf8
#@ conf: CIFS_SERVER CIFS_USER CIFS_PASS
#@ conf-optional: CIFS_SHARE CIFS_MOUNT_OPTS CIFS_WAIT_SECS
#@ cpus: 1
#@ memory: 512M
