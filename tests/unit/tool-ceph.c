// SPDX-License-Identifier: GPL-2.0
/* tool-ceph.c: rapido-ceph's client set-up, mount and map strings, rbd lookup and advice. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "run.h"
#include "tap.h"
#include "../../tools/ceph/rceph.h"

static char dir[] = "/tmp/rapido-tool-ceph.XXXXXX";

static char *put(const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);

	/* mkdir -p of the directories below dir */
	for (char *s = strchr(p + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	if (write_file_atomic(p, text, strlen(text), 0600))
		exit(99);
	return p;
}

/* advice for err with the kernel lines in klines (NULL-terminated) */
static void advice(const struct rceph_client *cl, const char *what, int err,
		   const char *const *klines, const char *want, const char *desc)
{
	struct strv l = STRV_INIT;
	char *a;

	for (; *klines; klines++)
		strv_push(&l, *klines);
	a = rceph_advice(cl, what, err, &l);
	tap_ok(strstr(a, want) != NULL, "%s", desc);
	if (!strstr(a, want))
		printf("#   wanted \"%s\" in \"%s\"\n", want, a);
	free(a);
	strv_free(&l);
}

int main(void)
{
	struct rceph_client cl, cl2;
	char *conf, *kr, *s, *err;
	unsigned int id;
	int rc;

	if (!mkdtemp(dir))
		return 99;
	tap_plan(19);
	conf = put("ceph.conf", "[global]\nmon host = v1:192.168.155.1:6789\n");
	kr = put("keyring", "[client.admin]\n\tkey = AQBX3CtpAAAAABAAbb0SvdRA3VmFr/YRUaA8uQ==\n");
	rc = rceph_client_load(&cl, conf, kr, "client.admin", 7, &err);
	TAP_EQ_INT(rc, 0, "load ceph.conf and keyring (name given as client.admin)");
	if (rc)
		return tap_done();
	s = rceph_mount_source(&cl, "/");
	TAP_EQ_STR(s, "192.168.155.1:6789:/", "mount source of the root");
	free(s);
	s = rceph_mount_source(&cl, "/rapido-fstests/rapido1/test");
	TAP_EQ_STR(s, "192.168.155.1:6789:/rapido-fstests/rapido1/test", "mount source of a directory");
	free(s);
	s = rceph_mount_options(&cl, NULL, NULL);
	TAP_EQ_STR(s, "name=admin,secret=AQBX3CtpAAAAABAAbb0SvdRA3VmFr/YRUaA8uQ==,mount_timeout=7",
		   "mount options: name, key, timeout");
	free(s);
	s = rceph_mount_options(&cl, "cephfs", "noatime,acl");
	TAP_EQ_STR(s, "name=admin,secret=AQBX3CtpAAAAABAAbb0SvdRA3VmFr/YRUaA8uQ==,mount_timeout=7,"
		   "mds_namespace=cephfs,noatime,acl", "mount options with a file system and extras");
	free(s);
	s = rceph_rbd_add_line(&cl, "rbd", "rapido");
	TAP_EQ_STR(s, "192.168.155.1:6789 name=admin,secret=AQBX3CtpAAAAABAAbb0SvdRA3VmFr/YRUaA8uQ==,"
		   "mount_timeout=7 rbd rapido", "the add_single_major line");
	free(s);

	free(put("msgr2.conf", "[global]\nmon host = v2:10.0.0.1:3300\n"));
	s = xasprintf("%s/msgr2.conf", dir);
	rc = rceph_client_load(&cl2, s, kr, "admin", 20, &err);
	free(s);
	TAP_EQ_INT(rc, 0, "load a msgr2-only ceph.conf");
	s = rc ? NULL : rceph_mount_options(&cl2, NULL, NULL);
	tap_ok(s && strstr(s, ",ms_mode=prefer-crc"), "msgr2-only monitors: ms_mode=prefer-crc");
	free(s);
	if (!rc)
		rceph_client_free(&cl2);

	rc = rceph_client_load(&cl2, conf, kr, "rapido", 20, &err);
	tap_ok(rc == -ENOENT && strstr(err, "no key for client.rapido"), "a client the keyring lacks");
	free(rc ? err : NULL);
	s = xasprintf("%s/none.conf", dir);
	rc = rceph_client_load(&cl2, s, kr, "admin", 20, &err);
	tap_ok(rc == -ENOENT && !strncmp(err, s, strlen(s)), "a missing ceph.conf, named");
	free(rc ? err : NULL);
	free(s);
	rc = rceph_client_load(&cl2, conf, kr, "ad,min", 20, &err);
	TAP_EQ_INT(rc, -EINVAL, "a client name with a comma (would add a mount option)");
	free(rc ? err : NULL);

	/* a fake /sys: rbd0 and rbd3 map rbd/a, rbd1 rbd/b */
	free(put("sys/bus/rbd/devices/0/pool", "rbd\n"));
	free(put("sys/bus/rbd/devices/0/name", "a\n"));
	free(put("sys/bus/rbd/devices/1/pool", "rbd\n"));
	free(put("sys/bus/rbd/devices/1/name", "b\n"));
	free(put("sys/bus/rbd/devices/3/pool", "rbd\n"));
	free(put("sys/bus/rbd/devices/3/name", "a\n"));
	s = xasprintf("%s/sys", dir);
	id = 99;
	rc = rceph_rbd_find(s, "rbd", "a", &id);
	tap_ok(rc == 0 && id == 3, "rbd/a: the newest of its two devices, rbd3 (got %u)", id);
	TAP_EQ_INT(rceph_rbd_find(s, "rbd", "c", &id), -ENOENT, "an image mapped nowhere");
	free(s);
	tap_ok(rceph_rbd_parse_dev("/dev/rbd12") == 12 && rceph_rbd_parse_dev("rbd0") == 0 &&
	       rceph_rbd_parse_dev("7") == 7 && rceph_rbd_parse_dev("/dev/sda") == -1 &&
	       rceph_rbd_parse_dev("rbd1x") == -1, "device names: /dev/rbdN, rbdN, N");

	advice(&cl, "mount", EHOSTUNREACH,
	       (const char *[]){ "libceph: auth protocol 'cephx' mauth authentication failed: -13",
				 "ceph: No mds server is up or the cluster is laggy", NULL },
	       "refused client.admin's key", "EHOSTUNREACH after a cephx failure: the key");
	advice(&cl, "mount", EHOSTUNREACH,
	       (const char *[]){ "libceph: mon0 (1)192.168.155.9:6789 socket closed (con state V1_BANNER)",
				 "ceph: No mds server is up or the cluster is laggy", NULL },
	       "no monitor answered at 192.168.155.1:6789 within 7s",
	       "EHOSTUNREACH without a session: no monitor");
	advice(&cl, "mount", EHOSTUNREACH,
	       (const char *[]){ "libceph: mon0 (1)192.168.155.1:6789 session established",
				 "ceph: No mds server is up or the cluster is laggy", NULL },
	       "no MDS serves the file system", "a session but no MDS: the file system");
	advice(&cl, "map", ENOENT,
	       (const char *[]){ "libceph: client4152 fsid 7f66", "rbd: image rbd/nosuch does not exist",
				 NULL },
	       "no such image", "rbd: a missing image");
	advice(&cl, "map", ENOENT, (const char *[]){ "rbd: pool nopool does not exist", NULL },
	       "no such pool", "rbd: a missing pool");
	rceph_client_free(&cl);
	free(conf);
	free(kr);
	{
		char *argv[] = { "rm", "-rf", dir, NULL };

		run_wait(argv, -1);
	}
	return tap_done();
}
