// SPDX-License-Identifier: GPL-2.0
/*
 * rbd.c: ./vm --rbd POOL/IMAGE (QEMU_RBD_DISKS): RBD images as virtio
 * disks through qemu's own rbd block driver (Debian's qemu-block-extra),
 * so the guest needs no Ceph at all. qemu reads CEPH_CONF and
 * CEPH_KEYRING itself; both are checked here first, so a missing cluster
 * or key is an error before qemu starts, and qemu gives up on an
 * unreachable cluster after CEPH_TIMEOUT seconds instead of librados'
 * five minutes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ceph.h"
#include "cephpaths.h"
#include "confget.h"
#include "devices.h"
#include "err.h"
#include "io.h"
#include "qopt.h"
#include "vm.h"

static void check_spec(const char *from, const char *spec)
{
	const char *slash = strchr(spec, '/');
	char *pool;
	int ok;

	if (!slash)
		die("%s: expected POOL/IMAGE such as rbd/rapido, got '%s'", from, spec);
	pool = xstrndup(spec, (size_t)(slash - spec));
	ok = ceph_name_valid(pool) && ceph_name_valid(slash + 1);
	free(pool);
	if (!ok)
		die("%s: expected POOL/IMAGE of letters, digits, '_', '.' and '-', got '%s'", from, spec);
}

/* CEPH_CONF must name monitors and CEPH_KEYRING hold the user's key: say which is wrong. */
static void check_client(const struct vm_rbd *r)
{
	struct ceph_mons mons;
	char *text, *err, *key, *entity;
	int rc;

	rc = read_file(r->conf, &text, NULL);
	if (rc)
		die("--rbd: CEPH_CONF %s: %s (is the cluster up? sudo ./ceph-local up, or set CEPH_CONF)",
		    r->conf, err_str(rc));
	rc = ceph_conf_mons(r->conf, text, &mons, &err);
	free(text);
	if (rc)
		die("--rbd: %s", err);
	ceph_mons_free(&mons);
	rc = read_file(r->keyring, &text, NULL);
	if (rc)
		die("--rbd: CEPH_KEYRING %s: %s", r->keyring, err_str(rc));
	entity = xasprintf("client.%s", r->user);
	rc = ceph_keyring_key(r->keyring, text, entity, &key, &err);
	free(text);
	free(entity);
	if (rc)
		die("--rbd: %s (CEPH_USER is %s)", err, r->user);
	free(key);
}

void vm_rbd_resolve_or_die(struct vm_settings *s, struct vm_opts *o, const struct conf *c)
{
	struct vm_rbd *r = &s->rbd;
	const char *v, *at, *from = "--rbd";
	char *err;

	memset(r, 0, sizeof(*r));
	if (o->rbd.n) {
		r->disks = o->rbd;
		o->rbd = (struct strv)STRV_INIT;
	} else {
		from = "QEMU_RBD_DISKS";
		if (conf_words(c, "QEMU_RBD_DISKS", &r->disks, NULL, &err) < 0)
			die("%s", err);
	}
	if (!r->disks.n)
		return;
	for (size_t i = 0; i < r->disks.n; i++)
		check_spec(from, r->disks.v[i]);
	r->conf = ceph_conf_path(c);
	r->keyring = ceph_keyring_path(c);
	v = conf_str(c, "CEPH_USER", &at);
	r->user = xstrdup(v);
	if (!strncmp(r->user, "client.", 7))
		memmove(r->user, r->user + 7, strlen(r->user + 7) + 1);
	if (!*r->user || strpbrk(r->user, ":,@\\ \t\n"))
		die("%s: CEPH_USER: '%s' is not a client name such as admin", at, v);
	if (conf_uint(c, "CEPH_TIMEOUT", &r->timeout, NULL, &err) < 0)
		die("%s (seconds)", err);
	check_client(r);
}

void vm_rbd_free(struct vm_rbd *r)
{
	strv_free(&r->disks);
	free(r->conf);
	free(r->keyring);
	free(r->user);
	memset(r, 0, sizeof(*r));
}

/* A value inside qemu's rbd: file name, where ':' separates options and '\' escapes. */
static void rbd_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == ':' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void vm_rbd_argv(const struct vm_settings *s, struct strv *argv)
{
	const struct vm_rbd *r = &s->rbd;

	for (size_t i = 0; i < r->disks.n; i++) {
		char *file, *q;
		size_t len;
		FILE *f = open_memstream(&file, &len);

		if (!f)
			die_errno("open_memstream");
		/*
		 * The rbd: file name passes any Ceph option on to librados:
		 * the keyring, and how long to try to reach the monitors.
		 */
		fprintf(f, "rbd:%s:id=", r->disks.v[i]);
		rbd_escaped(f, r->user);
		fprintf(f, ":conf=");
		rbd_escaped(f, r->conf);
		fprintf(f, ":keyring=");
		rbd_escaped(f, r->keyring);
		fprintf(f, ":client_mount_timeout=%u:rados_mon_op_timeout=%u", r->timeout, r->timeout);
		if (fclose(f))
			die_errno("open_memstream");
		q = qopt(file);
		strv_push(argv, "-drive");
		strv_pushf(argv, "file=%s,format=raw,if=none,id=rbd%zu,cache=writeback", q, i);
		strv_push(argv, "-device");
		/* the guest finds the disk by this serial (autorun/qemu_rbd.sh) */
		strv_pushf(argv, "virtio-blk-pci,drive=rbd%zu,serial=rbd%zu", i, i);
		free(q);
		free(file);
	}
}

static void rbd_resolve(struct vm_settings *s, struct vm_opts *o, const struct conf *c)
{
	vm_rbd_resolve_or_die(s, o, c);
}

static void rbd_argv(const struct vm_launch *l, struct strv *argv)
{
	vm_rbd_argv(l->s, argv);
}

static void rbd_free(struct vm_settings *s, struct vm_launch *l)
{
	(void)l;
	if (s)
		vm_rbd_free(&s->rbd);
}

const struct vm_device vm_dev_rbd = {
	.name = "rbd",
	.resolve = rbd_resolve,
	.argv = rbd_argv,
	.free = rbd_free,
};
