#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-src.sh: build a kernel from Debian's linux-source with rapido's own
# fragments (tinyconfig + kernel/base.config + fstests_local's #@ kconfig
# lines, less xfs and btrfs: tests/slow/quick.config; via host/kernel-config),
# install its modules inside the build tree, then cut and boot `simple` and
# `fstests_local` with KERNEL_SRC set: the guest must run the built release,
# mount a --share over the built-in 9p, and load zram and ext4 as modules
# from KERNEL_INSTALL_MOD_PATH (dracut --kmoddir). Also: a fragment symbol
# the kernel cannot satisfy is named by kernel-config, and a profile whose
# kconfig symbol is missing from the kernel's .config is refused. The
# kernel has debug info (tests/slow/debug.config): ./vm --gdb's printed
# command resolves symbols and loads lx-symbols, and crash prints the
# backtrace from a panic's vmcore.
#
# The build is cached in $KBUILD_CACHE (default /var/tmp/rapido-kbuild),
# keyed by the source package version and a hash of the fragments and the
# build recipe (tests/slow/kbuild.inc): a re-run boots at once, a fresh
# machine builds from scratch. KBUILD_JOBS overrides -j (default nproc).
. "$(dirname "$0")/../boot/lib.sh"

say() { echo "# $*"; }
# CPU seconds (user + system) used by this shell's finished children: the
# build's cost whatever else the machine is doing
children_cpu() {
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%d\n", ($16 + $17) / hz }' /proc/$$/stat
}

if [ "$(uname -m)" != x86_64 ]; then
	echo "SKIP: builds an x86_64 kernel natively; this host is $(uname -m)"
	exit 77
fi
if ! "$TOP/tests/slow/install-deps" > "$T/deps.log" 2>&1; then
	sed 's/^/# /' "$T/deps.log"
	echo "SKIP: cannot install the kernel source and build tools (tests/slow/install-deps)"
	exit 77
fi

# pkg, pkgver, cache, jobs, frags, recipe, key, src_root, obj
. "$TOP/tests/slow/kbuild.inc"
tarball=$(dpkg -L "$pkg" | grep -m1 -E '^/usr/src/linux-source-.*\.tar\.(xz|bz2|gz)$')
[ -r "$tarball" ] || { echo "Bail out! $pkg $pkgver has no readable source tarball under /usr/src"; exit 1; }
mkdir -p "$cache" || { echo "Bail out! cannot create $cache"; exit 1; }

# one build at a time per cache; the lock goes with this shell
exec 9> "$cache/.lock"
flock 9

# keep one source tree and one build: every other one is stale
for d in "$cache"/src-* "$cache"/obj-*; do
	[ -e "$d" ] || continue
	[ "$d" = "$src_root" ] || [ "$d" = "$obj" ] && continue
	say "removing stale $d"
	rm -rf "$d"
done

if [ ! -e "$src_root/.unpacked" ]; then
	say "unpacking $tarball ($pkg $pkgver)"
	rm -rf "$src_root" "$src_root.tmp"
	mkdir -p "$src_root.tmp" && tar -xaf "$tarball" -C "$src_root.tmp" &&
		mv "$src_root.tmp" "$src_root" && touch "$src_root/.unpacked" ||
		{ echo "Bail out! cannot unpack $tarball into $src_root"; exit 1; }
fi
src=$(find "$src_root" -mindepth 2 -maxdepth 2 -name Makefile -printf '%h\n' | head -n 1)
[ -n "$src" ] || { echo "Bail out! no kernel Makefile in $src_root"; exit 1; }

# 1. a fragment symbol the kernel cannot satisfy is reported by name
cat > "$T/impossible.config" <<'EOF'
CONFIG_PRINTK=y
# needs CONFIG_NVME_TARGET, which nothing turns on
CONFIG_NVME_TARGET_TCP=y
CONFIG_RAPIDO_NO_SUCH_SYMBOL=y
EOF
"$TOP/host/kernel-config" -k "$src" -O "$T/kc-impossible" --no-base "$T/impossible.config" \
	> "$T/out" 2>&1
expect_rc "kernel-config with an impossible fragment fails" 1 $?
check "  names the symbol whose dependency is off, asked and got" \
	grep -q "CONFIG_NVME_TARGET_TCP: requested y, got n (not set)" "$T/out"
check "  and what it depends on" grep -q "depends on NVME_TARGET" "$T/out"
check "  names the symbol the kernel does not have" \
	grep -q "CONFIG_RAPIDO_NO_SUCH_SYMBOL: requested y, got n.*" "$T/out"
check "  does not name the symbol that survived" bash -c "! grep -q CONFIG_PRINTK '$T/out'"
sed 's/^/# /' "$T/out"
rm -rf "$T/kc-impossible"

# 2. configure and build (or find it built)
rel_file=$obj/include/config/kernel.release
if [ -e "$obj/.rapido-built" ] && [ -f "$obj/arch/x86/boot/bzImage" ] && [ -f "$rel_file" ]; then
	say "using the cached build $obj"
	# a cache entry is only as good as what it holds: the recipe's key and a bootable bzImage
	check "cached build: made by this recipe ($key)" grep -q "^$key " "$obj/.rapido-built"
	check "cached build: bzImage has the x86 boot header" \
		test "$(dd if="$obj/arch/x86/boot/bzImage" bs=1 skip=514 count=4 2>/dev/null)" = HdrS
