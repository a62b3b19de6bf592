#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# hostile-cache.sh: nothing blocks past --timeout (issue 33 item 4). A FIFO
# in place of a cached layer that the boot unpacks is named by ./vm (125, at
# once) and replaced by the next ./cut; one in place of a layer this boot
# leaves out (the on-demand modules of a batch boot) is never opened; a
# console log that is a FIFO nobody reads (which once
# left ./vm stuck before qemu until --timeout) is refused at once by name,
# the run goes on without it and leaves no process of its session behind.
# The cache's lock a link: its target is never made.
# An outer `timeout -s KILL` (exit 137) catches a ./vm that does not end by
# itself.
. "$(dirname "$0")/lib.sh"

"$CUT" simple > /dev/null
expect_rc "cut" 0 $?
# the layer every boot unpacks (bins: bash, the init's helpers), named by
# the image itself: the first file of layers/ is whichever hash sorts first
layer=$CUT_CACHE_DIR/layers/$(layer bins "$DRACUT_OUT").cpio
ondemand=$CUT_CACHE_DIR/layers/$(layer ondemand "$DRACUT_OUT").cpio
check "the image has cached layers" test -f "$layer" -a -f "$ondemand"

# a FIFO as a layer a batch boot leaves out: not opened, the boot goes on
rm -f "$ondemand" && mkfifo "$ondemand"
timeout -s KILL 120 "$VM" --batch --timeout 60 > "$T/out" 2> "$T/err"
expect_rc "./vm with a FIFO as a layer it leaves out: boots (not a hang)" 0 $?
check "  the FIFO is still there" test -p "$ondemand"
rm -f "$ondemand"
"$CUT" simple > /dev/null
expect_rc "  ./cut makes the layer again" 0 $?
check "  a regular file" test -f "$ondemand" -a ! -p "$ondemand"

# a FIFO as a cached layer: ./vm refuses the image at once, naming it
rm -f "$layer" && mkfifo "$layer"
timeout -s KILL 120 "$VM" --batch --timeout 60 > "$T/out" 2> "$T/err"
expect_rc "./vm with a FIFO as a layer: 125, not a hang" 125 $?
check "  names the layer and what it is" grep -qF "$layer is not a regular file but a FIFO" "$T/err"
check "  the FIFO is still there (./vm removes nothing it did not make)" test -p "$layer"

# ./cut names it, rebuilds the layer and stores a regular file in its place
timeout -s KILL 300 "$CUT" simple > "$T/out" 2> "$T/err"
expect_rc "./cut with a FIFO as a layer: rebuilt" 0 $?
check "  names it" grep -qF "$layer: not a regular file but a FIFO" "$T/err"
check "  and replaces it with a regular file" test -f "$layer" -a ! -p "$layer"

# the cache's lock a link to a path outside: never made, the cut goes on
# without the cache (said), as with any cache it cannot set up
rm -f "$CUT_CACHE_DIR/lock" && ln -s "$T/made-outside" "$CUT_CACHE_DIR/lock"
timeout -s KILL 300 "$CUT" simple > "$T/out" 2> "$T/err"
expect_rc "./cut with the cache's lock a link: it cuts" 0 $?
check "  the link's target is not made" test ! -e "$T/made-outside"
check "  the cache given up, said" grep -q "cannot be set up" "$T/err"
rm -f "$CUT_CACHE_DIR/lock"

# its console log a FIFO without a reader: never opened (open_output), so nothing waits
mkfifo "$T/log.fifo"
setsid timeout -s KILL 120 "$VM" --batch --timeout 60 --log "$T/log.fifo" > "$T/out" 2> "$T/err" &
sid=$!
wait $sid
rc=$?
expect_rc "./vm with a FIFO as its console log: the run goes on without it" 0 $rc
check "  names it" grep -qF "console log $T/log.fifo cannot be written (not a regular file but a FIFO)" "$T/err"
check "  no process of its session left" test -z "$(pgrep -s $sid)"
check "  the VM number is free again" flock -n "$VM_LOCK_DIR/vm1.lock" true
done_testing
