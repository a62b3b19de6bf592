#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cut-enospc.sh: a cut that runs out of space says so, naming the file
# system, where it is mounted and how much is free, and leaves nothing
# behind on it. Small tmpfs mounts stand in for a full disk. Cut-only.
. "$(dirname "$0")/lib.sh"
trap 'umount "$T/small" "$T/tiny" 2> /dev/null; [ -n "${KEEP_TEST_DIR:-}" ] || rm -rf "$T"' EXIT

may_mount || { echo "SKIP: $why_no_mount"; exit 77; }
# mounted MOUNT-ARGS...: mount succeeds (this test may mount: may_mount)
mounted() {
	mount "$@" 2> "$T/mount.err" && return 0
	not_ok "mount $*: $(cat "$T/mount.err")"
	done_testing
}

mkdir "$T/small" "$T/tiny"
# 2 MB: room for rapido's own archive, not for dracut's tree (~40 MB)
mounted -t tmpfs -o size=2m rapido-small "$T/small"
"$CUT" -o "$T/small/image" simple > "$T/out" 2>&1
rc=$?
check "full during dracut: fails (exit $rc)" test $rc -ne 0
check "  names ENOSPC, the file system and its mount point" \
	grep -qE "dracut failed \(exit status [0-9]+\): no space left on device on tmpfs rapido-small \(mounted at $T/small, [0-9]+ bytes free\)" "$T/out"
check "  leaves nothing on it" test -z "$(ls -A "$T/small")"
[ $fails = 0 ] || sed 's/^/# /' "$T/out"

# 4 KB: not even rapido's own archive fits
mounted -t tmpfs -o size=4k rapido-tiny "$T/tiny"
"$CUT" -o "$T/tiny/image" simple > "$T/out" 2>&1
rc=$?
check "full before dracut: fails (exit $rc)" test $rc -ne 0
check "  names ENOSPC, the file system and its mount point" \
	grep -qE "no space left on device on tmpfs rapido-tiny \(mounted at $T/tiny, [0-9]+ bytes free\)" "$T/out"
check "  leaves nothing on it" test -z "$(ls -A "$T/tiny")"
[ $fails = 0 ] || sed 's/^/# /' "$T/out"
done_testing
