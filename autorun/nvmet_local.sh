#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nvmet_local: an NVMe-oF target (nvmet) with one namespace on a zram disk,
# exported on TCP 127.0.0.1:4420 and connected from the same guest with the
# kernel's NVMe/TCP host (no nvme-cli: one write to /dev/nvme-fabrics);
# data is written through /dev/nvmeXnY, read back, and found on the zram
# disk; then the host disconnects, the target is torn down and configfs must
# be as it was. Any failure exits 1 (./vm's exit status).
#
# The configfs layout is autorun/configfs/nvmet-tcp.spec, embedded below
# (the image carries only the profile; tests/boot/nvmet-local.sh checks that
# the two are the same). Applied with rapido-configfs.
#@ description: nvmet: a zram namespace on NVMe/TCP 127.0.0.1:4420, connected from the guest itself; I/O, teardown
#@ bins: cat mkdir rm sleep find sort dd cmp stat blockdev mount
#@ bins-optional: diff dmesg
#@ modules: configfs nvmet nvmet_tcp nvme_fabrics nvme_tcp zram
#@ helpers: configfs zram
#@ kconfig: CONFIG_CONFIGFS_FS CONFIG_NVME_TARGET CONFIG_NVME_TARGET_TCP CONFIG_NVME_FABRICS
#@ kconfig: CONFIG_NVME_TCP CONFIG_ZRAM
#@ cpus: 1
#@ memory: 1G

NVMET_SIZE=32M
NVMET_SPEC=/tmp/nvmet-tcp.spec
NVMET_NQN=nqn.2014-08.org.nvmexpress:rapido-zram
NVMET_ADDR=127.0.0.1
NVMET_PORT=4420
CFS=/sys/kernel/config

cat > "$NVMET_SPEC" <<'SPEC'
# SPDX-License-Identifier: GPL-2.0
# nvmet-tcp.spec: NVMe-oF target: a subsystem with one namespace on a zram
# disk, exported through a TCP port on 127.0.0.1:4420.
#
# Apply:     rapido-configfs nvmet-tcp.spec [-D disk=/dev/zram1 -D nqn=...]
# Tear down: rapido-configfs --teardown nvmet-tcp.spec
# Connect:   nvme connect -t tcp -a 127.0.0.1 -s 4420 -n <nqn>, or without
#            nvme-cli (module nvme_tcp) one write(2) of
#            "transport=tcp,traddr=127.0.0.1,trsvcid=4420,nqn=<nqn>" to
#            /dev/nvme-fabrics; reading it back gives "instance=N,cntlid=M"
# Disconnect before teardown: echo 1 > /sys/class/nvme/nvmeN/delete_controller
#
# Needs: configfs mounted; modules nvmet and nvmet_tcp; ${disk} set up.
# Used and checked on Debian's 6.1 kernel by autorun/nvmet_local.sh.
#
# Layout from drivers/nvme/target/configfs.c. Kernel rules:
#  - attr_allow_any_host before the subsystem is linked into a port;
#  - a namespace's device_path before its enable;
#  - a port's addr_* before any subsystem is linked into it: the first
#    link enables the port (nvmet_tcp listens), and an enabled port refuses
#    addr_* with EACCES ("Disable port '1' before changing attribute");
#  - teardown in reverse: unlink from the port, disable, then rmdir.

set nqn nqn.2014-08.org.nvmexpress:rapido-zram
set disk /dev/zram0
set addr 127.0.0.1
set svcid 4420
set portid 1
set subsys nvmet/subsystems/${nqn}
set port nvmet/ports/${portid}

# nvmet/ appears when nvmet is loaded.
wait nvmet/subsystems
mkdir ${subsys}
write ${subsys}/attr_allow_any_host 1
wait ${subsys}/namespaces
mkdir ${subsys}/namespaces/1
write ${subsys}/namespaces/1/device_path ${disk}
write ${subsys}/namespaces/1/enable 1 undo 0

wait nvmet/ports
mkdir ${port}
write ${port}/addr_trtype tcp
write ${port}/addr_adrfam ipv4
write ${port}/addr_traddr ${addr}
write ${port}/addr_trsvcid ${svcid}
wait ${port}/subsystems
link ${subsys} ${port}/subsystems/${nqn}
SPEC

