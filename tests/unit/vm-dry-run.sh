#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm-dry-run.sh: ./vm's checks that happen before any guest boots, on a
# fixture image made here without dracut (a newc archive holding only
# rapido/vm.conf, whose KERNEL_IMAGE is a dummy file): the qemu command
# line for multipath disks (--dry-run), and bad options, rapido.conf
# values, images, network and gdb settings, each refused with a message
# and ./vm's exit status before qemu starts. tests/boot/ boots real images.
. "$(dirname "$0")/../boot/lib.sh"

if [ ! -x "$VM" ]; then
	echo "SKIP: $VM is not built (run make)"
	exit 77
fi
unset QEMU_BIN QEMU_EXTRA_ARGS TAP_USER SUDO_USER

. "$(dirname "$0")/fixture-image.inc"
echo "not a kernel" > "$T/vmlinuz"

# before there is an image
run_err "vm without an image" "run ./cut PROFILE first" "$VM" --batch

mkimage "$DRACUT_OUT" "PROFILE=simple
KERNEL_IMAGE=$T/vmlinuz
KERNEL_RELEASE=0.0-fixture
"
"$VM" --dry-run > "$T/argv" 2> "$T/err"
expect_rc "dry-run of the fixture image" 0 $?
check "  boots its KERNEL_IMAGE" grep -qx -- "$T/vmlinuz" "$T/argv"
check "  and the image as initrd" grep -qx -- "$DRACUT_OUT" "$T/argv"
check "  printk.time=1 last on the command line (the splat scanner needs it)" \
	grep -q -- " printk.time=1'$" "$T/argv"
"$VM" --dry-run --append printk.time=0 > "$T/argv" 2> "$T/err"
check "  after the user's printk.time=0" grep -q -- "printk.time=0 .*printk.time=1'$" "$T/argv"
"$VM" --dry-run --results "$T/dry-results" > "$T/argv" 2> "$T/err"
expect_rc "dry-run with --results" 0 $?
check "  creates no results dir" test ! -e "$T/dry-results"
check "  and still shows its share" grep -q -- "path=$T/dry-results/files," "$T/argv"

# vng's habit, `./vm -- CMD`: the words after -- are qemu's, which takes a
# lone word for a disk image ("-r: invalid option" after the boot began);
# refused before qemu, naming rapido run; a file of that name is qemu's
run_err "vm -- uname -r (vng's habit) refused" "'uname' after --: .*rapido run -- uname" \
	"$VM" --dry-run -- uname -r
check "  nothing booted, the usage error's 125" test "$rc" = 125
"$VM" --dry-run -- -m 1G > "$T/argv" 2> "$T/err"
expect_rc "vm -- -m 1G: qemu's options pass" 0 $?
(cd "$T" && : > disk.raw && "$VM" --dry-run -- disk.raw) > "$T/argv" 2> "$T/err"
expect_rc "vm -- FILE: an existing file is qemu's disk image" 0 $?
check "  passed on" grep -qx disk.raw "$T/argv"

# --test-timeout: the guest takes the host's sysrq keys; the options' errors before a boot
"$VM" --dry-run --test-timeout 30 > "$T/argv" 2> "$T/err"
expect_rc "dry-run with --test-timeout" 0 $?
check "  sysrq_always_enabled on the command line (Debian's kernel.sysrq refuses t and w)" \
	grep -q -- " sysrq_always_enabled " "$T/argv"
"$VM" --dry-run > "$T/argv" 2> "$T/err"
check "  not without it" sh -c "! grep -q sysrq_always_enabled '$T/argv'"
run_err "--test-timeout-dump without --test-timeout" "needs --test-timeout SECS" \
	"$VM" --dry-run --test-timeout-dump
