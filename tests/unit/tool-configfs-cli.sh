#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tool-configfs-cli.sh: rapido-configfs as a command: options, exit codes,
# fixture specs and the shipped autorun/configfs/*.spec, against a temp
# directory standing in for configfs (--emulate).
. "$(dirname "$0")/../tap.sh"
cd "$TOP" || exit 1
bin=${RAPIDO_CONFIGFS:-$TOP/build/guest/rapido-configfs}
fix=tests/fixtures/configfs
if [ ! -x "$bin" ]; then
	echo "SKIP: $bin not built (make build/guest/rapido-configfs)"
	exit 77
fi

root=$T/root sys=$T/sys
mkdir -p "$root" "$sys/class/udc/dummy_udc.0"
TAP_ON_FAIL=show_run

# same_as_fixture EXPECTED-WITH-@ROOT@ ACTUAL: the same, once @ROOT@ is $root
same_as_fixture() {
	sed "s|@ROOT@|$root|g" "$1" > "$T/expected"
	same_file "$T/expected" "$2"
}
tree() {
	(cd "$root" && find . -mindepth 1 ! -name .rapido-default-group | sort)
}
cfs() {
	run "$bin" --root "$root" --sysfs-root "$sys" --kmsg "" "$@"
}

# --- options ---
run "$bin" --help
expect_rc "--help" 0 $rc
check "--help prints usage on stdout" contains "$T/out" "Usage:"
check "--help documents exit codes" contains "$T/out" "Exit status:"
check "--help writes nothing to stderr" err_is ""

run "$bin" --bogus x.spec
expect_rc "unknown option" 2 $rc
check "unknown option points at --help" contains "$T/err" "Try 'rapido-configfs --help'"
run "$bin"
expect_rc "no SPEC" 2 $rc
run "$bin" a.spec b.spec
expect_rc "two SPECs" 2 $rc
run "$bin" -D 9bad=1 x.spec
expect_rc "bad -D" 2 $rc
run "$bin" --root
expect_rc "--root without argument" 2 $rc
run "$bin" --root "$root" "$T/nonexistent.spec"
expect_rc "missing spec file" 2 $rc
check "missing spec file named" contains "$T/err" "nonexistent.spec: No such file or directory"
# a variable doubled line after line: a spec error (2) at the line that
# passes 64 KiB, at once, not "out of memory" (1) after gigabytes
{ echo "set A0 x"; for i in $(seq 1 33); do echo "set A$i \${A$((i-1))}\${A$((i-1))}"; done; } > "$T/double.spec"
run "$bin" --root "$root" --emulate "$T/double.spec"
expect_rc "a value doubled 33 times" 2 $rc
check "  refused at line 18" contains "$T/err" "double.spec:18: with \${A16} a word would be longer than 65536 bytes"

# --- fixture: good.spec ---
cfs -D name=cli --emulate --dry-run $fix/good.spec
expect_rc "dry-run of good.spec" 0 $rc
echo "$(cat "$T/out")" > "$T/plan"
check "dry-run plan matches good.plan" same_as_fixture $fix/good.plan "$T/plan"
check "dry-run changed nothing" test -z "$(tree)"

