// SPDX-License-Identifier: GPL-2.0
/*
 * cli.c: ./ceph-local up|status|down [--netns NAME]: the command line, the
 * checks made before anything is started (root, the Ceph programs, the
 * namespace, its loopback, the bridge address and the monitor's port),
 * and status.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <net/if.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ceph-local.h"
#include "err.h"
#include "io.h"
#include "rapido.h"
#include "run.h"
#include "version.h"

enum { EXIT_NOT_RUNNING = 3 };	/* status: no cluster (as LSB init scripts say it) */

static void usage(void)
{
	printf("Usage:\n"
	       " ceph-local [options] up       start a cluster: 1 mon, 1 mgr, CEPH_OSDS OSDs,\n"
	       "                               1 MDS, cephx, a CephFS and an RBD image\n"
	       " ceph-local [options] status   its daemons, their memory and its health\n"
	       " ceph-local [options] down     stop every daemon it started, remove its files\n"
	       "\n"
	       "A small real Ceph cluster from the distribution's packages for the cephfs,\n"
	       "rbd, fstests_cephfs and qemu_rbd profiles (root needed). It listens on the\n"
	       "bridge address (BR_ADDR, as ./netsetup sets it) port %d and keeps\n"
	       "everything in CEPH_LOCAL_DIR (default /var/tmp/rapido-ceph), where ./cut\n"
	       "and ./vm find its ceph.conf and keyring. Configured in rapido.conf:\n"
	       "CEPH_OSDS (3), CEPH_OSD_STORE (memstore or bluestore), CEPH_OSD_SIZE (1G),\n"
	       "CEPH_POOL_SIZE (1), CEPH_FS_NAME (cephfs), CEPH_RBD_POOL (rbd),\n"
	       "CEPH_RBD_IMAGE (rapido), CEPH_RBD_IMAGE_SIZE (256M), CEPH_UP_TIMEOUT (300).\n"
	       "\n"
	       "Options:\n"
	       "     --netns NAME   run the cluster in network namespace NAME (made by\n"
	       "                      ./netsetup --netns NAME up); status and down find it\n"
	       "     --version      print the version, and dracut's and qemu's\n"
	       " -h, --help         display this help\n"
	       "\n"
	       "Exit status: 0 done (status: all daemons running, HEALTH_OK); 1 failed (up\n"
	       "leaves nothing running; status: a daemon is gone or the cluster is not\n"
	       "healthy); %d (status) no cluster.\n", CL_MON_PORT, EXIT_NOT_RUNNING);
}

/* netns=NAME from the cluster's marker file; NULL when there is no cluster */
static char *recorded_netns(const struct cl_plan *p)
{
	char *path = xasprintf("%s/%s", p->dir, CL_MARKER), *text, *line, *ns = NULL;

	if (read_file(path, &text, NULL)) {
		free(path);
		return NULL;
	}
	free(path);
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		if (!strncmp(line, "netns=", 6))
			ns = xstrdup(line + 6);
	free(text);
	return ns ? ns : xstrdup("");
}

static void enter_netns(const char *ns, int must)
{
	char *path = xasprintf("/run/netns/%s", ns);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		if (!must && errno == ENOENT) {
			free(path);
			return;
		}
		if (errno == ENOENT)
			die("network namespace %s does not exist (%s): sudo ./netsetup --netns %s up "
			    "makes it", ns, path, ns);
		die_errno("%s", path);
	}
	if (setns(fd, CLONE_NEWNET) < 0)
		die_errno("cannot enter network namespace %s", ns);
	close(fd);
	free(path);
}

static void check_programs(void)
{
	static const char *const progs[][2] = {
		{ "ceph-mon", "ceph-mon" }, { "ceph-mgr", "ceph-mgr" }, { "ceph-osd", "ceph-osd" },
		{ "ceph-mds", "ceph-mds" }, { "ceph", "ceph-common" },
		{ "ceph-authtool", "ceph-common" }, { "rbd", "ceph-common" },
		{ "monmaptool", "ceph-base" },
	};
	int missing = 0;

	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		char *path = find_in_path(progs[i][0]);

		if (!path) {
			warn("%s not found (package %s)", progs[i][0], progs[i][1]);
			missing++;
		}
		free(path);
	}
	if (missing)
		die("install Ceph first: apt-get install ceph-mon ceph-mgr ceph-osd ceph-mds "
		    "ceph-common (host/install-deps does)");
}

