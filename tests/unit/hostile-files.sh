#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# hostile-files.sh: every file ./cut and ./vm open, with a symbolic link
# (to a victim file, or for a reader to a FIFO), a FIFO, /dev/zero and an
# empty path in its place: rapido.conf, a profile of RAPIDO_PROFILE_PATH,
# an #@ include: fragment, a #@ files: source, KERNEL_SRC's
# kernel.release, --write-known-failures, --serial-tests, the VM lock
# files, the --results files, the VM log, virtiofsd's log and the state directory. Each case must end (under
# timeout: a hang fails), within bounded memory, by a failure naming the
# path (or, for a file the command does not need, a plain success), and
# leave the victim file as it was. No guest boots: the image is a fixture
# whose kernel qemu refuses, which is enough for ./vm to open its files.
# Minutes of work: over the unit tier's 300 s on a loaded 2-core machine
# (the Debian 13 chroot under CI load), so:
# tests/run timeout: 900s
. "$(dirname "$0")/../boot/lib.sh"

for p in "$CUT" "$VM"; do
	if [ ! -x "$p" ]; then
		echo "SKIP: $p is not built (run make)"
		exit 77
	fi
done
unset QEMU_BIN QEMU_EXTRA_ARGS TAP_USER SUDO_USER KERNEL_SRC RAPIDO_PROFILE_PATH
. "$(dirname "$0")/fixture-image.inc"
simple_image
# bounded memory: /dev/zero read to the end is gigabytes within the timeout;
# ASan (gcc's libasan, or clang's linked in: both name __asan_init) maps
# terabytes of shadow, which ulimit -v refuses
if grep -qa __asan_init "$VM"; then
	export ASAN_OPTIONS=hard_rss_limit_mb=1000${ASAN_OPTIONS:+:$ASAN_OPTIONS}
	mem_cap=unlimited
else
	mem_cap=4000000
fi

victim=$T/victim
echo "precious: nobody may write here" > "$victim"
touch -d '2001-01-01 00:00' "$victim"
victim_was=$(stat -c '%s %Y' "$victim"; cat "$victim")
mkfifo "$T/fifo"

# put KIND PATH: link (to the victim), fifo-link (a link to a FIFO), fifo, zero (a link to
# /dev/zero), hardlink (another name of the victim)
put() {
	rm -rf "$2"
	mkdir -p "$(dirname "$2")"
	case $1 in
	link) ln -s "$victim" "$2" ;;
	fifo-link) ln -s "$T/fifo" "$2" ;;
	fifo) mkfifo "$2" ;;
	zero) ln -s /dev/zero "$2" ;;
	hardlink) ln "$victim" "$2" ;;
	esac
}

# hostile DESC WANT NAME COMMAND...: COMMAND ends within the timeout and the
# memory cap; WANT fail: non-zero, its output naming NAME; WANT ok: exit 0;
# WANT replaced: NAME refused by name, or removed and made anew as a regular
# file (a run's own file in its results dir: resdir.c unlinks it first).
# Either way the victim is untouched.
hostile() {
	local d=$1 want=$2 name=$3 why=
	shift 3
	(ulimit -v $mem_cap; exec timeout -s KILL 20 "$@") > "$T/out" 2>&1 < /dev/null
	rc=$?
	: > "$T/err"
	if [ $rc = 137 ]; then
		why="hung (killed after 20 s)"
	elif [ "$want" = fail ] && [ $rc = 0 ]; then
		why="exit 0"
	elif [ "$want" = fail ] && ! grep -qF -- "$name" "$T/out"; then
		why="no message naming $name"
	elif [ "$want" = replaced ] && ! grep -qF -- "$name" "$T/out" &&
	     ! { [ -f "$name" ] && [ ! -L "$name" ]; }; then
		why="neither refused by name nor made anew as a regular file"
	elif [ "$want" = fail ] && grep -q 'Wrong medium type\|out of memory\|AddressSanitizer' "$T/out"; then
		why="a message that does not say what is wrong"
	elif [ "$want" = ok ] && [ $rc != 0 ]; then
		why="exit $rc"
	elif [ "$(stat -c '%s %Y' "$victim"; cat "$victim")" != "$victim_was" ]; then
		why="the victim file was written"
		echo "precious: nobody may write here" > "$victim"
		touch -d '2001-01-01 00:00' "$victim"
	fi
	if [ -z "$why" ]; then
		ok "$d"
	else
		not_ok "$d: $why"
		show_run
	fi
}

