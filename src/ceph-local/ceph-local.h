/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ceph-local.h: ./ceph-local, a small real Ceph cluster (1 mon, 1 mgr, N
 * OSDs, 1 MDS, cephx) from the distribution's packages, bound to the
 * bridge address, for the cephfs, rbd, fstests_cephfs and qemu_rbd
 * profiles: up, status, down.
 */
#ifndef RAPIDO_CEPH_LOCAL_H
#define RAPIDO_CEPH_LOCAL_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "conf.h"

/* The monitor's (only) port: msgr1, which every kernel client speaks. */
#define CL_MON_PORT 6789
/* The file that makes a directory a ceph-local cluster's (and says where it runs). */
#define CL_MARKER "ceph-local.cluster"
/* The daemons started, one "NAME PID" line each, in start order. */
#define CL_DAEMONS "daemons"

/* Everything up, status and down need, resolved and checked once. */
struct cl_plan {
	char *dir;		/* CEPH_LOCAL_DIR, absolute */
	const char *netns;	/* --netns, else NULL (the current namespace) */
	char addr[INET_ADDRSTRLEN];	/* the bridge address (BR_ADDR) */
	unsigned int osds;	/* CEPH_OSDS */
	const char *store;	/* CEPH_OSD_STORE: memstore or bluestore */
	uint64_t osd_size;	/* CEPH_OSD_SIZE */
	unsigned int pool_size;	/* CEPH_POOL_SIZE: replicas per object */
	const char *fs_name;	/* CEPH_FS_NAME */
	const char *rbd_pool;	/* CEPH_RBD_POOL */
	const char *rbd_image;	/* CEPH_RBD_IMAGE */
	uint64_t image_size;	/* CEPH_RBD_IMAGE_SIZE */
	unsigned int up_timeout;	/* CEPH_UP_TIMEOUT: seconds to HEALTH_OK */
	uid_t owner_uid;	/* who gets ceph.conf and the client keyring */
	gid_t owner_gid;
};

/* plan.c: resolve from rapido.conf (and the environment); dies naming the key. */
void cl_plan_or_die(struct cl_plan *p, const struct conf *c, const char *netns);
void cl_plan_free(struct cl_plan *p);
/* The cluster's ceph.conf (malloc'd): every daemon and client reads it. */
char *cl_ceph_conf_text(const struct cl_plan *p, const char *fsid);

/* A started daemon, as the daemons file records it. */
struct cl_daemon {
	char name[32];		/* "mon.a", "osd.0" */
	pid_t pid;
};

/* daemon.c */
/*
 * Read DIR/daemons. Returns 0 (*n 0 when the file is absent), or -errno /
 * -EINVAL for a line that is not "NAME PID".
 */
int cl_daemons_read(const char *dir, struct cl_daemon **d, size_t *n);
/*
 * Is PID still the daemon NAME of the cluster whose ceph.conf is CONF?
 * (its /proc/PID/cmdline names both), so a recycled PID is never signalled.
 */
int cl_daemon_is_ours(pid_t pid, const char *name, const char *conf);
/*
 * Start a daemon in the foreground of its own session, output to
 * DIR/log/NAME.out, and append "NAME PID" to DIR/daemons. Dies on errors.
 */
pid_t cl_daemon_start(const char *dir, const char *name, char *const argv[]);
/*
 * Stop the daemons of DIR that are still ours: SIGTERM, up to grace_secs
 * for them to exit, then SIGKILL. Returns how many would not die (0).
 */
int cl_daemons_stop(const char *dir, unsigned int grace_secs);
/* Resident memory of PID in KiB (VmRSS), 0 if unknown. */
unsigned long cl_rss_kib(pid_t pid);

/* health.c: 1 when every check of `ceph health detail` may be muted (*codes: them all) */
int cl_health_mutable(const char *detail, char **codes);
/* why the check CODE may be muted, or NULL */
const char *cl_health_mute_why(const char *code);

/* up.c */
int cl_up(const struct cl_plan *p);
/* Tear down what DIR holds; quiet: no "nothing to do" message. Returns 0 or 1. */
int cl_down(const struct cl_plan *p, int quiet);

int cmd_ceph_local(int argc, char **argv);

#endif