/* The namespace's loopback must be up: the ceph CLI reaches the monitor through it. */
static void check_net(const struct cl_plan *p)
{
	const char *in = p->netns ? " in netns " : "", *ns = p->netns ? p->netns : "";
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(CL_MON_PORT) };
	struct ifreq ifr = { 0 };
	int fd, one = 1;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die_errno("socket");
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		die_errno("cannot read the flags of lo%s%s", in, ns);
	if (!(ifr.ifr_flags & IFF_UP))
		die("the loopback interface is down%s%s: ip%s%s link set lo up "
		    "(./netsetup --netns NAME up does it)", in, ns, p->netns ? " -n " : "", ns);
	inet_pton(AF_INET, p->addr, &sin.sin_addr);
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0)
		die_errno("setsockopt");
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0) {
		if (errno == EADDRNOTAVAIL)
			die("%s (BR_ADDR) is not an address of any interface%s%s: sudo ./netsetup%s%s up "
			    "puts it on the bridge", p->addr, in, ns, p->netns ? " --netns " : "", ns);
		if (errno == EADDRINUSE)
			die("%s:%d is in use%s%s: another monitor (a cluster of another "
			    "CEPH_LOCAL_DIR?) listens there", p->addr, CL_MON_PORT, in, ns);
		die_errno("bind %s:%d", p->addr, CL_MON_PORT);
	}
	close(fd);
}

static int status(const struct cl_plan *p)
{
	char *conf = xasprintf("%s/ceph.conf", p->dir);
	struct cl_daemon *d;
	size_t n, alive = 0;
	char *argv[] = { "ceph", "-c", conf, "--connect-timeout", "10", "health", NULL };
	int st, timed_out, rc;

	rc = cl_daemons_read(p->dir, &d, &n);
	if (rc)
		die_err(rc, "%s/%s", p->dir, CL_DAEMONS);
	printf("ceph-local: cluster in %s%s%s, monitor %s:%d\n", p->dir,
	       p->netns ? ", netns " : "", p->netns ? p->netns : "", p->addr, CL_MON_PORT);
	for (size_t i = 0; i < n; i++) {
		int ours = cl_daemon_is_ours(d[i].pid, d[i].name, conf);

		alive += ours;
		if (ours)
			printf("  %-8s pid %-8ld running %6lu MiB\n", d[i].name, (long)d[i].pid,
			       cl_rss_kib(d[i].pid) / 1024);
		else
			printf("  %-8s pid %-8ld gone\n", d[i].name, (long)d[i].pid);
	}
	printf("health: ");
	fflush(stdout);
	/* a cluster without its monitor would make ceph wait: bounded */
	st = run_wait_timeout(argv, -1, -1, 30, &timed_out);
	if (timed_out)
		printf("no answer within 30s\n");
	free(d);
	free(conf);
	if (alive != n || n == 0) {
		printf("ceph-local: %zu of %zu daemons running\n", alive, n);
		return 1;
	}
	return st >= 0 && WIFEXITED(st) && !WEXITSTATUS(st) && !timed_out ? 0 : 1;
}

int cmd_ceph_local(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "netns", required_argument, NULL, 'N' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *netns = NULL, *verb;
	struct cl_plan p;
	struct conf c;
	char *rec;
	int ch, rc;

	err_prog = "ceph-local";
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'N':
			netns = optarg;
			if (!*optarg || strchr(optarg, '/') || !strcmp(optarg, ".") ||
			    !strcmp(optarg, ".."))
				die("--netns: '%s' is not a valid namespace name", optarg);
			break;
		case 'V':
			version_print("ceph-local");
			return 0;
		case 'h':
			usage();
			close_stdout();
			return 0;
		default:
			usage_die(1, NULL);
		}
	}
	if (optind + 1 != argc || (strcmp(argv[optind], "up") && strcmp(argv[optind], "status") &&
				   strcmp(argv[optind], "down"))) {
		usage_die(1, "expected 'up', 'status' or 'down'");
	}
	verb = argv[optind];
	rapido_conf_load_or_die(&c);
	cl_plan_or_die(&p, &c, netns);
	if (strcmp(verb, "status") && geteuid() != 0)
		die("must run as root to %s Ceph daemons (try: sudo ./ceph-local %s)",
		    verb[0] == 'u' ? "start" : "stop", verb);

	/* status and down act where up did */
	rec = recorded_netns(&p);
	if (rec && netns && strcmp(rec, netns))
		die("the cluster in %s runs %s%s, not in netns %s", p.dir,
		    *rec ? "in netns " : "outside any network namespace", rec, netns);
	if (rec && *rec)
		p.netns = rec;
	if (p.netns)
		enter_netns(p.netns, verb[0] != 'd');

	if (!strcmp(verb, "up")) {
		check_programs();
		if (!rec)
			check_net(&p);
		rc = cl_up(&p);
	} else if (!strcmp(verb, "down")) {
		rc = cl_down(&p, 0);
	} else if (!rec) {
		printf("ceph-local: no cluster in %s\n", p.dir);
		rc = EXIT_NOT_RUNNING;
	} else {
		rc = status(&p);
	}
	free(rec);
	cl_plan_free(&p);
	conf_free(&c);
	close_stdout();
	return rc;
}
