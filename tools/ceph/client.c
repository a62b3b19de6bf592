// SPDX-License-Identifier: GPL-2.0
/*
 * client.c: the pieces of rapido-ceph that need no kernel: the client's
 * monitors and key from ceph.conf and the keyring, the strings mount(2)
 * and rbd's sysfs files take, the rbd device lookup, and what a failure
 * means, read from the kernel's own log lines.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ceph.h"
#include "err.h"
#include "io.h"
#include "num.h"
#include "rceph.h"

int rceph_client_load(struct rceph_client *cl, const char *conf, const char *keyring,
		      const char *name, unsigned int timeout, char **err)
{
	struct ceph_mons mons;
	char *text, *entity;
	int rc;

	memset(cl, 0, sizeof(*cl));
	*err = NULL;
	if (!strncmp(name, "client.", 7))
		name += 7;
	if (!*name || strpbrk(name, ", \t\n=")) {
		*err = xasprintf("'%s' is not a client name (such as admin)", name);
		return -EINVAL;
	}
	rc = read_file(conf, &text, NULL);
	if (rc) {
		*err = xasprintf("%s: %s", conf, err_str(rc));
		return rc;
	}
	rc = ceph_conf_mons(conf, text, &mons, err);
	free(text);
	if (rc)
		return rc;
	cl->mons = ceph_mons_kernel(&mons, &cl->msgr2);
	ceph_mons_free(&mons);

	rc = read_file(keyring, &text, NULL);
	if (rc) {
		*err = xasprintf("%s: %s", keyring, err_str(rc));
		rceph_client_free(cl);
		return rc;
	}
	entity = xasprintf("client.%s", name);
	rc = ceph_keyring_key(keyring, text, entity, &cl->key, err);
	free(entity);
	free(text);
	if (rc) {
		rceph_client_free(cl);
		return rc;
	}
	cl->conf = xstrdup(conf);
	cl->keyring = xstrdup(keyring);
	cl->name = xstrdup(name);
	cl->timeout = timeout;
	return 0;
}

void rceph_client_free(struct rceph_client *cl)
{
	free(cl->conf);
	free(cl->keyring);
	free(cl->mons);
	free(cl->name);
	free(cl->key);
	memset(cl, 0, sizeof(*cl));
}

char *rceph_mount_source(const struct rceph_client *cl, const char *path)
{
	while (*path == '/')
		path++;
	return xasprintf("%s:/%s", cl->mons, path);
}

/* name=,secret=,mount_timeout= and ms_mode: what a mount and a map share */
static char *client_options(const struct rceph_client *cl)
{
	return xasprintf("name=%s,secret=%s,mount_timeout=%u%s", cl->name, cl->key, cl->timeout,
			 cl->msgr2 ? ",ms_mode=prefer-crc" : "");
}

char *rceph_mount_options(const struct rceph_client *cl, const char *fs, const char *extra)
{
	char *base = client_options(cl);
	char *out = xasprintf("%s%s%s%s%s", base, fs && *fs ? ",mds_namespace=" : "",
			      fs && *fs ? fs : "", extra && *extra ? "," : "",
			      extra && *extra ? extra : "");

	free(base);
	return out;
}

char *rceph_rbd_add_line(const struct rceph_client *cl, const char *pool, const char *image)
{
	char *base = client_options(cl);
	char *out = xasprintf("%s %s %s %s", cl->mons, base, pool, image);

	free(base);
	return out;
}

/* DIR/NAME's first line, without its newline; NULL if unreadable */
static char *read_attr(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *text;

	if (read_file(path, &text, NULL)) {
		free(path);
		return NULL;
	}
	free(path);
	text[strcspn(text, "\n")] = '\0';
	return text;
}

int rceph_rbd_find(const char *sysfs, const char *pool, const char *image, unsigned int *id)
{
	char *path = xasprintf("%s/bus/rbd/devices", sysfs);
	DIR *d = opendir(path);
	struct dirent *de;
	int found = 0;

	if (!d) {
		free(path);
		return -ENOENT;
	}
	while ((de = readdir(d))) {
		int n = rceph_rbd_parse_dev(de->d_name);
		char *dir, *p, *i;

		if (n < 0)
			continue;
		dir = xasprintf("%s/%s", path, de->d_name);
		p = read_attr(dir, "pool");
		i = read_attr(dir, "name");
		if (p && i && !strcmp(p, pool) && !strcmp(i, image) &&
		    (!found || (unsigned int)n > *id)) {
			*id = (unsigned int)n;
			found = 1;
		}
		free(p);
		free(i);
		free(dir);
	}
	closedir(d);
	free(path);
	return found ? 0 : -ENOENT;
}

int rceph_rbd_parse_dev(const char *s)
{
	unsigned int n;

	if (!strncmp(s, "/dev/", 5))
		s += 5;
	if (!strncmp(s, "rbd", 3))
		s += 3;
	return num_parse_uint(s, 0, 1000000, &n, NULL) ? -1 : (int)n;
}

int rceph_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

void rceph_kmsg_collect(int fd, struct strv *lines)
{
	char rec[8192];
	ssize_t n;

	if (fd < 0)
		return;
	/* one record per read; EAGAIN: no more; EPIPE: overwritten, go on */
	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && (errno == EPIPE || errno == EINTR))) {
		char *msg;

		if (n <= 0)
			continue;
		rec[n] = '\0';
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		msg[strcspn(msg, "\n")] = '\0';
		if (!strncmp(msg, "libceph: ", 9) || !strncmp(msg, "ceph: ", 6) ||
		    !strncmp(msg, "rbd: ", 5))
			strv_push(lines, msg);
	}
}

static int klines_have(const struct strv *klines, const char *s)
{
	for (size_t i = 0; i < klines->n; i++)
		if (strstr(klines->v[i], s))
			return 1;
	return 0;
}

char *rceph_advice(const struct rceph_client *cl, const char *what, int err,
		   const struct strv *klines)
{
	if (klines_have(klines, "authentication failed") || err == EACCES || err == EPERM)
		return xasprintf("the cluster refused client.%s's key from %s (CEPH_KEYRING on "
				 "the host: a wrong key, or another cluster's; or a wrong CEPH_USER)",
				 cl->name, cl->keyring);
	if (klines_have(klines, "does not exist"))
		return xasprintf("%s: no such %s on the cluster (see the kernel's line above; "
				 "check CEPH_RBD_POOL and CEPH_RBD_IMAGE)", what,
				 klines_have(klines, "pool ") ? "pool" : "image");
	if (!klines_have(klines, "session established") &&
	    (err == ETIMEDOUT || err == EHOSTUNREACH || err == EIO || err == ECONNREFUSED))
		return xasprintf("no monitor answered at %s within %us (is the cluster up? "
				 "./ceph-local status; is 'mon host' of %s, CEPH_CONF on the host, "
				 "its address?)", cl->mons, cl->timeout, cl->conf);
	if (klines_have(klines, "No mds server is up"))
		return xasprintf("the monitors answered, but no MDS serves the file system "
				 "(a wrong CEPH_FS_NAME, or no MDS running)");
	if (err == ENOENT)
		return xasprintf("no such %s (the path must exist in the file system)",
				 !strcmp(what, "map") ? "pool or image" : "directory");
	if (err == ENODEV)
		return xasprintf("the kernel has no %s client (module %s not loaded?)",
				 !strcmp(what, "map") ? "rbd" : "ceph", !strcmp(what, "map") ? "rbd" : "ceph");
	return xasprintf("see the kernel's lines above");
}
