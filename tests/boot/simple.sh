#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# simple.sh: ./cut simple then ./vm --batch boots Debian's kernel, runs the
# profile, powers off cleanly and exits 0; the console log is kept.
. "$(dirname "$0")/lib.sh"

out=$("$CUT" simple 2>&1)
expect_rc "cut simple" 0 $?
check "image written" test -s "$DRACUT_OUT"
# a cut writes in one directory next to the image, IMAGE.cut-XXXXXX
# (README); nothing but the image may be left of its name
check "no temporary left next to the image" test -z "$(ls -A "$T" | grep '^image.')"
rel=$(echo "$out" | sed -n 's/.*kernel \(.*\)$/\1/p')

# from another directory, as a user would
(cd / && "$VM" --batch --timeout 300) > "$T/console" 2>&1
expect_rc "vm --batch" 0 $?
check "profile printed the kernel release and hostname rapido1" \
	guest_says "$T/console" "rapido: $rel up on rapido1"
check "console log file kept in the state dir" grep -q "rapido: $rel up on rapido1" "$VM_STATE_DIR/vm1.log"
check "kernel console clean" console_clean "$T/console"
check "clean power-off" grep -q "reboot: Power down" "$T/console"
check "no qemu left running" no_test_qemu
done_testing