run_err "a --test-timeout that is no number" "test-timeout" "$VM" --dry-run --test-timeout soon
# a profile's #@ test-timeout (vm.conf's TEST_TIMEOUT), under the option and rapido.conf (#28)
mkimage "$T/tt.img" "PROFILE=slow
KERNEL_IMAGE=$T/vmlinuz
KERNEL_RELEASE=0.0-fixture
TEST_TIMEOUT=45
"
"$VM" --dry-run --test-timeout-dump "$T/tt.img" > "$T/argv" 2> "$T/err"
expect_rc "the profile's test-timeout: the watchdog is on (--test-timeout-dump accepted)" 0 $?
check "  sysrq_always_enabled" grep -q -- " sysrq_always_enabled " "$T/argv"
for how in "--test-timeout 0" "env VM_TEST_TIMEOUT=0" "conf VM_TEST_TIMEOUT=0"; do
	case $how in
	conf*) echo "${how#conf }" > "$RAPIDO_CONF"; set -- "$VM" ;;
	env*) set -- env "${how#env }" "$VM" ;;
	*) set -- "$VM" $how ;;
	esac
	"$@" --dry-run "$T/tt.img" > "$T/argv" 2> "$T/err"
	check "  $how overrides it: no watchdog" sh -c "! grep -q sysrq_always_enabled '$T/argv'"
	: > "$RAPIDO_CONF"
done
run_err "--test-timeout-dump with the profile's timeout overridden to 0" "needs --test-timeout SECS" \
	env VM_TEST_TIMEOUT=0 "$VM" --dry-run --test-timeout-dump "$T/tt.img"
mkimage "$T/tt0.img" "PROFILE=slow
KERNEL_IMAGE=$T/vmlinuz
TEST_TIMEOUT=0
"
run_err "an image whose TEST_TIMEOUT is 0: refused, named" "rapido/vm.conf: TEST_TIMEOUT: expected a number" \
	"$VM" --dry-run "$T/tt0.img"
printf '^WARNING: # bug 1\nno reason\n(x # fine\n' > "$T/allow"
run_err "a bad --splats-allow file: each bad line by FILE:LINE" "$T/allow:2: no reason for 'no reason'" \
	"$VM" --dry-run --splats-allow "$T/allow"
check "  and the bad regex too" grep -q "$T/allow:3: bad regular expression '(x'" "$T/out"
echo "VM_SPLATS_ALLOW=$T/missing" > "$RAPIDO_CONF"
run_err "VM_SPLATS_ALLOW names a missing file" "VM_SPLATS_ALLOW: $T/missing: No such file" "$VM" --dry-run
: > "$RAPIDO_CONF"

# --splats: kernel report detection is turned off only by saying none; an
# empty or all-negative list is a usage error (issue 40 #5), VM_SPLATS too,
# and the same checks as ./cut --check-conf's (tests/unit/cut-check-conf.sh)
for l in '' , ' , ' -bug -all bug,-bug; do
	run_err "--splats '$l': refused, detection is not turned off by a slip" \
		"detection off\|leaves a kind out of nothing" \
		"$VM" --dry-run --splats "$l"
	check "  by its option's name" grep -q -- "--splats: " "$T/out"
done
"$VM" --dry-run --splats none > "$T/argv" 2> "$T/err"
expect_rc "--splats none: accepted" 0 $?
"$VM" --dry-run --splats all,-warning,-hung-task > "$T/argv" 2> "$T/err"
expect_rc "--splats all,-warning,-hung-task: accepted" 0 $?
echo "VM_SPLATS=,-oops" > "$RAPIDO_CONF"
run_err "VM_SPLATS=,-oops: refused with FILE:LINE" "$RAPIDO_CONF:1: VM_SPLATS: " "$VM" --dry-run
echo "VM_SHARD=3/2" > "$RAPIDO_CONF"
run_err "VM_SHARD=3/2: refused with FILE:LINE" \
	"$RAPIDO_CONF:1: VM_SHARD: expected I/N with 1 <= I <= N <= 10000, such as 2/4, got '3/2'" \
	"$VM" --dry-run
: > "$RAPIDO_CONF"

