# SPDX-License-Identifier: GPL-2.0
# ecryptfs.sh: guest shell functions for the ecryptfs_local profile: its
# settings, lower file systems on zram, passphrase keys in the kernel
# keyring, eCryptfs mounts and the built-in check (the ecryptfs-utils suite:
# ecryptfs-suite.sh).
# Sourced into every image before the profile, so it only defines things.

# Lower file systems the profile can make. ext2 and ext3 usually come from
# the ext4 driver (ext3 always since Linux 4.3, ext2 with
# CONFIG_EXT4_USE_FOR_EXT2), which registers them as fs-ext2 and fs-ext3.
_ecryptfs_known_fs="ext2 ext3 ext4 xfs btrfs"

# Every eCryptfs mount here uses AES with 128-bit keys, as the ecryptfs-utils
# suite mounts; filename encryption is on when a FNEK signature is given.
_ecryptfs_cipher_opts="ecryptfs_cipher=aes,ecryptfs_key_bytes=16"

# eCryptfs' header (fs/ecryptfs/crypto.c, ecryptfs_write_headers_virt):
# bytes 0-7 the plaintext size, 8-15 two 32-bit words whose XOR is this
# marker, 16 the file format version, 19 flags (0x02 encrypted, 0x08
# encrypted names), 20-23 the header extent size, 24-25 how many there are
_ecryptfs_marker=$((0x3c81b7f5))

# _ecryptfs_size_kib SIZE: SIZE (bytes, or with a K, M, G or T suffix and
# an optional iB or B after it, as rapido-zram takes) in KiB; fails on
# anything else, and on sizes that would overflow
_ecryptfs_size_kib() {
	local n unit
	[[ $1 =~ ^([0-9]{1,12})([KkMmGgTt]([iI]?[bB])?)?$ ]] || return 1
	n=$((10#${BASH_REMATCH[1]}))
	unit=${BASH_REMATCH[2]:0:1}
	case $unit in
	"") n=$((n / 1024)) ;;
	[Kk]) ;;
	[Mm]) n=$((n << 10)) ;;
	[Gg]) n=$((n << 20)) ;;
	[Tt]) n=$((n << 30)) ;;
	esac
	echo "$n"
}

# _ecryptfs_fs_problems FS: print what stops FS from being a lower file
# system here (one line each), nothing when it can be used
_ecryptfs_fs_problems() {
	local fs=$1 fsck
	case " $_ecryptfs_known_fs " in
	*" $fs "*) ;;
	*)
		echo "ECRYPTFS_LOWER_FS: '$fs' is not supported: use one or more of:" \
			"${_ecryptfs_known_fs// /, } (comma separated)"
		return
		;;
	esac
	# the init loaded the modules the image has; a kernel may build it in
	grep -qw "$fs" /proc/filesystems || modprobe -q "fs-$fs" 2>/dev/null ||
		modprobe -q "$fs" 2>/dev/null
	grep -qw "$fs" /proc/filesystems ||
		echo "ECRYPTFS_LOWER_FS: kernel $(uname -r) has no $fs file system" \
			"(no module for it in the image, not built in)"
	command -v "mkfs.$fs" > /dev/null ||
		echo "ECRYPTFS_LOWER_FS: mkfs.$fs is not in the image: install it on the host and ./cut again"
	fsck=$(_ecryptfs_fsck_cmd "$fs")
	command -v "${fsck%% *}" > /dev/null ||
		echo "ECRYPTFS_LOWER_FS: ${fsck%% *} (to check $fs) is not in the image:" \
			"install it on the host and ./cut again"
}

# _ecryptfs_fsck_cmd FS: the read-only check of an unmounted FS, as words
_ecryptfs_fsck_cmd() {
	case "$1" in
	ext2|ext3|ext4) echo "e2fsck -f -n" ;;
	xfs) echo "xfs_repair -n" ;;
	btrfs) echo "btrfs check --readonly" ;;
	esac
}

