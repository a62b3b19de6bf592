#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# virtiofs.sh: ./vm --virtiofs with the real virtiofsd, through its two
# profiles:
#  1. hostfs (the host's / read-only over virtiofs, a tmpfs overlay on
#     it): HOSTFS_CMD runs a host program that is in no image; it exits
#     3, which fails its test: ./vm exits 1, junit.xml says so. In the
#     same boot the guest tries to write the host's / three ways (in the
#     overlay, on a second rw mount of the tag, on the lower mount
#     remounted rw): nothing reaches the host; the host's /proc and
#     devtmpfs are not in the share.
#  2. rapido run hostfs -- PROGRAM: PROGRAM's output and status (0, then 4)
#     are rapido run's.
#  3. ./cut hostfs names virtiofsd's packages where there is none;
#     virtiofsd is stopped on every way out: after each boot above, after
#     qemu refused its arguments (125), after ./vm got SIGTERM mid-run
#     (143, as for any signal).
#  4. fstests_virtiofs with the real xfstests (tests/suite-tree), its
#     failing copy (generic/002's golden output replaced): $vfs_pass
#     (generic/005) passes and generic/002 fails on two host directories,
#     in one boot: ./vm exits 1, the console and junit.xml agree. Before
#     it, a scratch share holding a file is refused untouched (1). With
#     generic/001 (tests/long/virtiofs-generic001.sh) 5 to 10 minutes under
#     TCG, each of its file copies a round trip to virtiofsd; this file,
#     two minutes for all four.
# tests/run timeout: 900s
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

if [ "$(id -u)" != 0 ]; then
	echo "SKIP: qemu's virtiofsd (Debian 12) runs as root only"
	exit 77
fi
if ! command -v virtiofsd > /dev/null && [ ! -x /usr/libexec/virtiofsd ] &&
	[ ! -x /usr/lib/qemu/virtiofsd ]; then
	echo "SKIP: no virtiofsd (Debian 12: qemu-system-common; Debian 13: virtiofsd)"
	exit 77
fi
# as root, ./vm gives virtiofsd a mount namespace of its own, / made a
# slave there, for a read-only view of a share: where / is no mount point
# (a plain chroot) that fails (EINVAL), as ip netns does (netns_or_why)
if ! unshare -m mount --make-rslave / 2> "$T/slave.err"; then
	echo "SKIP: / is no mount point here (a chroot? bind-mount its directory onto itself):" \
		"./vm's read-only view for virtiofsd needs one ($(tr '\n' ' ' < "$T/slave.err"))"
	exit 77
fi
want() { case " ${ONLY:-1 2 3 4} " in *" $1 "*) return 0 ;; esac; return 1; }

# our_virtiofsd: pids of this test's virtiofsd processes (their source
# or socket lies under $T)
our_virtiofsd() {
	local p
	for p in $(pgrep virtiofsd); do
		tr '\0' '\n' < "/proc/$p/cmdline" 2> /dev/null | grep -qF -- "$T/" && echo "$p"
	done
}
# stopped DESC: no virtiofsd of ours left, no socket or mount point left
stopped() {
	check "$1: virtiofsd stopped" test -z "$(our_virtiofsd)"
	check "$1: its socket and mount point removed" \
		sh -c "! ls '$VM_STATE_DIR' | grep -qE 'virtiofs[0-9]+\.(sock|root)'"
}

# The host program: in a directory of the host's root file system (the
# share is /'s mount alone, no mount under it)
H=$T/hostprog
if [ "$(stat -c %m "$T")" != / ]; then
	H=$(mktemp -d /var/tmp/rapido-hostfs.XXXXXX) || exit 1
	trap 'rm -rf "$H"' EXIT
	[ "$(stat -c %m "$H")" = / ] || { echo "SKIP: neither $T nor /var/tmp is on /'s mount"; exit 77; }
