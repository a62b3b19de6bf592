// SPDX-License-Identifier: GPL-2.0
/* lib-lddscript.c: RTLDLIST read from an ldd script, and the scripts refused as not plain. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lddscript.h"
#include "tap.h"

static void rtlds(const char *what, const char *text, const char *const *want, size_t n)
{
	struct strv sv = STRV_INIT;
	int rc = ldd_script_rtlds(text, strlen(text), &sv), same = rc == 0 && sv.n == n;

	for (size_t i = 0; same && i < n; i++)
		same = !strcmp(sv.v[i], want[i]);
	if (!tap_ok(same, "%s: %zu loaders", what, n)) {
		printf("#   rc %d, got %zu:\n", rc, sv.n);
		for (size_t i = 0; i < sv.n; i++)
			printf("#   [%s]\n", sv.v[i]);
	}
	strv_free(&sv);
}

static void refused(const char *what, const char *text, int want)
{
	struct strv sv = STRV_INIT;
	int rc = ldd_script_rtlds(text, strlen(text), &sv);

	tap_ok(rc == want && sv.n == 0, "%s: refused with %d (got %d, %zu loaders)", what, want, rc,
	       sv.n);
	strv_free(&sv);
}

#define W(...) (const char *const[]){ __VA_ARGS__ }, sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *)

/* glibc 2.36's ldd as Debian's amd64 libc-bin ships it, cut to what matters */
static const char debian[] =
	"#! /bin/bash\n"
	"# This is the `ldd' command, which lists what shared libraries are\n"
	"TEXTDOMAIN=libc\n"
	"RTLDLIST=\"/lib/ld-linux.so.2 /lib64/ld-linux-x86-64.so.2 /libx32/ld-linux-x32.so.2\"\n"
	"warn=\n"
	"    for rtld in ${RTLDLIST}; do\n"
	"      if test -x $rtld; then\n";

int main(void)
{
	tap_plan(14);
	rtlds("Debian amd64", debian,
	      W("/lib/ld-linux.so.2", "/lib64/ld-linux-x86-64.so.2", "/libx32/ld-linux-x32.so.2"));
	rtlds("unquoted, one loader", "RTLDLIST=/lib/ld-linux-aarch64.so.1\nfor r in $RTLDLIST; do :; done\n",
	      W("/lib/ld-linux-aarch64.so.1"));
	rtlds("a comment after the value", "RTLDLIST=\"/a/ld.so  /b/ld.so\"  # two\n",
	      W("/a/ld.so", "/b/ld.so"));
	rtlds("no newline at the end", "x=1\nRTLDLIST=\"/l/ld.so\"", W("/l/ld.so"));
	refused("no RTLDLIST", "#!/bin/bash\nexit 0\n", -ENOENT);
	refused("assigned twice", "RTLDLIST=\"/a/ld.so\"\nRTLDLIST=\"/b/ld.so\"\n", -EINVAL);
	refused("amended", "RTLDLIST=\"/a/ld.so\"\nRTLDLIST+=\" /b/ld.so\"\n", -EINVAL);
	refused("assigned inside a block", "if true; then\n  RTLDLIST=/a/ld.so\nfi\n", -EINVAL);
	refused("computed", "RTLDLIST=\"$(ls /lib*/ld-*)\"\n", -EINVAL);
	refused("a relative loader", "RTLDLIST=\"ld.so /lib/ld.so\"\n", -EINVAL);
	refused("a glob", "RTLDLIST=\"/lib/ld-*.so\"\n", -EINVAL);
	refused("an unterminated quote", "RTLDLIST=\"/lib/ld.so\n", -EINVAL);
	refused("an empty list", "RTLDLIST=\"\"\n", -EINVAL);
	refused("a command after the value", "RTLDLIST=\"/lib/ld.so\"; rm -f x\n", -EINVAL);
	return tap_done();
}
