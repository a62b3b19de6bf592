// SPDX-License-Identifier: GPL-2.0
/*
 * plan.c: ./ceph-local's settings from rapido.conf (the environment
 * first), each checked once with a message naming the key, and the
 * ceph.conf the cluster runs from: sized for a CI machine (2 cores, a few
 * GiB in all) rather than for data.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ceph-local.h"
#include "ceph.h"
#include "confget.h"
#include "err.h"
#include "netaddr.h"
#include "num.h"
#include "size.h"

/* "FILE:LINE: KEY", "environment: KEY" or "default: KEY", for messages */
static char *origin(const struct conf *c, const char *key)
{
	const char *at;

	conf_value(c, key, &at);
	return xasprintf("%s: %s", at, key);
}

static noreturn void die_key(const struct conf *c, const char *key, const char *expected,
			     const char *got)
{
	die("%s: expected %s, got '%s'", origin(c, key), expected, got);
}

/* The typed readers die on what confkeys[] refuses: its message names the key and range. */
static unsigned int number(const struct conf *c, const char *key)
{
	unsigned int n = 0;
	char *err;

	if (conf_uint(c, key, &n, NULL, &err) < 0)
		die("%s", err);
	return n;
}

static uint64_t size(const struct conf *c, const char *key)
{
	uint64_t n = 0;
	char *err;

	if (conf_size(c, key, &n, NULL, &err) < 0)
		die("%s", err);
	return n;
}

static const char *name(const struct conf *c, const char *key)
{
	const char *v = conf_str(c, key, NULL);

	if (!ceph_name_valid(v))
		die_key(c, key, "a name of letters, digits, '_', '.' and '-'", v);
	return v;
}

void cl_plan_or_die(struct cl_plan *p, const struct conf *c, const char *netns)
{
	struct ipv4_prefix br;
	const char *v, *sudo_uid, *sudo_gid;
	char *err;

	memset(p, 0, sizeof(*p));
	p->netns = netns;
	if (conf_path(c, "CEPH_LOCAL_DIR", &v, NULL, &err) < 0)
		die("%s", err);
	if (!strcmp(v, "/"))
		die_key(c, "CEPH_LOCAL_DIR", "an absolute path (not /)", v);
	/* it is written into ceph.conf, where these would end or change a value */
	if (strpbrk(v, " \t\n#;$=\"'\\[]"))
		die_key(c, "CEPH_LOCAL_DIR", "a path without blanks, '#', ';', '$', '=', quotes, "
			"'\\' or brackets (it goes into ceph.conf)", v);
	p->dir = xstrdup(v);
	while (strlen(p->dir) > 1 && p->dir[strlen(p->dir) - 1] == '/')
		p->dir[strlen(p->dir) - 1] = '\0';

	if (conf_addr(c, "BR_ADDR", &br, NULL, &err) < 0)
		die("%s", err);
	if (!inet_ntop(AF_INET, &br.addr, p->addr, sizeof(p->addr)))
		die_errno("inet_ntop");

	p->osds = number(c, "CEPH_OSDS");
	if (conf_enum(c, "CEPH_OSD_STORE", &p->store, NULL, &err) < 0)
		die("%s", err);
	p->osd_size = size(c, "CEPH_OSD_SIZE");
	/* bluestore needs room for its RocksDB besides the data */
	if (!strcmp(p->store, "bluestore") && p->osd_size < (1ULL << 30))
		die_key(c, "CEPH_OSD_SIZE", "a size from 1G to 1T such as 1G",
			conf_str(c, "CEPH_OSD_SIZE", NULL));
	p->pool_size = number(c, "CEPH_POOL_SIZE");
	if (p->pool_size > p->osds) {
		char *o = origin(c, "CEPH_POOL_SIZE");

		die("%s: %u copies of each object need at least %u OSDs (CEPH_OSDS is %u)",
		    o, p->pool_size, p->pool_size, p->osds);
	}
	p->fs_name = name(c, "CEPH_FS_NAME");
	p->rbd_pool = name(c, "CEPH_RBD_POOL");
	p->rbd_image = name(c, "CEPH_RBD_IMAGE");
	p->image_size = size(c, "CEPH_RBD_IMAGE_SIZE");
	if (p->image_size % (1ULL << 20))
		die_key(c, "CEPH_RBD_IMAGE_SIZE", "a whole number of MiB",
			conf_str(c, "CEPH_RBD_IMAGE_SIZE", NULL));
	p->up_timeout = number(c, "CEPH_UP_TIMEOUT");

	/* the user behind sudo reads the client files (./cut, ./vm --rbd) */
	p->owner_uid = getuid();
	p->owner_gid = getgid();
	sudo_uid = getenv("SUDO_UID");
	sudo_gid = getenv("SUDO_GID");
	if (geteuid() == 0 && sudo_uid && sudo_gid && *sudo_uid && *sudo_gid) {
		unsigned int uid, gid;

		/* sudo sets both; anything else is not sudo's and is ignored */
		if (!num_parse_uint(sudo_uid, 0, UINT_MAX - 1, &uid, NULL) &&
		    !num_parse_uint(sudo_gid, 0, UINT_MAX - 1, &gid, NULL)) {
			p->owner_uid = (uid_t)uid;
			p->owner_gid = (gid_t)gid;
		}
	}
}

