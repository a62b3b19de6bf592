/* SPDX-License-Identifier: GPL-2.0 */
/* cephpaths.h: the Ceph files rapido.conf points a profile at. */
#ifndef RAPIDO_CEPHPATHS_H
#define RAPIDO_CEPHPATHS_H

#include "conf.h"

/*
 * CEPH_CONF, else the ./ceph-local cluster's: CEPH_LOCAL_DIR (or its
 * default, confkeys[])/ceph.conf. malloc'd.
 */
char *ceph_conf_path(const struct conf *c);
/*
 * CEPH_KEYRING, else the file "keyring" next to ceph_conf_path(): the
 * ./ceph-local cluster's, or a vstart.sh build's (build/ceph.conf,
 * build/keyring). malloc'd.
 */
char *ceph_keyring_path(const struct conf *c);
/* Set CEPH_CONF and CEPH_KEYRING in c to the two paths above. */
void ceph_conf_defaults(struct conf *c);

#endif