else
	mkdir -p "$obj"
	start=$(date +%s) cpu0=$(children_cpu)
	say "building $pkg $pkgver with tinyconfig + ${frags[*]} in $obj (-j$jobs)"
	if "$TOP/host/kernel-config" -k "$src" -O "$obj" -b tinyconfig "${frags[@]}" > "$T/out" 2>&1; then
		ok "kernel-config tinyconfig + ${frags[*]}: every requested symbol survived"
	else
		not_ok "kernel-config tinyconfig + ${frags[*]}"
		sed 's/^/# /' "$T/out"
		done_testing
		exit 1
	fi
	sed 's/^/# /' "$T/out"
	if make -C "$src" O="$obj" ARCH=x86_64 -j"$jobs" bzImage modules scripts_gdb > "$obj/build.log" 2>&1 &&
		rm -rf "$obj/mods" &&
		make -C "$src" O="$obj" ARCH=x86_64 modules_install INSTALL_MOD_PATH="$obj/mods" \
			>> "$obj/build.log" 2>&1; then
		secs=$(( $(date +%s) - start )) cpu=$(( $(children_cpu) - cpu0 ))
		echo "$key $pkgver ${secs}s wall, ${cpu}s CPU, -j$jobs" > "$obj/.rapido-built"
		ok "kernel built and modules installed in ${secs}s (${cpu}s of CPU time, -j$jobs)"
	else
		not_ok "kernel build failed (log: $obj/build.log)"
		tail -n 40 "$obj/build.log" | sed 's/^/# /'
		done_testing
		exit 1
	fi
fi
"$TOP/host/kernel-config" --check -k "$src" -O "$obj" "${frags[@]}" > "$T/out" 2>&1
expect_rc "kernel-config --check: the built tree's .config has every requested symbol" 0 $?
rel=$(cat "$rel_file")
say "kernel $rel, $(du -sh "$obj/mods" | cut -f1) of modules, build: $(cat "$obj/.rapido-built")"
check "modules installed for $rel" test -f "$obj/mods/lib/modules/$rel/modules.dep"
check "the tree lists its built-in modules (9p)" grep -q '/9p\.ko$' "$obj/modules.builtin"

export KERNEL_SRC=$obj
boot() {	# boot DESCRIPTION [VM ARGS...]: vm --batch, exit 0, clean console
	local d=$1
	shift
	"$VM" --batch --timeout 600 "$@" > "$T/console" 2>&1
	local rc=$?
	expect_rc "$d" 0 $rc
	[ $rc = 0 ] || tail -n 30 "$T/console" | sed 's/^/# /'
	check "  kernel console clean" console_clean "$T/console"
}

# 3. no KERNEL_INSTALL_MOD_PATH: only what is built in, 9p for the share
mkdir -p "$T/share"
"$CUT" simple -x 'uname -r > /host/uname; echo "uname=$(uname -r)"' > "$T/out" 2>&1
expect_rc "cut simple with KERNEL_SRC (no module path)" 0 $?
check "  cut reports the built release" grep -q "kernel $rel\$" "$T/out"
boot "vm boots the built bzImage with a --share" --share "$T/share"
check "  uname -r in the guest is include/config/kernel.release" guest_matches "$T/console" "^uname=$rel"
check "  the guest wrote to the 9p share" grep -qx "$rel" "$T/share/uname"
rm -f "$DRACUT_OUT"

run_refused() {	# DESCRIPTION PATTERN COMMAND...
	local d=$1 pat=$2
	shift 2
	"$@" > "$T/out" 2>&1
	local rc=$?
	if [ $rc -ne 0 ] && grep -q -- "$pat" "$T/out" && [ ! -e "$DRACUT_OUT" ]; then
		ok "$d"
	else
		not_ok "$d (exit $rc)"
		sed 's/^/# /' "$T/out"
	fi
}
run_refused "a loadable module without KERNEL_INSTALL_MOD_PATH is refused" \
	"kernel module 'zram' not found for kernel $rel: not built in" "$CUT" needs-zram-module
run_refused "a profile whose kconfig symbols the built kernel lacks is refused" \
	"$obj/.config: CONFIG_RAPIDO_NO_SUCH_SYMBOL is not set" "$CUT" needs-kconfig
check "  zram as a module where built-in is needed is named" \
	grep -q "CONFIG_ZRAM=m, but built-in (=y) is needed" "$T/out"
KERNEL_INSTALL_MOD_PATH=/ run_refused "modules of another release are refused" \
	"has no modules for release $rel" "$CUT" simple

