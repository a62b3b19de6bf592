#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cut-check-conf.sh: ./cut --check-conf lists every value with where it came
# from (FILE:LINE or environment), reports unknown keys with the nearest known
# one and values of the wrong type (number, size, enum), exits 1 on any
# error and 0 on a clean file; a file that does not parse is named.
. "$(dirname "$0")/../tap.sh"
bin=$TOP/cut
if [ ! -x "$bin" ]; then
	echo "SKIP: $bin is not built (run make)"
	exit 77
fi
unset QEMU_ACCEL NET VM_CPUS VM_MEMORY VM_TIMEOUT
export RAPIDO_CONF=$T/rapido.conf
TAP_ON_FAIL=show_run
# has out|err LINE: the last run printed LINE, a whole line
has() { grep -qxF -- "$2" "$T/$1"; }

cat > "$RAPIDO_CONF" <<'CONF'
VM_CPUS=2
VM_MEMORY=1G
BASE=/srv
KERNEL_SRC=${BASE}/linux
QEMU_ACCEL=tcg
FSTESTS_FS=xfs
CONF
run "$bin" --check-conf
check "clean file: exit 0, nothing on stderr" test $rc = 0 -a ! -s "$T/err"
check "names the file read" has out "# $RAPIDO_CONF"
check "value with its FILE:LINE" has out "VM_MEMORY=1G	# $RAPIDO_CONF:2"
check "expanded value shown" has out "KERNEL_SRC=/srv/linux	# $RAPIDO_CONF:4"
VM_CPUS=4 NET=user run "$bin" --check-conf
check "environment override: exit 0" test $rc = 0
check "a file key overridden by the environment says so" has out "VM_CPUS=4	# environment"
check "a key set only in the environment is listed" has out "NET=user	# environment"
# ./vm takes QEMU_ACCEL=KVM (confkeys[]: CONFKEY_ICASE); so does the check
QEMU_ACCEL=KVM run "$bin" --check-conf
check "QEMU_ACCEL=KVM: accepted as ./vm accepts it" test $rc = 0 -a ! -s "$T/err"

cat > "$RAPIDO_CONF" <<'CONF'
VM_MEMRY=2G
VM_CPUS=two
VM_MEMORY=10M
QEMU_ACCEL=kvmm
VM_TIMEOUT=-1
CONF
NET=bogus run "$bin" --check-conf
check "errors: exit 1" test $rc = 1
check "unknown key with the nearest known one" \
	has err "$RAPIDO_CONF:1: unknown key VM_MEMRY: no program or profile reads it (did you mean VM_MEMORY?)"
check "number expected" has err "$RAPIDO_CONF:2: VM_CPUS: expected a number from 1 to 1024, got 'two'"
check "size too small" has err "$RAPIDO_CONF:3: VM_MEMORY: expected a size of at least 64M such as 512M or 2G, got '10M'"
check "enum" has err "$RAPIDO_CONF:4: QEMU_ACCEL: expected auto, kvm or tcg, got 'kvmm'"
check "negative number" has err "$RAPIDO_CONF:5: VM_TIMEOUT: expected a number from 0 to 604800, got '-1'"
check "environment value checked too" has err "environment: NET: expected tap, user or none, got 'bogus'"
check "error count" has err "cut: --check-conf: 6 errors"

# VM_SPLATS and VM_SHARD: refused as ./vm refuses them (one validator, confkeys[]'s check)
printf 'VM_SPLATS=all,-nosuch\nVM_SHARD=3/2\n' > "$RAPIDO_CONF"
run "$bin" --check-conf
check "VM_SPLATS=all,-nosuch, VM_SHARD=3/2: exit 1" test $rc = 1
check "  the unknown kind" grep -q "^$RAPIDO_CONF:1: VM_SPLATS: unknown kind 'nosuch'" "$T/err"
check "  the shard past its count" \
	has err "$RAPIDO_CONF:2: VM_SHARD: expected I/N with 1 <= I <= N <= 10000, such as 2/4, got '3/2'"
check "  two errors" has err "cut: --check-conf: 2 errors"
for v in , -warning all,-all; do
	printf 'VM_SPLATS=%s\n' "$v" > "$RAPIDO_CONF"
	run "$bin" --check-conf
	check "VM_SPLATS=$v: refused (no kind left; only none turns detection off)" \
		sh -c '[ "$0" = 1 ] && grep -q "VM_SPLATS: .*\(detection off\|out of nothing\)" "$1"' \
		"$rc" "$T/err"
done
printf 'VM_SPLATS=none\nVM_SHARD=2/4\n' > "$RAPIDO_CONF"
run "$bin" --check-conf
check "VM_SPLATS=none, VM_SHARD=2/4: accepted" test $rc = 0 -a ! -s "$T/err"

