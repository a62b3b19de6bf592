#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cut-output.sh: where ./cut writes and with which mode. A bad -o or -f is
# refused before dracut runs, in a dry run too; an image that carries a
# secret (a key its profile marks "#@ secret:") is created 0600, any other
# follows the umask; the secret never reaches the layer cache. Cut-only: no
# VM boots.
. "$(dirname "$0")/lib.sh"
trap 'umount "$T/ro" 2> /dev/null; [ -n "${KEEP_TEST_DIR:-}" ] || rm -rf "$T"' EXIT

# A dracut that only records that it ran: every refusal must come before it.
cat > "$T/fake-dracut" << EOF
#!/bin/sh
echo ran >> "$T/dracut-ran"
exit 1
EOF
chmod +x "$T/fake-dracut"

# refused DESCRIPTION PATTERN CUT-ARGS...: refused with PATTERN in the
# message, in a dry run and in a real run, dracut never started, nothing
# written, quickly (a -f /dev/zero used to read 2 GB first)
refused() {
	local d=$1 pat=$2 mode rc
	shift 2
	for mode in -n ""; do
		rm -f "$T/dracut-ran"
		DRACUT=$T/fake-dracut timeout 20 "$CUT" $mode "$@" > "$T/out" 2>&1
		rc=$?
		if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q -- "$pat" "$T/out" &&
		   [ ! -e "$T/dracut-ran" ] && [ -z "$(ls -A "$T" | grep '^image')" ]; then
			ok "$d${mode:+ (dry run)}"
		else
			not_ok "$d${mode:+ (dry run)}: exit $rc$([ -e "$T/dracut-ran" ] && echo ', dracut ran')"
			sed 's/^/# /' "$T/out"
		fi
	done
}

mkdir "$T/adir"
refused "-o ''" "-o '': expected the image's file name" -o '' simple
refused "-o DIR" "$T/adir: is a directory; expected the image's file name" -o "$T/adir" simple
refused "-o in a missing directory" "$T/nodir: No such file or directory" -o "$T/nodir/image" simple
mkfifo "$T/fifo"
refused "-o a fifo" "$T/fifo: is a fifo, not a regular file" -o "$T/fifo" simple
mkdir "$T/ro"
if ! may_mount; then
	skip "-o on a read-only file system (dry run)" "$why_no_mount"
	skip "-o on a read-only file system" "$why_no_mount"
elif ! mount -t tmpfs -o ro,size=1m tmpfs "$T/ro" 2> "$T/mount.err"; then
	not_ok "mount a read-only tmpfs: $(cat "$T/mount.err")"
else
	refused "-o on a read-only file system" "cannot write in $T/ro: Read-only file system" \
		-o "$T/ro/image" simple
	umount "$T/ro"
fi
DRACUT_OUT=$T/adir refused "DRACUT_OUT a directory" "$T/adir: is a directory" simple
refused "-f /dev/zero" "-f /dev/zero: is a character device, not a regular file" simple -f /dev/zero
refused "-f DIR" "-f $T/adir: is a directory, not a regular file" simple -f "$T/adir"
truncate -s 17M "$T/big.sh"
refused "-f too big" "-f $T/big.sh: 17825792 bytes, more than the 16777216 a -f script may have" \
	simple -f "$T/big.sh"

# modes: no secret follows the umask, as any file a program creates
for um in 022 027 000; do
	rm -f "$T/image"
	(umask $um && "$CUT" simple > "$T/out" 2>&1)
	want=$(printf '%o' $((0666 & ~0$um)))
	got=$(stat -c %a "$T/image" 2> /dev/null)
	check "no secret, umask $um: mode $want (got ${got:-no image})" test "$got" = "$want"
done

# cifs carries CIFS_PASS: 0600 whatever the umask, and never wider on the
# way. The layer cache beside it holds no secret (dracut's layers are
# shared, 0444); its files change mode only as temporaries, before the
# rename that puts them in place, so none is ever seen half-written (the
# state dir's record of the last image is no cache file). The
# first cut fills the cache, the second finds it.
export CIFS_SERVER=10.0.2.2 CIFS_USER=rapido CIFS_PASS=rapido-secret-pw
for um in 000 022; do
	rm -f "$T/image"
	# LeakSanitizer cannot run under ptrace (a SANITIZE=1 ./cut says so, and fails)
	(umask $um && ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} strace -qq -y -o "$T/strace" \
		-e trace=openat,chmod,fchmod,fchmodat,rename,renameat,renameat2 \
		"$CUT" -v cifs > "$T/out" 2>&1)
	got=$(stat -c %a "$T/image" 2> /dev/null)
	# dracut 106 asks the kernel's config about the compressor that
	# writes a layer into the cache (dd): DRACUT_COMPRESS_CAT says it is none
	check "umask $um: dracut (-v) reported no error" test -z "$(grep 'dracut\[[EF]\]' "$T/out")"
	check "secret CIFS_PASS, umask $um: mode 600 (got ${got:-no image})" test "$got" = 600
	check "  created 0600, never chmod-ed" \
		test -z "$(grep -E '^f?chmod' "$T/strace" | grep -F "$T/image")" -a \
		-n "$(grep -E 'openat\(.*image\.cut-[^/]*/image", .*O_CREAT.*, 0600\)' "$T/strace")"
	check "  the secret is in the image" grep -qa "CIFS_PASS=rapido-secret-pw" "$T/image"
	check "  and in no file of the cache" test -z "$(grep -rla rapido-secret-pw "$CUT_CACHE_DIR")"
	check "  cache files change mode only as temporaries (tmp/, layers/*.tmp*, kmods/*.tmp*)" \
		test -z "$(grep -E '^f?chmod' "$T/strace" | grep -F "$CUT_CACHE_DIR/" |
			grep -vE "[\"<]$CUT_CACHE_DIR/(tmp/|layers/[0-9a-f]{64}\.meta\.tmp|kmods/[0-9a-f]{64}\.tmp)")"
	check "  and enter layers/ only by a rename" \
		test -z "$(grep -E "^openat\(.*\"$CUT_CACHE_DIR/layers/[0-9a-f]{64}\.(cpio|meta)\", [^)]*O_CREAT" "$T/strace")"
	[ $fails = 0 ] || { sed 's/^/# /' "$T/out"; grep -E 'chmod|O_CREAT|rename' "$T/strace" | sed 's/^/# /'; }
	cp "$T/strace" "$T/strace-$um"
done
# the checks above would hold for a cut that stored nothing
check "the first cifs cut stored its layers (renamed from tmp/: modules, ondemand, bins, libs)" \
	test "$(grep -cE "^rename[a-z0-9]*\(.*\"$CUT_CACHE_DIR/tmp/layer\.[^\"]*\", .*\"$CUT_CACHE_DIR/layers/[0-9a-f]{64}\.cpio\"" "$T/strace-000")" = 4
done_testing
