#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# hostile-conf.sh: values full of shell syntax reach the guest byte for
# byte and are never run, on the host or in the guest.
. "$(dirname "$0")/lib.sh"

cat > "$RAPIDO_CONF" <<EOC
RAPIDO_TEST_HOSTILE='\$(touch $T/pwned-subst); \`touch $T/pwned-bq\` | & "q" \\ end'
RAPIDO_TEST_SPACES="a  b	c"
QEMU_EXTRA_KERNEL_PARAMS="hostile.note='semi;colon'"
EOC
"$CUT" echo-conf > "$T/cut.out" 2>&1
expect_rc "cut with hostile values" 0 $?
"$VM" --batch --timeout 300 > "$T/console" 2>&1
expect_rc "vm" 0 $?
want="[\$(touch $T/pwned-subst); \`touch $T/pwned-bq\` | & \"q\" \\ end]"
got=$(guest_text "$T/console" | grep -a '^HOSTILE=' | sed 's/^HOSTILE=//')
check "hostile value arrives intact" test "$got" = "$want"
got=$(guest_text "$T/console" | grep -a '^SPACES=' | sed 's/^SPACES=//')
check "spaces and tabs kept" test "$got" = "$(printf '[a  b\tc]')"
check "kernel parameter split with quoting, passed as one word" grep -aqE ' hostile\.note=semi;colon( |$)' <(tr -d '\r' < "$T/console")
check "nothing was executed" test ! -e "$T/pwned-subst" -a ! -e "$T/pwned-bq"
done_testing
