// SPDX-License-Identifier: GPL-2.0
/*
 * lib-elf.c: the dynamic needs of real programs: bash (dynamic), a rapido
 * helper (static), a program built here with a run path, and files that
 * are not ELF or are cut short.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elfdyn.h"
#include "err.h"
#include "io.h"
#include "run.h"
#include "tap.h"

static int deps_of(const char *path, struct elf_deps *d)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = elf_read_deps(fd, d);
	close(fd);
	return rc;
}

int main(void)
{
	char dir[] = "/tmp/rapido-elf-XXXXXX";
	struct elf_deps d;
	char *bash = find_in_path("bash"), *cc = find_in_path("cc");
	char *src, *out, *text, *cut;
	static const char prog[] = "#include <math.h>\n"
		"int main(int c, char **v) { return (int)sqrt((double)c + v[0][0]); }\n";
	size_t len;
	int rc;

	tap_plan(10);
	if (!mkdtemp(dir))
		return 1;

	rc = deps_of(bash, &d);
	TAP_EQ_INT(rc, 0, "%s read", bash);
	tap_ok(d.interp && strstr(d.interp, "ld-linux"), "bash's interpreter is the loader (%s)",
	       d.interp ? d.interp : "none");
	tap_ok(strv_contains(&d.needed, "libc.so.6"), "bash needs libc.so.6");
	elf_deps_free(&d);

	rc = deps_of("build/guest/rapido-init", &d);
	tap_ok(rc == 0 && !d.interp && d.needed.n == 0, "the static init needs nothing");
	elf_deps_free(&d);

	TAP_EQ_INT(deps_of("tests/unit/lib-elf.c", &d), -ENOEXEC, "a C file is not ELF");

	/* bash's first 200 bytes: the header points past the end of the file */
	cut = xasprintf("%s/short", dir);
	rc = read_file(bash, &text, &len);
	if (!rc)
		rc = write_file_atomic(cut, text, 200, 0755);
	free(text);
	TAP_EQ_INT(rc ? rc : deps_of(cut, &d), -ENOEXEC, "a cut-short ELF file is refused");

	src = xasprintf("%s/p.c", dir);
	out = xasprintf("%s/p", dir);
	if (!cc || write_file_atomic(src, prog, strlen(prog), 0644)) {
		for (int i = 0; i < 4; i++)
			tap_skip("no C compiler", "program with a run path");
	} else {
		char *argv[] = { cc, "-o", out, src, "-lm", "-Wl,-rpath,$ORIGIN/../lib:/opt/x",
				 "-Wl,--enable-new-dtags", NULL };
		int st = run_wait(argv, -1);

		TAP_EQ_INT(st, 0, "cc built the program");
		rc = deps_of(out, &d);
		TAP_EQ_INT(rc, 0, "its needs read");
		tap_ok(strv_contains(&d.needed, "libm.so.6") && strv_contains(&d.needed, "libc.so.6"),
		       "it needs libm and libc");
		TAP_EQ_STR(d.runpath, "$ORIGIN/../lib:/opt/x", "DT_RUNPATH read as written");
		elf_deps_free(&d);
	}
	unlink(src);
	unlink(out);
	unlink(cut);
	rmdir(dir);
	free(src);
	free(out);
	free(cut);
	free(bash);
	free(cc);
	return tap_done();
}