# The one way in: src/ opens a file to read through io.c (read_file,
# read_regular_file, open_regular: a regular file, never a blocking open).
# Left: files ./cut makes itself (dracut's archive, secret trees, build/'s
# helpers), mpath's disks (O_RDWR never blocks), the kernel's /dev, /proc,
# /sys and netns files (ceph-local/cli.c: /run/netns/NAME), the
# writers (O_CREAT: open_output where the directory is not ours), and
# ./vm's own stdout opened again, to write it without blocking
# (vm/outbuf.c: /proc/self/fd/1; never a file to read).
raw=$(cd "$TOP" && grep -rnE '\b(open|openat|fopen)\(' src --include='*.c' |
	grep -vE 'O_CREAT|O_DIRECTORY|open_memstream|"/dev/(null|kvm)"|"/proc|"/sys|/run/netns' |
	grep -vE '^src/base/io\.c:|^src/cut/(build|helpers)\.c:|^src/vm/mpath\.c:|^src/vm/outbuf\.c:|^src/ceph-local/cli\.c:|^[^:]+:[0-9]+:\s*/?\*')
if [ -z "$raw" ]; then
	ok "no raw open()/fopen() of a file to read in src/ outside io.c"
else
	not_ok "raw open()/fopen() of a file to read in src/: use io.h's open_regular or read_regular_file"
	printf '%s\n' "$raw" | sed 's/^/#   /'
fi

# rapido.conf (an empty RAPIDO_CONF is unset, as for every variable)
for k in fifo-link fifo zero; do
	put $k "$T/c/rapido.conf"
	hostile "rapido.conf as $k: ./cut --check-conf" fail "$T/c/rapido.conf" \
		env RAPIDO_CONF="$T/c/rapido.conf" "$CUT" --check-conf
	hostile "rapido.conf as $k: ./vm --dry-run" fail "$T/c/rapido.conf" \
		env RAPIDO_CONF="$T/c/rapido.conf" "$VM" --dry-run
done
head -c $((2 << 20)) /dev/zero | tr '\0' '#' > "$T/c/rapido.conf"
hostile "a 2 MiB rapido.conf" fail "$T/c/rapido.conf" \
	env RAPIDO_CONF="$T/c/rapido.conf" "$CUT" --check-conf

# a profile in RAPIDO_PROFILE_PATH: every ./cut and ./vm reads every header
for k in fifo-link fifo zero; do
	put $k "$T/pd/bad.sh"
	hostile "profile as $k: ./cut -n simple" ok "" env RAPIDO_PROFILE_PATH="$T/pd" "$CUT" -n simple
	hostile "profile as $k: ./vm --dry-run" ok "" env RAPIDO_PROFILE_PATH="$T/pd" "$VM" --dry-run
	hostile "profile as $k: ./cut --list" fail "$T/pd/bad.sh" \
		env RAPIDO_PROFILE_PATH="$T/pd" "$CUT" --list
	hostile "profile as $k: ./cut -n bad" fail "$T/pd/bad.sh" \
		env RAPIDO_PROFILE_PATH="$T/pd" "$CUT" -n bad
done
rm -rf "$T/pd"

# each_kind DESC PATH COMMAND...: a reader's file as each hostile kind: COMMAND fails naming it
each_kind() {
	local d=$1 path=$2 k
	shift 2
	for k in fifo-link fifo zero; do
		put $k "$path"
		hostile "$d as $k" fail "$path" "$@"
	done
}
# profile_with DIR NAME LINE: DIR/NAME.sh, a profile whose header holds LINE
profile_with() {
	mkdir -p "$1"
	printf '#!/bin/bash\n#@ description: hostile-files.sh fixture\n%s\ntrue\n' "$3" > "$1/$2.sh"
}

# an #@ include: fragment (the profile's own dir/include/NAME.inc)
profile_with "$T/pi" inc "#@ include: bad"
each_kind "include fragment: ./cut -n inc" "$T/pi/include/bad.inc" \
	env RAPIDO_PROFILE_PATH="$T/pi" "$CUT" -n inc

# a #@ files: source: no hang, and no IMAGE.cut-XXXXXX left behind
profile_with "$T/pf" ff "#@ files: $T/src/x:/x"
run_err_also() { ! ls -d "$DRACUT_OUT".cut-* > /dev/null 2>&1; }
for k in fifo-link fifo zero; do
	put $k "$T/src/x"
	hostile "#@ files: source as $k: ./cut ff" fail "$T/src/x" \
		env RAPIDO_PROFILE_PATH="$T/pf" "$CUT" ff
	check "  no temporary image left" run_err_also
done
profile_with "$T/pf" fe "#@ files: :/x"
hostile "#@ files: an empty source" fail "fe.sh" env RAPIDO_PROFILE_PATH="$T/pf" "$CUT" -n fe

