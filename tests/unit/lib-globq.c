// SPDX-License-Identifier: GPL-2.0
/* lib-globq.c: src/base/globq.c, a literal path as glob(3) text: a pattern
 * joined to a directory with '[' or '*' in its name matches under it only. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "globq.h"
#include "tap.h"

int main(void)
{
	char tmpl[] = "/tmp/lib-globq.XXXXXX", *q, *pat, path[256];
	const char *dirs[] = { "d[12]", "d1", "d2", "d*" };
	glob_t g;

	q = glob_quote("a*b?c[d]\\e");
	TAP_EQ_STR(q, "a\\*b\\?c\\[d]\\\\e", "each of * ? [ \\ escaped, nothing else");
	free(q);
	q = glob_quote("");
	TAP_EQ_STR(q, "", "the empty string");
	free(q);

	if (!mkdtemp(tmpl)) {
		tap_skip("mkdtemp failed", "glob on disk");
		return tap_done();
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tmpl, dirs[i]);
		mkdir(path, 0700);
		snprintf(path, sizeof(path), "%s/%s/x1", tmpl, dirs[i]);
		mkdir(path, 0700);
	}
	snprintf(path, sizeof(path), "%s/d[12]", tmpl);
	q = glob_quote(path);
	if (asprintf(&pat, "%s/x[0-9]", q) < 0)
		return 1;
	tap_ok(!glob(pat, 0, NULL, &g) && g.gl_pathc == 1 &&
	       !strcmp(g.gl_pathv[0] + strlen(tmpl), "/d[12]/x1"),
	       "a quoted d[12] matches itself, not d1 or d2 beside it");
	globfree(&g);
	free(q);
	free(pat);
	snprintf(path, sizeof(path), "%s/d*", tmpl);
	q = glob_quote(path);
	if (asprintf(&pat, "%s/x*", q) < 0)
		return 1;
	tap_ok(!glob(pat, 0, NULL, &g) && g.gl_pathc == 1 &&
	       !strcmp(g.gl_pathv[0] + strlen(tmpl), "/d*/x1"), "a quoted d* matches itself only");
	globfree(&g);
	free(q);
	free(pat);
	tap_rm_tree(tmpl);
	return tap_done();
}
