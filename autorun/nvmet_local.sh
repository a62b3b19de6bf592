#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nvmet_local: an NVMe-oF target (nvmet) with one namespace on a zram disk,
# exported on TCP 127.0.0.1:4420 and connected from the same guest as users
# do, with nvme-cli (nvme connect -t tcp, nvme list; the kernel's nvme_tcp);
# data is written through /dev/nvmeXnY, read back, and found on the zram
# disk; then the host disconnects (nvme disconnect), the target is torn
# down and configfs must be as it was. Any failure exits 1 (./vm's exit
# status).
#
# The configfs layout is autorun/configfs/nvmet-tcp.spec, which the image
# carries (#@ files); applied with rapido-configfs.
#@ description: nvmet: a zram namespace on NVMe/TCP 127.0.0.1:4420, connected with nvme-cli from the guest itself; I/O, teardown
#@ include: configfs zram
#@ files: autorun/configfs/nvmet-tcp.spec:/usr/share/rapido/configfs/nvmet-tcp.spec
#@ bins: nvme blockdev mount
#@ modules: nvmet nvmet_tcp nvme_fabrics nvme_tcp
#@ kconfig: CONFIG_NVME_TARGET=m CONFIG_NVME_TARGET_TCP=m CONFIG_NVME_FABRICS=m CONFIG_NVME_TCP=m
#@ cpus: 1
#@ memory: 1G

nvmet_check nvmet_local tcp 127.0.0.1
echo "rapido: nvmet_local: PASS"
