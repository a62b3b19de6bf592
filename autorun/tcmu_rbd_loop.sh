#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tcmu_rbd_loop: a Ceph RBD image served by tcmu-runner (Debian's, its rbd
# handler: librbd in user space, no kernel rbd client) through LIO's user
# backstore (target_core_user) and exported by the loopback fabric
# (tcm_loop) as a local SCSI disk. tcmu-runner is started here and waited
# for until ready (it lifts the kernel's netlink block, set here first:
# see below); the backstore (autorun/configfs/tcmu-rbd.spec) is made,
# tcmu-runner must open it, then the tcm_loop port
# (autorun/configfs/tcm-loop.spec) links it as LUN 0. A pattern is written and read back through the SCSI disk;
# teardown in order (port, backstore, tcmu-runner stopped); then the
# kernel rbd client maps the image to prove the bytes are on it. Exit 0
# only when all of that held and configfs and the rbd mappings are as they
# were; any failure tears down what was set up and exits 1.
#
# The image's first 4 MiB are overwritten: give it its own image
# (rbd create rbd/tcmu --size 64M --image-feature layering).
#
# rapido.conf (or environment) keys:
#   CEPH_CONF, CEPH_KEYRING, CEPH_USER, CEPH_TIMEOUT   as for cephfs
#   CEPH_RBD_POOL, CEPH_RBD_IMAGE   the image (default rbd/rapido)
#@ description: tcmu-runner's rbd handler (librbd) behind LIO's user backstore, exported by tcm_loop as a SCSI disk; I/O, bytes proven through the kernel rbd client, ordered teardown
#@ include: ceph configfs
#@ files: autorun/configfs/tcmu-rbd.spec:/usr/share/rapido/configfs/tcmu-rbd.spec
#@ files: autorun/configfs/tcm-loop.spec:/usr/share/rapido/configfs/tcm-loop.spec
#@ bins: blockdev yes head grep timeout readlink setsid
#@ bins-optional: tcmu-runner /usr/lib/x86_64-linux-gnu/tcmu-runner/handler_rbd.so lsscsi diff
# tcmu-runner dlopen()s handler_rbd.so, whose libraries (librbd, librados,
# libceph-common and theirs) no ldd of tcmu-runner finds: the rbd CLI links
# the same ones, and ./cut copies what it links
#@ bins-optional: rbd
#@ modules: rbd target_core_mod target_core_user tcm_loop sd_mod uio
#@ kconfig: CONFIG_BLK_DEV_RBD=m CONFIG_TARGET_CORE=m CONFIG_TCM_USER2=m CONFIG_UIO=m
#@ kconfig: CONFIG_LOOPBACK_TARGET=m CONFIG_BLK_DEV_SD=m
#@ kconfig-optional: CONFIG_BLK_DEV=y CONFIG_SCSI=y
#@ conf-optional: CEPH_RBD_POOL CEPH_RBD_IMAGE
#@ cpus: 1
#@ memory: 1G

TR_BACKSTORE_SPEC=/usr/share/rapido/configfs/tcmu-rbd.spec
TR_LOOP_SPEC=/usr/share/rapido/configfs/tcm-loop.spec
TR_BACKSTORE=target/core/user_0/rapido_tcmu
TR_WWN=naa.5001405e1a2b3c31	# tcm-loop.spec's loop_wwn
TR_LOG_DIR=/var/log/tcmu
TR_LOG=$TR_LOG_DIR/tcmu-runner.log
TR_MIB=4
TR_CEPH_CONF=/etc/ceph/tcmu-runner.conf
TR_NL_BLOCK=/sys/module/target_core_user/parameters/block_netlink
TR_READY_SECS=60
tr_pool=${CEPH_RBD_POOL:-rbd}
tr_image=${CEPH_RBD_IMAGE:-rapido}
tr_spec=$tr_pool/$tr_image
tr_bs_defs=() tr_loop_defs=() tr_pid=
tr_blocked=	# set when this profile set the kernel's netlink block

