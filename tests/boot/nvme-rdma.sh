#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nvme-rdma.sh: the nvme_rdma profile on Debian's kernel: rdma_rxe on a
# veth, an nvmet zram namespace exported over rdma and connected with
# nvme connect -t rdma; bytes written through /dev/nvmeXnY are found on
# the zram disk; each step a result in junit.xml, ./vm exits 0. Then a
# key of the wrong form (NVME_RDMA_ADDR no IPv4 address): the profile
# stops naming it, a failure in junit.xml, and ./vm exits 1.
. "$(dirname "$0")/lib.sh"

cut_boot nvme_rdma res 0 "vm --batch nvme_rdma"
con() {
	console_says "$T/res.console" "$1"
}
check "rxe on the veth" con "rapido: nvme_rdma: rxe0 on nvr0 (10.99.0.1)"
check "target port enabled over rdma" con "nvmet_rdma: enabling port 1 (10.99.0.1:4420)"
check "host connected over rdma" con 'new ctrl: NQN "nqn.2014-08.org.nvmexpress:rapido-zram", addr 10.99.0.1:4420'
check "namespace found" con "(rdma traddr=10.99.0.1,trsvcid=4420.*live), namespace /dev/nvme.n1"
check "I/O through the namespace" con "4 MiB written to /dev/nvme.n1 and read back"
check "zram disk holds the data" con "/dev/zram. holds what was written through /dev/nvme.n1"
check "configfs as before after teardown" con "nvme_rdma: configfs is as it was before the setup"
check "profile passed" con "rapido: nvme_rdma: PASS"
check "kernel console clean" console_clean "$T/res.console"
testcases "$T/res/junit.xml" > "$T/got" 2> /dev/null
printf '%s pass\n' nvme_rdma/rxe nvme_rdma/io > "$T/want"
check "junit.xml: rxe and io passed" cmp -s "$T/want" "$T/got"

# a failure on purpose: an address of no IPv4 form, refused by name
echo "NVME_RDMA_ADDR=10.99.0.300" > "$RAPIDO_CONF"
cut_boot nvme_rdma res2 1 "an address of no IPv4 form (NVME_RDMA_ADDR=10.99.0.300) is ./vm's exit status"
check "junit.xml: a failure" grep -q '<failure ' "$T/res2/junit.xml"
check "  the guest names the key and the form expected" \
	guest_says "$T/res2.console" "NVME_RDMA_ADDR='10.99.0.300': expected an IPv4 address"
done_testing
