#@ description: nvmet: a zram namespace on NVMe/TCP 127.0.0.1:4420, connected from the guest itself; I/O, teardown
#@ bins: cat mkdir rm sleep find sort dd cmp stat blockdev mount
#@ bins-optional: diff dmesg
#@ modules: configfs nvmet nvmet_tcp nvme_fabrics nvme_tcp zram
#@ helpers: configfs zram
#@ kconfig: CONFIG_CONFIGFS_FS CONFIG_NVME_TARGET CONFIG_NVME_TARGET_TCP CONFIG_NVME_FABRICS
#@ kconfig: CONFIG_NVME_TCP CONFIG_ZRAM
#@ cpus: 1
#@ memory: 1G