# VM_KERNEL: the kernel shipped with an image cut elsewhere (the CI configs)
echo "another kernel" > "$T/shipped"
VM_KERNEL=$T/shipped "$VM" --dry-run > "$T/argv" 2> "$T/err"
expect_rc "dry-run with VM_KERNEL" 0 $?
check "  boots VM_KERNEL, not KERNEL_IMAGE" \
	eval 'grep -qx -- "$T/shipped" "$T/argv" && ! grep -qx -- "$T/vmlinuz" "$T/argv"'
VM_KERNEL=$T/nonexistent "$VM" --dry-run > "$T/out" 2>&1
expect_rc "a VM_KERNEL that is not there" 125 $?
check "  named with where it was set" grep -q "environment: VM_KERNEL.*kernel $T/nonexistent: No such file" "$T/out"
mkimage "$T/elsewhere" "PROFILE=simple
KERNEL_IMAGE=$T/gone
KERNEL_RELEASE=0.0-fixture
"
"$VM" --dry-run "$T/elsewhere" > "$T/out" 2>&1
expect_rc "an image whose recorded kernel is not here" 125 $?
check "  says to set VM_KERNEL" grep -qF "kernel $T/gone recorded in $T/elsewhere (an image cut elsewhere: set VM_KERNEL): No such file" "$T/out"

# the kernel's own release (a bzImage's setup header) is the image's: a
# VM_KERNEL of another release, or a kernel rebuilt since the cut, is
# refused before qemu starts (the image's modules are another release's)
# bzimage FILE RELEASE: as far as the header goes ("HdrS" at 0x202,
# kernel_version at 0x20e pointing at 0x300)
bzimage() {
	{
		head -c $((0x202)) /dev/zero
		printf 'HdrS'
		head -c $((0x20e - 0x206)) /dev/zero
		printf '\000\001'
		head -c $((0x300 - 0x210)) /dev/zero
		printf '%s (fixture@example) #1 SMP\000' "$2"
		head -c 512 /dev/zero
	} > "$1"
}
bzimage "$T/bz-same" 0.0-fixture
bzimage "$T/bz-other" 9.9-other
VM_KERNEL=$T/bz-same "$VM" --dry-run > "$T/argv" 2> "$T/err"
expect_rc "VM_KERNEL of the image's release" 0 $?
VM_KERNEL=$T/bz-other "$VM" --dry-run > "$T/out" 2>&1
expect_rc "VM_KERNEL of another release: 125" 125 $?
check "  names both releases and where VM_KERNEL was set" grep -qF \
	"environment: VM_KERNEL: kernel $T/bz-other is release 9.9-other, but $DRACUT_OUT was cut for 0.0-fixture" "$T/out"
mkimage "$T/rebuilt" "PROFILE=simple
KERNEL_IMAGE=$T/bz-other
KERNEL_RELEASE=0.0-fixture
"
"$VM" --dry-run "$T/rebuilt" > "$T/out" 2>&1
expect_rc "the recorded kernel rebuilt as another release: 125" 125 $?
check "  says to cut again" grep -qF \
	"kernel $T/bz-other recorded in $T/rebuilt is now release 9.9-other, but the image was cut for 0.0-fixture (the kernel was rebuilt since): cut it again" "$T/out"

# --append (issue 33): over COMMAND_LINE_SIZE, or setting ./vm's own rapido.* keys
long=$(printf 'x%.0s' $(seq 2100))
"$VM" --dry-run --append "$long" > "$T/out" 2>&1
expect_rc "--append over the kernel's command line limit: 125" 125 $?
check "  names the limit" grep -q "over the kernel's limit of 2047 (COMMAND_LINE_SIZE" "$T/out"
"$VM" --dry-run --append "$(printf 'x%.0s' $(seq 1500))" > "$T/out" 2>&1
expect_rc "--append of 1500 characters fits" 0 $?
for k in rapido.nonce=0123 rapido.vm=7 rapido.batch=0 rapido.results=1; do
	"$VM" --dry-run --append "quiet $k" > "$T/out" 2>&1
	expect_rc "--append $k: 125" 125 $?
	check "  named: ./vm's own key" grep -q "^vm: --append: '$k': the kernel's rapido.\* parameters are set by ./vm" "$T/out"
