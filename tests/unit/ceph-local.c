// SPDX-License-Identifier: GPL-2.0
/*
 * ceph-local.c: ./ceph-local's settings, its ceph.conf (read back by the
 * client side's own parser), the daemons file, and stopping by recorded
 * PID: real processes, one whose command line does not match (a recycled
 * PID) left alone.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ceph-local.h"
#include "ceph.h"
#include "err.h"
#include "io.h"
#include "tree.h"
#include "tap.h"

static char dir[] = "/tmp/rapido-ceph-local.XXXXXX";

/* Debian 13's Ceph 18.2, whose manager cannot load its PyO3 modules */
static const char trixie_detail[] =
	"HEALTH_WARN 13 mgr modules have failed dependencies\n"
	"[WRN] MGR_MODULE_DEPENDENCY: 13 mgr modules have failed dependencies\n"
	"    Module 'balancer' has failed dependency: PyO3 modules do not yet support subinterpreters\n"
	"    Module 'volumes' has failed dependency: PyO3 modules do not yet support subinterpreters\n";

/* `ceph health detail`'s checks: muted only when every one may be */
static void health(void)
{
	char *codes;
	int all;

	all = cl_health_mutable(trixie_detail, &codes);
	tap_ok(all && codes && !strcmp(codes, "MGR_MODULE_DEPENDENCY"),
	       "Debian 13's failed manager modules may be muted (%s)", codes ? codes : "none");
	free(codes);
	all = cl_health_mutable("HEALTH_WARN 2 checks\n"
				"[WRN] MGR_MODULE_DEPENDENCY: 13 mgr modules have failed dependencies\n"
				"[WRN] PG_AVAILABILITY: Reduced data availability: 8 pgs inactive\n"
				"    pg 1.0 is stuck inactive\n", &codes);
	tap_ok(!all && codes && !strcmp(codes, "MGR_MODULE_DEPENDENCY PG_AVAILABILITY"),
	       "  not beside inactive PGs, which are waited for (%s)", codes ? codes : "none");
	free(codes);
	all = cl_health_mutable("HEALTH_ERR 1 check\n"
				"[ERR] MGR_MODULE_DEPENDENCY: 13 mgr modules have failed dependencies\n",
				&codes);
	tap_ok(!all, "  nor as an error");
	free(codes);
	all = cl_health_mutable("HEALTH_OK\n", &codes);
	tap_ok(!all && !codes, "  HEALTH_OK has no check");
	all = cl_health_mutable("HEALTH_WARN x\n[WRN] lower: y\n[WRN] :\n", &codes);
	tap_ok(!all && !codes, "  a line that is no check is none");
	tap_ok(!cl_health_mute_why("PG_AVAILABILITY"), "  inactive PGs have no reason to be muted");
}

static pid_t start_fake(const char *name, const char *conf, const char *id)
{
	/* sh stays (the loop), so its command line keeps "-c CONF -i ID" */
	char *argv[] = { "sh", "-c", "while :; do sleep 1; done", "ceph-fake", "-f", "-c",
			 (char *)conf, "-i", (char *)id, NULL };

	return cl_daemon_start(dir, name, argv);
}

static int died_of(pid_t pid, int sig)
{
	int st;

	return waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == sig;
}