fi
mkdir -p "$H"
cat > "$H/prog" << EOF
#!/bin/sh
# in no image: the guest runs it from the host's /
echo "hostprog: \$(id -u) in the host's userspace: \$(basename "\$(readlink -f /proc/self/exe)")"
echo written > "$H/written-in-overlay" && echo "hostprog: wrote $H/written-in-overlay"
exit \${1:-0}
EOF
chmod +x "$H/prog"

if want 1; then
	printf "HOSTFS_CMD='%s 3'\n" "$H/prog" > "$RAPIDO_CONF"
	start=$(date +%s)
	"$CUT" hostfs -x "mkdir -p /mnt/rw && mount -t virtiofs host /mnt/rw &&
		{ echo x > /mnt/rw$H/w-rw-mount && echo 'vfs-ro: rw mount WROTE' || echo 'vfs-ro: rw mount refused'; }
		mount -o remount,rw /rapido-hostfs/lower
		{ echo x > /rapido-hostfs/lower$H/w-lower && echo 'vfs-ro: lower WROTE' || echo 'vfs-ro: lower refused'; }
		echo \"vfs-ro: host /proc entries: \$(ls -A /mnt/rw/proc | wc -l), /dev: \$(ls -A /mnt/rw/dev | wc -l)\"
		true" > "$T/cut.out" 2>&1 || { not_ok "cut hostfs"; sed 's/^/# /' "$T/cut.out"; }
	"$VM" --batch --timeout 600 --results "$T/res1" > "$T/console" 2> "$T/err"
	rc=$?
	expect_rc "1 hostfs, HOSTFS_CMD exits 3: a failed test ($(($(date +%s) - start))s)" 1 $rc
	check "1: the host program ran in the host's userspace" \
		guest_matches "$T/console" "^hostprog: 0 in the host's userspace: "
	check "1: its write went to the overlay" guest_says "$T/console" "hostprog: wrote $H/written-in-overlay"
	check "1: junit.xml: test hostfs failed with the program's status" \
		grep -q '<failure message="exit status 3"' "$T/res1/junit.xml"
	check "1: junit.xml's testcase" test "$(testcases "$T/res1/junit.xml")" = "hostfs failure"
	check "1: a second mount of the tag, rw, cannot write" guest_says "$T/console" "vfs-ro: rw mount refused"
	check "1: the lower mount remounted rw cannot write" guest_says "$T/console" "vfs-ro: lower refused"
	check "1: no write reached the host" \
		sh -c "! ls '$H' | grep -q '^w\\|written'"
	# what the share shows of /proc and /dev: the root file system's own
	# directories under the host's proc and devtmpfs (a debootstrap root's
	# /dev holds its static nodes), seen through a bind of / alone
	own=$(unshare -m sh -c 'd=$(mktemp -d) && mount --bind / "$d" &&
		echo "$(ls -A "$d/proc" | wc -l), /dev: $(ls -A "$d/dev" | wc -l)"')
	check "1: the host's /proc and /dev are not shared (the root fs's own: $own)" \
		guest_matches "$T/console" "vfs-ro: host /proc entries: $own\$"
	check "1: kernel console clean" console_clean "$T/console"
	stopped 1
	diag
fi

if want 2; then
	: > "$RAPIDO_CONF"
	for st in 0 4; do
		start=$(date +%s)
		"$TOP/run" hostfs -- "$H/prog" $st > "$T/run.out" 2> "$T/run.err"
		rc=$?
		expect_rc "2 rapido run hostfs -- prog $st: its status ($(($(date +%s) - start))s)" $st $rc
		check "2 ($st): its output" grep -q "^hostprog: 0 in the host's userspace" "$T/run.out"
		stopped "2 ($st)"
	done
	[ "$fails" = 0 ] || sed 's/^/# /' "$T/run.err"
fi

if want 3; then
	echo "VIRTIOFSD=$T/no-virtiofsd" > "$RAPIDO_CONF"
	run_err "3 ./cut hostfs without virtiofsd: named with its packages" \
		"virtiofsd not found: VIRTIOFSD=$T/no-virtiofsd (./vm shares /:host:ro over virtiofs for profile hostfs; Debian 13: apt-get install virtiofsd; Debian 12: apt-get install qemu-system-common)" \
		"$CUT" hostfs
	mkdir -p "$T/share"
	QEMU_EXTRA_ARGS=-no-such-qemu-option "$VM" --batch --virtiofs "$T/share:s" > "$T/out" 2>&1
	expect_rc "3 qemu refusing its arguments: 125" 125 $?
	stopped "3 qemu failed"
	# SIGTERM once the guest runs the command (a state, not a time)
	printf "HOSTFS_CMD='echo vfs-sleeping; sleep 1000'\n" > "$RAPIDO_CONF"
	"$CUT" hostfs > "$T/cut.out" 2>&1 || not_ok "cut hostfs (3)"
	"$VM" --batch --timeout 600 --log "$T/console" > /dev/null 2>&1 &
	vm=$!
	for ((i = 0; i < 3000; i++)); do
		guest_says "$T/console" vfs-sleeping 2> /dev/null && break
		kill -0 $vm 2> /dev/null || break
		sleep 0.2
	done
	check "3: virtiofsd runs while the guest does" test -n "$(our_virtiofsd)"
	kill -TERM $vm
	wait $vm
	expect_rc "3 ./vm stopped by SIGTERM: 128+15" 143 $?
	stopped "3 SIGTERM"
fi

if want 4; then
	xfstests_and_failing
	mkdir -p "$T/vtest" "$T/vscratch"
	vfs_pass=${vfs_pass:-generic/005}
	printf "FSTESTS_SRC=%s\nFSTESTS_TESTS='%s generic/002'\n" "$BAD" "$vfs_pass" > "$RAPIDO_CONF"
	"$CUT" fstests_virtiofs > "$T/cut.out" 2>&1 || { not_ok "cut fstests_virtiofs"; sed 's/^/# /' "$T/cut.out"; }
	# a scratch share that holds someone's files: refused, untouched
	mkdir -p "$T/precious" && echo keep > "$T/precious/file"
	"$VM" --batch --timeout 600 --virtiofs "$T/vtest:fstests-test" \
		--virtiofs "$T/precious:fstests-scratch" > "$T/console0" 2> "$T/err"
	rc=$?
	expect_rc "4: a scratch share with files in it: refused" 1 $rc
	check "4:   saying why" guest_says "$T/console0" "virtiofs tag fstests-scratch holds 1 files and no .rapido-fstests mark:"
	check "4:   its file untouched, no mark written" \
		test "$(cat "$T/precious/file")" = keep -a ! -e "$T/precious/.rapido-fstests"
	rm -f "$T/vtest/.rapido-fstests"
	start=$(date +%s)
	"$VM" --batch --timeout 1700 --results "$T/res4" --virtiofs "$T/vtest:fstests-test" \
		--virtiofs "$T/vscratch:fstests-scratch" > "$T/console" 2> "$T/err"
	rc=$?
	expect_rc "4 fstests_virtiofs $vfs_pass and a failing generic/002 ($(($(date +%s) - start))s)" 1 $rc
	want4=$(printf '%s pass\ngeneric/002 failure\n' "$vfs_pass" | LC_ALL=C sort)
	check "4: the guest printed: $vfs_pass pass, generic/002 failure" \
		test "$(xfstests_printed "$T/console")" = "$want4"
	check "4: junit.xml says the same" test "$(testcases "$T/res4/junit.xml" | LC_ALL=C sort)" = "$want4"
	check "4: FSTYP virtiofs" guest_says "$T/console" "FSTYP         -- virtiofs"
	check "4: the empty shares marked as fstests_virtiofs' own" \
		test -e "$T/vtest/.rapido-fstests" -a -e "$T/vscratch/.rapido-fstests"
	check "4: kernel console clean" console_clean "$T/console"
	stopped 4
	diag
fi
done_testing
