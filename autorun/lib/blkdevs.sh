# SPDX-License-Identifier: GPL-2.0
# blkdevs.sh: test block devices of every kind blktests and xfstests take
# (blktests' TEST_DEVS, fstests_local's zoned disks):
#   blkdev_make KIND SIZE ZONE   make one KIND device, its /dev path in REPLY
#   blkdev_zoned_ok DEV          DEV reports zones (queue/zoned not none)
# KIND: zram, null_blk, null_blk_zoned, scsi_debug, scsi_debug_zoned, brd,
# loop. SIZE and ZONE are whole megabytes (ZONE: zone size of the zoned
# kinds). Sourced into every image before the profile: only definitions.

# null_blk devices are named by their configfs directory (Linux >= 5.18
# gives the disk the item's name): blktests' own nullb0/nullb1 stay free
_blkdev_nullb_n=0
# the kind scsi_debug was loaded for (its parameters are per module)
_blkdev_scsi_kind=

# blkdev_make KIND SIZE ZONE: see the header. A zoned null_blk keeps its
# data (memory_backed) with its first zone conventional, as a host-managed
# SMR disk has; scsi_debug takes its whole size of guest memory at once
# and can be loaded with one configuration only (a second scsi_debug
# device must be the same kind).
blkdev_make() {
	local kind=$1 size=$2 zone=$3 d name
	REPLY=
	case $kind in
	zram)
		REPLY=$(rapido-zram add -s "${size}M") || return 1
		;;
	null_blk|null_blk_zoned)
		[ -d /sys/module/null_blk ] || modprobe null_blk nr_devices=0 || return 1
		_blkdev_configfs || return 1
		name=rnullb$_blkdev_nullb_n
		[ "$kind" = null_blk ] || name=rznullb$_blkdev_nullb_n
		_blkdev_nullb_n=$((_blkdev_nullb_n + 1))
		d=/sys/kernel/config/nullb/$name
		mkdir "$d" || return 1
		_blkdev_set "$d" size "$size" && _blkdev_set "$d" memory_backed 1 &&
			_blkdev_set "$d" blocksize 4096 || return 1
		if [ "$kind" = null_blk_zoned ]; then
			_blkdev_set "$d" zoned 1 && _blkdev_set "$d" zone_size "$zone" &&
				_blkdev_set "$d" zone_nr_conv 1 || return 1
		fi
		_blkdev_set "$d" power 1 || return 1
		rapido_wait 10 test -b "/dev/$name" || return 1
		REPLY=/dev/$name
		;;
	scsi_debug|scsi_debug_zoned)
		local args=(dev_size_mb="$size" sector_size=4096 add_host=0 per_host_store=1)
		[ "$kind" = scsi_debug ] ||
			args+=(zbc=host-managed zone_size_mb="$zone" zone_nr_conv=1)
		# a test that unloaded it (blktests' _exit_scsi_debug) took its disks
		[ -d /sys/module/scsi_debug ] || _blkdev_scsi_kind=
		if [ -z "$_blkdev_scsi_kind" ]; then
			modprobe scsi_debug "${args[@]}" || return 1
			_blkdev_scsi_kind=$kind
		elif [ "$_blkdev_scsi_kind" != "$kind" ]; then
			echo "blkdevs: scsi_debug is loaded for $_blkdev_scsi_kind: $kind needs" \
				"another module load (one configuration per load)" >&2
			return 1
		fi
		modprobe sd_mod || return 1
		# one more host, one disk: the new one is the disk not seen before
		_blkdev_scsi_disks
		local before=" $REPLY "
		echo 1 > /sys/bus/pseudo/drivers/scsi_debug/add_host || return 1
		rapido_wait 30 _blkdev_scsi_new "$before" || return 1
		;;
	brd)
		# brd makes all its disks at load time: one each, as /dev/ramN
		[ ! -d /sys/module/brd ] || {
			echo "blkdevs: brd makes its disks at load time: one brd device only" >&2
			return 1
		}
		modprobe brd rd_nr=1 rd_size=$((size * 1024)) || return 1
		rapido_wait 10 test -b /dev/ram0 || return 1
		REPLY=/dev/ram0
		;;
	loop)
		modprobe loop 2> /dev/null
		d=/tmp/blkdev-loop.$_blkdev_nullb_n.img
		_blkdev_nullb_n=$((_blkdev_nullb_n + 1))
		truncate -s "${size}M" "$d" || return 1
		REPLY=$(losetup -f --show "$d") || return 1
		;;
	*)
		echo "blkdevs: unknown kind $kind" >&2
		return 1
		;;
	esac
}

# blkdev_zoned_ok DEV: DEV is a zoned block device
blkdev_zoned_ok() {
	local z
	z=$(< "/sys/block/${1##*/}/queue/zoned") || return 1
	[ "$z" != none ]
}

_blkdev_configfs() {
	rapido_mounted /sys/kernel/config configfs ||
		mount -t configfs configfs /sys/kernel/config || return 1
	[ -d /sys/kernel/config/nullb ]
}

# _blkdev_set DIR ATTR VALUE: one configfs write, saying which one failed
_blkdev_set() {
	echo "$3" > "$1/$2" || {
		echo "blkdevs: cannot write $3 to $1/$2" >&2
		return 1
	}
}

# _blkdev_scsi_disks: scsi_debug's disks (/dev/sdX) in REPLY
_blkdev_scsi_disks() {
	local h b devs=()
	for h in /sys/class/scsi_host/host*; do
		[ -e "$h/proc_name" ] && [ "$(< "$h/proc_name")" = scsi_debug ] || continue
		for b in "/sys/bus/scsi/devices/${h##*/host}":*/block/*; do
			[ -e "$b" ] && [ -b "/dev/${b##*/}" ] && devs+=("/dev/${b##*/}")
		done
	done
	REPLY=${devs[*]}
}

# _blkdev_scsi_new " BEFORE ": a scsi_debug disk not in BEFORE, in REPLY
_blkdev_scsi_new() {
	local d
	_blkdev_scsi_disks
	for d in $REPLY; do
		[[ $1 == *" $d "* ]] && continue
		REPLY=$d
		return 0
	done
	return 1
}
