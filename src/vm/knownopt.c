// SPDX-License-Identifier: GPL-2.0
/*
 * knownopt.c: the known-failure and re-run options of ./vm (known.h;
 * their help is src/results/knowncli.c's): read and checked before
 * anything boots, and --rerun-failures passed to the guest as
 * rapido.rerun=N, which the guest init exports as RAPIDO_RERUN_FAILURES
 * for rapido_test and fstests.
 */
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "err.h"
#include "known.h"
#include "lookup.h"
#include "rapido.h"
#include "vm.h"

static void known_resolve(struct vm_settings *s, struct vm_opts *o, const struct conf *c)
{
	struct vm_src src;
	struct conf_value cv;

	struct strv files = { 0 };

	known_opts_init_or_die(&s->known, &o->known);
	if (!o->known.files.n) {
		vm_split(c, "VM_KNOWN_FAILURES", &files);
		for (size_t i = 0; i < files.n; i++)
			known_load_or_die(&s->known, files.v[i]);
		strv_free(&files);
	}
	s->known.rerun = vm_opt_number(c, o, "VM_RERUN_FAILURES", &src);
	/* the host classifies the test records: nothing to classify without them */
	/* VM_KNOWN_FAILURES alone (rapido.conf) is checked, and waits for a --results run */
	if ((o->known.files.n || s->known.write || s->known.strict) &&
	    !vm_opt_setting(c, o, "VM_RESULTS_DIR", &src, &cv))
		die("--known-failures, --write-known-failures and --strict classify the test "
		    "records of --results DIR: give --results (or VM_RESULTS_DIR)");
}

static void known_kparams(const struct vm_launch *l, struct strv *k)
{
	if (l->s->known.rerun)
		strv_pushf(k, "rapido.rerun=%u", l->s->known.rerun);
}

static void known_free(struct vm_settings *s, struct vm_launch *l)
{
	if (!l)
		known_opts_free(&s->known);
}

const struct vm_device vm_dev_known = {
	.name = "known",
	.resolve = known_resolve,
	.kparams = known_kparams,
	.free = known_free,
};
