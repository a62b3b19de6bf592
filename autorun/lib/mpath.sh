# SPDX-License-Identifier: GPL-2.0
# mpath.sh: shell functions for dm-multipath profiles (mpath_local) and
# their failover tests. Sourced into every profile's shell: only function
# definitions and three MPATH_ file names here, nothing runs.
#
# No udev runs in the guest. multipath-tools takes a path's WWID from the
# udev database (ID_SERIAL), and multipathd's start-up scan only sees
# block devices that udev has "initialized" (that have a database entry).
# mpath_udev_seed writes, for each SCSI disk, the entry udev's
# 60-persistent-storage and 55-scsi-sg3_id rules would have written:
# ID_SERIAL and SCSI_IDENT_SERIAL from the unit serial number (VPD page
# 0x80, which ./vm --mpath sets to RAPIDOMP<DISK> on every path of a disk).
# The sysfs fallback (uid_attribute "") does not work here: it decodes
# only NAA, EUI-64, SCSI-name and T10 designators of VPD page 0x83, and
# qemu's scsi-hd without wwn= has only a vendor-specific one.
# /run/udev/control is never created, so libdevmapper knows udev is not
# running and does not wait for it; nothing creates /dev/mapper/NAME
# either, so mpath_wait_map links it to the kernel's /dev/dm-N.
# multipathd gets no uevents: a path that disappears is found by its path
# checker (every polling_interval) and by dm-multipath itself on the
# first I/O error; a path that appears is added with mpath_rescan.

MPATH_LOG=/tmp/multipathd.log
MPATH_MNT=/mnt
# written by mpath_setup: "NAME DEV MOUNTPOINT PATHS" per map
MPATH_MAPS=/run/rapido-mpath.maps

# mpath_msg MSG: one console line, prefixed so a host can grep it
mpath_msg() {
	echo "rapido: mpath: $*"
}

# mpath_on_fail STATUS MSG: a rapido_fail hook: what helps to understand
# a failure, on the console, and "STATUS MSG" in DIR/failed of the host
# share, for host/mpath-failover
mpath_on_fail() {
	local share

	echo "rapido: mpath: --- multipath -ll" >&2
	multipath -ll >&2 2>&1
	echo "rapido: mpath: --- dmsetup status" >&2
	dmsetup status >&2 2>&1
	echo "rapido: mpath: --- tail of $MPATH_LOG" >&2
	tail -n 40 "$MPATH_LOG" >&2 2>/dev/null
	rapido_kernel_tail
	share=$(mpath_share) && echo "$1 $2" > "$share/failed"
}

# mpath_share: the host share (./vm --share) if one is mounted, else nothing
mpath_share() {
	rapido_mounted /host && echo /host
}

# mpath_scsi_settle: wait until the SCSI scan the module load started is
# over and every disk it found has its block device. A scan through sysfs
# waits for the asynchronous one (both take the host's scan mutex).
mpath_scsi_settle() {
	local h

	for h in /sys/class/scsi_host/host*/scan; do
		[ -e "$h" ] && echo "- - -" > "$h"
	done
	rapido_wait 10 mpath_scsi_disks_bound || mpath_msg "some SCSI disks have no block device yet"
}

# mpath_scsi_disks_bound: every SCSI disk (type 0) has a block device
mpath_scsi_disks_bound() {
	local d t

	for d in /sys/bus/scsi/devices/*:*:*:*; do
		[ -r "$d/type" ] || continue
		read -r t < "$d/type"
		[ "$t" = 0 ] || continue
		compgen -G "$d/block/sd*" > /dev/null || return 1
	done
}

# mpath_serial SYSBLOCKDIR: the unit serial number (VPD page 0x80) of a
# SCSI disk, trailing blanks removed, in $MPATH_SERIAL; fails if the disk
# has none. No fork: under TCG each one costs a good part of a second.
mpath_serial() {
	local page

	MPATH_SERIAL=
	[ -r "$1/device/vpd_pg80" ] || return 1
	# bash's read drops NUL bytes: the 4-byte header (0, 0x80, length as
	# 16 bits) leaves 0x80 and the low length byte, then the serial
	LC_ALL=C read -r -N 4096 page < "$1/device/vpd_pg80"
	[ "${#page}" -gt 2 ] || return 1
	page=${page:2}
	MPATH_SERIAL=${page%"${page##*[! ]}"}
	[ -n "$MPATH_SERIAL" ]
}

# mpath_disks: the SCSI disks with a serial, in MPATH_DISK (sdX -> serial)
# and MPATH_NPATHS (serial -> how many disks have it)
mpath_disks() {
	local d

	declare -gA MPATH_DISK=() MPATH_NPATHS=()
	for d in /sys/block/sd*; do
		mpath_serial "$d" || continue
		MPATH_DISK[${d##*/}]=$MPATH_SERIAL
		MPATH_NPATHS[$MPATH_SERIAL]=$((${MPATH_NPATHS[$MPATH_SERIAL]:-0} + 1))
	done
}