cfs -D name=cli --emulate --trace "$T/trace" $fix/good.spec
expect_rc "apply good.spec" 0 $rc
check "quoted value written" test "$(cat "$root/top/cli/product")" = "two words"
check "no newline added to a value" test "$(stat -c %s "$root/top/cli/UDC")" = 11
check "link target is absolute" test "$(readlink "$root/top/cli/lun_0")" = "$root/top/core/hba_0/cli-dev"
cfs -D name=cli --emulate --trace "$T/trace2" --teardown $fix/good.spec
expect_rc "teardown good.spec" 0 $rc
cat "$T/trace2" >> "$T/trace"
check "apply then teardown trace matches good.trace" same_as_fixture $fix/good.trace "$T/trace"
check "only the waited-for directories remain" test "$(tree)" = "$(printf './top\n./top/core')"
cfs -D name=cli --emulate --teardown $fix/good.spec
expect_rc "teardown twice" 0 $rc
rm -rf "${root:?}"/*

# --- fixture: rollback.spec ---
cfs --emulate --trace "$T/trace" $fix/rollback.spec
expect_rc "failure rolled back" 1 $rc
check "rollback trace matches rollback.trace" same_as_fixture $fix/rollback.trace "$T/trace"
check "report: file:line, operation, path, value, errno name" \
	contains "$T/err" "rollback.spec:7: write $root/gadget/functions \"not an attribute\": EISDIR: Is a directory"
check "rollback summary" contains "$T/err" "nothing is left behind"
check "tree empty after rollback" test -z "$(tree)"

# --- fixture: parse errors, dry-run problems ---
cfs $fix/parse-error.spec
expect_rc "parse error" 2 $rc
check "undefined variable named with its line" contains "$T/err" "parse-error.spec:4: undefined variable 'tpg'"
cfs -D tpg=tpgt_1 --dry-run $fix/parse-error.spec
expect_rc "dry-run: target/iscsi is not there" 2 $rc
cfs --dry-run $fix/missing-parent.spec
expect_rc "dry-run finds a missing parent" 2 $rc
check "missing parent named with its line" \
	contains "$T/err" "missing-parent.spec:5: mkdir $root/a/c/d: parent $root/a/c is not made"
check "missing link target named with its line" \
	contains "$T/err" "missing-parent.spec:6: link $root/a/b/lun: link target $root/a/x"
check "dry-run with problems changed nothing" test -z "$(tree)"

# --- value sizes: 4095 bytes go, 4096 are refused before anything is done ---
v4095=$(head -c 4095 /dev/zero | tr '\0' v)
printf 'write attr %s\n' "$v4095" > "$T/4095.spec"
cfs --emulate "$T/4095.spec"
expect_rc "4095-byte value" 0 $rc
check "4095 bytes written" test "$(stat -c %s "$root/attr")" = 4095
rm -f "$root/attr"
printf 'mkdir d\nwrite d/attr %sv\n' "$v4095" > "$T/4096.spec"
cfs --emulate "$T/4096.spec"
expect_rc "4096-byte value refused" 2 $rc
check "refused with file:line" contains "$T/err" "4096.spec:2: value is 4096 bytes"
check "nothing made before the refusal" test -z "$(tree)"

# --- outside a rapido guest (this host): refused unless --force or --emulate ---
if grep -qE '(^| )rapido\.vm=[0-9]+( |$)' /proc/cmdline; then
	skip "refusal outside a guest" "running inside a rapido guest"
else
	cfs -D name=cli $fix/good.spec
	expect_rc "host: apply refused" 2 $rc
	check "host: refusal says why and what to do" \
		contains "$T/err" "refusing to apply $fix/good.spec: this is not a rapido guest (/proc/cmdline has no rapido.vm=N), so this would change this machine's own configfs; --dry-run shows the plan, --force does it anyway"
	check "host: refused apply changed nothing" test -z "$(tree)"
	mkdir "$root/d"
	cfs --teardown - <<< 'mkdir d'
	expect_rc "host: teardown refused" 2 $rc
	check "host: teardown refusal named" contains "$T/err" "refusing to tear down <stdin>: this is not a rapido guest"
	check "host: refused teardown removed nothing" test -d "$root/d"
	rmdir "$root/d"
	cfs -D name=cli --dry-run $fix/missing-parent.spec
	check "host: a dry run still checks the plan" contains "$T/err" "missing-parent.spec:5: mkdir"
	cfs --force - <<< 'mkdir d'
	expect_rc "host: --force applies" 0 $rc
	check "host: --force made the directory" test -d "$root/d"
	rm -rf "${root:?}"/*
fi

# --- stdin, -D ---
cfs --emulate -D d=cli - <<< $'set d spec\nmkdir ${d}\n'
expect_rc "spec from stdin" 0 $rc
check "-D wins over set" test -d "$root/cli"
rm -rf "${root:?}"/*

# --- the shipped specs: order checked, applied and torn down on the stand-in ---
for spec in autorun/configfs/*.spec; do
	name=$(basename "$spec")
	cfs --emulate --dry-run "$spec"
	expect_rc "$name: dry-run on an empty root" 0 $rc
	cfs --emulate "$spec"
	expect_rc "$name: apply" 0 $rc
	cfs --emulate --teardown "$spec"
	expect_rc "$name: teardown" 0 $rc
	left=$(cd "$root" && find . -mindepth 1 \( -type f -o -type l \) ! -name .rapido-default-group)
	check "$name: no attribute or link left" test -z "$left"
	cfs --emulate "$spec"
	expect_rc "$name: apply again (teardown removed every directory)" 0 $rc
	cfs --emulate --teardown "$spec"
	cfs --emulate --teardown "$spec"
	expect_rc "$name: teardown twice" 0 $rc
	rm -rf "${root:?}"/*
done
cfs --emulate --dry-run autorun/configfs/usb-msc.spec --sysfs-root "$T/nosys"
expect_rc "usb-msc.spec without a UDC" 2 $rc
check "no UDC: hint names dummy_hcd" contains "$T/err" "dummy_hcd"
cfs --emulate --teardown autorun/configfs/usb-msc.spec --sysfs-root "$T/nosys"
expect_rc "usb-msc.spec teardown works without a UDC" 0 $rc

done_testing
