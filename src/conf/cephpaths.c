// SPDX-License-Identifier: GPL-2.0
/*
 * cephpaths.c: where the Ceph files a profile uses are, from rapido.conf's
 * CEPH_CONF, CEPH_KEYRING and CEPH_LOCAL_DIR. The files' parsers are in
 * src/base/ceph.c, which the guest's Ceph helper links too.
 */
#include <stdlib.h>
#include <string.h>

#include "cephpaths.h"
#include "confget.h"
#include "err.h"

char *ceph_conf_path(const struct conf *c)
{
	const char *conf = conf_str(c, "CEPH_CONF", NULL);

	if (conf)
		return xstrdup(conf);
	return xasprintf("%s/ceph.conf", conf_str(c, "CEPH_LOCAL_DIR", NULL));
}

char *ceph_keyring_path(const struct conf *c)
{
	const char *keyring = conf_str(c, "CEPH_KEYRING", NULL);
	char *conf, *slash, *path;

	if (keyring && *keyring)
		return xstrdup(keyring);
	/* ceph-local and vstart.sh alike write ceph.conf and keyring side by side */
	conf = ceph_conf_path(c);
	slash = strrchr(conf, '/');
	path = slash ? xasprintf("%.*s/keyring", (int)(slash - conf), conf) : xstrdup("keyring");
	free(conf);
	return path;
}

void ceph_conf_defaults(struct conf *c)
{
	char *conf = ceph_conf_path(c), *keyring = ceph_keyring_path(c);

	conf_set(c, "CEPH_CONF", conf);
	conf_set(c, "CEPH_KEYRING", keyring);
	free(conf);
	free(keyring);
}
