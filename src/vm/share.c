// SPDX-License-Identifier: GPL-2.0
/*
 * share.c: host directories shared with the guest over 9p (--share,
 * VIRTFS_SHARE_PATH), mount tags rapido0.., counted in rapido.shares= for
 * the guest init, which mounts them. The guest's files there are plain
 * files of ./vm's user (qopt_fsdev: a mapped 9p security model).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "devices.h"
#include "lookup.h"
#include "protocol.h"
#include "qopt.h"
#include "vm.h"

static void share_resolve(struct vm_settings *s, struct vm_opts *o, const struct conf *c)
{
	struct vm_src src;
	struct conf_value cv;
	const char *v;

	/* options replace the key's list, they do not add to it */
	if (o->shares.n) {
		s->shares = o->shares;
		o->shares = (struct strv)STRV_INIT;
	} else if ((v = vm_setting(c, NULL, NULL, "VIRTFS_SHARE_PATH", &src, &cv))) {
		strv_push(&s->shares, v);
	}
	for (size_t i = 0; i < s->shares.n; i++) {
		struct stat st;

		if (stat(s->shares.v[i], &st) < 0)
			die_errno("share directory %s", s->shares.v[i]);
		if (!S_ISDIR(st.st_mode))
			die("share directory %s is not a directory", s->shares.v[i]);
	}
}

static void share_argv(const struct vm_launch *l, struct strv *argv)
{
	const struct strv *shares = &l->s->shares;

	for (size_t i = 0; i < shares->n; i++) {
		char id[32], *fsdev;

		snprintf(id, sizeof(id), "share%zu", i);
		fsdev = qopt_fsdev(id, shares->v[i]);
		strv_push(argv, "-fsdev");
		strv_push(argv, fsdev);
		free(fsdev);
		strv_push(argv, "-device");
		strv_pushf(argv, "virtio-9p-pci,fsdev=share%zu,mount_tag=" PORT_SHARE_TAG "%zu", i, i);
	}
}

static void share_kparams(const struct vm_launch *l, struct strv *k)
{
	if (l->s->shares.n)
		strv_pushf(k, KP_SHARES "%zu", l->s->shares.n);
}

static void share_free(struct vm_settings *s, struct vm_launch *l)
{
	(void)l;
	if (s)
		strv_free(&s->shares);
}

const struct vm_device vm_dev_share = {
	.name = "share",
	.resolve = share_resolve,
	.argv = share_argv,
	.kparams = share_kparams,
	.free = share_free,
};
