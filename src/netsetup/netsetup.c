// SPDX-License-Identifier: GPL-2.0
/*
 * netsetup.c: ./netsetup up|down [--netns NAME]: the bridge with an address
 * and one TAP per VM owned by the user who runs ./vm, from rapido.conf
 * (BR_DEV, BR_ADDR, TAP_DEVS, TAP_USER). Needs root (CAP_NET_ADMIN). Every
 * step checks what exists first, so running it twice changes nothing; what
 * it makes it marks (an ifalias), and it touches no other device; and
 * each is an `ip` command run from an argv vector (shown by --dry-run).
 * With --netns everything happens inside that namespace (made if absent),
 * which is how tests keep their bridges away from the host's interfaces.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "confget.h"
#include "err.h"
#include "ifname.h"
#include "netaddr.h"
#include "netsetup.h"
#include "rapido.h"
#include "run.h"
#include "version.h"

static int dry_run;
static int null_fd = -1;

static void usage(void)
{
	printf("Usage:\n"
	       " netsetup [options] up      create the bridge and the TAP devices\n"
	       " netsetup [options] down    remove them\n"
	       "\n"
	       "Set up the network ./vm --net tap attaches VMs to (root needed).\n"
	       "Configured in rapido.conf: BR_DEV (default rapido-br0), BR_ADDR\n"
	       "(192.168.155.1/24), TAP_DEVS (rapido-tap1 rapido-tap2), TAP_USER\n"
	       "(default: $SUDO_USER, else the caller).\n"
	       "\n"
	       "Options:\n"
	       "     --netns NAME   work inside network namespace NAME (created by up)\n"
	       " -n, --dry-run      print the ip commands instead of running them\n"
	       "     --version      print the version, and dracut's and qemu's\n"
	       " -h, --help         display this help\n");
}

static void ip_argv(const struct net_plan *p, struct strv *argv)
{
	strv_push(argv, "ip");
	if (p->netns) {
		strv_push(argv, "-n");
		strv_push(argv, p->netns);
	}
}

/* Run an ip command; returns its exit code. quiet: output to /dev/null */
static int run_ip(struct strv *argv, int quiet)
{
	int st;

	if (dry_run && !quiet) {
		for (size_t i = 0; i < argv->n; i++) {
			shell_quote(stdout, argv->v[i]);
			putchar(i + 1 < argv->n ? ' ' : '\n');
		}
		return 0;
	}
	st = run_wait(strv_argv(argv), quiet ? null_fd : -1);
	if (st < 0)
		die_err(st, "cannot run ip");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void step(const struct net_plan *p, const char *what, ...)
{
	struct strv argv = STRV_INIT;
	va_list ap;
	const char *a;

	ip_argv(p, &argv);
	va_start(ap, what);
	while ((a = va_arg(ap, const char *)))
		strv_push(&argv, a);
	va_end(ap);
	if (run_ip(&argv, 0))
		die("%s failed (ip said why above)", what);
	strv_free(&argv);
}

/*
 * What netsetup writes as the ifalias of each device it makes: up reuses,
 * and down removes, only a device that carries it; any other device of a
 * configured name (the host's eth0, someone's veth or bridge) is refused
 * by name and left alone.
 */
#define NETSETUP_ALIAS "made by rapido netsetup"

enum dev_state { DEV_ABSENT, DEV_OURS, DEV_FOREIGN };

static enum dev_state dev_state(const struct net_plan *p, const char *dev)
{
	struct strv argv = STRV_INIT;
	enum dev_state state = DEV_FOREIGN;
	char *out = NULL;
	int st;

	ip_argv(p, &argv);
	strv_push(&argv, "-o");
	strv_push(&argv, "link");
	strv_push(&argv, "show");
	strv_push(&argv, "dev");
	strv_push(&argv, dev);
	st = run_capture(strv_argv(&argv), null_fd, 30, &out);
	if (st < 0)
		die_err(st, "cannot run ip");
	/* ip -o: one line, its fields after "\    "; the alias last when set */
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		state = DEV_ABSENT;
	else if (strstr(out, "\\    alias " NETSETUP_ALIAS "\n"))
		state = DEV_OURS;
	free(out);
	strv_free(&argv);
	return state;
}

/* ", KEY NAME" appended to *list when NAME is a device netsetup did not make */
static size_t add_foreign(const struct net_plan *p, char **list, const char *key, const char *dev)
{
	char *l;

	if (dev_state(p, dev) != DEV_FOREIGN)
		return 0;
	l = xasprintf("%s%s%s %s", *list ? *list : "", *list ? ", " : "", key, dev);
	free(*list);
	*list = l;
	return 1;
}

/* dies naming every configured device that exists and is not netsetup's: before any change */
static void refuse_foreign(const struct net_plan *p, const char *verb)
{
	char *list = NULL;
	size_t n = add_foreign(p, &list, "BR_DEV", p->bridge);

	for (size_t i = 0; i < p->taps.n; i++)
		n += add_foreign(p, &list, "TAP_DEVS", p->taps.v[i]);
	if (n)
		die("%s: not made by ./netsetup (no ifalias '%s'%s%s): not %s %s; name other "
		    "devices in rapido.conf, or remove %s by hand", list, NETSETUP_ALIAS,
		    p->netns ? " in netns " : "", p->netns ? p->netns : "", verb,
		    n == 1 ? "it" : "them", n == 1 ? "it" : "them");
}

/* mark a device just made; one that cannot be marked is removed again */
static void mark(const struct net_plan *p, const char *dev)
{
	struct strv argv = STRV_INIT;

	ip_argv(p, &argv);
	strv_push(&argv, "link");
	strv_push(&argv, "set");
	strv_push(&argv, dev);
	strv_push(&argv, "alias");
	strv_push(&argv, NETSETUP_ALIAS);
	if (run_ip(&argv, 0)) {
		strv_free(&argv);
		ip_argv(p, &argv);
		strv_push(&argv, "link");
		strv_push(&argv, "del");
		strv_push(&argv, dev);
		run_ip(&argv, 1);
		die("marking %s as netsetup's failed (ip said why above): removed it again", dev);
	}
	strv_free(&argv);
}

static int netns_exists(const char *ns)
{
	char *path = xasprintf("/run/netns/%s", ns);
	int rc = access(path, F_OK) == 0;

	free(path);
	return rc;
}

static void plan_or_die(struct net_plan *p, const struct conf *c)
{
	const char *v, *at;
	struct ipv4_prefix pfx;
	struct passwd *pw;
	char *err;

	if (conf_addr(c, "BR_ADDR", &pfx, NULL, &err) < 0)
		die("%s", err);
	p->br_addr = xstrdup(conf_str(c, "BR_ADDR", NULL));
	/* unset: the table's two, the TAPs VMs 1 and 2 take by default */
	v = conf_str(c, "TAP_DEVS", &at);
	if (tap_devs_parse(v, &p->taps, &err))
		die("%s: TAP_DEVS: %s", at, err);
	p->bridge = xstrdup(conf_str(c, "BR_DEV", &at));
	if (!ifname_valid(p->bridge))
		die("%s: BR_DEV: '%s' is not a valid interface name (" IFNAME_RULE ")", at, p->bridge);
	if (strv_contains(&p->taps, p->bridge))
		die("%s: BR_DEV: '%s' is also in TAP_DEVS: the bridge and each TAP need names of "
		    "their own", at, p->bridge);
	v = conf_str(c, "TAP_USER", NULL);
	if (!v)
		v = getenv("SUDO_USER");
	if (v && *v) {
		pw = getpwnam(v);
		if (!pw)
			die("TAP_USER: no such user '%s'", v);
	} else {
		pw = getpwuid(getuid());
		if (!pw)
			die("cannot find the user name of uid %u", (unsigned int)getuid());
	}
	p->user = xstrdup(pw->pw_name);
}

static void up(struct net_plan *p)
{
	if (p->netns && !netns_exists(p->netns)) {
		struct strv argv = STRV_INIT;

		strv_push(&argv, "ip");
		strv_push(&argv, "netns");
		strv_push(&argv, "add");
		strv_push(&argv, p->netns);
		if (run_ip(&argv, 0))
			die("cannot create network namespace %s", p->netns);
		strv_free(&argv);
	}
	/* a new namespace's loopback is down; servers there reach themselves through it */
	if (p->netns)
		step(p, "bringing the namespace's loopback up", "link", "set", "lo", "up", NULL);
	refuse_foreign(p, "using");
	if (dev_state(p, p->bridge) == DEV_ABSENT) {
		step(p, "creating the bridge", "link", "add", p->bridge, "type", "bridge", NULL);
		mark(p, p->bridge);
	}
	/* replace: adds the address, or does nothing if it is there */
	step(p, "setting the bridge address", "address", "replace", p->br_addr, "dev", p->bridge, NULL);
	step(p, "bringing the bridge up", "link", "set", p->bridge, "up", NULL);
	for (size_t i = 0; i < p->taps.n; i++) {
		const char *tap = p->taps.v[i];

		if (dev_state(p, tap) == DEV_ABSENT) {
			step(p, "creating a TAP device", "tuntap", "add", "dev", tap, "mode", "tap",
			     "user", p->user, NULL);
			mark(p, tap);
		}
		step(p, "adding the TAP to the bridge", "link", "set", tap, "master", p->bridge, NULL);
		step(p, "bringing the TAP up", "link", "set", tap, "up", NULL);
	}
	if (!dry_run)
		printf("bridge %s (%s) with %zu TAP device%s owned by %s%s%s\n", p->bridge, p->br_addr,
		       p->taps.n, p->taps.n == 1 ? "" : "s", p->user, p->netns ? " in netns " : "",
		       p->netns ? p->netns : "");
}

static void down(struct net_plan *p)
{
	if (p->netns && !netns_exists(p->netns)) {
		printf("network namespace %s does not exist: nothing to remove\n", p->netns);
		return;
	}
	refuse_foreign(p, "removing");
	for (size_t i = 0; i < p->taps.n; i++)
		if (dev_state(p, p->taps.v[i]) == DEV_OURS)
			step(p, "removing a TAP device", "link", "del", p->taps.v[i], NULL);
	if (dev_state(p, p->bridge) == DEV_OURS)
		step(p, "removing the bridge", "link", "del", p->bridge, NULL);
}

int cmd_netsetup(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "netns", required_argument, NULL, 'N' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct net_plan p = { 0 };
	struct conf c;
	const char *verb;
	int ch;

	err_prog = "netsetup";
	while ((ch = getopt_long(argc, argv, "nh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'N':
			p.netns = optarg;
			if (!*optarg || strchr(optarg, '/'))
				die("--netns: '%s' is not a valid namespace name", optarg);
			break;
		case 'n':
			dry_run = 1;
			break;
		case 'V':
			version_print("netsetup");
			return 0;
		case 'h':
			usage();
			close_stdout();
			return 0;
		default:
			usage_die(1, NULL);
		}
	}
	if (optind + 1 != argc || (strcmp(argv[optind], "up") && strcmp(argv[optind], "down"))) {
		usage_die(1, "expected 'up' or 'down'");
	}
	verb = argv[optind];
	rapido_conf_load_or_die(&c);
	plan_or_die(&p, &c);
	if (!dry_run && geteuid() != 0)
		die("must run as root to %s network devices (try: sudo ./netsetup %s)",
		    verb[0] == 'u' ? "create" : "remove", verb);
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null_fd < 0)
		die_errno("/dev/null");
	if (verb[0] == 'u')
		up(&p);
	else
		down(&p);
	close(null_fd);
	strv_free(&p.taps);
	free(p.bridge);
	free(p.br_addr);
	free(p.user);
	conf_free(&c);
	close_stdout();
	return 0;
}
