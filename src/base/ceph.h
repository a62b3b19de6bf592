/* SPDX-License-Identifier: GPL-2.0 */
/* ceph.h: what a Ceph client needs from ceph.conf and a keyring: the monitors and a key. */
#ifndef RAPIDO_CEPH_H
#define RAPIDO_CEPH_H

#include "strv.h"

/* Monitor addresses, "a.b.c.d:port", by protocol. */
struct ceph_mons {
	struct strv v1;		/* msgr1: the kernel client's default */
	struct strv v2;		/* msgr2: the kernel needs ms_mode= for these */
};

/*
 * The monitors of ceph.conf TEXT (FILE names it in messages): "mon host"
 * of [global] or [client] ("mon_host", "mon-host" alike, as Ceph reads
 * them), else the "mon addr" of [mon.ID] sections. Understands
 * "[v2:IP:3300,v1:IP:6789]", "v1:IP:PORT", "IP:PORT" and a bare "IP"
 * (6789 and 3300). IPv4 only: a guest has no resolver. Returns 0, or
 * -EINVAL with *err "FILE:LINE: ..." or "FILE: no ..." (malloc'd).
 */
int ceph_conf_mons(const char *file, const char *text, struct ceph_mons *m, char **err);
void ceph_mons_free(struct ceph_mons *m);

/*
 * The monitor list for the kernel client, "IP:PORT,IP:PORT" (malloc'd):
 * the msgr1 addresses, else the msgr2 ones with *msgr2 set (the mount then
 * needs ms_mode=prefer-crc).
 */
char *ceph_mons_kernel(const struct ceph_mons *m, int *msgr2);

/*
 * The base64 key of ENTITY ("client.admin") in keyring TEXT, malloc'd in
 * *key. Returns 0, -ENOENT when the keyring has no such entity, -EINVAL for
 * a key that is not base64; *err says which (malloc'd).
 */
int ceph_keyring_key(const char *file, const char *text, const char *entity, char **key,
		     char **err);

/* 1 if s can be a pool, image or file system name: [A-Za-z0-9_.-]+, not "." or "..". */
int ceph_name_valid(const char *s);

#endif