# issue 40: a VM_MEMORY no host here has is refused as ./vm refuses it
printf 'VM_MEMORY=1P\n' > "$RAPIDO_CONF"
run "$bin" --check-conf
check "VM_MEMORY beyond the host's memory" eval '[ $rc = 1 ] &&
	grep -q "$RAPIDO_CONF:1: VM_MEMORY: '"'1P'"' is more than this host.s memory ([0-9]*[MGT])" "$T/err"'

# a profile's key, typed in its header (#@ conf-type), is checked as ./cut PROFILE checks it
printf 'FSTESTS_FS=zfs\n' > "$RAPIDO_CONF"
run "$bin" --check-conf
check "a profile-typed key: exit 1" test $rc = 1
check "  the value's FILE:LINE, the key, what is expected, the profile line that typed it" \
	grep -qE "^$RAPIDO_CONF:1: FSTESTS_FS: expected btrfs, xfs, ext4, f2fs, exfat, udf or ntfs3, got 'zfs' \(#@ conf-type at .*/autorun/fstests_local\.sh:[0-9]+\)$" "$T/err"
# issue 43 #5: the file systems xfstests has a config for, beyond the three
for v in f2fs exfat udf ntfs3; do
	printf 'FSTESTS_FS=%s\n' "$v" > "$RAPIDO_CONF"
	run "$bin" --check-conf
	check "FSTESTS_FS=$v: accepted" test $rc = 0 -a ! -s "$T/err"
done

# NFS_VERS, typed once in an include (nfs-client.inc) that several
# profiles read: each word it takes passes, any other is one error naming
# the include's line
for v in 3 4.1 4.2; do
	printf 'NFS_VERS=%s\n' "$v" > "$RAPIDO_CONF"
	run "$bin" --check-conf
	check "NFS_VERS=$v: accepted" test $rc = 0 -a ! -s "$T/err"
done
for v in 4.0 4 v4.2 '4.2 '; do
	printf "NFS_VERS='%s'\n" "$v" > "$RAPIDO_CONF"
	run "$bin" --check-conf
	check "NFS_VERS='$v': refused, once, the include's line named" sh -c '[ $0 = 1 ] &&
		[ "$(grep -c NFS_VERS "$1")" = 1 ] && grep -qxF "cut: --check-conf: 1 error" "$1" &&
		grep -qE "NFS_VERS: expected 3, 4\.1 or 4\.2, got .*\(#@ conf-type at .*/autorun/include/nfs-client\.inc:[0-9]+\)$" "$1"' \
		"$rc" "$T/err"
done

# secrets are never printed: a key the registry marks secret (CIFS_PASS),
# one a profile marks `#@ secret:` (the fixture secret-files), from the
# file or the environment; a registry PATH secret (CEPH_KEYRING) shows its
# path, the file it names being the secret
mkdir "$T/profiles"
cp "$TOP/tests/fixtures/profiles/secret-files.sh" "$T/profiles/"
printf 'CIFS_PASS=hunter2-file\nRAPIDO_TEST_SECRET_WORD=hunter2-word\nCEPH_KEYRING=/etc/ceph/k\n' \
	> "$RAPIDO_CONF"
USB_RBD_KEY=hunter2-env RAPIDO_PROFILE_PATH=$T/profiles run "$bin" --check-conf
check "secrets: exit 0" test $rc = 0
check "  CIFS_PASS (registry) as ***" has out "CIFS_PASS=***	# $RAPIDO_CONF:1"
check "  a profile's #@ secret: key as ***" has out "RAPIDO_TEST_SECRET_WORD=***	# $RAPIDO_CONF:2"
check "  USB_RBD_KEY from the environment as ***" has out "USB_RBD_KEY=***	# environment"
check "  CEPH_KEYRING's path shown" has out "CEPH_KEYRING=/etc/ceph/k	# $RAPIDO_CONF:3"
check "  no secret's value anywhere in the output" sh -c '! grep -q hunter2 "$0" "$1"' "$T/out" "$T/err"
# a typed secret whose value its type refuses: named, the value not shown
cat > "$T/profiles/pin.sh" <<'EOF'
#@ description: a profile with a typed secret
#@ conf: RAPIDO_TEST_PIN
#@ conf-type: RAPIDO_TEST_PIN uint 0-9999
#@ secret: RAPIDO_TEST_PIN
EOF
printf 'RAPIDO_TEST_PIN=hunter2-pin\n' > "$RAPIDO_CONF"
RAPIDO_PROFILE_PATH=$T/profiles run "$bin" --check-conf
check "a typed secret of the wrong type: exit 1" test $rc = 1
check "  named with what was expected, the value as ***" grep -qE \
	"^$RAPIDO_CONF:1: RAPIDO_TEST_PIN: expected .*'\*\*\*'" "$T/err"
check "  its value nowhere in the output" sh -c '! grep -q hunter2 "$0" "$1"' "$T/out" "$T/err"

