#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cut-kmods.sh: the modules layer ./cut writes itself (src/cut/kmods.c),
# with its on-demand modules' layer, holds, for every shipped profile,
# what dracut's held: the same files
# (modules, firmware, module lists) with the same bytes and modes, so
# depmod's output in it is equal too. Against the installed kernel.
# dracut builds only its modules layer here: its --install list is dropped
# (a wrapper), and ./cut's own run gets an empty bins layer from a stub.
# Minutes of work: over the unit tier's 300 s on a loaded 2-core machine
# (the Debian 13 chroot under CI load), so:
# tests/run timeout: 1200s
. "$(dirname "$0")/../boot/lib.sh"
command -v dracut > /dev/null || { echo "SKIP: dracut not installed (make deps)"; exit 77; }
ls /boot/vmlinuz-* > /dev/null 2>&1 || { echo "SKIP: no installed kernel (linux-image-amd64)"; exit 77; }
unset KERNEL_SRC KERNEL_INSTALL_MOD_PATH
TAP_ON_FAIL=show_run
. "$(dirname "$0")/cut-kmods.inc"

real_dracut=$(command -v dracut)
# dracut without the binaries: its modules layer and bash
cat > "$T/dracut-modules-only" <<EOF
#!/bin/bash
args=()
while [ \$# -gt 0 ]; do
	if [ "\$1" = --install ]; then shift 2; continue; fi
	args+=("\$1")
	shift
done
exec "$real_dracut" "\${args[@]}"
EOF
# a dracut whose archive is empty (the last argument is the output)
cat > "$T/dracut-empty" <<'EOF'
#!/bin/bash
cpio -o -H newc --quiet < /dev/null > "${!#}"
EOF
chmod +x "$T/dracut-modules-only" "$T/dracut-empty"

# enough configuration for every profile to cut (nothing boots here)
. "$(dirname "$0")/profiles-conf.inc"

# the modules layers of IMAGE (every boot's and the on-demand one), cut with CACHE, unpacked into DIR
unpack_modules() {
	CUT_CACHE_DIR=$2 modules_unpack "$1" "$3"
}

# what a tree holds: each entry's type, mode and name; each file's checksum
inventory() {
	(cd "$1" && find . -printf '%y %m %p\n' | sort && find . -type f -exec sha256sum {} + | sort -k2)
}

n=0 skipped=0
for f in "$TOP"/autorun/*.sh; do
	p=$(basename "$f" .sh)
	# kunit needs CONFIG_KUNIT, which Debian's kernel lacks: its modules still compared
	extra=()
	[ "$p" != kunit ] || extra=(--ignore-kconfig)
	# ksmbd-tools is not installed by host/install-deps (Debian 12's
	# conflicts with samba): without it these cannot cut
	case $p in
	ksmbd_local | fstests_cifs)
		if ! command -v ksmbd.mountd > /dev/null && [ ! -x /usr/sbin/ksmbd.mountd ]; then
			skip "$p: modules layer compared" "the host has no ksmbd-tools"
			skipped=$((skipped + 1))
			continue
		fi
		;;
	esac
	run env DRACUT="$T/dracut-modules-only" CUT_CACHE_DIR="$T/dc" "$CUT" -q --dracut-modules \
		"${extra[@]}" -o "$T/$p.d.img" "$p"
	if [ "$rc" != 0 ]; then
		not_ok "$p: cut --dracut-modules"
		continue
	fi
	run env PATH="$T/bin:$PATH" DRACUT="$T/dracut-empty" CUT_CACHE_DIR="$T/cc" "$CUT" -q "${extra[@]}" -o "$T/$p.c.img" "$p"
	if [ "$rc" != 0 ]; then
		not_ok "$p: cut"
		continue
	fi
	if ! unpack_modules "$T/$p.d.img" "$T/dc" "$T/$p.d" || ! unpack_modules "$T/$p.c.img" "$T/cc" "$T/$p.c"; then
		not_ok "$p: both images name a modules layer in their cache"
		continue
	fi
	inventory "$T/$p.d" > "$T/$p.d.list"
	inventory "$T/$p.c" > "$T/$p.c.list"
	check "$p: ./cut's modules layer holds dracut's files, bytes and modes ($(grep -c '\.ko' "$T/$p.d.list") module lines)" \
		cmp -s "$T/$p.d.list" "$T/$p.c.list"
	[ $fails = 0 ] || diff "$T/$p.d.list" "$T/$p.c.list" | head -20 | sed 's/^/# /'
	# depmod -a -b on a copy of ./cut's layer writes what the layer holds
	differ=$(depmod_differs "$(ls -d "$T/$p.c"/usr/lib/modules/* "$T/$p.c"/lib/modules/* 2> /dev/null | head -n 1)")
	check "$p: the layer's depmod files are depmod's bytes${differ:+ (differ:$differ)}" test -z "$differ"
	n=$((n + 1))
done
check_no_depmod "./cut ran no depmod for its modules layers"
check "every profile compared ($n, $skipped skipped for a missing tool)" \
	test $((n + skipped)) -eq "$(ls "$TOP"/autorun/*.sh | wc -l)"
done_testing
