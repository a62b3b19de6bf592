#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cut-dracut-same.sh: what ./cut does to make dracut faster changes no byte
# of a bins layer. Each profile's bins layer, cut as ./cut runs dracut
# (DRACUT_LDD=build/rapido-ldd, dracut.conf.d/10-no-pkgconfig.conf's
# directories, the archive written by dd where ./cut reads it), has the
# bytes of the layer plain dracut builds (ldd, and a
# --confdir with 00-rapido.conf alone), for profiles with the largest and
# the most varied binaries (fio's libraries, samba, nfs, ceph, dropbear).
# Minutes of work: over the unit tier's 300 s on a loaded 2-core machine
# (the Debian 13 chroot under CI load), so:
# tests/run timeout: 1200s
. "$(dirname "$0")/../boot/lib.sh"
command -v dracut > /dev/null || { echo "SKIP: dracut not installed (make deps)"; exit 77; }
ls /boot/vmlinuz-* > /dev/null 2>&1 || { echo "SKIP: no installed kernel (linux-image-amd64)"; exit 77; }
unset KERNEL_SRC KERNEL_INSTALL_MOD_PATH DRACUT_LDD
TAP_ON_FAIL=show_run

# plain dracut: our private configuration without the directory presets
mkdir -p "$T/confdir"
cp "$TOP/dracut.conf.d/00-rapido.conf" "$T/confdir/"
real_dracut=$(command -v dracut)
cat > "$T/dracut-plain" <<WRAPPER
#!/bin/bash
args=()
for a in "\$@"; do
	case \$a in --confdir=*) args+=("--confdir=$T/confdir") ;; *) args+=("\$a") ;; esac
done
exec "$real_dracut" "\${args[@]}"
WRAPPER
chmod +x "$T/dracut-plain"

. "$(dirname "$0")/profiles-conf.inc"

# the checksum of the bins layer of image $1 in cache $2
bins_sum() {
	local key
	key=$(cpio -i --quiet --to-stdout rapido/layers < "$1" 2>/dev/null | awk '$2 == "bins" {print $5}')
	[ -n "$key" ] && sha256sum < "$2/layers/$key.cpio" | cut -d' ' -f1
}
# an image in a directory with a blank: dracut's --compress value would be
# split there, so dracut writes the archive itself (no dd sink)
mkdir -p "$T/with blank"
run env CUT_CACHE_DIR="$T/blank" "$TOP/cut" -q -o "$T/with blank/img" simple
check "an image path with a blank: cut (dracut writes its own archive)" exits 0
blank=$(bins_sum "$T/with blank/img" "$T/blank")
run env CUT_CACHE_DIR="$T/sinked" "$TOP/cut" -q -o "$T/sinked.img" simple
check "  the same bins bytes as through the dd sink" test -n "$blank" -a "$blank" = "$(bins_sum "$T/sinked.img" "$T/sinked")"

for p in simple fstests_local samba_local nfs_server lio_rbd dropbear usb_msc blktests; do
	run env CUT_CACHE_DIR="$T/fast-$p" "$TOP/cut" -q -o "$T/fast-$p.img" "$p"
	if [ "$rc" != 0 ]; then
		not_ok "$p: cut as ./cut runs dracut (exit $rc)"
		continue
	fi
	run env CUT_CACHE_DIR="$T/plain-$p" DRACUT="$T/dracut-plain" DRACUT_LDD=ldd \
		"$TOP/cut" -q -o "$T/plain-$p.img" "$p"
	if [ "$rc" != 0 ]; then
		not_ok "$p: cut with plain dracut (exit $rc)"
		continue
	fi
	fast=$(bins_sum "$T/fast-$p.img" "$T/fast-$p")
	plain=$(bins_sum "$T/plain-$p.img" "$T/plain-$p")
	check "$p: the bins layer has plain dracut's bytes" test -n "$fast" -a "$fast" = "$plain"
	rm -rf "$T/fast-$p" "$T/plain-$p"
done
done_testing
