#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nvmet-local.sh: the nvmet_local profile on Debian's kernel: an nvmet
# subsystem on zram exported over NVMe/TCP on 127.0.0.1:4420, connected by
# the guest's own NVMe/TCP host through nvme-cli (nvme connect, nvme list,
# nvme disconnect); data written through /dev/nvmeXnY is read back and
# found on the zram disk; disconnect, teardown through rapido-configfs,
# configfs as before; ./vm exits 0.
. "$(dirname "$0")/lib.sh"

"$CUT" nvmet_local > "$T/cut.out" 2>&1
expect_rc "cut nvmet_local" 0 $? || cat "$T/cut.out"
"$VM" --batch --timeout 600 > "$T/console" 2>&1
rc=$?
expect_rc "vm --batch nvmet_local" 0 $rc
con() {
	console_says "$T/console" "$1"
}
check "target port enabled" con "nvmet_tcp: enabling port 1 (127.0.0.1:4420)"
check "host connected over TCP" con 'new ctrl: NQN "nqn.2014-08.org.nvmexpress:rapido-zram", addr 127.0.0.1:4420'
check "namespace found" con "(tcp traddr=127.0.0.1,trsvcid=4420.*live), namespace /dev/nvme.n1"
check "nvme list shows it" con "nvme list shows /dev/nvme.n1"
check "I/O through the namespace" con "4 MiB written to /dev/nvme.n1 and read back"
check "zram disk holds the data" con "/dev/zram. holds what was written through /dev/nvme.n1"
check "host disconnected" con 'Removing ctrl: NQN "nqn.2014-08.org.nvmexpress:rapido-zram"'
check "configfs as before after teardown" con "nvmet_local: configfs is as it was before the setup"
check "profile passed" con "rapido: nvmet_local: PASS"
check "kernel console clean" console_clean "$T/console"
[ $rc = 0 ] || tr -d '\r' < "$T/console" | grep -v '^\[' | tail -n 40 | sed 's/^/# /'
done_testing