# mpath_udev_seed: write a udev database entry for each SCSI disk that has
# none yet (see the top of this file); the disks it seeded in MPATH_SEEDED
mpath_udev_seed() {
	local name devt db up

	MPATH_SEEDED=()
	mpath_disks
	[ -d /run/udev/data ] || mkdir -p /run/udev/data || return 1
	read -r up _ < /proc/uptime
	up=${up/./}0000
	for name in "${!MPATH_DISK[@]}"; do
		read -r devt < "/sys/block/$name/dev" || continue
		db=/run/udev/data/b$devt
		[ -e "$db" ] && continue
		printf 'I:%s\nE:ID_BUS=scsi\nE:ID_SERIAL=%s\nE:ID_SERIAL_SHORT=%s\nE:SCSI_IDENT_SERIAL=%s\n' \
			"$up" "${MPATH_DISK[$name]}" "${MPATH_DISK[$name]}" "${MPATH_DISK[$name]}" > "$db" ||
			return 1
		MPATH_SEEDED+=("$name")
	done
}

# mpath_conf: /etc/multipath.conf for rapido's multipath disks: every
# RAPIDOMP<N> disk becomes map mpath<N>; all paths in one group; I/O fails
# at once when no path is left (no queueing); paths checked every second
mpath_conf() {
	local serial

	mkdir -p /etc/multipath || return 1
	{
		cat <<'EOF'
# written by rapido's autorun/lib/mpath.sh
defaults {
	find_multipaths no
	user_friendly_names no
	path_grouping_policy multibus
	path_selector "service-time 0"
	path_checker tur
	no_path_retry fail
	polling_interval 1
	max_polling_interval 2
	detect_prio no
	missing_uev_wait_timeout 1
}
blacklist {
	wwid ".*"
}
blacklist_exceptions {
	wwid "^RAPIDOMP[0-9]+$"
	property "^(ID_SERIAL|SCSI_IDENT_)"
}
multipaths {
EOF
		for serial in "${!MPATH_NPATHS[@]}"; do
			case $serial in
			RAPIDOMP[0-9]*) printf '\tmultipath {\n\t\twwid %s\n\t\talias mpath%s\n\t}\n' \
				"$serial" "${serial#RAPIDOMP}" ;;
			esac
		done
		echo "}"
	} > /etc/multipath.conf
}

# mpath_start: multipathd in the foreground (logging to $MPATH_LOG), in the
# background of this shell (its pid in MPATH_PID); waits until it answers
mpath_start() {
	multipathd -d -s -v2 > "$MPATH_LOG" 2>&1 &
	MPATH_PID=$!
	rapido_wait -p "$MPATH_PID" 30 mpath_daemon_running && return 0
	kill -0 "$MPATH_PID" 2>/dev/null || rapido_fail "multipathd exited (see $MPATH_LOG)"
	rapido_fail "multipathd did not start (see $MPATH_LOG)"
}

# mpath_daemon_running: multipathd answers and has configured itself
# ("pid N idle" between path checks, "running" during them)
mpath_daemon_running() {
	[[ $(multipathd show daemon 2>/dev/null) =~ ^pid\ [0-9]+\ (idle|running) ]]
}

# mpath_dm NAME: the dm-N kernel name of map NAME
mpath_dm() {
	local d n

	for d in /sys/block/dm-*; do
		[ -r "$d/dm/name" ] || continue
		read -r n < "$d/dm/name"
		if [ "$n" = "$1" ]; then
			echo "${d##*/}"
			return 0
		fi
	done
	return 1
}

# mpath_dm_paths NAME: "ACTIVE FAILED" path counts in the kernel's table
mpath_dm_paths() {
	local w prev="" a=0 f=0

	for w in $(dmsetup status "$1" 2>/dev/null); do
		if [[ $prev =~ ^[0-9]+:[0-9]+$ ]]; then
			case $w in
			A) a=$((a + 1)) ;;
			F) f=$((f + 1)) ;;
			esac
		fi
		prev=$w
	done
	echo "$a $f"
}

