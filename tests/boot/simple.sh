#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# simple.sh: ./cut simple then ./vm --batch boots Debian's kernel, runs the
# profile, powers off cleanly and exits 0; the console log is kept.
. "$(dirname "$0")/lib.sh"

out=$("$CUT" simple 2>&1)
expect_rc "cut simple" 0 $?
check "image written" test -s "$DRACUT_OUT"
check "no temporary files left next to the image" \
	test -z "$(ls "$T" | grep -E 'image\.(tmp|dracut|log)')"
rel=$(echo "$out" | sed -n 's/.*kernel \(.*\)$/\1/p')

# from another directory, as a user would
(cd / && "$VM" --batch --timeout 300) > "$T/console" 2>&1
expect_rc "vm --batch" 0 $?
check "profile printed the kernel release and hostname rapido1" \
	grep -q "rapido: $rel up on rapido1" "$T/console"
check "console log file kept in the state dir" grep -q "rapido: $rel up on rapido1" "$VM_STATE_DIR/vm1.log"
check "kernel console clean" console_clean "$T/console"
check "clean power-off" grep -q "reboot: Power down" "$T/console"
check "no qemu left running" test -z "$(pgrep -f "$DRACUT_OUT")"
done_testing
