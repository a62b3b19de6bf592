#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nvme_rdma: NVMe over RDMA in one guest, on soft-RoCE: rdma_rxe on one
# end of a veth pair, an nvmet zram namespace exported over rdma on its
# address, connected with nvme-cli (nvme connect -t rdma); bytes written
# through the namespace are found on the zram disk; disconnect, teardown.
# Results: nvme_rdma/rxe (the RDMA link) and nvme_rdma/io; a failure
# exits 1 (./vm's exit status).
#
# Keys:
#   NVME_RDMA_ADDR  the IPv4 address of the rxe's netdev, the target's
#                   (default 10.99.0.1; the guest's own, never routed out);
#                   another form stops the run naming it
#@ description: NVMe over RDMA: nvmet over soft-RoCE (rdma_rxe on a veth), a zram namespace connected with nvme connect -t rdma; I/O checked by bytes, teardown
#@ include: configfs zram
#@ files: autorun/configfs/nvmet-tcp.spec:/usr/share/rapido/configfs/nvmet-tcp.spec
#@ bins: nvme blockdev mount ip rdma
# rxe's ICRC needs the crc32 shash, which nothing else loads
#@ modules: crc32_generic rdma_rxe rdma_cm veth nvmet nvmet_rdma nvme_fabrics nvme_rdma
#@ kconfig: CONFIG_RDMA_RXE=m CONFIG_INFINIBAND=m CONFIG_VETH=m
#@ kconfig: CONFIG_NVME_TARGET=m CONFIG_NVME_TARGET_RDMA=m CONFIG_NVME_FABRICS=m CONFIG_NVME_RDMA=m
#@ conf-optional: NVME_RDMA_ADDR
#@ cpus: 1
#@ memory: 1G

rapido_conf_form NVME_RDMA_ADDR ipv4
NVME_RDMA_ADDR=${NVME_RDMA_ADDR:-10.99.0.1}

# nvme_rdma_rxe: a veth pair, rxe0 on its first end with NVME_RDMA_ADDR
nvme_rdma_rxe() {
	ip link add nvr0 type veth peer name nvr1 || rapido_fail "ip link add nvr0 type veth"
	ip addr add "$NVME_RDMA_ADDR/24" dev nvr0 || rapido_fail "ip addr add $NVME_RDMA_ADDR/24 dev nvr0"
	ip link set nvr0 up && ip link set nvr1 up || rapido_fail "ip link set nvr0/nvr1 up"
	rdma link add rxe0 type rxe netdev nvr0 || rapido_fail "rdma link add rxe0 type rxe netdev nvr0 (exit $?)"
	rapido_wait 30 test -e /sys/class/infiniband/rxe0 || rapido_fail "no rxe0 in /sys/class/infiniband"
	rdma link show rxe0/1 || rapido_fail "rdma link show rxe0/1"
	echo "rapido: nvme_rdma: rxe0 on nvr0 ($NVME_RDMA_ADDR)"
}

rapido_on_fail rapido_kernel_tail
rapido_test nvme_rdma/rxe nvme_rdma_rxe || rapido_fail "nvme_rdma: no soft-RoCE link"
rapido_test nvme_rdma/io nvmet_check nvme_rdma rdma "$NVME_RDMA_ADDR" || rapido_fail "nvme_rdma: the I/O check failed"
rdma link delete rxe0 || rapido_fail "rdma link delete rxe0"
ip link delete nvr0 || rapido_fail "ip link delete nvr0"
rapido_tests_done || rapido_fail "nvme_rdma: a test failed"
echo "rapido: nvme_rdma: PASS"