done
QEMU_EXTRA_KERNEL_PARAMS=rapido.nonce=1 "$VM" --dry-run > "$T/out" 2>&1
expect_rc "QEMU_EXTRA_KERNEL_PARAMS with rapido.nonce=: 125" 125 $?

# multipath: one backing file as N scsi-hd paths with one serial
truncate -s 64M "$T/disk0" "$T/disk1"
"$VM" --dry-run --mpath "$T/disk0" > "$T/argv"
expect_rc "dry-run with one multipath disk" 0 $?
check "two scsi-hd paths" test "$(grep -c '^scsi-hd,' "$T/argv")" = 2
check "same serial on both paths" test "$(grep '^scsi-hd,' "$T/argv" | sed 's/.*serial=\([^,]*\).*/\1/' | sort -u | wc -l)" = 1
check "one virtio-scsi controller" test "$(grep -c '^virtio-scsi-pci' "$T/argv")" = 1
check "raw file node with cache.direct" grep -q "^driver=file,node-name=mp0,filename=$T/disk0,cache.direct=on" "$T/argv"

"$VM" --dry-run --mpath "$T/disk0" --mpath "$T/disk1" --mpath-paths 3 > "$T/argv"
check "two disks x three paths" test "$(grep -c '^scsi-hd,' "$T/argv")" = 6
check "distinct serials per disk" test "$(grep '^scsi-hd,' "$T/argv" | sed 's/.*serial=\([^,]*\).*/\1/' | sort -u | wc -l)" = 2

printf 'QEMU_MPATH_DISKS="%s"\n' "$T/disk1" > "$RAPIDO_CONF"
"$VM" --dry-run > "$T/argv"
check "QEMU_MPATH_DISKS from rapido.conf" grep -q "filename=$T/disk1," "$T/argv"
: > "$RAPIDO_CONF"

"$VM" --dry-run --mpath "$T/nonexistent" > "$T/out" 2>&1
expect_rc "missing backing file" 125 $?
check "  named in the error" grep -q "multipath backing file $T/nonexistent: No such file" "$T/out"
"$VM" --dry-run --mpath "$T" > "$T/out" 2>&1
check "a directory is refused" grep -q "is not a regular file or block device" "$T/out"

# images that are not
echo "not a cpio" > "$T/notimage"
run_err "vm with a file that is not an image" "not an image made by ./cut" "$VM" --batch "$T/notimage"
rm -f "$T/notimage"

# options
run_err "bad --accel" "expected auto, kvm or tcg" "$VM" --accel hvf "$T/x"
run_err "bad vm option" "Try '$VM --help'" "$VM" --bogus
"$VM" --bogus > /dev/null 2>&1
expect_rc "vm usage error is 125" 125 $?
run_err "bad gdb port" "--gdb: expected HOST:PORT with a port from 1 to 65535" "$VM" --gdb=127.0.0.1:99999
run_err "--gdb-wait alone" "--gdb-wait needs --gdb" "$VM" --gdb-wait

# rapido.conf: the same strict parser as ./cut, nothing executed
printf 'OK=1\nQEMU_EXTRA_ARGS=$(touch %s/pwned)\n' "$T" > "$RAPIDO_CONF"
run_err "vm reads the same strict config" "$RAPIDO_CONF:2: command substitution" "$VM" --batch
check "nothing was executed" test ! -e "$T/pwned"
: > "$RAPIDO_CONF"