int main(void)
{
	struct conf c = { .env_override = 1 };
	struct cl_plan p;
	struct ceph_mons m;
	struct cl_daemon *d;
	char *text, *err, *conf, *path, *k;
	pid_t mon, osd, stranger;
	size_t n;
	int v2;

	if (!mkdtemp(dir))
		return 99;
	tap_plan(28);
	health();
	unsetenv("CEPH_LOCAL_DIR");
	unsetenv("BR_ADDR");
	unsetenv("CEPH_OSDS");
	unsetenv("CEPH_POOL_SIZE");
	unsetenv("CEPH_OSD_STORE");
	cl_plan_or_die(&p, &c, NULL);
	TAP_EQ_STR(p.dir, "/var/tmp/rapido-ceph", "default state dir");
	TAP_EQ_STR(p.addr, "192.168.155.1", "default address: netsetup's bridge");
	tap_ok(p.osds == 3 && p.pool_size == 1 && !strcmp(p.store, "memstore") &&
	       p.osd_size == 1ULL << 30 && p.image_size == 256ULL << 20,
	       "defaults: 3 memstore OSDs of 1G, pool size 1, a 256M image");
	tap_ok(!strcmp(p.fs_name, "cephfs") && !strcmp(p.rbd_pool, "rbd") &&
	       !strcmp(p.rbd_image, "rapido"), "defaults: cephfs, rbd/rapido");
	cl_plan_free(&p);

	conf_set(&c, "CEPH_LOCAL_DIR", dir);
	conf_set(&c, "BR_ADDR", "10.1.2.3/8");
	conf_set(&c, "CEPH_OSDS", "2");
	conf_set(&c, "CEPH_POOL_SIZE", "2");
	conf_set(&c, "CEPH_OSD_STORE", "bluestore");
	conf_set(&c, "CEPH_OSD_SIZE", "2G");
	cl_plan_or_die(&p, &c, "lab");
	TAP_EQ_STR(p.addr, "10.1.2.3", "the address of BR_ADDR");
	text = cl_ceph_conf_text(&p, "f00d");
	tap_ok(strstr(text, "\nosd pool default size = 2\n") &&
	       strstr(text, "\nosd objectstore = bluestore\n") &&
	       strstr(text, "\nbluestore block size = 2147483648\n"),
	       "ceph.conf: pool size, store and size as set");
	k = xasprintf("\nkeyring = %s/keyring\n", dir);
	tap_ok(strstr(text, k) && strstr(text, "\n[client]\nkeyring"), "ceph.conf: [client] keyring");
	free(k);
	tap_ok(!ceph_conf_mons("ceph.conf", text, &m, &err), "ceph.conf: the client side reads it");
	k = ceph_mons_kernel(&m, &v2);
	tap_ok(!strcmp(k, "10.1.2.3:6789") && !v2, "  and finds the monitor at 10.1.2.3:6789, msgr1");
	free(k);
	ceph_mons_free(&m);
	free(text);

	/* the daemons file */
	path = xasprintf("%s/log", dir);
	mkdir(path, 0755);
	free(path);
	TAP_EQ_INT(cl_daemons_read(dir, &d, &n), 0, "no daemons file: no daemons");
	TAP_EQ_INT(n, 0, "  (none)");
	conf = xasprintf("%s/ceph.conf", dir);
	mon = start_fake("mon.a", conf, "a");
	osd = start_fake("osd.0", conf, "0");
	/* a PID whose process is not that daemon any more */
	stranger = start_fake("osd.1", conf, "zzz");
	tap_ok(!cl_daemons_read(dir, &d, &n) && n == 3 && !strcmp(d[0].name, "mon.a") &&
	       d[0].pid == mon && d[2].pid == stranger, "three daemons recorded in start order");
	free(d);
	k = xasprintf("/proc/%d/cwd", (int)mon);
	{
		char cwd[16] = "";
		ssize_t l = readlink(k, cwd, sizeof(cwd) - 1);

		tap_ok(l == 1 && cwd[0] == '/', "  each in / (Debian 13's ceph-osd finds its classes"
		       " by a path relative to it): %s", l > 0 ? cwd : strerror(errno));
	}
	free(k);
	tap_ok(cl_daemon_is_ours(mon, "mon.a", conf), "mon.a's pid runs mon.a of this cluster");
	tap_ok(!cl_daemon_is_ours(mon, "mon.b", conf), "  but not mon.b");
	tap_ok(!cl_daemon_is_ours(mon, "mon.a", "/other/ceph.conf"), "  nor another cluster's mon.a");
	tap_ok(!cl_daemon_is_ours(stranger, "osd.1", conf), "a pid running something else is not ours");
	TAP_EQ_INT(cl_daemons_stop(dir, 5), 0, "stop: every daemon of ours stopped");
	tap_ok(died_of(mon, SIGTERM) && died_of(osd, SIGTERM), "  by SIGTERM, through their pids");
	tap_ok(kill(stranger, 0) == 0, "the stranger was not signalled");
	kill(stranger, SIGKILL);
	waitpid(stranger, NULL, 0);

	path = xasprintf("%s-outside", dir);
	write_file_atomic(path, "keep", 4, 0644);
	k = xasprintf("%s/link", dir);
	if (symlink(path, k) < 0)
		return 99;
	free(k);
	TAP_EQ_INT(remove_tree(dir, NULL), 0, "remove the state dir");
	tap_ok(access(dir, F_OK) < 0 && access(path, F_OK) == 0,
	       "  all of it, and nothing a symlink in it points to");
	unlink(path);
	free(path);
	free(conf);
	cl_plan_free(&p);
	conf_free(&c);
	return tap_done();
}
