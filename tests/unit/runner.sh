#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# runner.sh: tests/run's own verdicts, on a copy of it in a tree of made-up
# tests: a C unit test that was never built fails (it does not vanish from
# the count); a test that outlives its timeout is reported as timed out,
# also when it ignores SIGTERM and is killed (timeout(1) exits 137 then),
# and when its TERM handler exits 0; a test that exits 124 by itself is
# not a timeout.
. "$(dirname "$0")/../tap.sh"

top=$T/top
mkdir -p "$top/tests/unit" "$top/build/tests"
cp "$TOP/tests/run" "$top/tests/run"
# a C unit test with a source and no binary
echo 'int main(void) { return 0; }' > "$top/tests/unit/never-built.c"
# one that is built
echo 'int main(void) { return 0; }' > "$top/tests/unit/built.c"
printf '#!/bin/sh\necho "ok 1 - built"\n' > "$top/build/tests/built"
# TERM ignored: only KILL stops it (and its sleep, which inherits SIG_IGN)
printf '#!/bin/bash\ntrap "" TERM\nsleep 100\n' > "$top/tests/unit/ignores-term.sh"
# TERM handled by exiting 0
printf '#!/bin/bash\ntrap "exit 0" TERM\nsleep 100 & wait\n' > "$top/tests/unit/term-exits-0.sh"
printf '#!/bin/sh\nexit 124\n' > "$top/tests/unit/exits-124.sh"
printf '#!/bin/sh\nexit 0\n' > "$top/tests/unit/passes.sh"
# its own timeout in its header: longer than the tier's, and shorter
printf '#!/bin/sh\n# tests/run timeout: 60s\nsleep 4\n' > "$top/tests/unit/own-longer.sh"
printf '#!/bin/sh\n# tests/run timeout: 1s\nsleep 100\n' > "$top/tests/unit/own-shorter.sh"
chmod +x "$top"/tests/unit/*.sh "$top/build/tests/built"

start=$(date +%s)
UNIT_TIMEOUT=2 TEST_LOG_DIR=$T/logs "$top/tests/run" --unit > "$T/out" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))
sed 's/^/# /' "$T/out"
expect_rc "the runner fails" 1 $rc
check "a C unit test never built fails, saying so" \
	bash -c "grep -q '^FAIL unit/never-built: exit 127' '$T/out' && grep -q 'never-built: not built (make tests)' '$T/out'"
check "a built one passes" grep -q '^PASS unit/built ' "$T/out"
check "a test ignoring SIGTERM is a timeout, killed" \
	grep -q '^FAIL unit/ignores-term.sh: timed out after 2s (ignored SIGTERM, killed 10s later)' "$T/out"
check "a test whose TERM handler exits 0 is a timeout" \
	grep -q '^FAIL unit/term-exits-0.sh: timed out after 2s$' "$T/out"
check "a test exiting 124 itself is not a timeout" grep -q '^FAIL unit/exits-124.sh: exit 124 ' "$T/out"
check "a test's own longer timeout (header) holds" grep -q '^PASS unit/own-longer.sh ' "$T/out"
check "a test's own shorter timeout is named" \
	grep -q '^FAIL unit/own-shorter.sh: timed out after 1s$' "$T/out"
check "the count: 3 passed, 5 failed" grep -q '^3 passed, 5 failed, 0 skipped$' "$T/out"
check "the killed test took the timeout and the 10 s grace, no more (${secs}s)" test "$secs" -lt 60
done_testing