# network settings
run_err "a TAP that does not exist" "TAP device rapido-nosuch0 does not exist" "$VM" --batch --tap rapido-nosuch0
run_err "default TAP for the VM number is looked for" "TAP device rapido-tap1 does not exist" "$VM" --batch --net tap
echo 'VM1_IP=10.1.2/24' > "$RAPIDO_CONF"
run_err "bad per-VM address" "$RAPIDO_CONF:1: VM1_IP: expected an IPv4 address" "$VM" --dry-run --link-listen 127.0.0.1:5000
: > "$RAPIDO_CONF"
run_err "bad --net mode" "expected tap, user or none" "$VM" --batch --net bridge
run_err "bad link address" "expected HOST:PORT" "$VM" --batch --link-connect nowhere
run_err "bad port forward" "port forward 'tcp:2222'" "$VM" --batch --hostfwd tcp:2222
# issue 40: qemu was handed -m 1073741824M
run_err "--memory beyond the host's RAM: named, with the host's total" \
	"--memory: '1P' is more than this host's memory ([0-9]*[MGT])" "$VM" --dry-run --memory 1P
echo "VM_MEMORY=1P" > "$RAPIDO_CONF"
run_err "VM_MEMORY beyond the host's RAM: FILE:LINE" \
	"$RAPIDO_CONF:1: VM_MEMORY: '1P' is more than this host's memory" "$VM" --dry-run
: > "$RAPIDO_CONF"

# --jobs: what N VMs cannot share, and the memory N of them need, refused
# before any VM number is taken (no vmN.log, nothing in DIR)
run_err "--jobs without --batch" "--jobs: needs --batch" "$VM" --jobs 2 --results "$T/j"
run_err "--jobs without --results" "--jobs: needs --results DIR" "$VM" --batch --jobs 2
run_err "--jobs with --shard" "--jobs: not with --jobs: --shard (VM_SHARD)" \
	"$VM" --batch --jobs 2 --shard 1/2 --results "$T/j"
run_err "--jobs with --log" "--jobs: not with --jobs: --log PATH" \
	"$VM" --batch --jobs 2 --log "$T/one.log" --results "$T/j"
avail=$(awk '$1 == "MemAvailable:" {print int($2 / 1024)}' /proc/meminfo)
run_err "--jobs beyond MemAvailable: the memory N VMs need, and what fits" \
	"--jobs: 2 VMs of $avail MiB need $((2 * avail)) MiB, and MemAvailable is [0-9]* MiB: at most [01] fit\|not one fits" \
	"$VM" --batch --jobs 2 --memory "${avail}M" --results "$T/j"
check "  with the memory's source" grep -q "(memory from --memory)" "$T/out"
echo "VM_JOBS=64" > "$RAPIDO_CONF"
run_err "VM_JOBS beyond MemAvailable: the key's FILE:LINE" "$RAPIDO_CONF:1: VM_JOBS: 64 VMs of 512 MiB" \
	"$VM" --batch --memory 512M --results "$T/j"
"$VM" --dry-run > /dev/null 2>&1
expect_rc "VM_JOBS is for batch runs: an interactive (here dry) run is one VM" 0 $?
: > "$RAPIDO_CONF"
printf 'generic/336\nbad"name\n' > "$T/serial.list"
run_err "a --serial-tests line the command line cannot carry: FILE:LINE" \
	"$T/serial.list:2: 'bad\"name': a test name cannot hold" \
	"$VM" --batch --jobs 1 --serial-tests "$T/serial.list" --results "$T/j"
run_err "--serial-tests without --jobs" "--serial-tests: only with --jobs" \
	"$VM" --batch --serial-tests "$T/serial.list" --results "$T/j"
check "--jobs booted nothing, created nothing" test ! -e "$T/j"
check "no qemu was started" test ! -s "$VM_STATE_DIR/vm1.log"

