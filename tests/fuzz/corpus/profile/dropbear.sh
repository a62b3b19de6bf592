#@ description: SSH server (dropbear): root login with SSH_AUTHORIZED_KEY; batch: serves until /tmp/rapido-done
#@ kconfig: CONFIG_VIRTIO_NET
#@ bins: dropbear dropbearkey cat mkdir chmod sleep
#@ bins-optional: scp /usr/lib/sftp-server /usr/lib/openssh/sftp-server
#@ bins-optional: ls cp mv rm ln touch ip ping ps grep sed hostname uname dmesg id tty env
#@ bins-optional: df mount umount less head tail
#@ modules: virtio_net
#@ conf: SSH_AUTHORIZED_KEY
#@ conf-optional: DROPBEAR_SERVE_SECS
#@ cpus: 1
#@ memory: 512M
