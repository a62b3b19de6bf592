#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tool-configfs-cli.sh: rapido-configfs as a command: options, exit codes,
# fixture specs and the shipped autorun/configfs/*.spec, against a temp
# directory standing in for configfs (--emulate).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
bin=${RAPIDO_CONFIGFS:-$top/build/guest/rapido-configfs}
fix=tests/fixtures/configfs
if [ ! -x "$bin" ]; then
	echo "SKIP: $bin not built (make build/guest/rapido-configfs)"
	exit 77
fi

tmp=$(mktemp -d /tmp/rapido-cfs-cli.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root sys=$tmp/sys
mkdir -p "$root" "$sys/class/udc/dummy_udc.0"

n=0 failed=0
ok() {	# ok CONDITION-STATUS NAME
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}
# run ARGS...: sets rc, out, err
run() {
	"$bin" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}
expect_rc() {	# expect_rc WANT NAME
	[ "$rc" -eq "$1" ]
	ok $? "$2 (exit $rc, want $1)"
	[ "$rc" -eq "$1" ] || sed 's/^/#   /' "$tmp/err"
}
contains() {	# contains HAYSTACK NEEDLE NAME
	[[ "$1" == *"$2"* ]]
	ok $? "$3"
	[[ "$1" == *"$2"* ]] || printf '#   wanted: %s\n#   in: %s\n' "$2" "$1"
}
same_file() {	# same_file EXPECTED-WITH-@ROOT@ ACTUAL NAME
	sed "s|@ROOT@|$root|g" "$1" > "$tmp/expected"
	diff -u "$tmp/expected" "$2" > "$tmp/diff"
	ok $? "$3"
	sed 's/^/#   /' "$tmp/diff"
}
tree() {
	(cd "$root" && find . -mindepth 1 ! -name .rapido-default-group | sort)
}
cfs() {
	run --root "$root" --sysfs-root "$sys" --kmsg "" "$@"
}

# --- options ---
run --help
expect_rc 0 "--help"
contains "$out" "Usage:" "--help prints usage on stdout"
contains "$out" "Exit status:" "--help documents exit codes"
[ -z "$err" ]; ok $? "--help writes nothing to stderr"

run --bogus x.spec
expect_rc 2 "unknown option"
contains "$err" "Try 'rapido-configfs --help'" "unknown option points at --help"
run
expect_rc 2 "no SPEC"
run a.spec b.spec
expect_rc 2 "two SPECs"
run -D 9bad=1 x.spec
expect_rc 2 "bad -D"
run --root
expect_rc 2 "--root without argument"
run --root "$root" "$tmp/nonexistent.spec"
expect_rc 2 "missing spec file"
contains "$err" "nonexistent.spec: No such file or directory" "missing spec file named"
# a variable doubled line after line: a spec error (2) at the line that
# passes 64 KiB, at once, not "out of memory" (1) after gigabytes
{ echo "set A0 x"; for i in $(seq 1 33); do echo "set A$i \${A$((i-1))}\${A$((i-1))}"; done; } > "$tmp/double.spec"
run --root "$root" --emulate "$tmp/double.spec"
expect_rc 2 "a value doubled 33 times"
contains "$err" "double.spec:18: with \${A16} a word would be longer than 65536 bytes" "  refused at line 18"

# --- fixture: good.spec ---
cfs -D name=cli --emulate --dry-run $fix/good.spec
expect_rc 0 "dry-run of good.spec"
echo "$out" > "$tmp/plan"
same_file $fix/good.plan "$tmp/plan" "dry-run plan matches good.plan"
[ -z "$(tree)" ]; ok $? "dry-run changed nothing"

cfs -D name=cli --emulate --trace "$tmp/trace" $fix/good.spec
expect_rc 0 "apply good.spec"
[ "$(cat "$root/top/cli/product")" = "two words" ]; ok $? "quoted value written"
[ "$(stat -c %s "$root/top/cli/UDC")" = 11 ]; ok $? "no newline added to a value"
[ "$(readlink "$root/top/cli/lun_0")" = "$root/top/core/hba_0/cli-dev" ]
ok $? "link target is absolute"
cfs -D name=cli --emulate --trace "$tmp/trace2" --teardown $fix/good.spec
expect_rc 0 "teardown good.spec"
cat "$tmp/trace2" >> "$tmp/trace"
same_file $fix/good.trace "$tmp/trace" "apply then teardown trace matches good.trace"
[ "$(tree)" = "$(printf './top\n./top/core')" ]; ok $? "only the waited-for directories remain"
cfs -D name=cli --emulate --teardown $fix/good.spec
expect_rc 0 "teardown twice"
rm -rf "${root:?}"/*

# --- fixture: rollback.spec ---
cfs --emulate --trace "$tmp/trace" $fix/rollback.spec
expect_rc 1 "failure rolled back"
same_file $fix/rollback.trace "$tmp/trace" "rollback trace matches rollback.trace"
contains "$err" "rollback.spec:7: write $root/gadget/functions \"not an attribute\": EISDIR: Is a directory" \
	"report: file:line, operation, path, value, errno name"
contains "$err" "nothing is left behind" "rollback summary"
[ -z "$(tree)" ]; ok $? "tree empty after rollback"

# --- fixture: parse errors, dry-run problems ---
cfs $fix/parse-error.spec
expect_rc 2 "parse error"
contains "$err" "parse-error.spec:4: undefined variable 'tpg'" "undefined variable named with its line"
cfs -D tpg=tpgt_1 --dry-run $fix/parse-error.spec
expect_rc 2 "dry-run: target/iscsi is not there"
cfs --dry-run $fix/missing-parent.spec
expect_rc 2 "dry-run finds a missing parent"
contains "$err" "missing-parent.spec:5: mkdir $root/a/c/d: parent $root/a/c is not made" \
	"missing parent named with its line"
contains "$err" "missing-parent.spec:6: link $root/a/b/lun: link target $root/a/x" \
	"missing link target named with its line"
[ -z "$(tree)" ]; ok $? "dry-run with problems changed nothing"

# --- value sizes: 4095 bytes go, 4096 are refused before anything is done ---
v4095=$(head -c 4095 /dev/zero | tr '\0' v)
printf 'write attr %s\n' "$v4095" > "$tmp/4095.spec"
cfs --emulate "$tmp/4095.spec"
expect_rc 0 "4095-byte value"
[ "$(stat -c %s "$root/attr")" = 4095 ]; ok $? "4095 bytes written"
rm -f "$root/attr"
printf 'mkdir d\nwrite d/attr %sv\n' "$v4095" > "$tmp/4096.spec"
cfs --emulate "$tmp/4096.spec"
expect_rc 2 "4096-byte value refused"
contains "$err" "4096.spec:2: value is 4096 bytes" "refused with file:line"
[ -z "$(tree)" ]; ok $? "nothing made before the refusal"

# --- outside a rapido guest (this host): refused unless --force or --emulate ---
if grep -qE '(^| )rapido\.vm=[0-9]+( |$)' /proc/cmdline; then
	n=$((n + 1))
	echo "ok $n - refusal outside a guest # SKIP running inside a rapido guest"
else
	cfs -D name=cli $fix/good.spec
	expect_rc 2 "host: apply refused"
	contains "$err" "refusing to apply $fix/good.spec: this is not a rapido guest (/proc/cmdline has no rapido.vm=N), so this would change this machine's own configfs; --dry-run shows the plan, --force does it anyway" \
		"host: refusal says why and what to do"
	[ -z "$(tree)" ]; ok $? "host: refused apply changed nothing"
	mkdir "$root/d"
	cfs --teardown - <<< 'mkdir d'
	expect_rc 2 "host: teardown refused"
	contains "$err" "refusing to tear down <stdin>: this is not a rapido guest" "host: teardown refusal named"
	[ -d "$root/d" ]; ok $? "host: refused teardown removed nothing"
	rmdir "$root/d"
	cfs -D name=cli --dry-run $fix/missing-parent.spec
	contains "$err" "missing-parent.spec:5: mkdir" "host: a dry run still checks the plan"
	cfs --force - <<< 'mkdir d'
	expect_rc 0 "host: --force applies"
	[ -d "$root/d" ]; ok $? "host: --force made the directory"
	rm -rf "${root:?}"/*
fi

# --- stdin, -D ---
cfs --emulate -D d=cli - <<< $'set d spec\nmkdir ${d}\n'
expect_rc 0 "spec from stdin"
[ -d "$root/cli" ]; ok $? "-D wins over set"
rm -rf "${root:?}"/*

# --- the shipped specs: order checked, applied and torn down on the stand-in ---
for spec in autorun/configfs/*.spec; do
	name=$(basename "$spec")
	cfs --emulate --dry-run "$spec"
	expect_rc 0 "$name: dry-run on an empty root"
	cfs --emulate "$spec"
	expect_rc 0 "$name: apply"
	cfs --emulate --teardown "$spec"
	expect_rc 0 "$name: teardown"
	left=$(cd "$root" && find . -mindepth 1 \( -type f -o -type l \) ! -name .rapido-default-group)
	[ -z "$left" ]; ok $? "$name: no attribute or link left"
	cfs --emulate "$spec"
	expect_rc 0 "$name: apply again (teardown removed every directory)"
	cfs --emulate --teardown "$spec"
	cfs --emulate --teardown "$spec"
	expect_rc 0 "$name: teardown twice"
	rm -rf "${root:?}"/*
done
cfs --emulate --dry-run autorun/configfs/usb-msc.spec --sysfs-root "$tmp/nosys"
expect_rc 2 "usb-msc.spec without a UDC"
contains "$err" "dummy_hcd" "no UDC: hint names dummy_hcd"
cfs --emulate --teardown autorun/configfs/usb-msc.spec --sysfs-root "$tmp/nosys"
expect_rc 0 "usb-msc.spec teardown works without a UDC"

echo "1..$n"
[ $failed -eq 0 ]