# --virtiofs: virtiofsd's socket in the private state dir, the guest's RAM
# a shared memfd (vhost-user), the tag; a profile's #@ virtiofs (vm.conf's
# VIRTIOFS) unless a share has its tag; bad specs and a missing virtiofsd.
# A fake virtiofsd that can do all, whichever the host has and whoever runs this.
mkdir -p "$T/vfs"
printf '#!/bin/sh\necho "--shared-dir --readonly"\n' > "$T/vfsd-all"
printf '#!/bin/sh\necho "--shared-dir"\n' > "$T/vfsd-rust"
printf '#!/bin/sh\necho "-o source=PATH"\n' > "$T/vfsd-c"
chmod +x "$T/vfsd-all" "$T/vfsd-rust" "$T/vfsd-c"
export VIRTIOFSD=$T/vfsd-all
"$VM" --dry-run --virtiofs "$T/vfs:ftag" > "$T/argv" 2> "$T/err"
expect_rc "dry-run with --virtiofs" 0 $?
check "  RAM is a shared memfd, the one NUMA node" \
	sh -c "grep -qx 'memory-backend-memfd,id=rapido-mem,size=512M,share=on' '$T/argv' &&
		grep -qx 'node,memdev=rapido-mem' '$T/argv'"
check "  virtiofsd's socket in the state dir" \
	grep -qx "socket,id=virtiofs0,path=$VM_STATE_DIR/vm1.virtiofs0.sock" "$T/argv"
check "  the device with its tag" grep -qx "vhost-user-fs-pci,chardev=virtiofs0,tag=ftag" "$T/argv"
check "  the guest loads virtiofs" grep -q " rapido.virtiofs=1 " "$T/argv"
check "  nothing started, no socket made" sh -c "! ls '$VM_STATE_DIR' | grep -q virtiofs"
"$VM" --dry-run > "$T/argv" 2> "$T/err"
check "  none of it without a share" sh -c "! grep -q 'virtiofs\|memfd' '$T/argv'"
mkimage "$T/vfs.img" "PROFILE=hostfs
KERNEL_IMAGE=$T/vmlinuz
KERNEL_RELEASE=0.0-fixture
VIRTIOFS=/:host:ro
"
"$VM" --dry-run "$T/vfs.img" > "$T/argv" 2> "$T/err"
expect_rc "a profile's #@ virtiofs" 0 $?
check "  is shared as its tag" grep -qx "vhost-user-fs-pci,chardev=virtiofs0,tag=host" "$T/argv"
"$VM" --dry-run --virtiofs "$T/vfs:host" "$T/vfs.img" > "$T/argv" 2> "$T/err"
check "  unless a share of the user's has that tag" \
	sh -c "grep -c vhost-user-fs-pci '$T/argv' | grep -qx 1 && grep -q 'tag=host' '$T/argv'"
run_err "--virtiofs of a missing directory" "--virtiofs $T/nodir:x: directory $T/nodir" \
	"$VM" --dry-run --virtiofs "$T/nodir:x"
mkimage "$T/vfs-bad.img" "PROFILE=hostfs
KERNEL_IMAGE=$T/vmlinuz
KERNEL_RELEASE=0.0-fixture
VIRTIOFS=$T/nodir:host
"
run_err "a bad share of the image's own: named as the image's, not as --virtiofs" \
	"$T/vfs-bad.img: rapido/vm.conf: VIRTIOFS=$T/nodir:host: directory $T/nodir" \
	"$VM" --dry-run "$T/vfs-bad.img"
run_err "--virtiofs with a bad tag" "tag 'a,b' must be 1-36 letters" \
	"$VM" --dry-run --virtiofs "$T/vfs:a,b"
run_err "--virtiofs with a bad mode" "'rx' is no mode (expected ro or rw" \
	"$VM" --dry-run --virtiofs "$T/vfs:t:rx"
run_err "two --virtiofs of one tag" "tag t is taken by $T/vfs:t" \
	"$VM" --dry-run --virtiofs "$T/vfs:t" --virtiofs "$T/vfs:t:ro"
echo "VM_VIRTIOFS=$T/vfs" > "$RAPIDO_CONF"
"$VM" --dry-run > "$T/argv" 2> "$T/err"
check "VM_VIRTIOFS: tag virtiofs0 by default" grep -qx "vhost-user-fs-pci,chardev=virtiofs0,tag=virtiofs0" "$T/argv"
unset VIRTIOFSD
echo "VIRTIOFSD=$T/no-virtiofsd" >> "$RAPIDO_CONF"
run_err "a VIRTIOFSD that is not there: its FILE:LINE and the packages" \
	"$RAPIDO_CONF:2: VIRTIOFSD: $T/no-virtiofsd not found or not executable (Debian 13: apt-get install virtiofsd; Debian 12: apt-get install qemu-system-common)" \
	"$VM" --dry-run
