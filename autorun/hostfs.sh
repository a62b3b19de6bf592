#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# hostfs: the host's own userspace in the guest, read-only (virtme-ng's
# habit): the image's init boots as always, then this profile mounts the
# host's / (./vm --virtiofs /:host:ro, implied by the profile: virtiofsd
# sees a read-only clone of / alone, no /proc, /sys or /dev of the host)
# read-only at /rapido-hostfs/lower, with a tmpfs upper over it through
# overlayfs at /rapido-hostfs/root, the guest's /proc, /sys, /dev and a
# fresh /run inside. Any host program is then there without cutting it in:
#   HOSTFS_CMD           a shell command run there (the host's /bin/sh,
#                        chrooted), a test "hostfs" of ./vm --results
#                        whose status is the run's (77 too: a
#                        failure, status 1, not a skip)
#   rapido run -p hostfs -- CMD   CMD run there too (rapido-exec chroots
#                        into RAPIDO_EXEC_ROOT), its status ./vm's
# With neither, under ./vm --batch or --results and no -x command, the
# run fails naming HOSTFS_CMD (a run of nothing would pass).
# What it writes stays in the tmpfs (gone at power-off); the verdict,
# results and timeouts stay rapido's (the guest init, --timeout,
# --test-timeout).
#@ description: the host's userspace, read-only over virtiofs with a tmpfs overlay, runs HOSTFS_CMD or rapido run's CMD
#@ results: yes
#@ virtiofs: /:host:ro
#@ modules: overlay
#@ kconfig: CONFIG_VIRTIO_FS=m CONFIG_OVERLAY_FS=m
#@ conf-optional: HOSTFS_CMD
#@ bins: mount umount mkdir chroot
#@ cpus: 2
#@ memory: 1G

hostfs=/rapido-hostfs
mkdir -p "$hostfs/lower" "$hostfs/rw" "$hostfs/root" || rapido_fail "mkdir $hostfs failed"
mount -t virtiofs -o ro host "$hostfs/lower" ||
	rapido_fail "cannot mount the virtiofs tag host: ./vm shares the host's / as" \
		"--virtiofs /:host:ro (the profile's #@ virtiofs; an image of another profile" \
		"needs the option)"
mount -t tmpfs -o mode=0755 hostfs-rw "$hostfs/rw" &&
	mkdir "$hostfs/rw/upper" "$hostfs/rw/work" &&
	mount -t overlay -o "lowerdir=$hostfs/lower,upperdir=$hostfs/rw/upper,workdir=$hostfs/rw/work" \
		hostfs "$hostfs/root" ||
	rapido_fail "cannot mount the overlay of the host's / and a tmpfs on $hostfs/root"
for d in proc sys dev run; do
	mkdir -p "$hostfs/root/$d" || rapido_fail "mkdir $hostfs/root/$d failed"
done
mount -t proc proc "$hostfs/root/proc" && mount -t sysfs sysfs "$hostfs/root/sys" &&
	mount --rbind /dev "$hostfs/root/dev" &&
	mount -t tmpfs -o mode=0755 run "$hostfs/root/run" ||
	rapido_fail "cannot mount /proc, /sys, /dev and /run in $hostfs/root"
# rapido run -- CMD: rapido-exec runs it in there
export RAPIDO_EXEC_ROOT=$hostfs/root
echo "hostfs: the host's / read-only at $hostfs/lower, with a tmpfs over it at $hostfs/root"

# _hostfs_cmd CMD: CMD under the host's /bin/sh in the host's userspace
_hostfs_cmd() {
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		chroot "$RAPIDO_EXEC_ROOT" /bin/sh -c "cd / && $1"
}
if [ -n "${HOSTFS_CMD:-}" ]; then
	# its status is the run's: 77 is a failure, not rapido_test's skip
	rapido_test hostfs rapido_not_skip _hostfs_cmd "$HOSTFS_CMD"
else
	rapido_no_suite HOSTFS_CMD "hostfs: no HOSTFS_CMD"
fi
