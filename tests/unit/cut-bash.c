// SPDX-License-Identifier: GPL-2.0
/*
 * cut-bash.c: which bash the guest gets (src/cut/bash.c, CUT_BASH): the
 * host's bash-static when it is a static ELF of bash's version, else the
 * dynamic bash (said when auto passes over a bash-static); static asked
 * for and none to be had, or a bad value, is an error saying why. Then on
 * files: a bash-static named so but no static ELF is refused by its ELF,
 * and the host's own (Debian's bash-static) is found when it is there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cut.h"
#include "err.h"
#include "io.h"
#include "tap.h"

#define V52 "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)"
#define V53 "GNU bash, version 5.3.3(1)-release (x86_64-pc-linux-gnu)"

static char dir[] = "/tmp/rapido-cut-bash-XXXXXX";

static int pick(const char *mode, const char *path, const char *unfit, const char *sv,
		const char *v, int foreign, char **msg)
{
	struct cut_bash_facts f = { .foreign = foreign, .path = (char *)path, .unfit = unfit,
				    .static_version = (char *)sv, .version = (char *)v };

	return cut_bash_pick(mode, &f, msg);
}

static int has(const char *msg, const char *part)
{
	return msg && strstr(msg, part);
}

int main(void)
{
	const char *bs = "/usr/bin/bash-static", *script = "#!/bin/sh\necho '" V52 "'\n";
	char *msg, *path, *fake;
	int rc;

	err_prog = "cut";
	tap_plan(16);

	/* static found, same version */
	rc = pick(NULL, bs, NULL, V52, V52, 0, &msg);
	tap_ok(rc == 1 && !msg, "unset (auto), a static bash-static of bash's version: static (%d)", rc);
	rc = pick("auto", bs, NULL, V52, V52, 0, &msg);
	tap_ok(rc == 1 && !msg, "auto: the same");
	rc = pick("static", bs, NULL, V52, V52, 0, &msg);
	tap_ok(rc == 1 && !msg, "static: the same");
	rc = pick("dynamic", bs, NULL, V52, V52, 0, &msg);
	tap_ok(rc == 0 && !msg, "dynamic: the dynamic bash, whatever the host has");

	/* none found (Fedora, Arch): auto says nothing, static is an error */
	rc = pick("auto", NULL, NULL, NULL, V52, 0, &msg);
	tap_ok(rc == 0 && !msg, "auto, no bash-static: dynamic, nothing said");
	rc = pick("static", NULL, NULL, NULL, V52, 0, &msg);
	tap_ok(rc < 0 && has(msg, "no bash-static in PATH"), "static, no bash-static: an error (%s)", msg);
	free(msg);

	/* the version differs: auto falls back saying so, static refuses */
	rc = pick("auto", bs, NULL, V53, V52, 0, &msg);
	tap_ok(rc == 0 && has(msg, "5.3.3") && has(msg, "5.2.15"),
	       "auto, another version: dynamic, both versions said (%s)", msg);
	free(msg);
	rc = pick("static", bs, NULL, V53, V52, 0, &msg);
	tap_ok(rc < 0 && has(msg, bs), "static, another version: an error naming it (%s)", msg);
	free(msg);
	rc = pick("auto", bs, NULL, NULL, V52, 0, &msg);
	tap_ok(rc == 0 && has(msg, "(nothing)"), "auto, a bash-static that prints no version: dynamic (%s)",
	       msg);
	free(msg);

	/* a bash-static that is no static ELF: by its ELF, never by its name */
	rc = pick("auto", bs, "not a static program", V52, V52, 0, &msg);
	tap_ok(rc == 0 && has(msg, "not a static program"), "auto, a dynamic bash-static: dynamic (%s)", msg);
	free(msg);

	/* a foreign ARCH: its sysroot's bash */
	rc = pick("auto", NULL, NULL, NULL, NULL, 1, &msg);
	tap_ok(rc == 0 && !msg, "auto, a foreign ARCH: dynamic, nothing said");
	rc = pick("static", NULL, NULL, NULL, NULL, 1, &msg);
	tap_ok(rc < 0 && has(msg, "foreign ARCH"), "static, a foreign ARCH: an error (%s)", msg);
	free(msg);

	/* the key's value */
	rc = pick("yes", bs, NULL, V52, V52, 0, &msg);
	tap_ok(rc == -EINVAL && has(msg, "auto, static or dynamic expected"), "a bad value: %s", msg);
	free(msg);

	/* on files: the test's directory first in PATH (find_in_path adds /usr/bin, /bin) */
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("PATH", dir, 1);
	fake = xasprintf("%s/bash-static", dir);
	rc = write_file_atomic(fake, script, strlen(script), 0755);
	if (rc)
		die_err(rc, "%s", fake);
	rc = cut_bash_resolve("auto", "/usr/bin/bash", 0, &path, &msg);
	tap_ok(rc == 0 && !path && has(msg, fake),
	       "a bash-static named so, a script: not taken, said (%s)", msg);
	free(msg);
	unlink(fake);
	rmdir(dir);
	free(fake);

	/* the host's own, when it has Debian's bash-static of bash's version */
	setenv("PATH", "/usr/bin:/bin", 1);
	rc = cut_bash_resolve("auto", "/usr/bin/bash", 0, &path, &msg);
	if (access("/usr/bin/bash-static", X_OK) || rc != 1) {
		tap_skip("no bash-static of bash's version on this host", "the host's bash-static");
		tap_skip("no bash-static of bash's version on this host", "  and CUT_BASH=dynamic");
		free(msg);
		free(path);
	} else {
		tap_ok(path && !msg, "the host's bash-static: %s", path);
		free(path);
		rc = cut_bash_resolve("dynamic", "/usr/bin/bash", 0, &path, &msg);
		tap_ok(rc == 0 && !path && !msg, "  and CUT_BASH=dynamic passes it over");
	}
	return tap_done();
}