# a glob character in the checkout's own path (RAPIDO_DIR $T/rd[12], beside
# $T/rd1 and $T/rd2, which hold the same file): a #@ files: pattern relative
# to the checkout is the profile's part only; the prefix is taken as it is,
# never matched to a directory beside it (rd1's file is not the profile's)
ln -s "$RD" "$T/rd[12]"
mkdir -p "$RD/pat/x1" "$T/rd1/pat/x1" "$T/rd2/pat/x1"
profile_with "$T/pg" g "#@ files: pat/x[0-9]:/pat"
hostile "#@ files: a pattern under a checkout path with a glob character" ok "" \
	env RAPIDO_DIR="$T/rd[12]" RAPIDO_PROFILE_PATH="$T/pg" "$CUT" -n g
rm -rf "$T/rd2/pat"
hostile "  and with one look-alike beside it: still the checkout's own, or refused" ok "" \
	env RAPIDO_DIR="$T/rd[12]" RAPIDO_PROFILE_PATH="$T/pg" "$CUT" -n g
rm -rf "$RD/pat"
hostile "  the checkout's own gone: refused, not the look-alike's" fail "pat/x[0-9]" \
	env RAPIDO_DIR="$T/rd[12]" RAPIDO_PROFILE_PATH="$T/pg" "$CUT" -n g
rm -rf "$T/rd[12]" "$T/rd1" "$T/rd2" "$T/pg"

# KERNEL_SRC's include/config/kernel.release
mkdir -p "$T/ksrc/arch/x86/boot"
echo "not a kernel" > "$T/ksrc/arch/x86/boot/bzImage"
: > "$T/ksrc/.config"
each_kind "kernel.release: ./cut -n simple" "$T/ksrc/include/config/kernel.release" \
	env KERNEL_SRC="$T/ksrc" "$CUT" -n simple

# the kernel image: KERNEL_SRC's bzImage, VM_KERNEL
echo "0.0-fixture" > "$T/ksrc/include/config/kernel.release"
each_kind "KERNEL_SRC's bzImage: ./cut -n simple" "$T/ksrc/arch/x86/boot/bzImage" \
	env KERNEL_SRC="$T/ksrc" "$CUT" -n simple
each_kind "VM_KERNEL: ./vm --dry-run" "$T/vk/vmlinuz" env VM_KERNEL="$T/vk/vmlinuz" "$VM" --dry-run

# a library a profile names by its absolute path (#@ bins: /DIR/NAME.so)
profile_with "$T/pb" b "#@ bins: $T/lib/x.so"
each_kind "#@ bins: a library: ./cut -n b" "$T/lib/x.so" env RAPIDO_PROFILE_PATH="$T/pb" "$CUT" -n b

# --write-known-failures: read, then replaced
mkdir -p "$T/r1"
printf '%s\n' "R1 meta suite p" "R1 fail t1 0.1 -" "R1 meta time 1.000" "R1 meta exit 1" > "$T/r1/results.txt"
for k in fifo zero; do
	put $k "$T/k/known"
	hostile "--write-known-failures as $k" fail "$T/k/known" \
		"$VM" --merge-results --write-known-failures "$T/k/known" "$T/m" "$T/r1"
done
put link "$T/k/known"
hostile "--write-known-failures as a link: the victim is not written" ok "" \
	sh -c '"$@"; true' - "$VM" --merge-results --write-known-failures "$T/k/known" "$T/m" "$T/r1"

# --serial-tests
for k in fifo zero; do
	put $k "$T/st"
	hostile "--serial-tests as $k" fail "$T/st" "$VM" --batch --jobs 2 --results "$T/jr" --serial-tests "$T/st"
done

# the VM lock files, in a directory anyone may write to
for k in link fifo zero; do
	put $k "$VM_LOCK_DIR/vm1.lock"
	hostile "VM lock file as $k: ./vm --dry-run" fail "$VM_LOCK_DIR/vm1.lock" "$VM" --dry-run
done
rm -f "$VM_LOCK_DIR/vm1.lock"

# the --results files (qemu refuses the fixture kernel: the run fails after opening them)
for f in results.txt console.log; do
	for k in link fifo zero; do
		put $k "$T/res/$f"
		hostile "--results DIR/$f as $k" replaced "$T/res/$f" "$VM" --batch --results "$T/res"
		rm -rf "$T/res"
	done
done

# the VM log (VM_LOG_DIR, by default VM_STATE_DIR): a warning naming it, the run goes on
for k in link fifo zero; do
	put $k "$VM_STATE_DIR/vm1.log"
	hostile "VM log as $k" fail "$VM_STATE_DIR/vm1.log" "$VM" --batch
done
rm -f "$VM_STATE_DIR/vm1.log"

# virtiofsd's log, beside it: refused by ./vm before anything starts (a
# fake virtiofsd and a fake qemu that fails after a second: nothing boots)
mkdir -p "$T/vfs"
printf '#!/bin/sh\n[ "$1" = --help ] && { echo "--shared-dir --readonly"; exit 0; }\nexec sleep 30\n' \
	> "$T/virtiofsd"
