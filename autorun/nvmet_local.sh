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

NVMET_SIZE=32M
NVMET_SPEC=/usr/share/rapido/configfs/nvmet-tcp.spec
NVMET_NQN=nqn.2014-08.org.nvmexpress:rapido-zram
NVMET_ADDR=127.0.0.1
NVMET_PORT=4420
CFS=/sys/kernel/config

# nvmet_ns CTRL VAR: set VAR to the namespace block device of controller
# CTRL (nvmeNnM; with native multipath the one of the controller's subsystem)
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
		[ -e "/sys/block/$d" ] && { printf -v "$2" '/dev/%s' "$d"; return 0; }
	done
	return 1
}

rapido_on_fail rapido_kernel_tail
cfs_mount
cfs_tree "$CFS/nvmet" > /tmp/nvmet.before
NVMET_ZRAM=$(rapido-zram add -s "$NVMET_SIZE") || rapido_fail "rapido-zram add"
nvmet_defs=(-D "disk=$NVMET_ZRAM" -D "nqn=$NVMET_NQN" -D "addr=$NVMET_ADDR" -D "svcid=$NVMET_PORT")
echo "rapido: nvmet_local: namespace 1 of $NVMET_NQN on $NVMET_ZRAM, tcp $NVMET_ADDR:$NVMET_PORT"
rapido-configfs "${nvmet_defs[@]}" --dry-run "$NVMET_SPEC" > /dev/null ||
	rapido_fail "rapido-configfs --dry-run $NVMET_SPEC (exit $?)"
rapido-configfs "${nvmet_defs[@]}" "$NVMET_SPEC" || rapido_fail "rapido-configfs $NVMET_SPEC (exit $?)"

# nvme-cli takes this host's NQN from /etc/nvme/hostnqn, which the
# nvme-cli package makes at install time; the image has no /etc/nvme
mkdir -p /etc/nvme && nvme gen-hostnqn > /etc/nvme/hostnqn ||
	rapido_fail "nvme gen-hostnqn > /etc/nvme/hostnqn"
out=$(nvme connect -t tcp -a "$NVMET_ADDR" -s "$NVMET_PORT" -n "$NVMET_NQN" -o json) ||
	rapido_fail "nvme connect -t tcp -a $NVMET_ADDR -s $NVMET_PORT -n $NVMET_NQN (exit $?)"
[[ $out =~ \"device\"[[:space:]]*:[[:space:]]*\"(nvme[0-9]+)\" ]] ||
	rapido_fail "nvme connect: no controller in its output: $out"
ctrl=${BASH_REMATCH[1]}
[ "$(cat "/sys/class/nvme/$ctrl/subsysnqn")" = "$NVMET_NQN" ] ||
	rapido_fail "$ctrl: subsysnqn $(cat "/sys/class/nvme/$ctrl/subsysnqn"), not $NVMET_NQN"
rapido_wait 30 nvmet_ns "$ctrl" ns || rapido_fail "$ctrl: no namespace block device"
echo "rapido: nvmet_local: $ctrl ($(cat "/sys/class/nvme/$ctrl/transport") $(cat "/sys/class/nvme/$ctrl/address"), $(cat "/sys/class/nvme/$ctrl/state")), namespace $ns"
nvme list > /tmp/nvmet.list || rapido_fail "nvme list (exit $?)"
cat /tmp/nvmet.list
[[ $(< /tmp/nvmet.list) == *"$ns "* ]] || rapido_fail "nvme list does not show $ns"
echo "rapido: nvmet_local: nvme list shows $ns"
[ "$(blockdev --getsize64 "$ns")" = "$(blockdev --getsize64 "$NVMET_ZRAM")" ] ||
	rapido_fail "$ns is not the size of $NVMET_ZRAM"

cfs_data_file /tmp/nvmet.data 4
cfs_rw_check "$ns" /tmp/nvmet.data "nvmet_local: $ns"
dd if="$NVMET_ZRAM" of=/tmp/nvmet.raw bs=1M count=4 iflag=direct status=none || rapido_fail "read $NVMET_ZRAM"
cmp /tmp/nvmet.raw /tmp/nvmet.data || rapido_fail "$NVMET_ZRAM does not hold what was written through $ns"
echo "rapido: nvmet_local: $NVMET_ZRAM holds what was written through $ns"
rm -f /tmp/nvmet.raw /tmp/nvmet.data

# the host disconnects first, then the target goes
nvme disconnect -n "$NVMET_NQN" || rapido_fail "nvme disconnect -n $NVMET_NQN (exit $?)"
rapido_wait 30 test ! -e "/sys/class/nvme/$ctrl" || rapido_fail "$ctrl still there after nvme disconnect"
rapido_wait 30 test ! -e "/sys/block/${ns#/dev/}" || rapido_fail "$ns still there after disconnecting"
rapido-configfs "${nvmet_defs[@]}" --teardown "$NVMET_SPEC" || rapido_fail "teardown (exit $?)"
rapido-configfs "${nvmet_defs[@]}" --teardown "$NVMET_SPEC" || rapido_fail "second teardown (exit $?)"
cfs_same_tree nvmet_local /tmp/nvmet.before "$CFS/nvmet" || rapido_fail "configfs not clean after teardown"
for d in hosts ports subsystems; do
	cfs_empty_dir "$CFS/nvmet/$d" || rapido_fail "nvmet/$d not empty after teardown"
done
rapido-zram remove "$NVMET_ZRAM" || rapido_fail "rapido-zram remove $NVMET_ZRAM"
rm -f /tmp/nvmet.before /tmp/nvmet.list
echo "rapido: nvmet_local: PASS"