# mpath_has_paths NAME N: map NAME exists with N active paths
mpath_has_paths() {
	local p

	p=$(mpath_dm_paths "$1")
	[ "${p%% *}" = "$2" ]
}

# mpath_wait_map NAME PATHS SECS: wait until map NAME has PATHS active
# paths, then make sure /dev/mapper/NAME exists
mpath_wait_map() {
	local dm

	rapido_wait "$3" mpath_has_paths "$1" "$2" || return 1
	dm=$(mpath_dm "$1") || return 1
	[ -b "/dev/mapper/$1" ] || ln -sf "../$dm" "/dev/mapper/$1"
}

# mpath_rescan: after ./vmctl N restore DISK PATH. multipathd gets no
# uevents, so it still holds each pulled path, failed, with a file handle
# on the device that went away (and the new device may even get the same
# name and number). Drop every path multipathd has as failed, with its
# udev database entry, then seed and add every SCSI disk that has no
# entry: a path whose device is really there comes back, re-opened.
mpath_rescan() {
	local dev devt dmst dev_name

	mpath_scsi_settle
	while read -r dev devt dmst; do
		[ "$dmst" = failed ] || continue
		multipathd del path "$dev" > /dev/null || return 1
		rm -f "/run/udev/data/b$devt"
	done < <(multipathd show paths raw format "%d %D %t")
	mpath_udev_seed || return 1
	for dev_name in "${MPATH_SEEDED[@]}"; do
		multipathd add path "$dev_name" > /dev/null || return 1
	done
}

# mpath_mpd_counts NAME: "ACTIVE FAILED" paths of NAME as multipathd has them
mpath_mpd_counts() {
	local m dmst a=0 f=0

	while read -r m dmst; do
		[ "$m" = "$1" ] || continue
		case $dmst in
		active) a=$((a + 1)) ;;
		failed) f=$((f + 1)) ;;
		esac
	done < <(multipathd show paths raw format "%m %t" 2>/dev/null)
	echo "$a $f"
}

