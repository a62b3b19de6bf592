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
#   FRESH_MIRROR   the Debian mirror (default http://deb.debian.org/debian)
#   FRESH_ROOT     where to build the chroot (default: a directory under
#                  /var/tmp, removed at the end unless KEEP_TEST_DIR is set)
. "$(dirname "$0")/../tap.sh"

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: needs root (debootstrap, chroot, mounts)"
	exit 77
fi
# debootstrap and git, installed as the slow tier's other tests install
# what they need (kernel-src.sh, run next, needs the rest of that list)
if { ! command -v debootstrap || ! command -v git; } > /dev/null &&
	! "$TOP/tests/slow/install-deps" > "$T/deps.log" 2>&1; then
	sed 's/^/# /' "$T/deps.log"
	echo "SKIP: cannot install debootstrap and git (tests/slow/install-deps)"
	exit 77
fi
mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
# the chroot is big: not in $T (often a small /tmp), but on /var/tmp
R=${FRESH_ROOT:-$(mktemp -d /var/tmp/rapido-fresh.XXXXXX)} || exit 1

mounted=()
cleanup() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount -l "${mounted[i]}" || echo "# umount ${mounted[i]} failed"
	done
	if [ -z "${KEEP_TEST_DIR:-}" ] && [ -z "${FRESH_ROOT:-}" ]; then
		# never remove through a mount that is still there
		if grep -qF " $R/" /proc/mounts; then
			echo "# $R still has mounts: left behind"
		else
			rm -rf "$R"
		fi
	fi
	rm -rf "$T"
}
trap cleanup EXIT
# mount_in ARGS... TARGET: mount and remember the target for cleanup
mount_in() {
	mount "$@" || return 1
	mounted+=("${!#}")
}

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
debootstrap --variant=minbase bookworm "$R" "$mirror" > "$T/debootstrap.log" 2>&1
expect_rc "debootstrap --variant=minbase bookworm ($(( $(date +%s) - start ))s)" 0 $?
[ $fails = 0 ] || { tail -n 20 "$T/debootstrap.log" | sed 's/^/# /'; done_testing; }
for c in make gcc python3 git; do
	check "the minimal root has no $c" test -z "$(chroot "$R" sh -c "command -v $c")"
done

# what a fresh machine has that a chroot lacks: /dev, /proc, /sys; a
# policy-rc.d so packages (samba, iscsid, ...) start no daemons that would
# outlive the chroot on this host
mount_in --bind /dev "$R/dev" && mount_in --bind /dev/pts "$R/dev/pts" &&
	mount_in -t proc proc "$R/proc" && mount_in -t sysfs sysfs "$R/sys" &&
	mount_in -t tmpfs tmpfs "$R/run"
expect_rc "bind /dev, mount /proc, /sys and /run in the chroot" 0 $?
printf '#!/bin/sh\nexit 101\n' > "$R/usr/sbin/policy-rc.d" && chmod 755 "$R/usr/sbin/policy-rc.d"
cp /etc/resolv.conf "$R/etc/resolv.conf"

git clone -q "$TOP" "$R/root/rapido"
expect_rc "git clone of this tree into the chroot ($(git -C "$TOP" rev-parse --short HEAD))" 0 $?

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