printf 'VM_CPUS=2\nQEMU_EXTRA_ARGS=$(reboot)\n' > "$RAPIDO_CONF"
run "$bin" --check-conf
check "a file that does not parse: exit 1, FILE:LINE" \
	sh -c '[ $0 = 1 ] && grep -q "^$1:2: " "$2"' "$rc" "$RAPIDO_CONF" "$T/err"

# what a message quotes of a value: escape bytes shown, not sent to the terminal; cut
esc=$(printf '\033')
big=$(head -c 100000 /dev/zero | tr '\0' 9)
for line in "VM_CPUS=${esc}[2J" "A=\${${esc}[2J}" "VM_CPUS=$big" "VM_CPUS=1 ${esc}[2J" "${esc}[2J" "$big" "A${esc}]0;x=1"; do
	printf '%s\n' "$line" > "$RAPIDO_CONF"
	run "$bin" --check-conf
	check "an error quoting '$(printf %s "$line" | head -c 20 | cat -v)...' (${#line} bytes): no ESC byte, no long line" \
		sh -c '[ $0 = 1 ] && grep -q "^$1:1: " "$2" && ! grep -q "$3" "$2" &&
			[ "$(wc -L < "$2")" -lt 1000 ]' "$rc" "$RAPIDO_CONF" "$T/err" "$esc"
done
printf 'VM_MEMORY=%s\n' "${big:0:60000}" > "$RAPIDO_CONF"
run "$bin" --check-conf
check "  a value under the size limit: cut, saying how long it was" grep -q "999\.\.\. ([0-9]* bytes)" "$T/err"

# issue 43 #8: zoned_local's two RAM disks of ZONED_SIZE MiB (#@ memory-use)
# checked against the guest's memory before a boot: 512 ran the 1 GiB
# guest out of memory
printf 'ZONED_SIZE=512\n' > "$RAPIDO_CONF"
run "$bin" --dry-run zoned_local
check "ZONED_SIZE=512 in zoned_local's 1G: refused before a boot, naming key, value and limit" \
	fails_with 1 "cut: $RAPIDO_CONF:1: ZONED_SIZE=512: 2 x 512 MiB of RAM disks leave less than 384 MiB of the guest's 1024 MiB (the profile's memory) to the kernel and the tests: at most ZONED_SIZE=320 with that memory (or raise VM_MEMORY)
cut: 1 problem found; no image written"
printf 'ZONED_SIZE=320\n' > "$RAPIDO_CONF"
run "$bin" --dry-run zoned_local
check "  ZONED_SIZE=320 fits" exits 0
printf 'ZONED_SIZE=512\nVM_MEMORY=2G\n' > "$RAPIDO_CONF"
run "$bin" --dry-run zoned_local
check "  and 512 with VM_MEMORY=2G" exits 0
VM_MEMORY=768M run "$bin" --dry-run zoned_local
check "  VM_MEMORY from the environment counts: 512 is refused in 768M" \
	contains "$T/err" "the guest's 768 MiB (VM_MEMORY=768M, environment)"
# a profile without #@ memory: VM_MEMORY's default (its confkeys.c row, 512M)
cat > "$T/profiles/ramdisk.sh" <<'EOF'
#@ description: a RAM disk of RAPIDO_TEST_RD MiB
#@ conf-optional: RAPIDO_TEST_RD
#@ conf-type: RAPIDO_TEST_RD uint 0-65536
#@ memory-use: RAPIDO_TEST_RD 1
EOF
printf 'RAPIDO_TEST_RD=200\n' > "$RAPIDO_CONF"
RAPIDO_PROFILE_PATH=$T/profiles run "$bin" --dry-run ramdisk
check "no #@ memory: checked against VM_MEMORY's default" \
	contains "$T/err" "RAPIDO_TEST_RD=200: 1 x 200 MiB of RAM disks leave less than 384 MiB of the guest's 512 MiB (VM_MEMORY's default) to the kernel and the tests: at most RAPIDO_TEST_RD=128 with that memory"
# a memory of no more than the reserve: no RAM disk fits (was not checked at all)
printf 'RAPIDO_TEST_RD=1\nVM_MEMORY=384M\n' > "$RAPIDO_CONF"
RAPIDO_PROFILE_PATH=$T/profiles run "$bin" --dry-run ramdisk
check "VM_MEMORY=384M, the reserve itself: 1 MiB refused, at most 0" \
	contains "$T/err" "RAPIDO_TEST_RD=1: 1 x 1 MiB of RAM disks leave less than 384 MiB of the guest's 384 MiB (VM_MEMORY=384M, $RAPIDO_CONF:2) to the kernel and the tests: at most RAPIDO_TEST_RD=0 with that memory"
printf 'RAPIDO_TEST_RD=0\nVM_MEMORY=256M\n' > "$RAPIDO_CONF"
RAPIDO_PROFILE_PATH=$T/profiles run "$bin" --dry-run ramdisk
check "  and 0 fits in 256M" exits 0

done_testing
