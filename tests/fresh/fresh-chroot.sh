#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fresh-chroot.sh: a minimal Debian 12 (debootstrap --variant=minbase
# bookworm: no make, no gcc, no python3, no git) gets from the README's
# first commands to a booted `simple`; FRESH_SUITE=trixie (Debian 13) and
# FRESH_SUITE=sid the same. The README's first code block is run as it
# stands, line by line up to `make demo`, as root in a chroot holding a
# clone of this tree (HEAD: commit first) and nothing else of the host.
# The root is the release asked for; the kernel booted is the release's own
# (a package the README's commands installed: 6.1 on bookworm, 6.12 on
# trixie); ./vm booted it at its PVH entry (the ELF it unpacked from the
# bzImage with the decompressor the lean install brought: xz on bookworm,
# zstd on trixie), and with no decompressor it would boot the bzImage, so
# the check can tell. That the lean install starts and enables no service
# is install-deps.sh's (here a policy-rc.d of the harness's is in the way).
#
# Slow tier, not boot tier: it downloads and installs everything
# host/install-deps lists (about 1 GiB from Debian's archive) into a new
# root, which takes many minutes and needs the network; it proves the
# set-up, which no other test does from nothing.
# The root, its mounts and the package cache: tests/fresh/lib.inc (FRESH_MIRROR,
# FRESH_ROOT, FRESH_CACHE).
. "$(dirname "$0")/../tap.sh"

. "$TOP/tests/fresh/lib.inc"
# debootstrap and git, installed as the slow tier's other tests install
# what they need (kernel-src.sh, run next, needs the rest of that list)
fresh_root_or_skip debootstrap git

