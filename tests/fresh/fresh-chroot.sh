#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fresh-chroot.sh: a minimal Debian 12 (debootstrap --variant=minbase
# bookworm: no make, no gcc, no python3, no git) gets from the README's
# first commands to a booted `simple`. The README's first code block is run
# as it stands, line by line up to `make demo`, as root in a chroot holding
# a clone of this tree (HEAD: commit first) and nothing else of the host.
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

start=$(date +%s)
fresh_debootstrap
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
	check "  kernel console clean" \
		eval "! grep -aE '^\[ *[0-9.]+\] .*(BUG:|WARNING:|Oops|Call Trace)' '$T/last.log'"
	[ $fails = 0 ] || tail -n 40 "$T/last.log" | sed 's/^/# /'
fi
echo "# fresh chroot: $(( $(date +%s) - start ))s wall from debootstrap to the booted simple"
done_testing
