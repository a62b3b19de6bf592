// SPDX-License-Identifier: GPL-2.0
/*
 * up.c: bring the cluster up with the packages' own tools, the way their
 * manual deployment guide does it: ceph-authtool for the keys, monmaptool
 * and ceph-mon --mkfs for the monitor, `ceph osd new` and ceph-osd --mkfs
 * per OSD, `ceph auth get-or-create` for mgr and MDS, then the pools, the
 * file system and the RBD image, and wait for HEALTH_OK. Each step's
 * command and output go to DIR/log/ceph-local.log; any failure (or a
 * signal) tears down what was started, so a half-made cluster is never
 * left running. And down: stop by recorded PID, remove the directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ceph-local.h"
#include "err.h"
#include "io.h"
#include "mono.h"
#include "statedir.h"
#include "tree.h"
#include "run.h"
#include "strv.h"

/* One `up`: where its steps log, and what to tear down if it fails. */
struct up {
	const struct cl_plan *p;
	char *conf;		/* DIR/ceph.conf */
	char *log;		/* DIR/log/ceph-local.log */
	int log_fd;
	long long t0;		/* ms */
};

/* Set while a cluster is half made: die() (exit) then tears it down. */
static const struct cl_plan *teardown_plan;
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

static void teardown_at_exit(void)
{
	const struct cl_plan *p = teardown_plan;

	if (!p)
		return;
	teardown_plan = NULL;
	fprintf(stderr, "ceph-local: tearing down the half-made cluster in %s\n", p->dir);
	cl_down(p, 1);
}

static double secs_since(const struct up *u)
{
	return (double)(mono_ms() - u->t0) / 1000.0;
}

static void check_stop(void)
{
	if (stop_signal)
		die("stopped by signal %d (%s)", (int)stop_signal, strsignal(stop_signal));
}

/* The last lines of FILE to stderr, indented: what a failed step said. */
static void show_tail(const char *file, int lines)
{
	char *text, *p;
	size_t len;
	int n = 0;

	if (read_file(file, &text, &len))
		return;
	for (p = text + len; p > text; p--)
		if (p[-1] == '\n' && p != text + len && ++n > lines)
			break;
	fprintf(stderr, "---- %s (end) ----\n%s%s---- end of %s ----\n", file, p,
		len && text[len - 1] != '\n' ? "\n" : "", file);
	free(text);
}

static void log_argv(struct up *u, char *const argv[])
{
	dprintf(u->log_fd, "[%.1fs] +", secs_since(u));
	for (size_t i = 0; argv[i]; i++)
		dprintf(u->log_fd, " %s", argv[i]);
	dprintf(u->log_fd, "\n");
}

enum {
	MAY_FAIL = 1,	/* return the exit status instead of dying */
	SECRET = 2,	/* the captured output is a key: keep it out of the log */
};

/*
 * Run one step with a deadline. Its stdout goes to *out (malloc'd, when
 * out is set) or the log; stderr to the log. Dies (tearing down) when it
 * fails, unless MAY_FAIL: then returns its exit status (-1 for a timeout).
 */