# the README's first block: its commands up to `make demo`, comments dropped
mapfile -t cmds < <(awk '/^```sh$/ && !done { inblock = 1; next }
	inblock && /^```/ { exit }
	inblock { sub(/[ \t]+#.*/, ""); if ($0 != "") print; if ($0 ~ /make demo$/) exit }' "$TOP/README.md")
if [ ${#cmds[@]} -eq 0 ] || [[ "${cmds[${#cmds[@]}-1]}" != *"make demo" ]]; then
	not_ok "README.md: its first sh block ends with make demo (got: ${cmds[*]:-nothing})"
	done_testing
fi
ok "README.md's first commands: ${cmds[*]}"

# dry_kernel: the -kernel of ./vm --dry-run in the chroot's clone,
# its stderr in $T/dry.err
dry_kernel() {
	in_root "cd /root/rapido && QEMU_ACCEL=tcg ./vm --dry-run" 2> "$T/dry.err" |
		sed -n '/^-kernel$/{n;p;q}'
}
# pvh_checks: make demo's ./vm booted the kernel at its PVH entry: the ELF
# it unpacked into its cache (~/.cache/rapido/kernels, the demo's
# CUT_CACHE_DIR) is what ./vm gives qemu, and it did not warn that it fell
# back to the bzImage. The same look without the decompressor sees the
# bzImage, so it tells the two apart; put back, the ELF again.
# the decompressors pvh_checks hides, put back however the test ends (a
# kept FRESH_ROOT would boot bzImages ever after)
hidden=()
unhide() {
	local t
	for t in "${hidden[@]}"; do
		mv "$R/usr/bin/$t.fresh-hidden" "$R/usr/bin/$t"
	done
	hidden=()
}
trap 'unhide; fresh_cleanup' EXIT
pvh_checks() {
	local kdir=/root/.cache/rapido/kernels elf k t

	elf=$(cd "$R$kdir" 2> /dev/null && compgen -G '*.elf')
	check "  make demo's ./vm unpacked the kernel for its PVH entry ($kdir/${elf:-nothing})" \
		test -n "$elf" -a "$(wc -l <<< "$elf")" = 1
	check "  and did not boot the bzImage (no 'boots as a bzImage')" \
		eval "! grep -q 'boots as a bzImage' '$T/last.log'"
	k=$(dry_kernel)
	check "  ./vm --dry-run gives qemu that ELF (-kernel ${k:-none})" test "$k" = "$kdir/$elf"
	[ -n "$elf" ] && rm -f "$R$kdir/$elf"
	for t in zstd xz; do
		[ -e "$R/usr/bin/$t" ] && mv "$R/usr/bin/$t" "$R/usr/bin/$t.fresh-hidden" && hidden+=("$t")
	done
	k=$(dry_kernel)
	check "with no decompressor (${hidden[*]:-none} hidden): ./vm --dry-run gives qemu the bzImage (-kernel ${k:-none})" \
		test "$k" = "/boot/vmlinuz-$booted"
	check "  saying no ${unpack:-zstd or xz} unpacks it" \
		grep -qF -e "no ${unpack:-zstd} on this machine to unpack kernel /boot/vmlinuz-$booted " \
		-e "no ${unpack:-xz} on this machine to unpack kernel /boot/vmlinuz-$booted " "$T/dry.err"
	[ $fails = 0 ] || sed 's/^/# /' "$T/dry.err"
	unhide
	k=$(dry_kernel)
	check "with them back: the ELF again (-kernel ${k:-none})" test "$k" = "$kdir/$elf"
}

start=$(date +%s)
fresh_debootstrap
check "the root is Debian $suite (its etc/os-release)" fresh_is_suite
check "the minimal root has no kernel (/boot/vmlinuz-*)" \
	eval "! compgen -G '$R/boot/vmlinuz-*' > /dev/null"
for c in make gcc python3 git; do
	check "the minimal root has no $c" test -z "$(chroot "$R" sh -c "command -v $c")"
done

fresh_machine

git clone -q "$TOP" "$R/root/rapido"
rc=$?	# (the $(...) below sets $? too)
expect_rc "git clone of this tree into the chroot ($(git -C "$TOP" rev-parse --short HEAD))" 0 $rc

# each command as the README gives it, in the clone, with a login's
# environment and nothing of ours (no RAPIDO_*, no CUT_CACHE_DIR); TCG, as
# every test here boots
for c in "${cmds[@]}"; do
	s=$(date +%s)
	timeout -k 10 5400 chroot "$R" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		QEMU_ACCEL=tcg /bin/bash -c 'cd /root/rapido && eval "$1"' fresh "$c" \
		> "$T/cmd.log" 2>&1 < /dev/null
	r=$?
	expect_rc "in the chroot: $c ($(( $(date +%s) - s ))s)" 0 $r
	[ $r = 0 ] || { tail -n 40 "$T/cmd.log" | sed 's/^/# /'; break; }
	cp "$T/cmd.log" "$T/last.log"
done
if [ $fails = 0 ]; then
	booted=$(sed -n 's/.*rapido: \([^ ]*\) up on rapido1.*/\1/p' "$T/last.log" | head -n 1)
	check "make demo booted simple (rapido: REL up on rapido1)" test -n "$booted"
	check "  the kernel the chroot installed (/boot/vmlinuz-$booted there)" \
		test -f "$R/boot/vmlinuz-$booted"
	# the release's own: its package, installed by the README's commands
	# from this root's archive, and of the release's series
	pkg=$(in_root "dpkg-query -S /boot/vmlinuz-$booted" 2> /dev/null | cut -d: -f1)
	check "  of Debian $suite's package linux-image-$booted (dpkg-query -S: ${pkg:-none})" \
		test "$pkg" = "linux-image-$booted"
	case $suite in
	bookworm) series=6.1 unpack=xz ;;
	trixie) series=6.12 unpack=zstd ;;
	*) series='' unpack='' ;;
	esac
	[ -z "$series" ] || check "  Debian $suite's series, $series" eval '[[ $booted == "$series".* ]]'
	pvh_checks
	check "  kernel console clean" \
		eval "! grep -aE '^\[ *[0-9.]+\] .*(BUG:|WARNING:|Oops|Call Trace)' '$T/last.log'"
	[ $fails = 0 ] || tail -n 40 "$T/last.log" | sed 's/^/# /'
fi
echo "# fresh chroot: $(( $(date +%s) - start ))s wall from debootstrap to the booted simple"
done_testing
