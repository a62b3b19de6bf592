#@ description: print the kernel release, run the -x/-f extras, then a shell or power-off
#@ bins: ls mkdir
#@ bins-optional: grep sed
#@ shell-bins: uname cat rm sleep dmesg
#@ kconfig: CONFIG_BLK_DEV_INITRD=y CONFIG_BINFMT_ELF=y CONFIG_DEVTMPFS=y CONFIG_SERIAL_8250_CONSOLE=y
#@ cpus: 1
#@ memory: 512M
