#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-config.sh: host/kernel-config's checks, without a kernel
# source: a fake tree (a few Kconfig entries and a .config) checked with
# --check against fragments names every requested symbol that did not
# survive, with the value asked and got, what it depends on and what
# selects it, and for a profile the line that asked (./cut --kconfig makes
# a profile's fragment from its #@ kconfig lines and its includes'); bad
# arguments get a clear error. tests/slow/kernel-src.sh runs the whole
# thing (make tinyconfig, merge, olddefconfig) on a real tree.
. "$(dirname "$0")/../boot/lib.sh"

KC=$TOP/host/kernel-config
src=$T/linux
mkdir -p "$src/scripts/kconfig" "$src/drivers/foo" "$src/kernel"
echo "# fake top Makefile" > "$src/Makefile"
printf '#!/bin/sh\nexit 1\n' > "$src/scripts/kconfig/merge_config.sh"
cat > "$src/drivers/foo/Kconfig" <<'EOF'
menuconfig FOO_DEVICES
	bool "Foo devices"

if FOO_DEVICES

config FOO
	tristate "Foo driver"
	depends on BAR
	select FOO_LIB

config FOO_EXTRA
	bool "Foo extras"
	depends on FOO

endif

config FOO_LIB
	tristate

config WIDGET
	bool "Widget"

config QUUX
	bool "Quux"
	select WIDGET
EOF
cat > "$src/.config" <<'EOF'
# CONFIG_FOO_DEVICES is not set
# CONFIG_BAR is not set
CONFIG_FOO_LIB=y
CONFIG_WIDGET=y
CONFIG_QUUX=y
CONFIG_NR=4
CONFIG_NAME="rapido"
EOF
cat > "$T/frag.config" <<'EOF'
CONFIG_FOO=m
CONFIG_FOO_EXTRA=y
# CONFIG_WIDGET is not set
CONFIG_FOO_LIB=m
CONFIG_NR=8
CONFIG_NAME="rapido"
CONFIG_NO_SUCH=y
# CONFIG_BAR is not set
EOF

"$KC" --check --no-base -k "$src" "$T/frag.config" > "$T/out" 2>&1
expect_rc "--check with symbols that did not survive fails" 1 $?
check "  a tristate asked m, got n" contains "$T/out" "CONFIG_FOO: requested m, got n (not set) [$T/frag.config]"
check "  where it is defined" contains "$T/out" "defined in drivers/foo/Kconfig:6"
check "  its depends on, with the value now" contains "$T/out" "depends on BAR  [now: BAR=n]"
check "  the if block around it" contains "$T/out" "inside if FOO_DEVICES  [now: FOO_DEVICES=n]"
check "  a bool asked y" contains "$T/out" "CONFIG_FOO_EXTRA: requested y, got n (not set)"
check "  asked off but selected: by whom" contains "$T/out" "selected by QUUX [now: QUUX=y] (drivers/foo/Kconfig:25)"
check "  CONFIG_WIDGET: requested n, got y" contains "$T/out" "CONFIG_WIDGET: requested n, got y"
check "  an int with another value" contains "$T/out" "CONFIG_NR: requested 8, got 4"
check "  a symbol no Kconfig defines" contains "$T/out" "CONFIG_NO_SUCH: requested y, got n (not set)"
check "  ... said to be unknown" contains "$T/out" "this kernel has no such symbol"
check "  asked m, got y is a note, not a failure" \
	contains "$T/out" "note: CONFIG_FOO_LIB: requested m, got y (built in; something built in selects it)"
check "  the count" contains "$T/out" "5 of 8 requested symbols did not survive"
check "  a string that survived is not named" bash -c "! grep -q CONFIG_NAME '$T/out'"
check "  an off symbol that stayed off is not named" bash -c "! grep -q 'CONFIG_BAR:' '$T/out'"

printf 'CONFIG_QUUX=y\nCONFIG_NAME="rapido"\n# CONFIG_BAR is not set\n' > "$T/good.config"
"$KC" --check --no-base -k "$src" "$T/good.config" > "$T/out" 2>&1
expect_rc "--check with every symbol as asked" 0 $?
check "  says so" contains "$T/out" "all 3 requested symbols as asked"

