# SPDX-License-Identifier: GPL-2.0
# nvmet.sh: shell functions for profiles with an nvmet target in the guest
# connected by the guest's own NVMe-oF host (nvmet_local over TCP,
# nvme_rdma over soft-RoCE). Sourced into every profile's shell: only
# function definitions here, nothing runs.

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

# nvmet_check TAG TRTYPE ADDR: a zram namespace exported by nvmet over
# TRTYPE (tcp, rdma) on ADDR:4420 (autorun/configfs/nvmet-tcp.spec, the
# image's), connected with nvme connect -t TRTYPE; bytes written through
# the namespace found on the zram disk; disconnect and teardown, configfs
# as before. Messages say TAG; any failure is rapido_fail.
nvmet_check() {
	local NVMET_TAG=$1 NVMET_TRTYPE=$2 NVMET_ADDR=$3
	local NVMET_SIZE=32M NVMET_SPEC=/usr/share/rapido/configfs/nvmet-tcp.spec
	local NVMET_NQN=nqn.2014-08.org.nvmexpress:rapido-zram NVMET_PORT=4420
	local CFS=/sys/kernel/config NVMET_ZRAM nvmet_defs out ctrl ns d

	rapido_on_fail rapido_kernel_tail
	cfs_mount
	cfs_tree "$CFS/nvmet" > /tmp/nvmet.before
	NVMET_ZRAM=$(rapido-zram add -s "$NVMET_SIZE") || rapido_fail "rapido-zram add"
	nvmet_defs=(-D "disk=$NVMET_ZRAM" -D "nqn=$NVMET_NQN" -D "addr=$NVMET_ADDR" -D "svcid=$NVMET_PORT" -D "trtype=$NVMET_TRTYPE")
	echo "rapido: $NVMET_TAG: namespace 1 of $NVMET_NQN on $NVMET_ZRAM, $NVMET_TRTYPE $NVMET_ADDR:$NVMET_PORT"
	rapido-configfs "${nvmet_defs[@]}" --dry-run "$NVMET_SPEC" > /dev/null ||
		rapido_fail "rapido-configfs --dry-run $NVMET_SPEC (exit $?)"
	rapido-configfs "${nvmet_defs[@]}" "$NVMET_SPEC" || rapido_fail "rapido-configfs $NVMET_SPEC (exit $?)"

	# nvme-cli takes this host's NQN from /etc/nvme/hostnqn, which the
	# nvme-cli package makes at install time; the image has no /etc/nvme
	mkdir -p /etc/nvme && nvme gen-hostnqn > /etc/nvme/hostnqn ||
		rapido_fail "nvme gen-hostnqn > /etc/nvme/hostnqn"
	out=$(nvme connect -t "$NVMET_TRTYPE" -a "$NVMET_ADDR" -s "$NVMET_PORT" -n "$NVMET_NQN" -o json) ||
		rapido_fail "nvme connect -t $NVMET_TRTYPE -a $NVMET_ADDR -s $NVMET_PORT -n $NVMET_NQN (exit $?)"
	[[ $out =~ \"device\"[[:space:]]*:[[:space:]]*\"(nvme[0-9]+)\" ]] ||
		rapido_fail "nvme connect: no controller in its output: $out"
	ctrl=${BASH_REMATCH[1]}
	[ "$(cat "/sys/class/nvme/$ctrl/subsysnqn")" = "$NVMET_NQN" ] ||
		rapido_fail "$ctrl: subsysnqn $(cat "/sys/class/nvme/$ctrl/subsysnqn"), not $NVMET_NQN"
	rapido_wait 30 nvmet_ns "$ctrl" ns || rapido_fail "$ctrl: no namespace block device"
	echo "rapido: $NVMET_TAG: $ctrl ($(cat "/sys/class/nvme/$ctrl/transport") $(cat "/sys/class/nvme/$ctrl/address"), $(cat "/sys/class/nvme/$ctrl/state")), namespace $ns"
	nvme list > /tmp/nvmet.list || rapido_fail "nvme list (exit $?)"
	cat /tmp/nvmet.list
	[[ $(< /tmp/nvmet.list) == *"$ns "* ]] || rapido_fail "nvme list does not show $ns"
	echo "rapido: $NVMET_TAG: nvme list shows $ns"
	cfs_backed_check "$ns" "$NVMET_ZRAM" "$NVMET_TAG"

	# the host disconnects first, then the target goes
	nvme disconnect -n "$NVMET_NQN" || rapido_fail "nvme disconnect -n $NVMET_NQN (exit $?)"
	rapido_wait 30 test ! -e "/sys/class/nvme/$ctrl" || rapido_fail "$ctrl still there after nvme disconnect"
	rapido_wait 30 test ! -e "/sys/block/${ns#/dev/}" || rapido_fail "$ns still there after disconnecting"
	rapido-configfs "${nvmet_defs[@]}" --teardown "$NVMET_SPEC" || rapido_fail "teardown (exit $?)"
	rapido-configfs "${nvmet_defs[@]}" --teardown "$NVMET_SPEC" || rapido_fail "second teardown (exit $?)"
	cfs_same_tree "$NVMET_TAG" /tmp/nvmet.before "$CFS/nvmet" || rapido_fail "configfs not clean after teardown"
	for d in hosts ports subsystems; do
		cfs_empty_dir "$CFS/nvmet/$d" || rapido_fail "nvmet/$d not empty after teardown"
	done
	rapido-zram remove "$NVMET_ZRAM" || rapido_fail "rapido-zram remove $NVMET_ZRAM"
	rm -f /tmp/nvmet.before /tmp/nvmet.list
}
