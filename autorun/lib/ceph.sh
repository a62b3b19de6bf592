# SPDX-License-Identifier: GPL-2.0
# ceph.sh: shell functions for the Ceph profiles (cephfs, rbd,
# fstests_cephfs, qemu_rbd): rapido-ceph with the rapido.conf keys, a
# write/fsync/read-back check, and a block device's filesystem made or
# reused and mounted (failures through rapido_fail). Sourced into every
# profile's shell: only function definitions here, nothing runs.

# ceph_say MSG: one console line, with the seconds since boot
ceph_say() {
	local up _

	read -r up _ < /proc/uptime
	echo "rapido: $* [${up}s]"
}

# ceph_client ARGS...: rapido-ceph with the client name and timeout from
# rapido.conf (CEPH_USER, CEPH_TIMEOUT), on the ceph.conf and keyring
# ./cut put in /etc/ceph
ceph_client() {
	rapido-ceph --name "${CEPH_USER:-admin}" --timeout "${CEPH_TIMEOUT:-20}" "$@"
}

# ceph_need_net: the kernel clients talk to the cluster over eth0
ceph_need_net() {
	local w

	for w in $(< /proc/cmdline); do
		case $w in rapido.ip=*) return 0 ;; esac
	done
	rapido_fail "$RAPIDO_PROFILE: no network: boot with ./vm --net tap (on the bridge the cluster listens on)"
}

# ceph_io_check DIR: write 1 MiB of random data to a file in DIR with
# fsync, drop the caches, read it back and compare; the file is removed
ceph_io_check() {
	local f="$1/.rapido-io-check.$RAPIDO_VM" src=/tmp/ceph-io-check

	head -c 1048576 /dev/urandom > "$src" || rapido_fail "cannot write $src"
	dd if="$src" of="$f" bs=64k conv=fsync status=none ||
		rapido_fail "write+fsync of 1 MiB to $f failed"
	sync
	echo 3 > /proc/sys/vm/drop_caches
	cmp "$src" "$f" || rapido_fail "read back from $f differs from what was written"
	rm -f "$f" "$src" || rapido_fail "rm $f failed"
	ceph_say "$RAPIDO_PROFILE: write, fsync, read back of 1 MiB on $1: ok"
}

# ceph_umount DIR: unmount DIR if it is mounted (bounded: the cluster may be gone)
ceph_umount() {
	rapido_mounted "$1" || return 0
	sync
	timeout -s KILL 60 umount "$1" || echo "rapido: umount $1 failed" >&2
}

# ceph_blk_mount DEV DIR: mount DEV's filesystem on DIR. CEPH_RBD_MKFS=1
# makes a new CEPH_RBD_FS (default ext4) first, 0 never does; unset, one is
# made only when DEV holds none, so a second VM finds the first one's files.
ceph_blk_mount() {
	local dev=$1 dir=$2 fs=${CEPH_RBD_FS:-ext4} have mkfs=${CEPH_RBD_MKFS:-}

	case $mkfs in
	'' | 0 | 1) ;;
	*) rapido_fail "CEPH_RBD_MKFS='$mkfs': expected 1 (always), 0 (never) or unset (when empty)" ;;
	esac
	have=$(blkid -p -o value -s TYPE "$dev" 2> /dev/null)
	if [ "$mkfs" = 1 ] || { [ -z "$mkfs" ] && [ -z "$have" ]; }; then
		command -v "mkfs.$fs" > /dev/null ||
			rapido_fail "mkfs.$fs is not in the image (CEPH_RBD_FS=$fs): install it on the host and ./cut again"
		case $fs in
		ext*) "mkfs.$fs" -q -F -E nodiscard "$dev" ;;
		xfs | btrfs) "mkfs.$fs" -q -f -K "$dev" ;;
		*) "mkfs.$fs" "$dev" ;;
		esac > /tmp/ceph-mkfs.log 2>&1 || {
			cat /tmp/ceph-mkfs.log >&2
			rapido_fail "mkfs.$fs $dev failed"
		}
		ceph_say "$RAPIDO_PROFILE: made $fs on $dev"
	elif [ -z "$have" ]; then
		rapido_fail "$dev holds no filesystem and CEPH_RBD_MKFS=0"
	else
		ceph_say "$RAPIDO_PROFILE: $dev already holds $have: mounting it as it is"
	fi
	mkdir -p "$dir" || rapido_fail "mkdir $dir"
	mount "$dev" "$dir" || rapido_fail "mount $dev on $dir failed"
}

# ceph_librados_conf FILE: a ceph.conf for user-space clients in the guest
# (librados, libcephfs: tcmu-runner, smbd's vfs_ceph). The cluster's own
# ceph.conf names the host's keyring and run dir; this one has only the
# monitors, the keyring ./cut put in /etc/ceph, and CEPH_TIMEOUT as the
# bound on reaching the cluster. Such clients must run with
# CEPH_KEYRING=/etc/ceph/keyring in their environment: librados takes that
# variable over any conf, and rapido's holds the host's path.
ceph_librados_conf() {
	local mon

	mon=$(ceph_client source) || rapido_fail "$RAPIDO_PROFILE: no monitor address in /etc/ceph/ceph.conf"
	printf '%s\n' "# written by rapido's $RAPIDO_PROFILE" "[global]" "mon host = ${mon%:/}" \
		"keyring = /etc/ceph/keyring" "client mount timeout = ${CEPH_TIMEOUT:-20}" \
		"rados mon op timeout = ${CEPH_TIMEOUT:-20}" "log file = /dev/null" "admin socket =" \
		> "$1" || rapido_fail "$RAPIDO_PROFILE: cannot write $1"
}