printf '#!/bin/sh\nsleep 1\nexit 1\n' > "$T/qemu"
chmod +x "$T/virtiofsd" "$T/qemu"
for k in link fifo zero hardlink; do
	put $k "$VM_STATE_DIR/vm1.virtiofs0.log"
	hostile "virtiofsd's log as $k" fail "$VM_STATE_DIR/vm1.virtiofs0.log" \
		env VIRTIOFSD="$T/virtiofsd" QEMU_BIN="$T/qemu" "$VM" --batch --virtiofs "$T/vfs:t"
done
rm -f "$VM_STATE_DIR/vm1.virtiofs0.log"

# the state directory (its default in XDG_RUNTIME_DIR, or /tmp/rapido-UID,
# a name anyone may take first): a link to a directory of ours, another
# user's directory, one its group or everyone may write to (a planted
# last-image record in it) is refused by name, never used
mkdir -p "$T/xdg" "$T/ours"
chmod 700 "$T/ours"
ln -s "$T/ours" "$T/xdg/rapido"
hostile "state dir a link (XDG_RUNTIME_DIR/rapido): ./vm --dry-run" fail "$T/xdg/rapido" \
	env -u VM_STATE_DIR XDG_RUNTIME_DIR="$T/xdg" "$VM" --dry-run
check "  said to be a link" grep -q "state directory $T/xdg/rapido is a symbolic link" "$T/out"
rm "$T/xdg/rapido"
mkdir -m 0777 "$T/xdg/rapido"
echo "$victim" > "$T/xdg/rapido/last-image.planted"
hostile "state dir world-writable: ./vm --dry-run" fail "$T/xdg/rapido" \
	env -u VM_STATE_DIR XDG_RUNTIME_DIR="$T/xdg" "$VM" --dry-run
check "  said to be writable by everyone" grep -q "is writable by everyone (mode 0777)" "$T/out"
chmod 0770 "$T/xdg/rapido"
hostile "state dir group-writable: ./vm --dry-run" fail "$T/xdg/rapido" \
	env -u VM_STATE_DIR XDG_RUNTIME_DIR="$T/xdg" "$VM" --dry-run
chmod 0700 "$T/xdg/rapido"
chown 65534 "$T/xdg/rapido"
hostile "state dir another user's: ./vm --dry-run" fail "belongs to uid 65534" \
	env -u VM_STATE_DIR XDG_RUNTIME_DIR="$T/xdg" "$VM" --dry-run
rm -rf "$T/xdg" "$T/ours"

# an image's PROFILE names the default results dir (VM_STATE_DIR/results/
# PROFILE-STAMP): a '/', '..' or a control character in it is refused,
# naming the image and the key
for p in "../../../escape" "a/b" ".." "$(printf 'x\033[2Jy')"; do
	mkimage "$T/badprof.img" "PROFILE=$p
KERNEL_IMAGE=$T/vmlinuz
KERNEL_RELEASE=0.0-fixture
"
	hostile "an image's PROFILE=$(printf %q "$p"): ./vm --dry-run" fail \
		"$T/badprof.img: rapido/vm.conf: PROFILE=" "$VM" --dry-run "$T/badprof.img"
done
rm -f "$T/badprof.img"

# an empty path: a usage error for every path option and key
hostile "--results ''" fail "--results" "$VM" --dry-run --results ''
check "  nothing written to /" test ! -e /run.json -a ! -e /results.txt
for o in --log --share --serial-tests --splats-allow --known-failures; do
	hostile "$o ''" fail "$o" "$VM" --dry-run "$o" ''
done
hostile "an empty IMAGE" fail "IMAGE" "$VM" --dry-run ''
hostile "--write-known-failures ''" fail "--write-known-failures" \
	"$VM" --merge-results --write-known-failures '' "$T/m" "$T/r1"
hostile "--merge-results '' DIR" fail "--merge-results" "$VM" --merge-results '' "$T/r1"
hostile "--compare-results '' DIR" fail "--compare-results" "$VM" --compare-results '' "$T/r1"
hostile "./cut -o '' (check.c's check)" fail "-o ''" "$CUT" -n -o '' simple
hostile "./cut -f '' (check.c's check)" fail "-f" "$CUT" -n -f '' simple
for key in VM_LOCK_DIR VM_LOG_DIR VM_STATE_DIR VM_RESULTS_DIR KERNEL_SRC; do
	echo "$key=''" > "$RAPIDO_CONF"
	hostile "$key='' in rapido.conf: ./vm" fail "$key: an empty path" env -u "$key" "$VM" --dry-run
	hostile "$key='' in rapido.conf: ./cut --check-conf" fail "$key: an empty path" \
		env -u "$key" "$CUT" --check-conf
done
: > "$RAPIDO_CONF"
hostile "an empty VM_LOCK_DIR in the environment is unset" ok "" env VM_LOCK_DIR= "$VM" --dry-run
done_testing
