#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fuzz.sh: build the libFuzzer targets (make fuzz) and run each for a fixed
# number of inputs over its committed seed corpus (tests/fuzz/corpus/NAME),
# with a fixed seed, so a run is repeatable and takes seconds. A crash, a
# sanitizer report or a broken property fails the test; the input that did
# it is kept in build/fuzz/crashes/. New inputs libFuzzer finds go to a
# temporary directory, never into the committed corpus.
#   FUZZ_RUNS=N    inputs per target (default 5000)
#   FUZZ_CC=clang  the compiler (must have libFuzzer: libclang-rt-14-dev)
# Minutes of work: over the unit tier's 300 s on a loaded 2-core machine
# (the Debian 13 chroot under CI load), so:
# tests/run timeout: 1200s
. "$(dirname "$0")/../tap.sh"
cd "$TOP" || exit 1
runs=${FUZZ_RUNS:-5000}
cc=${FUZZ_CC:-clang}

if ! command -v "$cc" > /dev/null; then
	echo "SKIP: $cc is not installed (host/install-deps installs clang)"
	exit 77
fi
# clang without its fuzzer runtime compiles, then fails to link
echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n > 1 && d[0] == 1; }' > "$T/probe.c"
if ! "$cc" -fsanitize=fuzzer,address,undefined -o "$T/probe" "$T/probe.c" > "$T/probe.log" 2>&1; then
	echo "SKIP: $cc cannot link libFuzzer with ASan and UBSan (Debian: libclang-rt-14-dev; host/install-deps):"
	sed 's/^/# /' "$T/probe.log" | head -n 5
	exit 77
fi
if ! make -s FUZZ_CC="$cc" fuzz > "$T/make.log" 2>&1; then
	not_ok "make fuzz"
	sed 's/^/# /' "$T/make.log"
	done_testing
fi

for src in tests/fuzz/*.c; do
	t=$(basename "$src" .c)
	corpus=tests/fuzz/corpus/$t
	seeds=$(find "$corpus" -type f 2>/dev/null | wc -l)
	if [ "$seeds" -eq 0 ]; then
		not_ok "$t: no seed corpus in $corpus"
		continue
	fi
	mkdir -p "$T/new-$t"
	start=$(date +%s)
	build/fuzz/$t -runs="$runs" -seed=1 -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
		-error_exitcode=1 -timeout_exitcode=1 \
		-artifact_prefix="$T/$t-" "$T/new-$t" "$corpus" > "$T/$t.log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		ok "$t: $runs inputs from $seeds seeds (${secs}s)"
		continue
	fi
	not_ok "$t: exit $rc after ${secs}s"
	grep -E 'property broken|ERROR: |SUMMARY|runtime error|deadly|Test unit written' "$T/$t.log" |
		head -n 20 | sed 's/^/# /'
	mkdir -p build/fuzz/crashes
	for a in "$T/$t"-*; do
		[ -f "$a" ] || continue
		cp "$a" build/fuzz/crashes/
		echo "# input kept: build/fuzz/crashes/$(basename "$a") (reproduce: build/fuzz/$t build/fuzz/crashes/$(basename "$a"))"
	done
done
done_testing
