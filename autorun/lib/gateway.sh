# SPDX-License-Identifier: GPL-2.0
# gateway.sh: shell functions for the Ceph gateway profiles (usb_rbd,
# lio_rbd, tcmu_rbd_loop, samba_cephfs), which export a Ceph image or file
# system through a kernel or user-space server and must leave nothing
# behind: a test pattern with a marker line, the state to compare after
# teardown (configfs, device-mapper, rbd mappings), a timed dd for the
# bench. Sourced into every profile's shell: only function definitions.

GW_CFS=/sys/kernel/config

# gw_pattern FILE MIB: MIB MiB in FILE: the first MiB the line GW_MARKER
# over and over (found by grep in a raw image, or not when encrypted), the
# rest random (misplaced blocks show)
gw_pattern() {
	GW_MARKER="rapido $RAPIDO_PROFILE pattern $RAPIDO_VM-$RANDOM-${EPOCHREALTIME//[!0-9]/}"
	{
		yes "$GW_MARKER" | head -c 1048576
		[ "$2" -le 1 ] || dd if=/dev/urandom bs=1M count=$(($2 - 1)) status=none
	} > "$1" || rapido_fail "$RAPIDO_PROFILE: cannot write the pattern $1"
}

# gw_has_marker DEV: the marker line of gw_pattern is somewhere on DEV
gw_has_marker() {
	grep -a -q -F -- "$GW_MARKER" "$1"
}

# gw_state: what must be as it is now after teardown: rbd mappings,
# device-mapper devices and the configfs trees (gadgets, LIO); to
# GW_BEFORE, compared by gw_clean
gw_state() {
	local d

	for d in /sys/bus/rbd/devices/* /sys/block/dm-*; do
		[ -e "$d" ] && echo "$d"
	done
	for d in "$GW_CFS/usb_gadget" "$GW_CFS/target"; do
		[ -e "$d" ] && find "$d"
	done | sort
}

# gw_begin: note the state gw_clean compares with (call before the setup)
gw_begin() {
	GW_BEFORE=$(gw_state)
}

# gw_clean: true when configfs, device-mapper and the rbd mappings are as
# gw_begin found them; else says what is left
gw_clean() {
	local now

	now=$(gw_state)
	if [ "$now" != "$GW_BEFORE" ]; then
		echo "rapido: $RAPIDO_PROFILE: left behind after teardown:" >&2
		if command -v diff > /dev/null; then
			diff <(echo "$GW_BEFORE") <(echo "$now") | grep '^[<>]' >&2
		else
			echo "$now" >&2
		fi
		return 1
	fi
	echo "rapido: $RAPIDO_PROFILE: configfs, device-mapper and rbd mappings as before the setup"
}

# gw_time VAR DD-ARGS...: run dd with DD-ARGS, VAR = its seconds (a decimal)
gw_time() {
	local var=$1 t0 t1

	shift
	t0=${EPOCHREALTIME//[!0-9]/}
	dd "$@" status=none || return 1
	t1=${EPOCHREALTIME//[!0-9]/}
	printf -v "$var" '%d.%06d' $(((t1 - t0) / 1000000)) $(((t1 - t0) % 1000000))
}

# gw_bench WHAT DEV SEEK-MIB SRC MIB: write SRC (MIB MiB) to DEV at
# SEEK-MIB with O_DIRECT and fsync, read it back with O_DIRECT, compare;
# one line "rapido: bench: WHAT write|read MIB MiB SECS s" each way
gw_bench() {
	local what=$1 dev=$2 seek=$3 src=$4 mib=$5 w r

	gw_time w if="$src" of="$dev" bs=1M seek="$seek" count="$mib" oflag=direct conv=fsync ||
		rapido_fail "bench: write $dev"
	gw_time r if="$dev" of=/tmp/gw-bench.back bs=1M skip="$seek" count="$mib" iflag=direct ||
		rapido_fail "bench: read $dev"
	cmp -s "$src" /tmp/gw-bench.back || rapido_fail "bench: $dev read back other data than written"
	rm -f /tmp/gw-bench.back
	echo "rapido: bench: $what write $mib MiB $w s"
	echo "rapido: bench: $what read $mib MiB $r s"
}

# gw_gone PID: process PID has exited
gw_gone() {
	! kill -0 "$1" 2> /dev/null
}

# gw_stop PID: stop a daemon this profile started (SIGTERM, up to 30 s,
# then SIGKILL) and reap it; false when it needed SIGKILL
gw_stop() {
	local rc=0

	kill "$1" 2> /dev/null
	rapido_wait 30 gw_gone "$1" || { kill -KILL "$1" 2> /dev/null; rc=1; }
	wait "$1" 2> /dev/null
	return $rc
}