void cl_plan_free(struct cl_plan *p)
{
	free(p->dir);
	memset(p, 0, sizeof(*p));
}

char *cl_ceph_conf_text(const struct cl_plan *p, const char *fsid)
{
	const char *d = p->dir;
	char *out;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		die_errno("open_memstream");
	fprintf(f, "# written by ./ceph-local: a throwaway test cluster in %s\n"
		"[global]\n"
		"fsid = %s\n"
		/* msgr1 only: one port, and what every kernel client speaks */
		"mon host = v1:%s:%d\n"
		"ms bind msgr2 = false\n"
		"public addr = %s\n"
		"cluster addr = %s\n"
		"auth cluster required = cephx\n"
		"auth service required = cephx\n"
		"auth client required = cephx\n"
		"auth allow insecure global id reclaim = false\n"
		"run dir = %s/run\n"
		"log file = %s/log/$name.log\n"
		"osd pool default size = %u\n"
		"osd pool default min size = 1\n"
		"osd pool default pg num = 8\n"
		"osd pool default pgp num = 8\n"
		"osd pool default pg autoscale mode = off\n"
		/* replicas go to different OSDs, not hosts: there is one host */
		"osd crush chooseleaf type = 0\n"
		"mon allow pool size one = true\n"
		"mon allow pool delete = true\n"
		"mon warn on pool no redundancy = false\n"
		/* the host disk's free space is not this cluster's health */
		"mon data avail warn = 1\n"
		"\n[client]\n"
		"keyring = %s/keyring\n"
		/* clients (./cut's user, qemu) need not write into the state dir */
		"log file = /dev/null\n"
		"admin socket =\n"
		"\n[mon]\n"
		"mon data = %s/mon.$id\n"
		"\n[mgr]\n"
		"mgr data = %s/mgr.$id\n"
		"\n[osd]\n"
		"osd data = %s/osd.$id\n"
		"osd objectstore = %s\n"
		"memstore device bytes = %llu\n"
		"bluestore block path = %s/osd.$id/block\n"
		"bluestore block create = true\n"
		"bluestore block size = %llu\n"
		/* a fixed small cache instead of one sized for a 4G memory target */
		"bluestore cache autotune = false\n"
		"bluestore cache size = 67108864\n"
		"\n[mds]\n"
		"mds data = %s/mds.$id\n"
		"mds cache memory limit = 67108864\n",
		d, fsid, p->addr, CL_MON_PORT, p->addr, p->addr, d, d, p->pool_size, d, d, d, d,
		p->store, (unsigned long long)p->osd_size, d, (unsigned long long)p->osd_size, d);
	if (fclose(f))
		die_errno("open_memstream");
	return out;
}