# 4. the debugging loop against the tree's vmlinux (tests/slow/debug.config):
# ./vm's printed gdb command, run as printed, resolves symbols and types
# and loads the lx- scripts; a panic's vmcore opens in crash with the
# panic's backtrace
vmlinux=$obj/vmlinux
check "the tree's vmlinux has DWARF" sh -c "readelf -S '$vmlinux' | grep -q '\.debug_info'"
check "  and its gdb scripts" test -e "$obj/vmlinux-gdb.py"
"$CUT" simple -x 'echo attach-now; for ((i = 0; i < 600; i++)); do [ -e /tmp/go ] && break; sleep 1; done; exit 0' \
	> "$T/out" 2>&1
expect_rc "cut simple for gdb" 0 $?
port=$((40000 + $$ % 20000))
"$VM" --batch --timeout 900 --gdb=127.0.0.1:$port > "$T/console" 2> "$T/err" &
vmpid=$!
for ((i = 0; i < 600; i++)); do
	guest_says "$T/console" attach-now && break
	sleep 1
done
cmd=$(sed -n "s/^  \(gdb .*target remote 127.0.0.1:$port.*\)$/\1/p" "$T/err")
check "./vm's gdb command names the tree's vmlinux and lx-symbols" \
	bash -c "[[ \"\$1\" == *\" $vmlinux \"*\"'lx-symbols'\"* ]]" _ "$cmd"
# as printed, in batch mode, plus what to print and a detach
timeout 600 bash -c "${cmd/#gdb /gdb -batch -nx } -ex 'print linux_banner' \
	-ex 'print init_uts_ns.name.release' -ex detach" > "$T/gdb" 2>&1
check "gdb reads linux_banner by name" grep -q "Linux version $rel" "$T/gdb"
check "  and a struct member through the DWARF types" grep -q "\"$rel\"" "$T/gdb"
check "  and lx-symbols ran (the scripts were auto-loaded)" grep -q "loading vmlinux" "$T/gdb"
grep -v '^$' "$T/gdb" | head -n 8 | sed 's/^/# gdb: /'
# a builtin: simple's image has no touch
"$TOP/vmctl" 1 exec ': > /tmp/go' > "$T/out" 2>&1
expect_rc "vmctl 1 exec lets the guest go on (its console shell on ttyS2, IRQ 5 from ACPI: kernel/x86_64.config)" 0 $?
wait $vmpid
expect_rc "the guest ran on after gdb detached and exited 0" 0 $?

"$CUT" simple -x 'echo c > /proc/sysrq-trigger; sleep 100' > "$T/out" 2>&1
"$VM" --batch --timeout 900 > "$T/console" 2> "$T/err"
expect_rc "a panic: no status" 123 $?
core=$VM_STATE_DIR/vm1.vmcore
check "  the dump is named" grep -q "memory dump (elf) in $core" "$T/err"
printf 'sys\nbt\nquit\n' > "$T/crash.in"
timeout 900 crash -s "$vmlinux" "$core" -i "$T/crash.in" > "$T/crash" 2>&1
check "crash opens the vmcore with the vmlinux (release $rel)" grep -q "RELEASE: $rel" "$T/crash"
grep -q "RELEASE: $rel" "$T/crash" ||
	{ echo "# crash $(crash --version 2>/dev/null | grep -m1 -o '[0-9][0-9.]*'):"; tail -n 15 "$T/crash" | sed 's/^/# /'; }
# sysrq_handle_crash tail-calls panic(): its frame is __handle_sysrq's
check "  and prints the panic's backtrace (the write to /proc/sysrq-trigger)" \
	grep -qE '#[0-9]+ .* write_sysrq_trigger ' "$T/crash"
check "  through panic()" grep -qE '#[0-9]+ .* panic ' "$T/crash"
grep -E '^ *#[0-9]+ ' "$T/crash" | head -n 12 | sed 's/^/# crash: /'
rm -f "$core" "$DRACUT_OUT"

# 5. modules from KERNEL_INSTALL_MOD_PATH (dracut --kmoddir): the
# fstests_local profile on ext4, zram and ext4 loaded as modules
# (FSTESTS_SRC unset: the disks are set up, no xfstests runs)
export KERNEL_INSTALL_MOD_PATH=$obj/mods FSTESTS_ZRAM_SIZE=512M
for fs in ext4; do
	FSTESTS_FS=$fs "$CUT" fstests_local -x 'grep -q " /mnt/test $FSTYP " /proc/mounts &&
		echo "mounted=$FSTYP"; for m in zram $FSTYP; do
		echo "module=$m $(cat /sys/module/$m/initstate 2>&1)"; done; echo "uname=$(uname -r)"' \
		> "$T/out" 2>&1
	expect_rc "cut fstests_local (FSTESTS_FS=$fs) with the built modules" 0 $?
	[ -s "$DRACUT_OUT" ] || sed 's/^/# /' "$T/out"
	boot "vm: fstests_local on $fs"
	check "  /mnt/test is $fs" guest_matches "$T/console" "^mounted=$fs"
	check "  zram and $fs are loaded modules" \
		bash -c "grep -q '^module=zram live' '$T/console' && grep -q '^module=$fs live' '$T/console'"
	check "  on the built release" guest_matches "$T/console" "^uname=$rel"
	rm -f "$DRACUT_OUT"
done
done_testing