# tr_teardown: undo whatever of the setup is there, in order: the tcm_loop
# port (its SCSI disk goes), the user backstore (tcmu-runner closes the
# image), tcmu-runner stopped, the kernel's mapping of the check removed
tr_teardown() {
	local rc=0

	if [ ${#tr_loop_defs[@]} -gt 0 ]; then
		rapido-configfs "${tr_loop_defs[@]}" --teardown "$TR_LOOP_SPEC" || rc=1
		[ -z "${sd:-}" ] || rapido_wait 30 test ! -e "/sys/block/${sd#/dev/}" || rc=1
	fi
	if [ ${#tr_bs_defs[@]} -gt 0 ]; then
		rapido-configfs "${tr_bs_defs[@]}" --teardown "$TR_BACKSTORE_SPEC" || rc=1
	fi
	if [ -n "$tr_pid" ]; then
		gw_stop "$tr_pid" || rc=1
		tr_pid=
	fi
	# a tcmu-runner gone before its lift leaves our block in place
	if [ -n "$tr_blocked" ] && ! tr_unblocked; then
		echo 0 > "$TR_NL_BLOCK" || rc=1
	fi
	if [ -n "${tr_rbd:-}" ] && [ -e "$tr_rbd" ]; then
		rapido-ceph unmap "$tr_rbd" || rc=1
	fi
	return $rc
}

tr_on_fail() {
	local f l

	for f in "$TR_LOG_DIR/stdout" "$TR_LOG"; do
		[ -s "$f" ] || continue
		echo "rapido: tcmu_rbd_loop: --- $f (last 20 lines)" >&2
		mapfile -t l < "$f"
		printf '%s\n' "${l[@]:${#l[@]} > 20 ? ${#l[@]} - 20 : 0}" >&2
	done
	echo "rapido: tcmu_rbd_loop: tearing down after the failure" >&2
	tr_teardown
	gw_clean || echo "rapido: tcmu_rbd_loop: teardown after the failure left the above" >&2
}

# tr_serving: tcmu-runner holds the backstore's UIO device open (it opens
# /dev/uioN when the kernel tells it of a new device and it could open the
# image)
tr_serving() {
	local u fd

	kill -0 "$tr_pid" 2> /dev/null ||
		rapido_fail "tcmu_rbd_loop: tcmu-runner (pid $tr_pid) exited"
	for u in /sys/class/uio/uio*; do
		[ -e "$u/name" ] || continue
		[[ $(< "$u/name") == tcm-user/*/rapido_tcmu/* ]] || continue
		for fd in /proc/"$tr_pid"/fd/*; do
			[ "$(readlink "$fd")" = "/dev/${u##*/}" ] && return 0
		done
	done
	return 1
}

# tr_unblocked: target_core_user takes netlink commands (tcmu-runner lifted
# its block_netlink, or none was set)
tr_unblocked() {
	[ "$(< "$TR_NL_BLOCK")" = unblocked ]
}

rapido_on_fail rapido_kernel_tail
rapido_on_fail tr_on_fail
ceph_need_net
cfs_mount
gw_begin

command -v tcmu-runner > /dev/null ||
	rapido_fail "tcmu_rbd_loop: tcmu-runner is not in the image (apt-get install tcmu-runner on the host, or host/install-deps; then ./cut again)"
tr_handler=/usr/lib/x86_64-linux-gnu/tcmu-runner/handler_rbd.so
if [ ! -e "$tr_handler" ] || ! command -v rbd > /dev/null; then
	rapido_fail "tcmu_rbd_loop: tcmu-runner's rbd handler $tr_handler or the rbd CLI (its libraries) is not in the image (Debian's tcmu-runner and ceph-common)"
fi
mkdir -p "$TR_LOG_DIR" /etc/tcmu || rapido_fail "tcmu_rbd_loop: mkdir $TR_LOG_DIR"
# tcmu-runner will not start without its configuration file
printf '%s\n' "# written by rapido's tcmu_rbd_loop" "log_level = 3" "log_dir_path = $TR_LOG_DIR" \
	> /etc/tcmu/tcmu.conf || rapido_fail "tcmu_rbd_loop: cannot write /etc/tcmu/tcmu.conf"
# Ready is not up. tcmu-runner's first step blocks the kernel's netlink
# commands (target_core_user's block_netlink), its last before its main
# loop lifts the block: in between it loads its handlers (dlopen of
# handler_rbd.so and librbd: seconds under TCG, 10 s seen at load 20) and
# tells the kernel it replies, from when on a backstore's enable fails
# with EAGAIN ("Interface is blocked") until the lift. The block set here
# first makes "unblocked" tcmu-runner's doing alone (its lift, or its exit
# path's): the state to wait for. After it, no other enable gets EAGAIN
# (the block is the kernel's only EAGAIN there): no retry of the enable.
if [ -e "$TR_NL_BLOCK" ]; then
	echo 1 > "$TR_NL_BLOCK" || rapido_fail "tcmu_rbd_loop: cannot write 1 to $TR_NL_BLOCK"
	tr_blocked=1
fi
# its own session: it must not take the autorun's signals; CEPH_KEYRING:
# see ceph_librados_conf
CEPH_KEYRING=/etc/ceph/keyring setsid tcmu-runner --tcmu-log-dir "$TR_LOG_DIR" > "$TR_LOG_DIR/stdout" 2>&1 < /dev/null &
tr_pid=$!
if [ -n "$tr_blocked" ]; then
	rapido_wait -p "$tr_pid" "$TR_READY_SECS" tr_unblocked
else
	# a kernel without the block has no EAGAIN either: tr_serving waits
	# for the device's open below
	rapido_wait 2 gw_gone "$tr_pid"
fi
gw_gone "$tr_pid" &&
	rapido_fail "tcmu_rbd_loop: tcmu-runner exited at start: $(< "$TR_LOG_DIR/stdout")"
[ -z "$tr_blocked" ] || tr_unblocked ||
	rapido_fail "tcmu_rbd_loop: tcmu-runner (pid $tr_pid) not ready within ${TR_READY_SECS}s: it did not lift target_core_user's netlink block ($TR_NL_BLOCK still says blocked), which it does once its handlers are loaded and it listens for new devices (its log below)"
if [ -n "$tr_blocked" ]; then
	ceph_say "tcmu_rbd_loop: tcmu-runner started (pid $tr_pid) and ready: the kernel's netlink block lifted"
else
	ceph_say "tcmu_rbd_loop: tcmu-runner started (pid $tr_pid); $TR_NL_BLOCK missing: its readiness unseen"
fi

# the kernel client says clearly when the image is missing; and its size
tr_rbd=$(ceph_client map "$tr_spec") || rapido_fail "tcmu_rbd_loop: $tr_spec: cannot map it to learn its size (see above)"
tr_size=$(blockdev --getsize64 "$tr_rbd") || rapido_fail "tcmu_rbd_loop: blockdev --getsize64 $tr_rbd"
rapido-ceph unmap "$tr_rbd" || rapido_fail "tcmu_rbd_loop: unmap $tr_rbd"
tr_rbd=

# librados in tcmu-runner reads this ceph.conf (the handler's conf=)
ceph_librados_conf "$TR_CEPH_CONF"
tr_config="rbd/$tr_spec;conf=$TR_CEPH_CONF;osd_op_timeout=30"
[ "${CEPH_USER:-admin}" = admin ] || tr_config+=";id=$CEPH_USER"
tr_bs_defs=(-D "config=$tr_config" -D "size=$tr_size")
rapido-configfs "${tr_bs_defs[@]}" "$TR_BACKSTORE_SPEC" ||
	rapido_fail "tcmu_rbd_loop: rapido-configfs $TR_BACKSTORE_SPEC (exit $?): tcmu-runner could not open $tr_spec?"
rapido_wait 30 tr_serving ||
	rapido_fail "tcmu_rbd_loop: tcmu-runner (pid $tr_pid) did not open the user backstore for $tr_spec within 30s: no daemon serving it"
ceph_say "tcmu_rbd_loop: tcmu-runner serves $tr_spec ($tr_size bytes) as $TR_BACKSTORE"

tr_loop_defs=(-D "backstore=$TR_BACKSTORE" -D "loop_wwn=$TR_WWN")
rapido-configfs "${tr_loop_defs[@]}" "$TR_LOOP_SPEC" ||
	rapido_fail "tcmu_rbd_loop: rapido-configfs $TR_LOOP_SPEC (exit $?)"
lio_sd "$TR_WWN" 0 sd
ceph_say "tcmu_rbd_loop: tcm_loop disk $sd"
command -v lsscsi > /dev/null && lsscsi
[ "$(blockdev --getsize64 "$sd")" = "$tr_size" ] || rapido_fail "tcmu_rbd_loop: $sd is not the size of $tr_spec"

gw_pattern /tmp/tcmu-rbd.data "$TR_MIB"
cfs_rw_check "$sd" /tmp/tcmu-rbd.data "tcmu_rbd_loop: $sd (tcmu-runner rbd $tr_spec)"

tr_teardown || rapido_fail "tcmu_rbd_loop: teardown failed (see above)"
tr_loop_defs=() tr_bs_defs=()
gw_clean || rapido_fail "tcmu_rbd_loop: teardown left the above behind"
ceph_say "tcmu_rbd_loop: torn down: tcm_loop port, user backstore, tcmu-runner"

# the bytes on the image, through the kernel client
tr_rbd=$(ceph_client map "$tr_spec") || rapido_fail "tcmu_rbd_loop: cannot map $tr_spec (see above)"
dd if="$tr_rbd" of=/tmp/tcmu-rbd.back bs=1M count="$TR_MIB" iflag=direct status=none ||
	rapido_fail "tcmu_rbd_loop: read $tr_rbd"
cmp /tmp/tcmu-rbd.back /tmp/tcmu-rbd.data ||
	rapido_fail "tcmu_rbd_loop: $tr_spec (kernel rbd $tr_rbd) does not hold what was written through $sd"
ceph_say "tcmu_rbd_loop: $tr_spec, mapped by the kernel, holds what was written through tcmu-runner"
rm -f /tmp/tcmu-rbd.*
tr_teardown || rapido_fail "tcmu_rbd_loop: unmapping $tr_rbd failed"
tr_rbd=
gw_clean || rapido_fail "tcmu_rbd_loop: the kernel mapping left the above behind"
echo "rapido: tcmu_rbd_loop: PASS"
