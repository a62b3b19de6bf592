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
#include "err.h"
#include "netaddr.h"
#include "num.h"
#include "size.h"

/* "FILE:LINE: KEY", "environment: KEY" or "default: KEY", for messages */
static char *origin(const struct conf *c, const char *key)
{
	return xasprintf("%s: %s", conf_origin(c, key), key);
}

static noreturn void die_key(const struct conf *c, const char *key, const char *expected,
			     const char *got)
{
	die("%s: expected %s, got '%s'", origin(c, key), expected, got);
}

static const char *get(const struct conf *c, const char *key, const char *def)
{
	const char *v = conf_get(c, key);

	return v && *v ? v : def;
}

static unsigned int number(const struct conf *c, const char *key, unsigned int def,
			   unsigned int min, unsigned int max)
{
	const char *v = conf_get(c, key);
	char why[NUM_WHY_LEN];
	unsigned int n;

	if (!v || !*v)
		return def;
	if (num_parse_uint(v, min, max, &n, why))
		die("%s: %s", origin(c, key), why);
	return n;
}

/*
 * The largest OSD or RBD image size: a CI cluster's (1G by default) is
 * far below it, and a memstore OSD keeps its data in RAM and a bluestore
 * one in a sparse file of that size, so 1P or 1E (accepted before) is a
 * typo that fails only once the daemons start, or an OSD the host's memory
 * or disk cannot back: refused up front.
 */
#define CL_SIZE_MAX (1ULL << 40)

/* "256M", "1G", "1T": n in the largest unit it is a whole number of */
static void size_format(uint64_t n, char *buf, size_t len)
{
	static const char units[] = "TGM";

	for (int i = 0; i < 3; i++) {
		unsigned int shift = 40 - 10 * (unsigned int)i;

		if (n >= 1ULL << shift && !(n & ((1ULL << shift) - 1))) {
			snprintf(buf, len, "%llu%c", (unsigned long long)(n >> shift), units[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)n);
}

static uint64_t size(const struct conf *c, const char *key, const char *def, uint64_t min,
		     uint64_t max)
{
	const char *v = get(c, key, def);
	uint64_t n;
	char what[96], lo[32], hi[32];

	if (parse_size(v, &n) || n < min || n > max) {
		size_format(min, lo, sizeof(lo));
		size_format(max, hi, sizeof(hi));
		snprintf(what, sizeof(what), "a size from %s to %s such as 1G", lo, hi);
		die_key(c, key, what, v);
	}
	return n;
}

static const char *name(const struct conf *c, const char *key, const char *def)
{
	const char *v = get(c, key, def);

	if (!ceph_name_valid(v))
		die_key(c, key, "a name of letters, digits, '_', '.' and '-'", v);
	return v;
}

void cl_plan_or_die(struct cl_plan *p, const struct conf *c, const char *netns)
{
	struct ipv4_prefix br;
	char why[NETADDR_WHY_LEN];
	const char *v, *sudo_uid, *sudo_gid;

	memset(p, 0, sizeof(*p));
	p->netns = netns;
	v = get(c, "CEPH_LOCAL_DIR", CEPH_LOCAL_DIR_DEFAULT);
	if (v[0] != '/' || !strcmp(v, "/"))
		die_key(c, "CEPH_LOCAL_DIR", "an absolute path (not /)", v);
	/* it is written into ceph.conf, where these would end or change a value */
	if (strpbrk(v, " \t\n#;$=\"'\\[]"))
		die_key(c, "CEPH_LOCAL_DIR", "a path without blanks, '#', ';', '$', '=', quotes, "
			"'\\' or brackets (it goes into ceph.conf)", v);
	p->dir = xstrdup(v);
	while (strlen(p->dir) > 1 && p->dir[strlen(p->dir) - 1] == '/')
		p->dir[strlen(p->dir) - 1] = '\0';

	v = get(c, "BR_ADDR", NETADDR_BR_DEFAULT);
	if (ipv4_bridge_parse(v, &br, why))
		die("%s: BR_ADDR: %s, got '%s'", origin(c, "BR_ADDR"), why, v);
	if (!inet_ntop(AF_INET, &br.addr, p->addr, sizeof(p->addr)))
		die_errno("inet_ntop");

	p->osds = number(c, "CEPH_OSDS", 3, 1, 16);
	p->store = get(c, "CEPH_OSD_STORE", "memstore");
	if (strcmp(p->store, "memstore") && strcmp(p->store, "bluestore"))
		die_key(c, "CEPH_OSD_STORE", "memstore or bluestore", p->store);
	/* bluestore needs room for its RocksDB besides the data */
	p->osd_size = size(c, "CEPH_OSD_SIZE", "1G",
			   strcmp(p->store, "bluestore") ? 256ULL << 20 : 1ULL << 30, CL_SIZE_MAX);
	p->pool_size = number(c, "CEPH_POOL_SIZE", 1, 1, 3);
	if (p->pool_size > p->osds) {
		char *o = origin(c, "CEPH_POOL_SIZE");

		die("%s: %u copies of each object need at least %u OSDs (CEPH_OSDS is %u)",
		    o, p->pool_size, p->pool_size, p->osds);
	}
	p->fs_name = name(c, "CEPH_FS_NAME", "cephfs");
	p->rbd_pool = name(c, "CEPH_RBD_POOL", "rbd");
	p->rbd_image = name(c, "CEPH_RBD_IMAGE", "rapido");
	p->image_size = size(c, "CEPH_RBD_IMAGE_SIZE", "256M", 16ULL << 20, CL_SIZE_MAX);
	if (p->image_size % (1ULL << 20))
		die_key(c, "CEPH_RBD_IMAGE_SIZE", "a whole number of MiB", get(c, "CEPH_RBD_IMAGE_SIZE", ""));
	p->up_timeout = number(c, "CEPH_UP_TIMEOUT", 300, 10, 3600);

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
