#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ldd-compare.sh: build/rapido-ldd (src/ldd), the DRACUT_LDD ./cut gives
# dracut, answers as glibc's ldd does: the same output and exit status for
# programs, libraries, 32-bit files where the host has their loader, static
# programs, scripts and things that are no file; it runs two loaders for a
# dynamic ELF file and hands everything else to ldd; dracut runs it (and
# no ldd) while ./cut runs dracut.
# Minutes of work: over the unit tier's 300 s on a loaded 2-core machine
# (the Debian 13 chroot under CI load), so:
# tests/run timeout: 900s
. "$(dirname "$0")/../tap.sh"
ldd=$TOP/build/rapido-ldd
[ -x "$ldd" ] || { echo "SKIP: build/rapido-ldd not built (make)"; exit 77; }
command -v ldd > /dev/null || { echo "SKIP: no ldd (libc-bin)"; exit 77; }

# the output with the load addresses (ASLR) masked, then the exit status
answer() {
	"$@" 2>&1 | sed 's/ (0x[0-9a-f]*)$/ (ADDR)/'
	echo "exit ${PIPESTATUS[0]}"
}
compare() {
	local f differ=0 n=0
	: > "$T/differ"
	for f in "$@"; do
		n=$((n + 1))
		if [ "$(answer ldd "$f")" != "$(answer "$ldd" "$f")" ]; then
			differ=$((differ + 1))
			echo "$f" >> "$T/differ"
		fi
	done
	echo "$n $differ"
}
show_differ() {
	local f
	head -n 5 "$T/differ" | while read -r f; do
		echo "# $f:"
		diff <(answer ldd "$f") <(answer "$ldd" "$f") | sed 's/^/#   /'
	done
}

# files of every kind dracut-install can hand it, and some it cannot
printf '#!/bin/sh\necho hi\n' > "$T/script"
head -c 200 /usr/bin/bash > "$T/cut-short"
cp /usr/bin/bash "$T/not-executable" && chmod 644 "$T/not-executable"
mkfifo "$T/fifo"
odd=("$TOP/build/guest/rapido-init" "$T/script" "$T/cut-short" "$T/not-executable" "$T/fifo"
	/etc/passwd /dev/null /usr/bin "$T/missing" "$(command -v ldd)")
read -r n differ < <(compare "${odd[@]}")
TAP_ON_FAIL=show_differ
check "static, script, short, non-executable, fifo, text, device, directory, missing: as ldd ($differ of $n differ)" \
	test "$differ" = 0