# mpath_counts_ok "ACTIVE FAILED" WANT_ACTIVE MAX_TOTAL: the counts say
# WANT_ACTIVE active paths and at most MAX_TOTAL paths in all
mpath_counts_ok() {
	local a=${1%% *} f=${1##* }

	[ "$a" = "$2" ] && [ $((a + f)) -le "$3" ]
}

# mpath_mpd_ok NAME WANT_ACTIVE MAX_TOTAL: multipathd agrees
mpath_mpd_ok() {
	mpath_counts_ok "$(mpath_mpd_counts "$1")" "$2" "$3"
}

# mpath_ll NAME: run multipath -ll NAME (output in MPATH_LL, messages
# included) and count its paths: "ACTIVE FAILED" in MPATH_LL_COUNTS. A
# path whose device is gone is left out ("discarding non-existing path").
mpath_ll() {
	local line a=0 f=0 re_a=' active ready ' re_f=' failed (faulty|ghost|shaky|i/o pending|undef)'

	MPATH_LL=$(multipath -ll "$1" 2>&1) || return 1
	while read -r line; do
		if [[ $line =~ $re_a ]]; then
			a=$((a + 1))
		elif [[ $line =~ $re_f ]]; then
			f=$((f + 1))
		fi
	done <<< "$MPATH_LL"
	MPATH_LL_COUNTS="$a $f"
}

# mpath_setup: load nothing (the profile's modules are loaded), seed udev,
# start multipathd, wait for every RAPIDOMP<N> disk's map with all its
# paths, make an ext4 on it and mount it on $MPATH_MNT/mpath<N>. Fills
# $MPATH_MAPS. Fails (status 1, rapido_fail) on any failure.
mpath_setup() {
	local i serial paths name dm mnt n=0

	rapido_on_fail mpath_on_fail
	mpath_scsi_settle
	compgen -G '/sys/block/sd*' > /dev/null ||
		rapido_fail "no SCSI disk: boot with ./vm --mpath FILE"
	mpath_udev_seed || rapido_fail "cannot write the udev database in /run/udev/data"
	mpath_conf || rapido_fail "cannot write /etc/multipath.conf"
	mpath_start
	: > "$MPATH_MAPS"
	# ./vm numbers its disks from 0 without gaps
	for ((i = 0; ; i++)); do
		serial=RAPIDOMP$i
		paths=${MPATH_NPATHS[$serial]:-}
		[ -n "$paths" ] || break
		name=mpath$i
		mpath_wait_map "$name" "$paths" 30 ||
			rapido_fail "map $name with $paths active paths did not appear"
		dm=$(mpath_dm "$name")
		mnt=$MPATH_MNT/$name
		mkfs.ext4 -q -F -E nodiscard "/dev/mapper/$name" > /dev/null ||
			rapido_fail "mkfs.ext4 /dev/mapper/$name"
		mkdir -p "$mnt" || rapido_fail "mkdir $mnt"
		mount -t ext4 -o noinit_itable "/dev/mapper/$name" "$mnt" ||
			rapido_fail "mount /dev/mapper/$name on $mnt"
		echo "$name /dev/$dm $mnt $paths" >> "$MPATH_MAPS"
		n=$((n + 1))
	done
	[ $n -gt 0 ] || rapido_fail "no disk with a RAPIDOMP serial: boot with ./vm --mpath FILE"
}

# mpath_ready: tell the host: console line and, with a share, /host/ready
# ("vm=N" then one "map=NAME DEV MOUNTPOINT PATHS" line per map)
mpath_ready() {
	local share name dev mnt paths

	while read -r name dev mnt paths; do
		mpath_msg "ready: /dev/mapper/$name ($dev, $paths paths) mounted on $mnt"
	done < "$MPATH_MAPS"
	share=$(mpath_share) || return 0
	{
		echo "vm=$RAPIDO_VM"
		while read -r name dev mnt paths; do
			echo "map=$name $dev $mnt $paths"
		done < "$MPATH_MAPS"
	} > "$share/ready.tmp" && mv "$share/ready.tmp" "$share/ready"
}

# mpath_writer FILE STOP AFTER: keep FILE busy with direct I/O: rounds of
# one dd writing 4 MiB (64 KiB O_DIRECT writes, then fsync) into one of 4
# slots of FILE, taken from 16 MiB of random data so a slot gets other
# data each time round. /tmp/mpath-expect gets the same, to compare. The
# first round done creates io-running in the share; AFTER rounds after
# STOP appears it returns 0. Returns 2 on a write error, 3 if STOP does
# not appear within 120 s, 1 on other errors. Few forks: each costs.
mpath_writer() {
	local file=$1 stop=$2 after=$3 share r=0 slot src left=-1 end=$((SECONDS + 120))

	share=$(mpath_share)
	head -c 16M /dev/urandom > /tmp/mpath-src || return 1
	for ((;;)); do
		slot=$((r % 4))
		src=$(((r + r / 4) % 4))
		if ! dd if=/tmp/mpath-src of="$file" bs=64k count=64 skip=$((src * 64)) \
			seek=$((slot * 64)) oflag=direct conv=notrunc,fsync status=none; then
			mpath_msg "writer: round $r (4 MiB at $((slot * 4)) MiB) of $file failed"
			return 2
		fi
		dd if=/tmp/mpath-src of=/tmp/mpath-expect bs=64k count=64 skip=$((src * 64)) \
			seek=$((slot * 64)) conv=notrunc status=none || return 1
		r=$((r + 1))
		[ $r = 1 ] && [ -n "$share" ] && : > "$share/io-running"
		if [ "$left" -lt 0 ] && [ -e "$stop" ]; then
			mpath_msg "writer: $stop seen after $r rounds"
			left=$after
		fi
		if [ "$left" -ge 0 ]; then
			[ "$left" = 0 ] && break
			left=$((left - 1))
		elif [ $SECONDS -ge $end ]; then
			mpath_msg "writer: $stop did not appear within 120 s"
			return 3
		fi
	done
	MPATH_ROUNDS=$r
}

# mpath_check NAME WANT_ACTIVE PATHS WHAT: after WHAT, the kernel's table,
# multipathd and multipath -ll each show WANT_ACTIVE active paths and no
# more than PATHS in all (a pulled path is failed, or gone); the data
# written reads back the same. Fails with status 3 or 4 (rapido_fail).
mpath_check() {
	local name=$1 want=$2 paths=$3 what=$4 mnt

	# dm-multipath fails a path on its first I/O error; multipathd's
	# checker (every second) fails one that had no I/O
	rapido_wait 15 mpath_has_paths "$name" "$want" ||
		rapido_fail -s 3 "$what: map $name: the kernel has $(mpath_dm_paths "$name") active and failed paths, expected $want active"
	mpath_daemon_running || rapido_fail -s 3 "$what: multipathd is not running any more"
	rapido_wait 15 mpath_mpd_ok "$name" "$want" "$paths" ||
		rapido_fail -s 3 "$what: map $name: multipathd has $(mpath_mpd_counts "$name") active and failed paths, expected $want active"
	mpath_ll "$name" || rapido_fail -s 3 "$what: multipath -ll $name failed: $MPATH_LL"
	echo "$MPATH_LL"
	mpath_counts_ok "$MPATH_LL_COUNTS" "$want" "$paths" ||
		rapido_fail -s 3 "$what: multipath -ll $name shows $MPATH_LL_COUNTS active and failed paths, expected $want active"
	mnt=$(mpath_map_field "$name" 3)
	sync
	echo 3 > /proc/sys/vm/drop_caches
	cmp "$mnt/io" /tmp/mpath-expect ||
		rapido_fail -s 4 "$what: the data read back from $mnt/io differs from what was written"
}

# mpath_map_field NAME N: field N of map NAME's line in $MPATH_MAPS
mpath_map_field() {
	local f

	while read -r -a f; do
		[ "${f[0]}" = "$1" ] && echo "${f[$(($2 - 1))]}" && return 0
	done < "$MPATH_MAPS"
	return 1
}

# mpath_failover_guest [NAME]: the guest half of a failover test, with
# host/mpath-failover on the host. Needs mpath_setup done and a host
# share. Writes to map NAME (default: the first) while the host pulls
# paths, which it says by writing /host/path-failed ("DISK PATH" lines;
# the paths of other disks do not count);
# then checks that every write succeeded and reads back the same, that
# multipathd still runs, and that the kernel, multipathd and multipath -ll
# all show the pulled paths failed (or gone) and the others active. If the
# host asked for it (/host/restore-pending), says so (/host/checked),
# waits for /host/path-restored, adds the paths back (mpath_rescan),
# writes again and checks that all paths are active.
# Exit: 0 all held, 1 set-up, 2 I/O error (what pulling every path should
# give), 3 path states wrong, 4 data read back differs.
mpath_failover_guest() {
	local name paths share rc pulled=() line lines=() want first

	rapido_on_fail mpath_on_fail
	share=$(mpath_share) || rapido_fail "no host share: boot with ./vm --share DIR"
	[ -s "$MPATH_MAPS" ] || rapido_fail "mpath_setup has not run"
	read -r first _ < "$MPATH_MAPS"
	name=${1:-$first}
	paths=$(mpath_map_field "$name" 4) || rapido_fail "no map $name"
	rm -f "$share/io-running" "$share/path-failed" "$share/checked" \
		"$share/restore-pending" "$share/path-restored"
	mpath_msg "failover: writing to $(mpath_map_field "$name" 3)/io while the host pulls paths"
	mpath_writer "$(mpath_map_field "$name" 3)/io" "$share/path-failed" 4
	rc=$?
	# with every path gone the write can fail before the host says which
	# it pulled: give it a moment
	[ $rc = 2 ] && rapido_wait 15 test -e "$share/path-failed"
	# the pulled paths of this map's disk (mpath<DISK>)
	mapfile -t lines < "$share/path-failed" 2>/dev/null
	for line in "${lines[@]}"; do
		[ "${line%% *}" = "${name#mpath}" ] && pulled+=("$line")
	done
	case $rc in
	0) ;;
	2) rapido_fail -s 2 "I/O error on /dev/mapper/$name after the host pulled paths: ${pulled[*]/ /:}" ;;
	*) rapido_fail "writer failed (status $rc)" ;;
	esac
	want=$((paths - ${#pulled[@]}))
	mpath_check "$name" "$want" "$paths" "after pulling ${pulled[*]/ /:}"
	mpath_msg "failover ok: $MPATH_ROUNDS rounds of 4 MiB written and read back without error while pulling ${pulled[*]/ /:} of $paths paths; multipath -ll: ${MPATH_LL_COUNTS% *} active, ${MPATH_LL_COUNTS#* } failed"
	[ -e "$share/restore-pending" ] || return 0

	: > "$share/checked"
	rapido_wait 60 test -e "$share/path-restored" ||
		rapido_fail "the host did not restore the paths within 60 s"
	mpath_rescan || rapido_fail -s 3 "mpath_rescan failed"
	mpath_writer "$(mpath_map_field "$name" 3)/io" "$share/path-failed" 2
	rc=$?
	case $rc in
	0) ;;
	2) rapido_fail -s 2 "I/O error on /dev/mapper/$name after restoring paths" ;;
	*) rapido_fail "writer failed (status $rc)" ;;
	esac
	mpath_check "$name" "$paths" "$paths" "after restoring ${pulled[*]/ /:}"
	mpath_msg "restore ok: all $paths paths of $name active again; $MPATH_ROUNDS more rounds written and read back"
}
