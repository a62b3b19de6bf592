// SPDX-License-Identifier: GPL-2.0
/* lib-profile.c: profile headers: lists, resources, and errors naming file:line. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"
#include "profile.h"
#include "tap.h"

static char dir[] = "/tmp/rapido-prof-XXXXXX";

static int load(const char *text, struct profile *p, char **err)
{
	char *path;
	int rc;

	if (asprintf(&path, "%s/p.sh", dir) < 0)
		abort();
	write_file_atomic(path, text, strlen(text), 0644);
	rc = profile_load(p, "p", path, err);
	free(path);
	return rc;
}

static void bad(const char *text, const char *want)
{
	struct profile p;
	char *err = NULL;
	int rc = load(text, &p, &err);

	tap_ok(rc != 0 && err && strstr(err, want), "rejected with \"%s\": %s", want,
	       err ? err : "(none)");
	free(err);
}

int main(void)
{
	struct profile p;
	char *err = NULL;
	int rc;

	tap_plan(20);
	if (!mkdtemp(dir))
		return 1;
	rc = load("#!/bin/bash\n"
		  "#@ description: test profile\n"
		  "#@ bins: uname  cat\n"
		  "#@ bins: ls\n"
		  "#@ modules: zram dm-delay\n"
		  "#@ helpers: zram\n"
		  "#@ conf: FSTESTS_FS\n"
		  "#@ kconfig: CONFIG_ZRAM CONFIG_BTRFS_FS=y\n"
		  "#@ cpus: 2\n"
		  "#@ memory: 1G\n"
		  "#@ bins-if FSTESTS_SRC: xfs_io fio\n"
		  "#@ bins-optional-if FSTESTS_SRC: quota\n"
		  "echo '#@ not a header: in code'\n", &p, &err);
	tap_ok(rc == 0, "loads (%s)", err ? err : "ok");
	TAP_EQ_STR(p.description, "test profile", "description");
	TAP_EQ_INT(p.bins.n, 3, "bins accumulate over repeated keys");
	TAP_EQ_STR(p.bins.v[2], "ls", "  in order");
	TAP_EQ_STR(p.modules.v[1], "dm-delay", "modules");
	TAP_EQ_INT(p.kconfig.n, 2, "kconfig symbols");
	TAP_EQ_INT(p.cpus, 2, "cpus");
	TAP_EQ_INT(p.memory, 1ULL << 30, "memory");
	TAP_EQ_STR(p.bins_if.n == 2 ? p.bins_if.v[1] : NULL, "FSTESTS_SRC=fio", "bins-if KEY");
	TAP_EQ_STR(p.bins_opt_if.n == 1 ? p.bins_opt_if.v[0] : NULL, "FSTESTS_SRC=quota",
		   "bins-optional-if KEY");
	profile_free(&p);

	bad("#@ description: x\n#@ bogus: 1\n", "p.sh:2: unknown profile key \"bogus\"");
	bad("#@ description: x\n#@ cpus: lots\n", "p.sh:2: cpus: expected a number");
	bad("#@ description: x\n\n#@ memory: 12\n", "p.sh:3: memory: expected a size");
	bad("#@ bins: x\n", "no '#@ description:' line");
	bad("#@ description: x\n#@ bins-if a-b: x\n", "p.sh:2: bins-if a-b: expected a rapido.conf key");
	bad("#@ description x\n", "p.sh:1: expected '#@ key: value'");

	rc = load("#@ description: x\n#@ secret: PASS\n#@ conf: USER PASS\n"
		  "#@ conf-optional: KEY\n#@ secret: KEY\n", &p, &err);
	tap_ok(rc == 0 && p.secret.n == 2 && !strcmp(p.secret.v[0], "PASS") &&
	       !strcmp(p.secret.v[1], "KEY"), "secret: conf and conf-optional keys, before or after them (%s)",
	       err ? err : "ok");
	profile_free(&p);
	bad("#@ description: x\n#@ conf: PASS\n#@ secret: PASS\n#@ secret: PSAS\n",
	    "p.sh:4: secret: PSAS is not a conf or conf-optional key of this profile");
	bad("#@ description: x\n#@ secret: a-b\n", "p.sh:2: secret: expected rapido.conf key names, got \"a-b\"");
	tap_ok(profile_name_valid("fstests_local") && !profile_name_valid("../x") &&
	       !profile_name_valid(""), "profile names are plain words");
	return tap_done();
}
