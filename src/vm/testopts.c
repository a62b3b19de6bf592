// SPDX-License-Identifier: GPL-2.0
/*
 * testopts.c: the per-test options, registered as a device for their
 * settings and kernel parameter: --test-timeout and --test-timeout-dump
 * (watchdog.c acts on them), --splats-allow (splattest.c), and KERNEL_SRC
 * for run.json (provenance.c). Debian's kernel.sysrq (438) refuses the
 * dumps (t, w) from the keyboard: sysrq_always_enabled lets the
 * watchdog's key presses through.
 */
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "err.h"
#include "lookup.h"
#include "splattest.h"
#include "vm.h"

static void testopts_resolve(struct vm_settings *s, struct vm_opts *o, const struct conf *c)
{
	struct vm_src src;
	struct conf_value cv;
	const char *v;
	char where[512];

	/*
	 * --test-timeout, else VM_TEST_TIMEOUT (the environment, then
	 * rapido.conf), else the profile's #@ test-timeout, else none: the
	 * order of --cpus and --memory (settings.c)
	 */
	s->test_timeout = vm_opt_number(c, o, "VM_TEST_TIMEOUT", &s->test_timeout_src);
	if (s->test_timeout_src.kind == SRC_DEFAULT && s->im.test_timeout) {
		s->test_timeout = s->im.test_timeout;
		s->test_timeout_src.kind = SRC_IMAGE;
		s->test_timeout_src.name = s->im.profile;
	}
	vm_opt_setting(c, o, "VM_TEST_TIMEOUT_DUMP", &src, &cv);
	s->test_timeout_dump = cv.word && !strcmp(cv.word, "yes");
	if (s->test_timeout_dump && !s->test_timeout)
		die("%s: a vmcore of a stuck test needs --test-timeout SECS (VM_TEST_TIMEOUT)",
		    vm_src_str(&src, where, sizeof(where)));
	/* run.json's provenance (provenance.c) */
	s->kernel_src = vm_setting(c, NULL, NULL, "KERNEL_SRC", &src, &cv);
	v = vm_opt_setting(c, o, "VM_SPLATS_ALLOW", &src, &cv);
	if (v) {
		char *err;

		s->splat_allow = xcalloc(1, sizeof(*s->splat_allow));
		if (splat_allow_load(s->splat_allow, v, &err))
			die("%s: %s", vm_src_str(&src, where, sizeof(where)), err);
	}
}

static void testopts_kparams(const struct vm_launch *l, struct strv *kparams)
{
	if (l->s->test_timeout)
		strv_push(kparams, "sysrq_always_enabled");
}

static void testopts_free(struct vm_settings *s, struct vm_launch *l)
{
	(void)l;
	if (s && s->splat_allow) {
		splat_allow_free(s->splat_allow);
		free(s->splat_allow);
		s->splat_allow = NULL;
	}
}

const struct vm_device vm_dev_testopts = {
	.name = "testopts",
	.resolve = testopts_resolve,
	.kparams = testopts_kparams,
	.free = testopts_free,
};
