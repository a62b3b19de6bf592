/* SPDX-License-Identifier: GPL-2.0 */
/* rceph.h: rapido-ceph, the guest's Ceph client set-up: CephFS mounts and RBD maps through the kernel. */
#ifndef RAPIDO_TOOL_CEPH_H
#define RAPIDO_TOOL_CEPH_H

#include "strv.h"

/* Where ./cut puts CEPH_CONF and CEPH_KEYRING in the image. */
#define RCEPH_CONF "/etc/ceph/ceph.conf"
#define RCEPH_KEYRING "/etc/ceph/keyring"

/* What the kernel client is told: monitors, who we are, how long to try. */
struct rceph_client {
	char *conf, *keyring;	/* the files it came from, for messages */
	char *mons;		/* "IP:PORT,IP:PORT" */
	int msgr2;		/* only msgr2 monitors: ms_mode=prefer-crc */
	char *name;		/* "admin", without "client." */
	char *key;		/* base64 */
	unsigned int timeout;	/* seconds: the kernel's mount_timeout */
};

/*
 * Read the monitors from CONF and NAME's key from KEYRING. NAME may be
 * given as "admin" or "client.admin". Returns 0, or -errno with *err set
 * (malloc'd), naming the file and what is missing.
 */
int rceph_client_load(struct rceph_client *cl, const char *conf, const char *keyring,
		      const char *name, unsigned int timeout, char **err);
void rceph_client_free(struct rceph_client *cl);

/* "MONS:/PATH" for mount(2) (PATH "" or "/" is the root). malloc'd. */
char *rceph_mount_source(const struct rceph_client *cl, const char *path);
/*
 * mount(2) options: name=,secret=,mount_timeout=[,ms_mode=prefer-crc]
 * [,mds_namespace=FS][,EXTRA]. malloc'd; it holds the key.
 */
char *rceph_mount_options(const struct rceph_client *cl, const char *fs, const char *extra);
/* The line for /sys/bus/rbd/add_single_major: "MONS OPTIONS POOL IMAGE". malloc'd. */
char *rceph_rbd_add_line(const struct rceph_client *cl, const char *pool, const char *image);

/*
 * The id N of /dev/rbdN mapping POOL/IMAGE under SYSFS (normally "/sys"):
 * the highest, as the one just added. Returns 0, or -ENOENT.
 */
int rceph_rbd_find(const char *sysfs, const char *pool, const char *image, unsigned int *id);
/* "/dev/rbd3", "rbd3" or "3" -> 3; -1 if none of those. */
int rceph_rbd_parse_dev(const char *s);

/*
 * Kernel log: open /dev/kmsg at its end (-1 when it cannot be read), and
 * after an operation collect the new lines of libceph, ceph and rbd.
 */
int rceph_kmsg_open(void);
void rceph_kmsg_collect(int fd, struct strv *lines);

/*
 * What to tell the user about a failed mount or map: the kernel's error
 * and its log lines (the mount(2) error alone says little: the client
 * returns EHOSTUNREACH for a wrong key and a dead cluster alike).
 * what is "mount" or "map"; returns a malloc'd sentence.
 */
char *rceph_advice(const struct rceph_client *cl, const char *what, int err,
			 const struct strv *klines);

#endif
