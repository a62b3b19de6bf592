#@ description: network up (bridge, user-mode or VM-to-VM link) with ip and ping; runs the extras
#@ kconfig: CONFIG_VIRTIO_NET
#@ bins: ip ping cat sleep grep
#@ bins-optional: ss nc
#@ modules: virtio_net
#@ cpus: 1
#@ memory: 512M
