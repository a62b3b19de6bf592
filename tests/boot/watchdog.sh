#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# watchdog.sh: one boot of five planned tests (results-suite, watchdog).
# A hung-task report the kernel makes while fixture/hung-one runs fails
# that test only, naming the report and its console.log lines; the test
# that sleeps forever is stopped by --test-timeout with the guest's
# blocked and all task stacks (sysrq w, t) as its output, an error "no
# progress after 20 s"; with --test-timeout-dump qemu then writes a vmcore
# of the stuck guest (DIR/vmcore) before the VM stops; the test never run
# is an error naming it; exit 124. run.json (and the JUnit properties)
# say what was booted. fixture/hung-one is named in a known-failure file:
# the report still fails it (only --splats-allow excuses a report).
# A second boot: the stuck-suite profile's own "#@ test-timeout: 8" stops
# the -x test that hangs, with no --test-timeout given; nothing planned
# the -x test after it, so a failed testcase says later tests may not
# have run.
. "$(dirname "$0")/lib.sh"

XSD=$TOP/tests/fixtures/junit.xsd
# case NAME: the <testcase> element of test NAME in the run's junit.xml, one line
case_of() {
	perl -0ne 'print $1 if m{(<testcase [^>]*name="\Q'"$1"'\E"(?:/>|.*?</testcase>))}s' "$D/junit.xml" |
		tr '\n' ' '
}
D=$T/run

echo "RESULTS_FIXTURE=watchdog" > "$RAPIDO_CONF"
"$CUT" results-suite > "$T/cut.out" 2>&1
expect_rc "cut results-suite" 0 $?
start=$(date +%s)
printf 'fixture/hung-one # https://bugs.example/1\n' > "$T/known"
"$VM" --batch --timeout 600 --test-timeout 20 --test-timeout-dump --memory 256M --results "$D" \
	--known-failures "$T/known" > "$T/console" 2> "$T/err"
expect_rc "the watchdog stopped the VM: the timeout's status" 124 $?
echo "# wall time: $(( $(date +%s) - start )) s"
check "stderr names the stuck test" \
	grep -q "test fixture/sleeps made no progress after 20s" "$T/err"
# --test-timeout-dump: the dump is asked for once the stacks are in, and
# written before qemu quits (its reply comes first: monitor.c)
check "stderr: the vmcore is written after the stacks are collected" sh -c "
	grep -n 'collecting the blocked and all task stacks' '$T/err' | cut -d: -f1 > '$T/at.collect' &&
	grep -n 'writing a vmcore of the stuck guest to $D/vmcore' '$T/err' | cut -d: -f1 > '$T/at.dump' &&
	test -s '$T/at.collect' && test -s '$T/at.dump' && test \$(cat '$T/at.collect') -lt \$(cat '$T/at.dump')"
check "stderr names the dump qemu wrote" grep -q "memory dump (elf) in $D/vmcore" "$T/err"
core=$D/vmcore
check "the dump is an ELF core file" sh -c "readelf -h '$core' | grep -q 'CORE (Core file)'"
# its load segments: the guest's RAM (256M less what the PC's holes below 1M take)
core_mem() {
	local type off vaddr paddr filesz memsz m=0
	while read -r type off vaddr paddr filesz memsz _; do
		[ "$type" = LOAD ] && m=$((m + memsz))
	done < <(readelf -lW "$core")
	echo $((m >> 20))
}
mem=$(core_mem)
check "  of the whole guest's memory: ${mem}M in its load segments" test "$mem" -ge 255 -a "$mem" -le 256
check "  with the kernel's VMCOREINFO" sh -c "readelf -n '$core' | grep -q VMCOREINFO"
check "junit.xml is valid against the JUnit schema" xmllint --noout --schema "$XSD" "$D/junit.xml"
check "fixture/pass-one and fixture/pass-two passed" \
	sh -c "grep -q '<testcase [^>]*name=\"fixture/pass-one\" time=\"[0-9.]*\"/>' '$D/junit.xml' &&
		grep -q '<testcase [^>]*name=\"fixture/pass-two\" time=\"[0-9.]*\"/>' '$D/junit.xml'"
hung=$(case_of fixture/hung-one)
echo "# fixture/hung-one: ${hung:0:300}"
check "fixture/hung-one fails with the hung-task report's first line and its lines" \
	grep -qE '<failure message="kernel hung-task: INFO: task dd:[0-9]+ blocked for more than [0-9]+ seconds?\. \(console\.log lines [0-9]+-[0-9]+\)[^"]*" type="failure">' <<< "$hung"
check "  though a known failure names it: the entry excuses no kernel report" \
	grep -q "the known failure $T/known:1 does not excuse a kernel report" <<< "$hung"