static int step(struct up *u, const char *what, char *const argv[], char **out,
		unsigned int secs, int flags)
{
	char *cap = out ? xasprintf("%s/run/step.out", u->p->dir) : NULL;
	int out_fd = u->log_fd, timed_out, st, rc;

	check_stop();
	log_argv(u, argv);
	if (cap) {
		out_fd = open(cap, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (out_fd < 0)
			die_errno("%s", cap);
	}
	st = run_wait_timeout(argv, out_fd, u->log_fd, secs, &timed_out);
	if (st < 0)
		die_err(st, "%s: cannot run %s", what, argv[0]);
	rc = timed_out ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (cap) {
		close(out_fd);
		if (read_file(cap, out, NULL))
			*out = xstrdup("");
		unlink(cap);
		free(cap);
		if (!rc)
			dprintf(u->log_fd, "%s", flags & SECRET ? "(a key)\n" : *out);
	}
	if (rc && !(flags & MAY_FAIL)) {
		check_stop();
		show_tail(u->log, 15);
		if (timed_out)
			die("%s: %s did not finish within %us", what, argv[0], secs);
		die("%s: %s failed (exit status %d)", what, argv[0], rc);
	}
	return rc;
}

/* `ceph -c CONF ARGS...` through step(); the CLI gives up on the monitor after 10s */
static int ceph(struct up *u, const char *what, char **out, int flags, ...)
{
	struct strv argv = STRV_INIT;
	va_list ap;
	const char *a;
	int rc;

	strv_push(&argv, "ceph");
	strv_push(&argv, "-c");
	strv_push(&argv, u->conf);
	strv_push(&argv, "--connect-timeout");
	strv_push(&argv, "10");
	va_start(ap, flags);
	while ((a = va_arg(ap, const char *)))
		strv_push(&argv, a);
	va_end(ap);
	rc = step(u, what, strv_argv(&argv), out, 60, flags);
	strv_free(&argv);
	return rc;
}

static void check_alive(struct up *u)
{
	struct cl_daemon *d;
	size_t n;

	if (cl_daemons_read(u->p->dir, &d, &n))
		die("%s/%s: cannot read it back", u->p->dir, CL_DAEMONS);
	for (size_t i = 0; i < n; i++)
		if (!cl_daemon_is_ours(d[i].pid, d[i].name, u->conf)) {
			char *out = xasprintf("%s/log/%s.out", u->p->dir, d[i].name);
			char *log = xasprintf("%s/log/%s.log", u->p->dir, d[i].name);

			show_tail(out, 10);
			show_tail(log, 10);
			die("%s (pid %ld) exited during start-up: see its output above", d[i].name,
			    (long)d[i].pid);
		}
	free(d);
}

static char *new_uuid(void)
{
	char *text;

	if (read_file("/proc/sys/kernel/random/uuid", &text, NULL))
		die_errno("/proc/sys/kernel/random/uuid");
	text[strcspn(text, "\n")] = '\0';
	return text;
}

static void start(struct up *u, const char *type, const char *id)
{
	char *name = xasprintf("%s.%s", type, id), *bin = xasprintf("ceph-%s", type);
	char *argv[] = { bin, "-f", "-c", u->conf, "-i", (char *)id, NULL };

	check_stop();
	log_argv(u, argv);
	cl_daemon_start(u->p->dir, name, argv);
	free(name);
	free(bin);
}

static void make_dir(const char *dir, mode_t mode)
{
	if (mkdir(dir, mode) < 0)
		die_errno("mkdir %s", dir);
}

static void keys_and_mon(struct up *u, const char *fsid)
{
	const char *d = u->p->dir;
	char *monkr = xasprintf("%s/mon.keyring", d), *kr = xasprintf("%s/keyring", d);
	char *monmap = xasprintf("%s/monmap", d), *mondir = xasprintf("%s/mon.a", d);
	char *addrv = xasprintf("[v1:%s:%d]", u->p->addr, CL_MON_PORT);
	char *mk_mon[] = { "ceph-authtool", "--create-keyring", monkr, "--gen-key", "-n", "mon.",
			   "--cap", "mon", "allow *", NULL };
	char *mk_admin[] = { "ceph-authtool", "--create-keyring", kr, "--gen-key", "-n",
			     "client.admin", "--cap", "mon", "allow *", "--cap", "osd", "allow *",
			     "--cap", "mds", "allow *", "--cap", "mgr", "allow *", NULL };
	char *import[] = { "ceph-authtool", monkr, "--import-keyring", kr, NULL };
	char *mkmap[] = { "monmaptool", "--create", "--addv", "a", addrv, "--fsid", (char *)fsid,
			  monmap, NULL };
	char *mkfs[] = { "ceph-mon", "-c", u->conf, "--mkfs", "-i", "a", "--monmap", monmap,
			 "--keyring", monkr, NULL };

	step(u, "making the monitor's key", mk_mon, NULL, 30, 0);
	step(u, "making client.admin's key", mk_admin, NULL, 30, 0);
	step(u, "giving the monitor client.admin's key", import, NULL, 30, 0);
	/* the user behind sudo cuts images and runs qemu with these two */
	if (chown(kr, u->p->owner_uid, u->p->owner_gid) < 0 || chmod(kr, 0600) < 0)
		die_errno("chown/chmod %s", kr);
	step(u, "making the monitor map", mkmap, NULL, 30, 0);
	make_dir(mondir, 0700);
	step(u, "making the monitor's store", mkfs, NULL, 60, 0);
	start(u, "mon", "a");
	/* the monitor answers once it has formed its quorum of one */
	for (;;) {
		if (!ceph(u, "waiting for the monitor", NULL, MAY_FAIL, "mon", "stat", NULL))
			break;
		check_alive(u);
		if (secs_since(u) > u->p->up_timeout)
			die("the monitor did not answer on %s:%d within %us", u->p->addr, CL_MON_PORT,
			    u->p->up_timeout);
		sleep(1);
	}
	free(monkr);
	free(kr);
	free(monmap);
	free(mondir);
	free(addrv);
}

/* A daemon's own key, made by the monitor, in DIR/TYPE.ID/keyring. */
static void daemon_key(struct up *u, const char *type, const char *id, const char *caps[])
{
	char *dir = xasprintf("%s/%s.%s", u->p->dir, type, id);
	char *kr = xasprintf("%s/keyring", dir), *entity = xasprintf("%s.%s", type, id);
	char *what = xasprintf("making %s's key", entity);
	struct strv argv = STRV_INIT;

	make_dir(dir, 0700);
	strv_push(&argv, "ceph");
	strv_push(&argv, "-c");
	strv_push(&argv, u->conf);
	strv_push(&argv, "--connect-timeout");
	strv_push(&argv, "10");
	strv_push(&argv, "auth");
	strv_push(&argv, "get-or-create");
	strv_push(&argv, entity);
	for (size_t i = 0; caps[i]; i++)
		strv_push(&argv, caps[i]);
	strv_push(&argv, "-o");
	strv_push(&argv, kr);
	step(u, what, strv_argv(&argv), NULL, 60, 0);
	strv_free(&argv);
	free(dir);
	free(kr);
	free(entity);
	free(what);
}

/* The OSD's keyring, written here: the key stays off command lines and out of the log. */
static void osd_keyring(const char *path, const char *name, const char *key)
{
	char *text = xasprintf("[%s]\n\tkey = %s\n", name, key);
	int rc = write_file_atomic(path, text, strlen(text), 0600);

	if (rc)
		die_err(rc, "%s", path);
	free(text);
}

static void osd(struct up *u)
{
	char *uuid = new_uuid(), *key = NULL, *id = NULL;
	char *json = xasprintf("%s/run/osd-new.json", u->p->dir), *body, *dir, *kr, *name;
	char *genkey[] = { "ceph-authtool", "--gen-print-key", NULL };
	int rc;

	step(u, "making an OSD key", genkey, &key, 30, SECRET);
	key[strcspn(key, "\n")] = '\0';
	body = xasprintf("{\"cephx_secret\": \"%s\"}\n", key);
	rc = write_file_atomic(json, body, strlen(body), 0600);
	if (rc)
		die_err(rc, "%s", json);
	ceph(u, "adding an OSD to the cluster", &id, 0, "osd", "new", uuid, "-i", json, NULL);
	unlink(json);
	id[strcspn(id, "\n")] = '\0';
	if (!*id || strspn(id, "0123456789") != strlen(id))
		die("ceph osd new said '%s', not an OSD number", id);
	name = xasprintf("osd.%s", id);
	dir = xasprintf("%s/%s", u->p->dir, name);
	kr = xasprintf("%s/keyring", dir);
	make_dir(dir, 0700);
	osd_keyring(kr, name, key);
	{
		char *mkfs[] = { "ceph-osd", "-c", u->conf, "-i", id, "--mkfs", "--osd-uuid", uuid,
				 NULL };

		step(u, "making the OSD's store", mkfs, NULL, 120, 0);
	}
	start(u, "osd", id);
	free(uuid);
	free(key);
	free(id);
	free(json);
	free(body);
	free(dir);
	free(kr);
	free(name);
}

static void pools(struct up *u)
{
	const struct cl_plan *p = u->p;
	char *data = xasprintf("%s_data", p->fs_name), *meta = xasprintf("%s_metadata", p->fs_name);

	ceph(u, "making the file system's data pool", NULL, 0, "osd", "pool", "create", data, "8",
	     NULL);
	ceph(u, "making the file system's metadata pool", NULL, 0, "osd", "pool", "create", meta,
	     "8", NULL);
	ceph(u, "making the file system", NULL, 0, "fs", "new", p->fs_name, meta, data, NULL);
	ceph(u, "making the RBD pool", NULL, 0, "osd", "pool", "create", p->rbd_pool, "8", NULL);
	ceph(u, "marking the RBD pool for rbd", NULL, 0, "osd", "pool", "application", "enable",
	     p->rbd_pool, "rbd", NULL);
	free(data);
	free(meta);
}

/*
 * When every check left is one that no test here is touched by
 * (health.c), mute it, saying so, and go on waiting for HEALTH_OK: 1
 * once muted, 0 while something else is still raised.
 */
static int mute_harmless(struct up *u, const char *summary)
{
	char *detail = NULL, *codes = NULL, *code, *save = NULL;
	int mutable = 0;

	if (!ceph(u, "asking the cluster's health", &detail, MAY_FAIL, "health", "detail", NULL))
		mutable = cl_health_mutable(detail, &codes);
	if (mutable) {
		for (code = strtok_r(codes, " ", &save); code; code = strtok_r(NULL, " ", &save)) {
			ceph(u, "muting a health check", NULL, 0, "health", "mute", code, NULL);
			printf("ceph-local: muted %s (%.*s): %s\n", code,
			       (int)strcspn(summary, "\n"), summary, cl_health_mute_why(code));
		}
	}
	free(codes);
	free(detail);
	return mutable;
}

static void wait_healthy(struct up *u)
{
	char *out = NULL;
	int muted = 0;

	for (;;) {
		int rc = ceph(u, "asking the cluster's health", &out, MAY_FAIL, "health", NULL);

		if (!rc && !strncmp(out, "HEALTH_OK", 9))
			break;
		if (!rc && !muted)
			muted = mute_harmless(u, out);
		check_alive(u);
		if (secs_since(u) > u->p->up_timeout) {
			char *detail = NULL;

			ceph(u, "asking the cluster's health", &detail, MAY_FAIL, "health", "detail",
			     NULL);
			fprintf(stderr, "%s", detail ? detail : "");
			die("the cluster is not healthy after %us (CEPH_UP_TIMEOUT): %s",
			    u->p->up_timeout, out ? out : "no answer");
		}
		free(out);
		out = NULL;
		sleep(1);
	}
	free(out);
}

static void image(struct up *u)
{
	char *spec = xasprintf("%s/%s", u->p->rbd_pool, u->p->rbd_image);
	char *mib = xasprintf("%lluM", (unsigned long long)(u->p->image_size >> 20));
	/* layering only: the kernel client maps it, in any number of VMs in turn */
	char *argv[] = { "rbd", "-c", u->conf, "create", spec, "--size", mib, "--image-feature",
			 "layering", "--rados-osd-op-timeout", "30", NULL };

	step(u, "making the RBD image", argv, NULL, 60, 0);
	free(spec);
	free(mib);
}

/* the directory, marked as this cluster's (the marker also names its netns for status and down) */
static void make_dir_marked(const struct cl_plan *p)
{
	char *text = xasprintf("# a ./ceph-local cluster: ./ceph-local down removes this directory\n"
			       "netns=%s\naddr=%s\n", p->netns ? p->netns : "", p->addr);
	char *failed = NULL;
	int rc = statedir_make(p->dir, CL_MARKER, text, &failed);

	if (rc)
		die_err(rc, "%s", failed ? failed : p->dir);
	free(text);
}

/* An existing directory: this cluster, running (0), or something to refuse. */
static int existing(const struct cl_plan *p)
{
	int kind = statedir_kind(p->dir, CL_MARKER);
	char *conf;
	struct cl_daemon *d;
	size_t n, alive = 0;

	if (kind < 0)
		die_err(kind, "CEPH_LOCAL_DIR %s", p->dir);
	if (kind == STATEDIR_ABSENT || kind == STATEDIR_EMPTY)
		return 1;
	if (kind != STATEDIR_OURS)
		die("CEPH_LOCAL_DIR %s exists and is not a ceph-local cluster's: not touching it "
		    "(%s, no %s in it; remove it, or set CEPH_LOCAL_DIR)", p->dir,
		    statedir_kind_words(kind), CL_MARKER);
	conf = xasprintf("%s/ceph.conf", p->dir);
	if (cl_daemons_read(p->dir, &d, &n))
		die("%s/%s is damaged: run ./ceph-local down", p->dir, CL_DAEMONS);
	for (size_t i = 0; i < n; i++)
		alive += cl_daemon_is_ours(d[i].pid, d[i].name, conf);
	free(d);
	free(conf);
	if (n && alive == n) {
		printf("ceph-local: the cluster in %s is up already (%zu daemons)\n", p->dir, n);
		return 0;
	}
	die("the cluster in %s is partly down (%zu of %zu daemons running): "
	    "./ceph-local%s%s down first", p->dir, alive, n, p->netns ? " --netns " : "",
	    p->netns ? p->netns : "");
}

int cl_up(const struct cl_plan *p)
{
	static const char *mgr_caps[] = { "mon", "allow profile mgr", "osd", "allow *", "mds",
					  "allow *", NULL };
	static const char *mds_caps[] = { "mon", "allow profile mds", "osd", "allow rw tag cephfs *=*",
					  "mds", "allow", "mgr", "allow profile mds", NULL };
	struct up u = { .p = p, .t0 = mono_ms() };
	struct sigaction sa = { .sa_handler = on_stop_signal };
	char *fsid, *text, *sub;
	int rc;

	if (!existing(p))
		return 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	make_dir_marked(p);
	/* from here on, any exit tears down what is there */
	teardown_plan = p;
	atexit(teardown_at_exit);
	sub = xasprintf("%s/log", p->dir);
	make_dir(sub, 0755);
	free(sub);
	sub = xasprintf("%s/run", p->dir);
	make_dir(sub, 0755);
	free(sub);
	u.conf = xasprintf("%s/ceph.conf", p->dir);
	u.log = xasprintf("%s/log/ceph-local.log", p->dir);
	u.log_fd = open(u.log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (u.log_fd < 0)
		die_errno("%s", u.log);

	fsid = new_uuid();
	text = cl_ceph_conf_text(p, fsid);
	rc = write_file_atomic(u.conf, text, strlen(text), 0644);
	if (rc)
		die_err(rc, "%s", u.conf);
	if (chown(u.conf, p->owner_uid, p->owner_gid) < 0)
		die_errno("chown %s", u.conf);
	free(text);

	printf("ceph-local: monitor on %s:%d%s%s\n", p->addr, CL_MON_PORT,
	       p->netns ? " in netns " : "", p->netns ? p->netns : "");
	keys_and_mon(&u, fsid);
	daemon_key(&u, "mgr", "x", mgr_caps);
	start(&u, "mgr", "x");
	for (unsigned int i = 0; i < p->osds; i++)
		osd(&u);
	printf("ceph-local: mon.a, mgr.x, %u OSD%s (%s) after %.1fs\n", p->osds,
	       p->osds == 1 ? "" : "s", p->store, secs_since(&u));
	daemon_key(&u, "mds", "a", mds_caps);
	start(&u, "mds", "a");
	pools(&u);
	wait_healthy(&u);
	image(&u);
	check_alive(&u);
	printf("ceph-local: HEALTH_OK after %.1fs: CephFS %s, RBD image %s/%s (%lluM)\n"
	       "ceph-local: CEPH_CONF=%s CEPH_KEYRING=%s/keyring (client.admin)\n",
	       secs_since(&u), p->fs_name, p->rbd_pool, p->rbd_image,
	       (unsigned long long)(p->image_size >> 20), u.conf, p->dir);
	teardown_plan = NULL;
	close(u.log_fd);
	free(u.conf);
	free(u.log);
	free(fsid);
	return 0;
}

int cl_down(const struct cl_plan *p, int quiet)
{
	int kind = statedir_kind(p->dir, CL_MARKER), left, rc;
	struct cl_daemon *d;
	size_t n = 0;

	if (kind == STATEDIR_ABSENT) {
		if (!quiet)
			printf("ceph-local: no cluster in %s: nothing to stop\n", p->dir);
		return 0;
	}
	if (kind < 0) {
		warn_err(kind, "CEPH_LOCAL_DIR %s", p->dir);
		return 1;
	}
	if (kind != STATEDIR_OURS) {
		warn("%s is not a ceph-local cluster's directory (%s, no %s in it): not removing it",
		     p->dir, statedir_kind_words(kind), CL_MARKER);
		return 1;
	}
	if (!cl_daemons_read(p->dir, &d, &n))
		free(d);
	left = cl_daemons_stop(p->dir, 3);
	if (left) {
		warn("%d daemon%s would not stop: %s kept", left, left == 1 ? "" : "s", p->dir);
		return 1;
	}
	rc = remove_tree(p->dir, NULL);
	if (rc) {
		warn_err(rc, "cannot remove all of %s", p->dir);
		return 1;
	}
	if (!quiet)
		printf("ceph-local: stopped %zu daemon%s, removed %s\n", n, n == 1 ? "" : "s", p->dir);
	return 0;
}
