#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cut-check-conf.sh: ./cut --check-conf lists every value with where it came
# from (FILE:LINE or environment), reports unknown keys with the nearest known
# one and values of the wrong type (number, size, enum), exits 1 on any
# error and 0 on a clean file; a file that does not parse is named.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/cut
if [ ! -x "$bin" ]; then
	echo "SKIP: $bin is not built (run make)"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rapido-check-conf.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset QEMU_ACCEL NET VM_CPUS VM_MEMORY VM_TIMEOUT
export RAPIDO_CONF=$tmp/rapido.conf

n=0 failed=0
t() {	# t NAME COMMAND...: ok if COMMAND succeeds
	local name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $name"
	else
		failed=$((failed + 1))
		echo "not ok $n - $name"
		sed 's/^/#   stdout: /' "$tmp/out"
		sed 's/^/#   stderr: /' "$tmp/err"
	fi
}
run() { "$bin" --check-conf > "$tmp/out" 2> "$tmp/err"; rc=$?; }
has() { grep -qxF -- "$2" "$tmp/$1"; }

cat > "$RAPIDO_CONF" <<'CONF'
VM_CPUS=2
VM_MEMORY=1G
BASE=/srv
KERNEL_SRC=${BASE}/linux
QEMU_ACCEL=tcg
FSTESTS_FS=xfs
CONF
run
t "clean file: exit 0, nothing on stderr" test $rc = 0 -a ! -s "$tmp/err"
t "names the file read" has out "# $RAPIDO_CONF"
t "value with its FILE:LINE" has out "VM_MEMORY=1G	# $RAPIDO_CONF:2"
t "expanded value shown" has out "KERNEL_SRC=/srv/linux	# $RAPIDO_CONF:4"
VM_CPUS=4 NET=user run
t "environment override: exit 0" test $rc = 0
t "a file key overridden by the environment says so" has out "VM_CPUS=4	# environment"
t "a key set only in the environment is listed" has out "NET=user	# environment"

cat > "$RAPIDO_CONF" <<'CONF'
VM_MEMRY=2G
VM_CPUS=two
VM_MEMORY=10M
QEMU_ACCEL=kvmm
VM_TIMEOUT=-1
CONF
NET=bogus run
t "errors: exit 1" test $rc = 1
t "unknown key with the nearest known one" \
	has err "$RAPIDO_CONF:1: unknown key VM_MEMRY: no program or profile reads it (did you mean VM_MEMORY?)"
t "number expected" has err "$RAPIDO_CONF:2: VM_CPUS: expected a number from 1 to 1024, got 'two'"
t "size too small" has err "$RAPIDO_CONF:3: VM_MEMORY: expected a size of at least 64M such as 512M or 2G, got '10M'"
t "enum" has err "$RAPIDO_CONF:4: QEMU_ACCEL: expected one of: auto kvm tcg, got 'kvmm'"
t "negative number" has err "$RAPIDO_CONF:5: VM_TIMEOUT: expected a number from 0 to 604800, got '-1'"
t "environment value checked too" has err "environment: NET: expected one of: tap user none, got 'bogus'"
t "error count" has err "cut: --check-conf: 6 errors"

printf 'VM_CPUS=2\nQEMU_EXTRA_ARGS=$(reboot)\n' > "$RAPIDO_CONF"
run
t "a file that does not parse: exit 1, FILE:LINE" \
	sh -c '[ $0 = 1 ] && grep -q "^$1:2: " "$2"' "$rc" "$RAPIDO_CONF" "$tmp/err"

echo "1..$n"
[ $failed -eq 0 ]