check "fixture/hung-one's output holds the report" grep -q -- '--- kernel hung-task report, console.log lines' <<< "$hung"
lines=$(grep -oE 'console\.log lines [0-9]+-[0-9]+\)' <<< "$hung" | head -1 | grep -oE '[0-9]+-[0-9]+')
check "those console.log lines are the report ($lines)" \
	sh -c "test -n '$lines' && sed -n '${lines%-*}p' '$D/console.log' | grep -q 'INFO: task dd:'"
check "stderr ties the report to fixture/hung-one" \
	grep -qE "kernel hung-task: INFO: task dd:[0-9]+ .*\(during test fixture/hung-one, console.log lines" "$T/err"
sleeps=$(case_of fixture/sleeps)
check "fixture/sleeps is an error: no progress after 20 s" \
	grep -q '<error message="no progress after 20 s" type="error">' <<< "$sleeps"
check "its output has the blocked tasks (sysrq w)" grep -q 'sysrq: Show Blocked State' <<< "$sleeps"
all_stacks() { grep -q 'sysrq: Show State' <<< "$sleeps" && grep -q 'task:sleep ' <<< "$sleeps"; }
check "and all task stacks (sysrq t)" all_stacks
check "fixture/never-three: not run, the VM stopped during fixture/sleeps" \
	grep -q '<error message="not run: the VM was stopped during fixture/sleeps" type="error">' \
	<<< "$(case_of fixture/never-three)"
check "totals: 2 errors, the hung test and the hung-task report failures" \
	grep -q '<testsuites name="rapido" tests="[0-9]*" failures="[0-9]*" errors="2"' "$D/junit.xml"
diag

# run.json against what was booted
rel=$(sed -n 's/.*Linux version \([^ ]*\) .*/\1/p' "$D/console.log" | head -1)
is_json() { python3 -m json.tool "$D/run.json" > /dev/null; }
check "run.json is JSON" is_json
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$D/run.json" "$1"; }
check "kernel_release is the booted kernel's ($rel)" test "$(field kernel_release)" = "$rel"
check "the vmcore names that kernel" sh -c "head -c 65536 '$core' | grep -aq 'OSRELEASE=$rel'"
check "kernel_config_sha256 is its config's" \
	test "$(field kernel_config_sha256)" = "$(sha256sum < "/boot/config-$rel" | cut -d' ' -f1)"
check "profile" test "$(field profile)" = results-suite
check "image_layers are the image's layer keys" \
	sh -c 'case " $1 " in *":$2 "*) ;; *) exit 1 ;; esac' _ "$(field image_layers)" "$(layer bins "$DRACUT_OUT")"
check "qemu_version is qemu's" test "$(field qemu_version)" = "$(qemu-system-x86_64 --version | head -1)"
want=$("$VM" --version | sed -n '1s/^vm (rapido) //p')
check "rapido_version is this build's, as --version says ($(field rapido_version), $want)" \
	test "$(field rapido_version)" = "$want"
check "host, accel, start" sh -c "test '$(field host)' = '$(uname -n)' && test '$(field accel)' = tcg &&
	grep -q '\"start\": \"20[0-9-]*T[0-9:]*Z\"' '$D/run.json'"
check "JUnit properties carry them" \
	grep -q "<property name=\"kernel_release\" value=\"$rel\"/>" "$D/junit.xml"
diag

# the profile's own test timeout; the -x tests after the stuck one were never planned
D=$T/stuck
"$CUT" stuck-suite -x 'rapido_test one true' -x 'rapido_test hang sleep 100000' \
	-x 'rapido_test after false' > "$T/cut.out" 2>&1
expect_rc "cut stuck-suite" 0 $?
start=$(date +%s)
"$VM" --batch --timeout 600 --results "$D" > "$T/console" 2> "$T/err"
expect_rc "#@ test-timeout: 8 stopped the VM without --test-timeout" 124 $?
echo "# wall time: $(( $(date +%s) - start )) s"
check "stderr names the stuck test and the profile's 8 s, from the profile" \
	grep -q "test hang made no progress after 8s (profile stuck-suite)" "$T/err"
check "hang is an error: no progress after 8 s" \
	grep -q '<error message="no progress after 8 s" type="error">' <<< "$(case_of hang)"
check "one passed" grep -q '<testcase [^>]*name="one" time="[0-9.]*"/>' "$D/junit.xml"
check "a failed testcase says that the tests after hang may not have run" \
	grep -q '<error message="not run: the VM was stopped during hang, and the guest planned no test after it (R1 plan): the tests after it may not have run" type="error">' \
	<<< "$(case_of "rapido: tests not run")"
check "junit.xml (stuck) is valid" xmllint --noout --schema "$XSD" "$D/junit.xml"
diag
done_testing