# later fragments win, as with merge_config.sh
printf 'CONFIG_QUUX=y\n' > "$T/a.config"
printf '# CONFIG_QUUX is not set\n' > "$T/b.config"
"$KC" --check --no-base -k "$src" "$T/b.config" "$T/a.config" > "$T/out" 2>&1
expect_rc "the last fragment's value is the one checked" 0 $?

# argument errors
KERNEL_SRC= run_err "no KERNEL_SRC" "no kernel tree: set KERNEL_SRC=DIR" "$KC"
run_err "KERNEL_SRC that is not a kernel tree" "not a kernel source tree" "$KC" -k "$T"
run_err "an unknown profile" "profile 'nosuch': unknown profile 'nosuch'" "$KC" -k "$src" nosuch
run_err "a bad BASE" "BASE=foo: expected a kernel config target" "$KC" -k "$src" -b foo
run_err "a bad option" "Try 'host/kernel-config --help'" "$KC" --bogus
run_err "merge_config.sh failing is reported" "merge_config.sh failed" "$KC" -k "$src" -b keep simple
"$KC" -n -k "$src" -O "$T/obj" fstests_local > "$T/out" 2>&1
expect_rc "--dry-run" 0 $?
check "  shows make tinyconfig with O= and ARCH=x86_64" \
	contains "$T/out" "+ make -C $src ARCH=x86_64 O=$T/obj -s tinyconfig"
check "  merges base then the profile's fragment" \
	grep -qE "merge_config.sh -m \.config $TOP/kernel/base.config $TOP/kernel/x86_64.config /[^ ]*/rapido-kconfig\.[^ /]*/fstests_local\.config\$" "$T/out"
check "  then olddefconfig" contains "$T/out" "O=$T/obj -s olddefconfig"
"$KC" --help > "$T/out" 2>&1
expect_rc "--help" 0 $?
check "  lists the profiles" grep -q "Profiles: .*fstests_local.* net " "$T/out"
(cd "$TOP" && make -s kernel-config KERNEL_SRC="$src" BASE=keep PROFILES=simple) > "$T/out" 2>&1
check "make kernel-config passes KERNEL_SRC, BASE and PROFILES" \
	grep -qE "merge_config.sh -m \.config $TOP/kernel/base.config $TOP/kernel/x86_64.config /[^ ]*/simple\.config\$" "$T/out"

# a profile's fragment: its #@ kconfig lines and its includes', each group
# under the line it comes from; bare is built in, =n is "is not set"
"$CUT" --kconfig net > "$T/frag" 2>&1
expect_rc "cut --kconfig net" 0 $?
check "  the include's symbol, as asked" grep -qx "CONFIG_VIRTIO_NET=m" "$T/frag"
check "  under the include's line" \
	bash -c "grep -x -B1 CONFIG_VIRTIO_NET=m '$T/frag' | grep -qx '# from autorun/include/net.inc:[0-9]*'"
check "  kconfig-optional symbols too" grep -qx "CONFIG_NETDEVICES=y" "$T/frag"
"$CUT" --kconfig needs-kconfig > "$T/frag" 2>&1
check "  a bare symbol is built in" grep -qx "CONFIG_RAPIDO_NO_SUCH_SYMBOL=y" "$T/frag"
check "  =n is kconfig's 'is not set'" grep -qx "# CONFIG_RAPIDO_OFF is not set" "$T/frag"
run_err "cut --kconfig of an unknown profile" "unknown profile 'nosuch'" "$CUT" --kconfig nosuch

# a profile's symbol that did not survive names the profile line asking
printf 'CONFIG_NET_CORE=y\nCONFIG_NETDEVICES=y\n' > "$src/.config"
"$KC" --check --no-base -k "$src" net > "$T/out" 2>&1
expect_rc "--check of a profile whose symbol is missing" 1 $?
check "  names it and the include line that asked" \
	grep -qE "CONFIG_VIRTIO_NET: requested m, got n \(not set\) \[autorun/include/net.inc:[0-9]+\]" "$T/out"
done_testing
