// SPDX-License-Identifier: GPL-2.0
/*
 * resctx.c: ./vm's side of the door into src/results (resctx.h): the
 * results context of a run, from its settings, its VM number and its
 * accelerator. The results code gets this and never the launch struct.
 */
#include <string.h>

#include "resctx.h"
#include "vm.h"

void vm_results_ctx(struct results_ctx *c, const struct vm_settings *s, unsigned int vm,
		    enum vm_accel accel)
{
	memset(c, 0, sizeof(*c));
	c->dir = s->results_dir;
	if (s->results_dir)
		vm_src_str(&s->results_src, c->dir_where, sizeof(c->dir_where));
	c->known = &s->known;
	c->splat_mask = s->splat_mask;
	c->splat_allow = s->splat_allow;
	c->shard_i = s->shard_i;
	c->shard_n = s->shard_n;
	c->serial_only = s->serial == SERIAL_ONLY;
	c->jobs = s->jobs;
	c->vm = vm;
	c->profile = s->im.profile;
	c->release = s->im.release;
	c->kernel = s->im.kernel;
	c->kernel_src = s->kernel_src;
	c->image = s->image;
	c->qemu = s->qemu;
	c->accel = accel == ACCEL_KVM ? "kvm" : accel == ACCEL_TCG ? "tcg" : "auto";
}
