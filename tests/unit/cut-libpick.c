// SPDX-License-Identifier: GPL-2.0
/*
 * cut-libpick.c: which guest libraries a batch autorun sources
 * (libpick.c): a library is picked when the autorun, the profile, an extra
 * or a picked library names one of its functions or top-level variables
 * as a word outside a whole-line comment; no other.
 */
#include <stdio.h>
#include <string.h>

#include "cut.h"
#include "tap.h"

static const char *const libs[] = {
	/* 0: rapido.sh, calls into results */
	"_rapido_autorun_begin() {\n\ttrap x EXIT\n\t_rapido_res_init\n}\nRAPIDO_FAIL_HOOKS=()\n",
	/* 1: results.sh */
	"_rapido_res_init() { :; }\ndeclare -A _rapido_res_t0=()\n",
	/* 2: fstests.sh, uses 3 */
	"fstests_run() {\n\tfstests_cfg_load\n}\n",
	/* 3: fstests-settings.sh: a variable the profile reads */
	"declare -gA _fstests_cfg=()\nfstests_cfg_load () { :; }\nFSTESTS_DEFAULT_FS=xfs\n",
	/* 4: zram.sh: named only inside a comment-like word, and by a prefix */
	"zram_setup() { :; }\n",
	/* 5: a word that is only a part of another word names nothing */
	"mpath() { :; }\n",
};
#define NLIBS (sizeof(libs) / sizeof(libs[0]))

static void pick(const char *const *texts, size_t n, char *out)
{
	int picked[NLIBS];

	cut_lib_pick(texts, n, libs, NLIBS, picked);
	for (size_t i = 0; i < NLIBS; i++)
		out[i] = picked[i] ? '1' : '0';
	out[NLIBS] = '\0';
}

int main(void)
{
	const char *simple[] = { "_rapido_autorun_begin _rapido_part", "echo \"$(uname -r)\"\n" };
	const char *fstests[] = { "_rapido_autorun_begin", "fstests_run \"$@\"\n" };
	const char *var[] = { "echo ${FSTESTS_DEFAULT_FS}\n" };
	const char *near[] = { "mpath_local zram_setup_x zram\n" };
	const char *hook[] = { "rapido_on_fail zram_setup\n" };
	const char *decl[] = { "echo \"${_fstests_cfg[pool]}\"\n" };
	/* whole-line comments call nothing; a '#' later in a line ends no word before it */
	const char *comment[] = { "#!/bin/bash\n# see fstests_run\n\t  # and zram_setup\n",
				  "echo a # fstests_run\necho ${#x} zram_setup\n" };
	char got[NLIBS + 1];

	tap_plan(8);
	pick(simple, 2, got);
	tap_ok(!strcmp(got, "110000"), "the autorun's own calls pick rapido.sh and what it calls: %s", got);
	pick(fstests, 2, got);
	tap_ok(!strcmp(got, "111100"), "a profile's call picks its library and, through it, another (NAME () too): %s", got);
	pick(var, 1, got);
	tap_ok(!strcmp(got, "000100"), "a top-level variable the profile reads picks its library: %s", got);
	pick(near, 1, got);
	tap_ok(!strcmp(got, "000000"), "words that only contain or start with a name pick nothing: %s", got);
	pick(hook, 1, got);
	tap_ok(!strcmp(got, "000010"), "a function passed by name (a hook) picks its library: %s", got);
	pick(decl, 1, got);
	tap_ok(!strcmp(got, "000100"), "an array made by declare -gA picks its library: %s", got);
	pick(comment, 1, got);
	tap_ok(!strcmp(got, "000000"), "names in whole-line comments pick nothing: %s", got);
	pick(comment + 1, 1, got);
	tap_ok(!strcmp(got, "001110"), "a comment after code, ${#x}: the words still count: %s", got);
	return tap_done();
}