# nvmet_connect OPTIONS: connect as nvme-cli does, by one write of the
# option string to /dev/nvme-fabrics; prints the controller's name (nvmeN)
nvmet_connect() {
	local reply

	exec 3<> /dev/nvme-fabrics || return 1
	printf '%s' "$1" >&3 || { exec 3>&-; return 1; }
	read -r reply <&3	# instance=N,cntlid=M
	exec 3>&-
	reply=${reply#instance=}
	[ -n "$reply" ] && echo "nvme${reply%%,*}"
}

# nvmet_ns CTRL: the namespace block device of controller CTRL (nvmeNnM;
# with native multipath the one of the controller's subsystem)
nvmet_ns() {
	local d

	for d in "/sys/class/nvme/$1"/nvme*n* "/sys/class/nvme/$1"/device/nvme*n*; do
		[ -e "$d" ] || continue
		d=${d##*/}
		case "$d" in
		nvme*c*n*)	# a multipath path: nvmeScCnN stands for nvmeSnN
			d=${d%%c*}n${d##*n}
			;;
		esac
		[ -e "/sys/block/$d" ] && { echo "/dev/$d"; return 0; }
	done
	return 1
}

cfs_mount
cfs_tree "$CFS/nvmet" > /tmp/nvmet.before
NVMET_ZRAM=$(rapido-zram add -s "$NVMET_SIZE") || cfs_fail "rapido-zram add"
nvmet_defs=(-D "disk=$NVMET_ZRAM" -D "nqn=$NVMET_NQN" -D "addr=$NVMET_ADDR" -D "svcid=$NVMET_PORT")
echo "rapido: nvmet_local: namespace 1 of $NVMET_NQN on $NVMET_ZRAM, tcp $NVMET_ADDR:$NVMET_PORT"
rapido-configfs "${nvmet_defs[@]}" --dry-run "$NVMET_SPEC" > /dev/null ||
	cfs_fail "rapido-configfs --dry-run $NVMET_SPEC (exit $?)"
rapido-configfs "${nvmet_defs[@]}" "$NVMET_SPEC" || cfs_fail "rapido-configfs $NVMET_SPEC (exit $?)"

opts="transport=tcp,traddr=$NVMET_ADDR,trsvcid=$NVMET_PORT,nqn=$NVMET_NQN"
ctrl=$(nvmet_connect "$opts") || cfs_fail "connect: write '$opts' to /dev/nvme-fabrics"
[ "$(cat "/sys/class/nvme/$ctrl/subsysnqn")" = "$NVMET_NQN" ] ||
	cfs_fail "$ctrl: subsysnqn $(cat "/sys/class/nvme/$ctrl/subsysnqn"), not $NVMET_NQN"
ns=
for ((i = 0; i < 300; i++)); do
	ns=$(nvmet_ns "$ctrl") && break
	sleep 0.1
done
[ -n "$ns" ] || cfs_fail "$ctrl: no namespace block device"
echo "rapido: nvmet_local: $ctrl ($(cat "/sys/class/nvme/$ctrl/transport") $(cat "/sys/class/nvme/$ctrl/address"), $(cat "/sys/class/nvme/$ctrl/state")), namespace $ns"
[ "$(blockdev --getsize64 "$ns")" = "$(blockdev --getsize64 "$NVMET_ZRAM")" ] ||
	cfs_fail "$ns is not the size of $NVMET_ZRAM"

cfs_data_file /tmp/nvmet.data 4
cfs_rw_check "$ns" /tmp/nvmet.data "nvmet_local: $ns"
dd if="$NVMET_ZRAM" of=/tmp/nvmet.raw bs=1M count=4 iflag=direct status=none || cfs_fail "read $NVMET_ZRAM"
cmp /tmp/nvmet.raw /tmp/nvmet.data || cfs_fail "$NVMET_ZRAM does not hold what was written through $ns"
echo "rapido: nvmet_local: $NVMET_ZRAM holds what was written through $ns"
rm -f /tmp/nvmet.raw /tmp/nvmet.data

# the host disconnects first, then the target goes
echo 1 > "/sys/class/nvme/$ctrl/delete_controller" || cfs_fail "$ctrl: delete_controller"
cfs_wait_gone "/sys/class/nvme/$ctrl" || cfs_fail "$ctrl still there after delete_controller"
cfs_wait_gone "/sys/block/${ns#/dev/}" || cfs_fail "$ns still there after disconnecting"
rapido-configfs "${nvmet_defs[@]}" --teardown "$NVMET_SPEC" || cfs_fail "teardown (exit $?)"
rapido-configfs "${nvmet_defs[@]}" --teardown "$NVMET_SPEC" || cfs_fail "second teardown (exit $?)"
cfs_same_tree nvmet_local /tmp/nvmet.before "$CFS/nvmet" || cfs_fail "configfs not clean after teardown"
for d in hosts ports subsystems; do
	cfs_empty_dir "$CFS/nvmet/$d" || cfs_fail "nvmet/$d not empty after teardown"
done
rapido-zram remove "$NVMET_ZRAM" || cfs_fail "rapido-zram remove $NVMET_ZRAM"
rm -f "$NVMET_SPEC" /tmp/nvmet.before
echo "rapido: nvmet_local: PASS"