# a sample of the host's programs and libraries (every fourth, to keep it short)
mapfile -t sample < <(ls -d /usr/bin/* /usr/sbin/* /usr/lib/"$(gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)"/*.so* 2>/dev/null | awk 'NR % 4 == 0')
read -r n differ < <(compare "${sample[@]}")
check "$n host programs and libraries: the same output and exit status as ldd ($differ differ)" \
	test "$differ" = 0 -a "$n" -gt 300
# a 32-bit library: its loader comes first in Debian's RTLDLIST
lib32=$(ls /usr/lib32/libc.so.6 /lib/i386-linux-gnu/libc.so.6 2>/dev/null | head -n 1)
if [ -x /lib/ld-linux.so.2 ] && [ -n "$lib32" ]; then
	read -r n differ < <(compare "$lib32" /lib/ld-linux.so.2)
	check "32-bit libc and its loader: as ldd" test "$differ" = 0
else
	skip "32-bit libc and its loader: as ldd" "no 32-bit loader here (libc6-i386)"
fi
TAP_ON_FAIL=show_run
run "$ldd" --version
check "an option: ldd's own answer" out_is "$(ldd --version)"
run "$ldd" /usr/bin/bash /usr/bin/cat
check "two files: ldd's own answer (each named)" contains "$T/out" "/usr/bin/cat:"

# which programs it runs: a dynamic program, two loaders and no ldd; a script, ldd
if command -v strace > /dev/null; then
	# (LeakSanitizer cannot run under ptrace: a sanitized build's leak check is off there)
	execs() { ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=execve -o "$T/trace" "$ldd" "$1" > /dev/null 2>&1; grep -v ENOENT "$T/trace" | grep -c 'execve(' ; }
	check "a dynamic program: rapido-ldd and two loader runs ($(execs /usr/bin/bash) programs)" \
		test "$(execs /usr/bin/bash)" = 3
	check "  ldd is not run" test "$(grep -v ENOENT "$T/trace" | grep -c '/ldd"')" = 0
	execs "$T/script" > /dev/null
	check "a script: handed to ldd" test "$(grep -v ENOENT "$T/trace" | grep -c '/ldd"')" = 1
else
	skip "which programs it runs" "no strace"
fi

# answers computed ahead (--answers DIR, as ./cut starts it beside dracut),
# then asked about copies elsewhere (dracut's tree): ldd's answers, no loader run
mkdir -p "$T/answers" "$T/copies"
ahead=(/usr/bin/bash /usr/bin/cat "$TOP/build/rapido-ldd")
[ -x /usr/bin/fio ] && ahead+=(/usr/bin/fio)
"$ldd" --answers "$T/answers" "${ahead[@]}"
expect_rc "--answers for ${#ahead[@]} programs and the libraries they need" 0 $?
kept=$(ls "$T/answers" | wc -l)
check "  $kept answers kept (theirs and their libraries')" test "$kept" -gt "${#ahead[@]}"
copies=()
while read -r lib; do
	cp "$lib" "$T/copies/" && copies+=("$T/copies/$(basename "$lib")")
done < <(for f in "${ahead[@]}"; do ldd "$f"; done | sed -n 's|.*=> \(/[^ ]*\) (.*|\1|p' | sort -u)
for f in "${ahead[@]}"; do cp "$f" "$T/copies/prog-$(basename "$f")" && copies+=("$T/copies/prog-$(basename "$f")"); done
export RAPIDO_LDD_ANSWERS=$T/answers
read -r n differ < <(compare "${copies[@]}")
TAP_ON_FAIL=show_differ
check "copies of them and of their libraries, answered from the answers: as ldd ($differ of $n differ)" \
	test "$differ" = 0 -a "$n" -gt 3
TAP_ON_FAIL=show_run
if command -v strace > /dev/null && command -v gcc > /dev/null; then
	check "  a copy of bash: no loader run (the kept answer)" test "$(execs "$T/copies/prog-bash")" = 1
	LD_LIBRARY_PATH=$T/nowhere execs "$T/copies/prog-bash" > "$T/n"
	check "  another LD_LIBRARY_PATH: the loader asked ($(cat "$T/n") programs)" test "$(cat "$T/n")" = 3
	# a program whose run path is its own place ($ORIGIN): its answer is never kept
	printf 'int main(void) { return 0; }\n' > "$T/origin.c"
	gcc -o "$T/origin" "$T/origin.c" -Wl,-rpath,'$ORIGIN/lib' 2> "$T/gcc.err"
	"$ldd" --answers "$T/answers" "$T/origin"
	cp "$T/origin" "$T/copies/origin"
	check "  a program with \$ORIGIN in its run path: the loader asked ($(execs "$T/copies/origin") programs)" \
		test "$(execs "$T/copies/origin")" = 3
else
	skip "which programs answer a copy" "no strace or gcc"
fi
unset RAPIDO_LDD_ANSWERS

# dracut runs it during a cut (cut-dracut-same.sh compares the layers' bytes)
if command -v dracut > /dev/null && ls /boot/vmlinuz-* > /dev/null 2>&1 && command -v strace > /dev/null; then
	printf 'FSTESTS_SRC=%s\n' "$TOP/tests/fixtures/xfstests" > "$T/rapido.conf"
	RAPIDO_CONF=$T/rapido.conf CUT_CACHE_DIR=$T/cache ASAN_OPTIONS=detect_leaks=0 \
		strace -f -qq --seccomp-bpf -e trace=execve -o "$T/cut-trace" "$TOP/cut" -q -o "$T/img" fstests_local > "$T/out" 2>&1
	expect_rc "fstests_local cut" 0 $?
	runs=$(grep -v ENOENT "$T/cut-trace" | grep -c 'execve("[^"]*/rapido-ldd"')
	check "dracut ran rapido-ldd ($runs times)" test "$runs" -gt 50
	check "  and no ldd" test "$(grep -v ENOENT "$T/cut-trace" | grep -c 'execve("[^"]*/ldd"')" = 0
	check "  and one rapido-ldd --answers beside dracut" \
		test "$(grep -v ENOENT "$T/cut-trace" | grep 'execve("[^"]*/rapido-ldd"' | grep -c ', "--answers",')" = 1
else
	skip "dracut runs rapido-ldd" "no dracut, installed kernel or strace"
fi
done_testing