: > "$RAPIDO_CONF"
# what a user's virtiofsd cannot do, refused before anything starts (so in
# --dry-run too): qemu's C virtiofsd runs as root only; a :ro share needs
# --readonly, which only root does without (a read-only view of its own).
# As root: in a user namespace of its own, where ./vm's uid is 65534.
as_user=()
[ "$(id -u)" = 0 ] && as_user=(unshare -U)
if [ "$(id -u)" != 0 ] || unshare -U true 2> /dev/null; then
	run_err "a :ro share and a virtiofsd without --readonly, as a user: refused in --dry-run" \
		"--virtiofs $T/vfs:t:ro: $T/vfsd-rust has no --readonly, and only root can make a read-only view of $T/vfs" \
		env VIRTIOFSD="$T/vfsd-rust" "${as_user[@]}" "$VM" --dry-run --virtiofs "$T/vfs:t:ro"
	run_err "qemu's C virtiofsd as a user: refused in --dry-run" \
		"--virtiofs: $T/vfsd-c (qemu's virtiofsd, Debian 12) runs as root only" \
		env VIRTIOFSD="$T/vfsd-c" "${as_user[@]}" "$VM" --dry-run --virtiofs "$T/vfs:t"
else
	skip "a :ro share and a virtiofsd without --readonly, as a user" "root, and unshare -U fails"
	skip "qemu's C virtiofsd as a user" "root, and unshare -U fails"
fi
VIRTIOFSD="$T/vfsd-rust" "$VM" --dry-run --virtiofs "$T/vfs:t" > /dev/null 2> "$T/err"
expect_rc "  a writable share with the Rust one that has no --readonly is fine" 0 $?

# ./vm as PID 1 of a PID namespace (a container's init): its children,
# virtiofsd and qemu, see a parent of PID 1 that is alive, and still run
# (fakes that say they ran; the fake qemu fails after a second)
printf '#!/bin/sh\n[ "$1" = --help ] && { echo "--shared-dir"; exit 0; }\necho ran > "%s/vfsd-ran"\nexec sleep 30\n' \
	"$T" > "$T/vfsd-ran.sh"
printf '#!/bin/sh\necho ran > "%s/qemu-ran"\nsleep 1\nexit 1\n' "$T" > "$T/qemu-ran.sh"
chmod +x "$T/vfsd-ran.sh" "$T/qemu-ran.sh"
pidns=(unshare -pf --mount-proc)
[ "$(id -u)" = 0 ] || pidns=(unshare -Urpf --mount-proc)
if "${pidns[@]}" true 2> /dev/null; then
	VIRTIOFSD="$T/vfsd-ran.sh" QEMU_BIN="$T/qemu-ran.sh" "${pidns[@]}" "$VM" --batch \
		--virtiofs "$T/vfs:t" > "$T/out" 2>&1
	check "./vm as PID 1 of a PID namespace: virtiofsd runs" test -s "$T/vfsd-ran"
	check "  and qemu runs" test -s "$T/qemu-ran"
else
	skip "./vm as PID 1 of a PID namespace: virtiofsd runs" "unshare -p fails here"
	skip "  and qemu runs" "unshare -p fails here"
fi

