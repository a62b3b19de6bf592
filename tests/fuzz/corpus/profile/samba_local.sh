#@ description: Samba (smbd) sharing a zram ext4/xfs as //ADDR/CIFS_SHARE for CIFS_USER; batch: serves until rapido-done
#@ kconfig: CONFIG_VIRTIO_NET
#@ bins: smbd smbpasswd cat mkdir chmod chown sleep
#@ bins-optional: mkfs.ext4 mkfs.xfs
#@ bins-optional: pdbedit smbstatus testparm smbcontrol
#@ bins-optional: /usr/libexec/samba/samba-dcerpcd /usr/libexec/samba/rpcd_classic
#@ bins-optional: /usr/libexec/samba/rpcd_epmapper /usr/libexec/samba/rpcd_lsad
#@ bins-optional: /usr/libexec/samba/rpcd_winreg
#@ bins-optional: ls cp mv rm touch stat df mount umount ip ping ps grep sed hostname dmesg
#@ bins-optional: head tail less
#@ modules: zram virtio_net
#@ modules-optional: ext4 xfs
#@ helpers: zram
#@ kconfig: CONFIG_ZRAM
#@ conf: CIFS_USER CIFS_PASS
#@ conf-optional: CIFS_SHARE SAMBA_FS SAMBA_ZRAM_SIZE SAMBA_SERVE_SECS SAMBA_LOG_LEVEL
#@ cpus: 1
#@ memory: 1G