# _ecryptfs_add_key PASS: put the file key (FEKEK) and the filename key
# (FNEK) that ecryptfs-add-passphrase derives from PASS into the user
# keyring; sets _ecryptfs_sig and _ecryptfs_fnek_sig. Its exit status is 0
# after some failures (a usage error), so the signatures it prints are what
# counts, and each is looked up in the keyring.
_ecryptfs_add_key() {
	local out line sigs=()

	_ecryptfs_sig='' _ecryptfs_fnek_sig=''
	out=$(printf '%s' "$1" | HOME=${HOME:-/root} ecryptfs-add-passphrase --fnek - 2>&1)
	while read -r line; do
		[[ $line =~ ^Inserted\ auth\ tok\ with\ sig\ \[([0-9a-f]{16})\] ]] &&
			sigs+=("${BASH_REMATCH[1]}")
	done <<< "$out"
	if [ ${#sigs[@]} -ne 2 ]; then
		echo "ecryptfs-add-passphrase --fnek did not report two keys: $out" >&2
		return 1
	fi
	for line in "${sigs[@]}"; do
		keyctl search @u user "$line" > /dev/null 2>&1 || {
			echo "key $line (from ecryptfs-add-passphrase) is not in the user keyring" >&2
			return 1
		}
	done
	_ecryptfs_sig=${sigs[0]} _ecryptfs_fnek_sig=${sigs[1]}
}

# _ecryptfs_unlink_key SIG...: remove each key SIG from the user keyring.
# Without mount.ecryptfs's helper (umount.ecryptfs), ecryptfs_unlink_sigs
# does nothing: the kernel only shows it in /proc/mounts for that helper.
_ecryptfs_unlink_key() {
	local sig id
	for sig; do
		id=$(keyctl search @u user "$sig" 2>/dev/null) || continue
		keyctl unlink "$id" @u > /dev/null || return 1
	done
}

# _ecryptfs_mount LOWER UPPER SIG [FNEK_SIG]: mount eCryptfs on UPPER over
# LOWER with the key SIG (and filename encryption with FNEK_SIG), through
# the kernel directly (mount -i: no mount.ecryptfs, which asks questions)
_ecryptfs_mount() {
	local opts="ecryptfs_sig=$3,$_ecryptfs_cipher_opts"
	[ -z "${4:-}" ] || opts+=",ecryptfs_fnek_sig=$4"
	mount -i -t ecryptfs -o "$opts" "$1" "$2"
}

# _ecryptfs_mount_type DIR: the type of what is mounted on DIR, if anything
_ecryptfs_mount_type() {
	! rapido_mounted "$1" || echo "${RAPIDO_MOUNT[2]}"
}

# _ecryptfs_mounted_over LOWER UPPER SIG: eCryptfs is mounted on UPPER
# over LOWER with the key SIG
_ecryptfs_mounted_over() {
	rapido_mounted "$2" ecryptfs && [ "${RAPIDO_MOUNT[0]}" = "$1" ] &&
		[[ ${RAPIDO_MOUNT[3]} == *ecryptfs_sig=$3* ]]
}

# _ecryptfs_result ok|not_ok DESC: one result line of the built-in check,
# on the console and in $_ecryptfs_results
_ecryptfs_n=0
_ecryptfs_failed=0
_ecryptfs_result() {
	local line
	_ecryptfs_n=$((_ecryptfs_n + 1))
	if [ "$1" = ok ]; then
		line="ok $_ecryptfs_n - $2"
	else
		line="not ok $_ecryptfs_n - $2"
		_ecryptfs_failed=$((_ecryptfs_failed + 1))
	fi
	echo "ecryptfs: $line"
	echo "$line" >> "${_ecryptfs_results:-/dev/null}"
}

# _ecryptfs_expect DESC COMMAND...: ok if COMMAND succeeds; its output is
# shown only when it fails
_ecryptfs_expect() {
	local d=$1 out
	shift
	if out=$("$@" 2>&1); then
		_ecryptfs_result ok "$d"
	else
		_ecryptfs_result not_ok "$d"
		[ -z "$out" ] || echo "$out" | sed 's/^/ecryptfs: #   /'
		return 1
	fi
}

# _ecryptfs_be BYTES...: the big-endian number the decimal BYTES make
_ecryptfs_be() {
	local b v=0
	for b; do
		v=$(((v << 8) | b))
	done
	echo "$v"
}

# _ecryptfs_header_check FILE SIZE SIG: FILE (a lower file) starts with an
# eCryptfs header for a SIZE-byte plaintext whose key has signature SIG,
# with encrypted names; prints what is wrong otherwise
_ecryptfs_header_check() {
	local f=$1 size=$2 sig=$3 h m1 m2 hsize lsize
	# shellcheck disable=SC2207 # od prints numbers only
	h=($(od -An -v -tu1 -N 26 "$f")) || return 1
	[ ${#h[@]} -eq 26 ] || { echo "$f: shorter than an eCryptfs header"; return 1; }
	m1=$(_ecryptfs_be "${h[@]:8:4}")
	m2=$(_ecryptfs_be "${h[@]:12:4}")
	[ $((m1 ^ m2)) -eq $_ecryptfs_marker ] ||
		{ echo "$f: no eCryptfs marker at byte 8 ($m1 ^ $m2)"; return 1; }
	[ "$(_ecryptfs_be "${h[@]:0:8}")" -eq "$size" ] ||
		{ echo "$f: header says $(_ecryptfs_be "${h[@]:0:8}") bytes, the file has $size"; return 1; }
	[ "${h[16]}" -ge 3 ] ||
		{ echo "$f: header version ${h[16]}, expected 3 or more"; return 1; }
	[ $((h[19] & 0x0a)) -eq $((0x0a)) ] ||
		{ echo "$f: header flags ${h[19]} lack encrypted (0x02) and encrypted names (0x08)"; return 1; }
	hsize=$(($(_ecryptfs_be "${h[@]:20:4}") * $(_ecryptfs_be "${h[@]:24:2}")))
	lsize=$(stat -c %s "$f") || return 1
	# the data follows the header in whole 4096-byte extents (x86's page size)
	[ "$hsize" -ge 8192 ] && [ $((lsize - hsize)) -ge "$size" ] &&
		[ $(((lsize - hsize) % 4096)) -eq 0 ] ||
		{ echo "$f: $lsize bytes, header $hsize: not a header and whole extents for $size bytes"; return 1; }
	# the key's signature is in the header's key packet (tag 11)
	od -An -v -tx1 -N "$hsize" "$f" | tr -d ' \n' | grep -q "$sig" ||
		{ echo "$f: the key signature $sig is not in its header"; return 1; }
	echo "size $size, marker, version ${h[16]}, flags ${h[19]}, header $hsize bytes, key $sig"
}

# _ecryptfs_lower_files DIR: the entries of DIR a file system did not make
# itself (ext*'s lost+found), one per line
_ecryptfs_lower_files() {
	local f
	for f in "$1"/* "$1"/.[!.]*; do
		[ -e "$f" ] || continue
		[ "${f##*/}" = lost+found ] && continue
		echo "${f##*/}"
	done
}

# _ecryptfs_reads_back PLAIN FILE: FILE reads the same as PLAIN, read from
# the lower file system (and through the decryption), not the page cache
_ecryptfs_reads_back() {
	sync && echo 3 > /proc/sys/vm/drop_caches && cmp "$1" "$2"
}

# _ecryptfs_check FS PASS: the built-in check of eCryptfs over a new FS on
# a zram disk of ECRYPTFS_ZRAM_SIZE: a file written through /upper reads
# back; its lower copy has an encrypted name, none of the plaintext and an
# eCryptfs header; after umount and a remount with PASS it reads back; with
# another passphrase neither its name nor its data can be read; umount and
# the lower fsck are clean. Results through _ecryptfs_result.
_ecryptfs_check() {
	local fs=$1 pass=$2 wrong="$2-wrong" dev log=/tmp/ecryptfs-$1.log
	local plain=/tmp/ecryptfs-plain.txt size lower names sig fnek i out mounted
	local name=secret.txt

	# shellcheck disable=SC2046 # the mkfs arguments are words on purpose
	if ! dev=$(zram_add "$log" -s "$ECRYPTFS_ZRAM_SIZE" --mkfs "$fs" \
		$(zram_mkfs_args "$fs") --mount /lower); then
		out="ECRYPTFS_ZRAM_SIZE: mkfs.xfs 6.1 wants 300M or more, mkfs.btrfs 6.2 109M"
		_ecryptfs_result not_ok "$fs: zram disk of $ECRYPTFS_ZRAM_SIZE with $fs on /lower (see above; $out)"
		return
	fi
	_ecryptfs_expect "$fs: $dev ($ECRYPTFS_ZRAM_SIZE) made, mkfs.$fs, mounted on /lower" \
		test "$(_ecryptfs_mount_type /lower)" = "$fs" || return

	if _ecryptfs_add_key "$pass" 2> "$log"; then
		sig=$_ecryptfs_sig fnek=$_ecryptfs_fnek_sig
		_ecryptfs_result ok "$fs: passphrase keys in the user keyring: $sig (data), $fnek (names)"
	else
		_ecryptfs_result not_ok "$fs: passphrase keys in the user keyring: $(cat "$log")"
		umount /lower
		return
	fi
	out=$(_ecryptfs_mount /lower /upper "$sig" "$fnek" 2>&1 | head -n 1)
	_ecryptfs_expect "$fs: eCryptfs mounted on /upper over /lower${out:+ ($out)}" \
		_ecryptfs_mounted_over /lower /upper "$sig" || {
		umount /lower
		return
	}

	# ~20 KiB over several 4 KiB extents; each line is easy to look for
	for ((i = 0; i < 600; i++)); do
		printf 'rapido eCryptfs plaintext line %04d\n' "$i"
	done > "$plain"
	size=$(stat -c %s "$plain")
	cat "$plain" > "/upper/$name"
	_ecryptfs_expect "$fs: $size bytes written through /upper read back the same" \
		_ecryptfs_reads_back "$plain" "/upper/$name"

	mapfile -t names < <(_ecryptfs_lower_files /lower)
	lower=/lower/${names[0]:-}
	_ecryptfs_expect "$fs: one lower file, with an encrypted name (${names[*]:0:2})" \
		test "${#names[@]}" -eq 1 -a -f "$lower" -a \
		"${names[0]#ECRYPTFS_FNEK_ENCRYPTED.}" != "${names[0]}" -a \
		"${names[0]/secret/}" = "${names[0]}"
	_ecryptfs_expect "$fs: the lower file holds none of the plaintext" \
		bash -c '! grep -a -q "rapido eCryptfs plaintext" "$1"' _ "$lower"
	# for a look from outside the guest (the boot test checks it too)
	cat "$lower" > "${_ecryptfs_logdir:-/tmp}/lower-$fs.bin"
	if out=$(_ecryptfs_header_check "$lower" "$size" "$sig"); then
		_ecryptfs_result ok "$fs: the lower file has an eCryptfs header: $out"
	else
		_ecryptfs_result not_ok "$fs: the lower file has an eCryptfs header: $out"
	fi

	_ecryptfs_expect "$fs: umount /upper" umount /upper
	_ecryptfs_unlink_key "$sig" "$fnek"
	_ecryptfs_expect "$fs: keys unlinked from the user keyring" \
		bash -c '! keyctl search @u user "$1" && ! keyctl search @u user "$2"' _ "$sig" "$fnek"
	out=$(_ecryptfs_mount /lower /upper "$sig" "$fnek" 2>&1 | head -n 1)
	if [ "$(_ecryptfs_mount_type /upper)" = ecryptfs ]; then
		_ecryptfs_result not_ok "$fs: a mount with a key not in the keyring was accepted"
		umount /upper
	else
		_ecryptfs_result ok "$fs: a mount with a key not in the keyring is refused ($out)"
	fi

	# the same passphrase again: the same keys, the same data
	_ecryptfs_add_key "$pass" 2> "$log"
	_ecryptfs_expect "$fs: the same passphrase gives the same keys ($_ecryptfs_sig $_ecryptfs_fnek_sig)" \
		test "$_ecryptfs_sig $_ecryptfs_fnek_sig" = "$sig $fnek"
	_ecryptfs_mount /lower /upper "$sig" "$fnek" 2> "$log"
	_ecryptfs_expect "$fs: after umount and remount with the passphrase, $name reads back the same" \
		_ecryptfs_reads_back "$plain" "/upper/$name"
	umount /upper
	_ecryptfs_unlink_key "$sig" "$fnek"

	# another passphrase: other keys; the name does not resolve, and the
	# data cannot be read even by its lower name (no filename key)
	_ecryptfs_add_key "$wrong" 2> "$log"
	_ecryptfs_expect "$fs: another passphrase gives other keys ($_ecryptfs_sig $_ecryptfs_fnek_sig)" \
		test -n "$_ecryptfs_sig" -a "$_ecryptfs_sig" != "$sig" -a "$_ecryptfs_fnek_sig" != "$fnek"
	_ecryptfs_mount /lower /upper "$_ecryptfs_sig" "$_ecryptfs_fnek_sig" 2> "$log"
	mounted=$(_ecryptfs_mount_type /upper)
	out=$(cat "/upper/$name" 2>&1)
	_ecryptfs_expect "$fs: with another passphrase (mounted: $mounted) $name cannot be opened (${out##*: })" \
		test "$mounted" = ecryptfs -a "$out" != "$(cat "$plain")" -a -n "$out" -a ! -f "/upper/$name"
	umount /upper 2>/dev/null
	_ecryptfs_mount /lower /upper "$_ecryptfs_sig" 2> "$log"
	mounted=$(_ecryptfs_mount_type /upper)
	out=$(cat "/upper/${lower##*/}" 2>&1 > /dev/null)
	_ecryptfs_expect "$fs: with another passphrase (mounted: $mounted, no filename key) the lower file cannot be read (${out##*: })" \
		bash -c '[ "$1" = ecryptfs ] && ! cat "$2" > /dev/null 2>&1' _ "$mounted" "/upper/${lower##*/}"
	umount /upper 2>/dev/null
	_ecryptfs_unlink_key "$_ecryptfs_sig" "$_ecryptfs_fnek_sig"

	_ecryptfs_expect "$fs: umount /lower" umount /lower
	# shellcheck disable=SC2046 # the command is words
	_ecryptfs_expect "$fs: $(_ecryptfs_fsck_cmd "$fs") $dev: clean" \
		$(_ecryptfs_fsck_cmd "$fs") "$dev"
	rapido-zram remove "$dev" > /dev/null 2>> "$log"
}