# virtiofsd as started (a fake Rust one that writes down its argv and what
# its descriptors are; a fake qemu that waits for that, then fails): stdin
# /dev/null and the socket on fd 3, nothing else ./vm opened leaked into it
# (the caller's own descriptors, which ./vm inherited, are left out); as a
# user, confined to DIR by its namespace sandbox, never --sandbox none
# (unconfined: the guest could reach the host's whole /).
# As root: in a user namespace of its own, as uid 1000.
cat > "$T/vfsd-rec.sh" << EOF
#!/bin/bash
[ "\$1" = --help ] && { echo "--shared-dir --readonly"; exit 0; }
printf '%s\n' "\$@" > "$T/vfsd-argv.tmp"
ls -l /proc/\$\$/fd/ > "$T/vfsd-ls"
awk '/->/ { print \$(NF - 2), \$NF }' "$T/vfsd-ls" > "$T/vfsd-fds.tmp"
mv "$T/vfsd-fds.tmp" "$T/vfsd-fds"; mv "$T/vfsd-argv.tmp" "$T/vfsd-argv"
exec sleep 30
EOF
printf '#!/bin/sh\nfor i in $(seq 300); do [ -e "%s/vfsd-argv" ] && exit 1; sleep 0.1; done\nexit 1\n' \
	"$T" > "$T/qemu-vfsd.sh"
chmod +x "$T/vfsd-rec.sh" "$T/qemu-vfsd.sh"
ls /proc/$BASHPID/fd > "$T/our-fds"
VIRTIOFSD="$T/vfsd-rec.sh" QEMU_BIN="$T/qemu-vfsd.sh" "$VM" --batch --virtiofs "$T/vfs:t" \
	> "$T/out" 2>&1
check "virtiofsd started: its stdin is /dev/null" grep -qx "0 /dev/null" "$T/vfsd-fds"
check "  the socket on fd 3" grep -q "^3 socket:" "$T/vfsd-fds"
# what is left: its own script (bash keeps it open), and descriptors ./vm had from us
awk 'NR == FNR { ours[$1] = 1; next } $1 > 3 && !($1 in ours) && $2 !~ /vfsd-rec.sh$/' \
	"$T/our-fds" "$T/vfsd-fds" > "$T/vfsd-leaked"
check "  no other descriptor ./vm opened (a /dev/null, its log, a pipe)" \
	sh -c "! grep . '$T/vfsd-leaked' >&2"
check "  as root: sandboxed as virtiofsd does by default" sh -c "! grep -qx -- --sandbox '$T/vfsd-argv'"
rm -f "$T/vfsd-argv" "$T/vfsd-fds"
as_uid=()
[ "$(id -u)" = 0 ] && as_uid=(unshare --map-user=1000 --map-group=1000)
if [ "$(id -u)" != 0 ] || "${as_uid[@]}" true 2> /dev/null; then
	VIRTIOFSD="$T/vfsd-rec.sh" QEMU_BIN="$T/qemu-vfsd.sh" "${as_uid[@]}" "$VM" --batch \
		--virtiofs "$T/vfs:t" > "$T/out" 2>&1
	check "as a user: virtiofsd confined to DIR by its namespace sandbox" \
		sh -c "grep -A1 -x -- --sandbox '$T/vfsd-argv' | grep -qx namespace"
	check "  never --sandbox none" sh -c "! grep -qx none '$T/vfsd-argv'"
	check "  shares DIR" sh -c "grep -A1 -x -- --shared-dir '$T/vfsd-argv' | grep -qx '$T/vfs'"
else
	skip "as a user: virtiofsd confined to DIR by its namespace sandbox" "unshare --map-user fails"
	skip "  never --sandbox none" "unshare --map-user fails"
	skip "  shares DIR" "unshare --map-user fails"
fi

# qemu that cannot start, or refuses its arguments: 125, not a guest's status
QEMU_BIN=/nonexistent/qemu "$VM" --batch > "$T/out" 2>&1
expect_rc "qemu that cannot start gives 125" 125 $?
if command -v qemu-system-x86_64 > /dev/null; then
	QEMU_EXTRA_ARGS="-no-such-qemu-option" "$VM" --batch > "$T/out" 2>&1
	expect_rc "qemu rejecting its arguments gives 125" 125 $?
	check "  and its error is shown" grep -q "no-such-qemu-option" "$T/out"
else
	skip "qemu rejecting its arguments" "qemu-system-x86_64 is not installed"
	skip "  and its error is shown" "qemu-system-x86_64 is not installed"
fi
done_testing
