#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# configfs-rollback.sh: rapido-configfs against the real kernel's configfs
# with specs that go wrong: a LIO LUN linked before its backstore is enabled
# (ENODEV); a network portal without its port, found after the iSCSI TPG
# was enabled (EINVAL); an nvmet port address changed after the port was
# enabled by a link (EACCES). Each must exit 1, name the spec's line, the
# operation and the errno, roll back (the TPG disabled again through its
# undo value, the port link removed) and leave configfs as it found it.
# The guest writes its findings to a --share directory; ./vm's exit status
# is the writer's, for the LUN spec.
. "$(dirname "$0")/lib.sh"

FX=$TOP/tests/fixtures/configfs-boot
ln -s "$FX/configfs-bare.sh" "$RD/autorun/"
cases="lio-lun-before-enable lio-portal-no-port nvmet-port-addr-after-link"
mkdir "$T/out"

# The guest part: the specs embedded (an image holds no loose files), each
# applied with a trace; exit status, messages and the configfs tree before
# and after go to the share.
{
	for s in $cases; do
		echo "cat > /tmp/$s.spec <<'SPEC'"
		cat "$FX/$s.spec"
		echo "SPEC"
	done
	cat <<'EOF'
bad_spec() {
	cfs_tree /sys/kernel/config/target /sys/kernel/config/nvmet > "/host/$1.before"
	rapido-configfs --trace "/host/$1.trace" "/tmp/$1.spec" > "/host/$1.out" 2>&1
	echo $? > "/host/$1.rc"
	cfs_tree /sys/kernel/config/target /sys/kernel/config/nvmet > "/host/$1.after"
	cat "/host/$1.out"
}
bad_spec lio-portal-no-port
bad_spec nvmet-port-addr-after-link
bad_spec lio-lun-before-enable
exit "$(cat /host/lio-lun-before-enable.rc)"
EOF
} > "$T/guest.sh"

"$CUT" configfs-bare -f "$T/guest.sh" > "$T/cut.out" 2>&1
expect_rc "cut configfs-bare -f bad specs" 0 $? || cat "$T/cut.out"
"$VM" --batch --timeout 600 --share "$T/out" > "$T/console" 2>&1
expect_rc "vm exits with the writer's rolled-back status" 1 $?

# line_of SPEC PATTERN: the line number of the mistake in a fixture
line_of() {
	grep -n -- "$2" "$FX/$1.spec" | cut -d: -f1
}
# has CASE TEXT: the writer's messages for CASE hold TEXT
has() {
	grep -qF -- "$2" "$T/out/$1.out"
}
# same_tree CASE: configfs after the failed apply is the tree from before
same_tree() {
	[ -s "$T/out/$1.before" ] && cmp -s "$T/out/$1.before" "$T/out/$1.after"
}
show() {
	sed "s/^/# $1: /" "$T/out/$1.out"
	diff "$T/out/$1.before" "$T/out/$1.after" | sed "s/^/# $1 tree: /" | head -n 20
}

c=lio-lun-before-enable
cf=/sys/kernel/config/target
lun=$cf/loopback/naa.5001405e1a2b3c11/tpgt_1/lun/lun_0/rapido_bad
check "$c: exit 1" test "$(cat "$T/out/$c.rc" 2>/dev/null)" = 1
check "$c: names line, link and ENODEV" \
	has $c "/tmp/$c.spec:$(line_of $c '^link'): link $lun -> $cf/core/fileio_0/rapido_bad: ENODEV: No such device"
check "$c: hint says the backstore is not enabled" has $c "hint: backstore not enabled"
check "$c: quotes the kernel's reason" has $c "se_device not configured yet, cannot port link"
check "$c: rolled back all 6 changes" has $c "rolled back 6 operations; nothing is left behind"
check "$c: rollback removed even the fabric and HBA it made" \
	grep -q "^rollback $(line_of $c "^ensure target/core/fileio_0") rmdir $cf/core/fileio_0\$" "$T/out/$c.trace"
check "$c: configfs as it was before" same_tree $c

c=lio-portal-no-port
np=$cf/iscsi/iqn.2003-01.org.linux-iscsi.rapido:bad/tpgt_1/np/127.0.0.1
enable=$cf/iscsi/iqn.2003-01.org.linux-iscsi.rapido:bad/tpgt_1/enable
check "$c: exit 1" test "$(cat "$T/out/$c.rc" 2>/dev/null)" = 1
check "$c: names line, mkdir and EINVAL" \
	has $c "/tmp/$c.spec:$(line_of $c '^mkdir .*/np/'): mkdir $np: EINVAL: Invalid argument"
check "$c: rollback disabled the TPG (undo value written)" \
	grep -q "^rollback $(line_of $c '^write .*enable') write $enable 0\$" "$T/out/$c.trace"
check "$c: rolled back, nothing left" has $c "nothing is left behind"
check "$c: configfs as it was before" same_tree $c

c=nvmet-port-addr-after-link
cn=/sys/kernel/config/nvmet
port=$cn/ports/1
check "$c: exit 1" test "$(cat "$T/out/$c.rc" 2>/dev/null)" = 1
check "$c: names line, write and EACCES" \
	has $c "/tmp/$c.spec:$(line_of $c '4421'): write $port/addr_trsvcid 4421: EACCES: Permission denied"
check "$c: hint says the port is enabled" has $c "hint: port already enabled"
check "$c: rollback unlinked the subsystem from the port" \
	grep -q "^rollback $(line_of $c '^link') unlink $port/subsystems/nqn.2014-08.org.nvmexpress:rapido-bad -> $cn/subsystems/" \
	"$T/out/$c.trace"
check "$c: rolled back all 3 changes" has $c "rolled back 3 operations; nothing is left behind"
check "$c: configfs as it was before" same_tree $c

for c in $cases; do
	[ -n "${VERBOSE:-}" ] && show $c
	[ "$(cat "$T/out/$c.rc" 2>/dev/null)" = 1 ] && same_tree $c || show $c
done
check "kernel console clean" console_clean "$T/console"
done_testing
