# SPDX-License-Identifier: GPL-2.0
# configfs.sh: shell functions for profiles that set up configfs trees
# (LIO, USB gadgets, nvmet) with rapido-configfs (autorun/include/configfs.inc
# says what they need). Sourced into every profile's shell: only function
# definitions here, nothing runs.

# cfs_mount: mount configfs at /sys/kernel/config unless it is mounted. The
# init mounts it only when it was there at boot, which it is not when
# configfs is a module (Debian) loaded with the profile's modules.
cfs_mount() {
	! rapido_mounted /sys/kernel/config configfs || return 0
	[ -d /sys/kernel/config ] ||
		rapido_fail "/sys/kernel/config missing: configfs is not in this kernel (modprobe configfs)"
	mount -t configfs configfs /sys/kernel/config ||
		rapido_fail "mount -t configfs configfs /sys/kernel/config"
}

# cfs_tree DIR...: a sorted listing of everything under the DIRs (missing ones
# count as empty), to compare a configfs tree before and after
cfs_tree() {
	local d

	for d in "$@"; do
		[ -e "$d" ] && find "$d"
	done | sort
}

# cfs_same_tree WHAT BEFORE-FILE DIR...: fail unless the tree under the DIRs
# is the one listed in BEFORE-FILE
cfs_same_tree() {
	local what=$1 before=$2 after

	shift 2
	after=$(cfs_tree "$@")
	if [ "$after" != "$(cat "$before")" ]; then
		echo "rapido: $what: configfs differs from before the setup:" >&2
		if command -v diff > /dev/null; then
			diff "$before" <(echo "$after") >&2
		else
			echo "$after" >&2
		fi
		return 1
	fi
	echo "rapido: $what: configfs is as it was before the setup"
}

# cfs_empty_dir DIR: fail unless DIR holds nothing at all
cfs_empty_dir() {
	local left

	[ -d "$1" ] || return 0
	left=$(find "$1" -mindepth 1 -maxdepth 1)
	[ -z "$left" ] && return 0
	echo "rapido: left behind in $1:" $left >&2
	return 1
}

# cfs_data_file FILE SIZE-MIB: SIZE-MIB MiB of random data in FILE (no two
# files, nor two blocks, alike, so misplaced blocks show up)
cfs_data_file() {
	dd if=/dev/urandom of="$1" bs=1M count="$2" status=none ||
		rapido_fail "dd if=/dev/urandom of=$1"
}

# cfs_rw_check DEV FILE WHAT: write FILE to the start of DEV with O_DIRECT,
# read it back with O_DIRECT and compare
cfs_rw_check() {
	local dev=$1 f=$2 what=$3 size

	size=$(stat -c %s "$f")
	dd if="$f" of="$dev" bs=64K oflag=direct conv=fsync status=none ||
		rapido_fail "$what: write $f to $dev"
	dd if="$dev" of="$f.back" bs=64K iflag=direct count=$((size / 65536)) status=none ||
		rapido_fail "$what: read back $dev"
	cmp "$f" "$f.back" || rapido_fail "$what: $dev gave back other data than written"
	rm -f "$f.back"
	echo "rapido: $what: $((size >> 20)) MiB written to $dev and read back"
}

# cfs_backed_check DEV BACKING WHAT: DEV the size of BACKING; 4 MiB
# written through DEV and read back, then found on BACKING (the target's
# own disk): the bytes went through the transport to where they belong
cfs_backed_check() {
	local dev=$1 back=$2 what=$3

	[ "$(blockdev --getsize64 "$dev")" = "$(blockdev --getsize64 "$back")" ] ||
		rapido_fail "$what: $dev is not the size of $back"
	cfs_data_file /tmp/cfs-backed.data 4
	cfs_rw_check "$dev" /tmp/cfs-backed.data "$what: $dev"
	dd if="$back" of=/tmp/cfs-backed.raw bs=1M count=4 iflag=direct status=none || rapido_fail "read $back"
	cmp /tmp/cfs-backed.raw /tmp/cfs-backed.data || rapido_fail "$back does not hold what was written through $dev"
	echo "rapido: $what: $back holds what was written through $dev"
	rm -f /tmp/cfs-backed.raw /tmp/cfs-backed.data
}

# cfs_usb_disk [HCD]: find the SCSI disk usb-storage made for a gadget
# behind host controller HCD (a glob of its platform device; default
# dummy_hcd.*, the same guest's host side; vhci_hcd.* for USB/IP): sets sd
# to it (/dev/sdX) and usbdev to the USB device's sysfs directory (gone
# once it is unbound)
cfs_usb_disk() {
	local b real

	for b in /sys/block/sd*; do
		[ -e "$b" ] || continue
		real=$(readlink -f "$b") || continue
		case "$real" in
		*/${1:-dummy_hcd.*}/usb*)
			usbdev=${real%%:*}		# .../usb1/1-1/1-1:1.0/host0/...
			usbdev=${usbdev%/*}
			sd=/dev/${b##*/}
			return 0
			;;
		esac
	done
	return 1
}
