#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install-deps.sh: host/install-deps in a fresh minimal root with systemd's
# units there (debootstrap, tests/fresh/lib.inc; FRESH_SUITE=trixie for
# Debian 13, FRESH_SUITE=sid for unstable) starts and enables no service. The lean install (no argument)
# and then the profiles whose packages bring servers (samba_local's smbd
# and nmbd, nfs_local's nfs-server and rpcbind, mpath_local's multipathd,
# lio_local's iscsid): afterwards the enabled units are the ones there were
# before (a unit the host had enabled stays so), no process runs in the
# root, --check finds nothing missing, and a policy-rc.d the host had is
# put back as it was (none: none).
#
# Fresh tier (tests/run --fresh): it downloads the packages from Debian's
# archive (kept in FRESH_CACHE for the next run).
. "$(dirname "$0")/../tap.sh"
. "$TOP/tests/fresh/lib.inc"

fresh_root_or_skip debootstrap
start=$(date +%s)
fresh_debootstrap
fresh_machine

# the script and its table, nothing else of the tree
mkdir -p "$R/root/rapido" && cp -R "$TOP/host" "$TOP/autorun" "$R/root/rapido/"
expect_rc "host/ and autorun/ copied into the chroot" 0 $?

# in_root_log DESCRIPTION WANT CMD: the command in the root, its output in $T/log
in_root_log() {
	local s=$(date +%s) r
	in_root "$3" > "$T/log" 2>&1
	r=$?
	expect_rc "$1 ($(( $(date +%s) - s ))s)" "$2" $r
	[ $r = "$2" ] || tail -n 30 "$T/log" | sed 's/^/# /'
}
# systemd's units and systemctl (as the harness installs: its policy-rc.d
# is there), and a service of the host's own, enabled
in_root_log "systemd installed in the root" 0 \
	'apt-get update -q && apt-get install -y -q --no-install-recommends systemd'
printf '[Unit]\nDescription=the host'"'"'s own\n[Service]\nExecStart=/bin/true\n[Install]\nWantedBy=multi-user.target\n' \
	> "$R/etc/systemd/system/rapido-host.service"
in_root_log "the host's own service enabled" 0 'systemctl enable rapido-host.service'
enabled() { in_root 'systemctl list-unit-files --no-legend --state=enabled' | awk '{ print $1 }' | sort; }
enabled > "$T/before"
check "  systemctl lists it enabled" grep -qx rapido-host.service "$T/before"

# a reused root (FRESH_ROOT) may have them from a run before: gone first
in_root_log "the servers' packages not installed (purged from a reused root)" 0 \
	'apt-get purge -y -q samba samba-common-bin nfs-kernel-server rpcbind nfs-common multipath-tools open-iscsi ecryptfs-utils keyutils &&
	apt-get autoremove --purge -y -q'
enabled > "$T/before"
# no policy-rc.d of the harness's: install-deps' own keeps the servers down
rm -f "$R/usr/sbin/policy-rc.d"
in_root_log "host/install-deps: the lean install" 0 'cd /root/rapido && host/install-deps'
in_root_log "  host/install-deps --check: nothing missing" 0 'cd /root/rapido && host/install-deps --check'
in_root_log "host/install-deps samba_local nfs_local mpath_local lio_local" 0 \
	'cd /root/rapido && host/install-deps samba_local nfs_local mpath_local lio_local'
cp "$T/log" "$T/profiles.log"
check "  smbd, nfsd, multipathd and iscsid are installed" \
	eval 'in_root "command -v smbd && command -v rpc.nfsd && command -v multipathd && command -v iscsid" > /dev/null'
check "  it disabled what the packages enabled" contains "$T/profiles.log" "install-deps: disabling what the install enabled:"
enabled > "$T/after"
check "  the enabled units are the ones before (the host's own too)" same_file "$T/before" "$T/after"
check "  no policy-rc.d left (there was none)" test ! -e "$R/usr/sbin/policy-rc.d"
# a daemon started in the root runs with the root as its /
procs=()
for p in /proc/[0-9]*; do
	[ "$(readlink "$p/root" 2> /dev/null)" = "$R" ] && procs+=("${p#/proc/}")
done
check "  no process runs in the root${procs[*]:+ (found: $(ps -o comm= -p "${procs[*]}" | tr '\n' ' '))}" \
	test ${#procs[@]} = 0
[ ${#procs[@]} = 0 ] || kill "${procs[@]}"

# the host's own policy-rc.d is put back as it was
printf '#!/bin/sh\n# the host'"'"'s own\nexit 101\n' > "$R/usr/sbin/policy-rc.d"
chmod 755 "$R/usr/sbin/policy-rc.d" && cp -p "$R/usr/sbin/policy-rc.d" "$T/policy-rc.d"
in_root_log "host/install-deps ecryptfs_local, with a policy-rc.d of the host's" 0 \
	'cd /root/rapido && host/install-deps ecryptfs_local'
check "  the host's policy-rc.d is back" same_file "$T/policy-rc.d" "$R/usr/sbin/policy-rc.d"
echo "# $(( $(date +%s) - start ))s wall"
done_testing
