// SPDX-License-Identifier: GPL-2.0
/* tool-configfs-spec.c: unit tests for the configfs spec parser and variables. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "../../tools/configfs/spec.h"
#include "tap.h"

static struct cfs_spec spec;
static char *err;

/* Parse text as "t.spec" into the global spec (freed first); returns rc, err kept. */
static int parse_mode(const char *text, bool teardown, const char *sysfs)
{
	struct cfs_parse_opts po = { sysfs, teardown, NULL };

	free(err);
	err = NULL;
	spec_free(&spec);
	spec_init(&spec);
	return spec_parse_string(&spec, "t.spec", text, &po, &err);
}

static int parse(const char *text)
{
	return parse_mode(text, false, NULL);
}

static int has(const char *s, const char *what)
{
	return s && strstr(s, what) != NULL;
}

/* The parse fails and the message names the line and contains what. */
static void bad(const char *text, const char *line, const char *what)
{
	int rc = parse(text);

	if (!tap_ok(rc == -EINVAL && has(err, line) && has(err, what),
		    "rejected with '%s' '%s'", line, what))
		printf("#   rc %d, err: %s\n", rc, err ? err : "(none)");
}

static void test_basic(void)
{
	int rc = parse("# a comment\n"
		       "\n"
		       "   mkdir a\n"
		       "ensure a//b/\n"
		       "write a/b/x 1 undo 0   # trailing comment\n"
		       "write a/b/y v#notacomment\n"
		       "link a/b l\n"
		       "wait a/dg\n"
		       "wait a/dg2 0.5\n"
		       "wait a/dg3 2s\n");

	TAP_EQ_INT(rc, 0, "basic spec parses");
	TAP_EQ_INT(spec.n, 8, "eight operations");
	if (spec.n != 8)
		return;
	tap_ok(spec.ops[0].type == OP_MKDIR && spec.ops[0].line == 3, "mkdir on line 3");
	TAP_EQ_STR(spec.ops[1].path, "a/b", "ensure path normalised");
	TAP_EQ_STR(spec.ops[2].value, "1", "write value");
	TAP_EQ_STR(spec.ops[2].undo, "0", "undo value (comment dropped)");
	tap_ok(spec.ops[3].undo == NULL, "no undo");
	TAP_EQ_STR(spec.ops[3].value, "v#notacomment", "# inside a word is literal");
	TAP_EQ_STR(spec.ops[4].target, "a/b", "link target");
	TAP_EQ_STR(spec.ops[4].path, "l", "link path");
	TAP_EQ_INT(spec.ops[5].timeout_ms, CFS_WAIT_DEFAULT_MS, "default wait timeout");
	TAP_EQ_INT(spec.ops[6].timeout_ms, 500, "wait 0.5 = 500 ms");
	TAP_EQ_INT(spec.ops[7].timeout_ms, 2000, "wait 2s = 2000 ms");
}

static void test_quoting(void)
{
	int rc = parse("set v world\n"
		       "write p \"hello ${v}\"\n"
		       "write p 'no ${v} here'\n"
		       "write p \"a\\nb\\tc\\x41\\$\\\"\\\\\"\n"
		       "write p a\\ b\n"
		       "write p x\"y z\"'w'\n"
		       "write p \"\\n\"\n"
		       "write p ${v}\n"
		       "write p 1 undo \"two words\"\n");

	TAP_EQ_INT(rc, 0, "quoting spec parses");
	if (rc || spec.n != 8)
		return;
	TAP_EQ_STR(spec.ops[0].value, "hello world", "double quotes expand ${v}");
	TAP_EQ_STR(spec.ops[1].value, "no ${v} here", "single quotes are literal");
	TAP_EQ_STR(spec.ops[2].value, "a\nb\tcA$\"\\", "escapes in double quotes");
	TAP_EQ_STR(spec.ops[3].value, "a b", "backslash-blank outside quotes");
	TAP_EQ_STR(spec.ops[4].value, "xy zw", "quoted parts join a word");
	TAP_EQ_INT(spec.ops[5].value_len, 1, "\"\\n\" is one byte");
	TAP_EQ_STR(spec.ops[6].value, "world", "bare ${v}");
	TAP_EQ_STR(spec.ops[7].undo, "two words", "quoted undo value");
}

static void test_variables(void)
{
	int rc;

	rc = parse("set ss nvmet/subsystems/${nqn}\nmkdir ${ss}\n");
	tap_ok(rc == -EINVAL && has(err, "t.spec:1") && has(err, "undefined variable 'nqn'"),
	       "undefined variable named with its line");

	rc = parse("set nqn nqn.x\nset ss nvmet/subsystems/${nqn}\nmkdir ${ss}/namespaces\n");
	TAP_EQ_INT(rc, 0, "variables in variables");
	if (!rc)
		TAP_EQ_STR(spec.ops[0].path, "nvmet/subsystems/nqn.x/namespaces", "expanded path");

	bad("mkdir a\nwrite a/x ${NOPE}\n", "t.spec:2", "undefined variable 'NOPE'");
	bad("write a/x ${bad-name}\n", "t.spec:1", "bad variable name");
	bad("write a/x ${open\n", "t.spec:1", "unterminated '${'");
	bad("set 9x 1\n", "t.spec:1", "bad variable name '9x'");

	/* -D wins over set, as a make command-line variable does. */
	spec_free(&spec);
	spec_init(&spec);
	free(err);
	err = NULL;
	rc = spec_define(&spec, "iqn=iqn.cmdline", &err);
	TAP_EQ_INT(rc, 0, "-D iqn=...");
	rc = spec_parse_string(&spec, "t.spec", "set iqn iqn.spec\nmkdir ${iqn}\n", NULL, &err);
	tap_ok(rc == 0 && spec.n == 1 && !strcmp(spec.ops[0].path, "iqn.cmdline"),
	       "-D overrides set in the spec");
	tap_ok(spec_define(&spec, "1X=y", &err) == -EINVAL, "-D with a bad name refused");
	free(err);
	err = NULL;
	tap_ok(spec_define(&spec, "noequals", &err) == -EINVAL, "-D without = refused");
}

/* mkdir or rmdir of dir/sub, with a fixed buffer (no allocations to leak). */
static void at(int (*fn)(const char *), const char *dir, const char *sub)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	fn(path);
}

static int mkdir755(const char *p)
{
	return mkdir(p, 0755);
}

static void test_set_first(void)
{
	struct cfs_parse_opts po = { "/nonexistent", false, NULL };
	char dir[] = "/tmp/rapido-cfs-spec-XXXXXX";
	int rc;

	if (!mkdtemp(dir)) {
		tap_ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	rc = parse_mode("set-first udc class/udc\nwrite UDC ${udc}\n", false, dir);
	tap_ok(rc == -EINVAL && has(err, "t.spec:1") && has(err, "dummy_hcd"),
	       "set-first on a missing directory fails with a hint");

	at(mkdir755, dir, "class");
	at(mkdir755, dir, "class/udc");
	rc = parse_mode("set-first udc class/udc\nwrite UDC ${udc}\n", false, dir);
	tap_ok(rc == -EINVAL && has(err, "is empty"), "set-first on an empty directory fails");

	rc = parse_mode("set-first udc class/udc\nwrite UDC ${udc} undo \"\\n\"\n", true, dir);
	tap_ok(rc == 0 && spec.n == 1 && spec.ops[0].value_len == 0,
	       "teardown: set-first finding nothing gives \"\"");

	at(mkdir755, dir, "class/udc/zz_udc.1");
	at(mkdir755, dir, "class/udc/dummy_udc.0");
	at(mkdir755, dir, "class/udc/.hidden");
	rc = parse_mode("set-first udc class/udc\nwrite UDC ${udc}\n", false, dir);
	tap_ok(rc == 0 && spec.n == 1 && !strcmp(spec.ops[0].value, "dummy_udc.0"),
	       "set-first takes the first entry in byte order");

	spec_free(&spec);
	spec_init(&spec);
	spec_define(&spec, "udc=chosen.0", &err);
	rc = spec_parse_string(&spec, "t.spec", "set-first udc class/udc\nwrite UDC ${udc}\n",
			       &po, &err);
	tap_ok(rc == 0 && spec.n == 1 && !strcmp(spec.ops[0].value, "chosen.0"),
	       "-D udc=... skips the set-first lookup");

	at(rmdir, dir, "class/udc/zz_udc.1");
	at(rmdir, dir, "class/udc/dummy_udc.0");
	at(rmdir, dir, "class/udc/.hidden");
	at(rmdir, dir, "class/udc");
	at(rmdir, dir, "class");
	rmdir(dir);
}

static void test_sizes(void)
{
	char *v = xmalloc(CFS_VALUE_MAX + 2);
	char *text;
	int rc;

	memset(v, 'a', CFS_VALUE_MAX + 1);
	v[CFS_VALUE_MAX] = '\0';
	text = xasprintf("mkdir d\nwrite d/x %s\n", v);
	rc = parse(text);
	tap_ok(rc == 0 && spec.n == 2 && spec.ops[1].value_len == 4095,
	       "a 4095-byte value is accepted");
	free(text);

	v[CFS_VALUE_MAX] = 'a';
	v[CFS_VALUE_MAX + 1] = '\0';
	text = xasprintf("mkdir d\nwrite d/x %s\n", v);
	bad(text, "t.spec:2", "4096 bytes");
	free(text);

	text = xasprintf("write d/x 1 undo %s\n", v);
	bad(text, "t.spec:1", "undo value is 4096 bytes");
	free(text);

	/* The limit applies after expansion. */
	v[CFS_VALUE_MAX - 1] = '\0';
	text = xasprintf("set big %s\nwrite d/x ${big}xy\n", v);
	bad(text, "t.spec:2", "4096 bytes");
	free(text);
	free(v);

	/* doubling a variable 33 times once cost 2 GB and 45 s, then "out of memory" */
	text = xstrdup("set A0 x\n");
	for (int i = 1; i <= 33; i++) {
		char *t = xasprintf("%sset A%d ${A%d}${A%d}\n", text, i, i - 1, i - 1);

		free(text);
		text = t;
	}
	bad(text, "t.spec:18", "longer than 65536 bytes");
	free(text);
	/* many lines that each copy one large value: bounded in all */
	text = xasprintf("set A x\n");
	for (int i = 1; i <= 16; i++) {
		char *t = xasprintf("%sset A ${A}${A}\n", text);

		free(text);
		text = t;
	}
	for (int i = 0; i < 20; i++) {
		char *t = xasprintf("%sset B%d ${A}\n", text, i);

		free(text);
		text = t;
	}
	bad(text, "t.spec:32", "would pass 1048576 bytes");
	free(text);

	bad("write d/x \"\"\n", "t.spec:1", "zero-length write");
	bad("write d/x 1 undo ''\n", "t.spec:1", "undo value is empty");
	rc = parse_mode("write d/x \"\" undo 0\n", true, NULL);
	TAP_EQ_INT(rc, 0, "teardown: an empty forward value is not written, so it is fine");
}

static void test_errors(void)
{
	bad("mkdir a\nfrobnicate b\n", "t.spec:2", "unknown operation 'frobnicate'");
	bad("mkdir\n", "t.spec:1", "mkdir takes one PATH");
	bad("mkdir a b\n", "t.spec:1", "mkdir takes one PATH");
	bad("\n\nwrite a b c\n", "t.spec:3", "quote a value");
	bad("write a\n", "t.spec:1", "write takes PATH VALUE");
	bad("write a 1 undo\n", "t.spec:1", "write takes PATH VALUE");
	bad("write a 1 \"undo\" 0\n", "t.spec:1", "unexpected 'undo'");
	bad("link a\n", "t.spec:1", "link takes TARGET LINKPATH");
	bad("mkdir /sys/kernel/config/x\n", "t.spec:1", "absolute path");
	bad("mkdir a/../b\n", "t.spec:1", "'..'");
	bad("mkdir ./b\n", "t.spec:1", "'.'");
	bad("link /abs l\n", "t.spec:1", "link target '/abs'");
	bad("write a \"open\n", "t.spec:1", "unterminated double quote");
	bad("write a 'open\n", "t.spec:1", "unterminated single quote");
	bad("write a \"\\q\"\n", "t.spec:1", "unknown escape '\\q'");
	bad("write a \"\\x4\"\n", "t.spec:1", "two hex digits");
	bad("write a \"\\x00\"\n", "t.spec:1", "NUL");
	bad("write a b\\\n", "t.spec:1", "backslash at the end");
	bad("wait a soon\n", "t.spec:1", "bad wait timeout 'soon'");
	bad("wait a 0.1234\n", "t.spec:1", "bad wait timeout");
	bad("wait a 99999\n", "t.spec:1", "longer than");
	bad("\"mkdir\" a\n", "t.spec:1", "bare word");
	bad("set x\n", "t.spec:1", "set takes NAME VALUE");
	bad("set-first x\n", "t.spec:1", "set-first takes NAME DIR");
}

static void test_normalise_and_print(void)
{
	const char *why = NULL;
	char *p = spec_path_normalise("a//b///c/", &why);
	static const char *const values[] = {
		"plain", "two words", "a\nb", "tab\there", "quote\"s", "dollar${x}",
		"back\\slash", "#hash", "\x01\x7f", "undo", "fd_dev_name=/x,fd_dev_size=1",
	};
	size_t i;

	TAP_EQ_STR(p, "a/b/c", "repeated and trailing slashes dropped");
	free(p);
	p = spec_path_normalise("", &why);
	tap_ok(!p && has(why, "empty"), "empty path refused");

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		char *buf = NULL, *text;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		int rc;

		fputs("write p ", f);
		spec_print_value(f, values[i], strlen(values[i]));
		fputc('\n', f);
		fclose(f);
		text = buf;
		rc = parse(text);
		text[strcspn(text, "\n")] = '\0';
		tap_ok(rc == 0 && spec.n == 1 && !strcmp(spec.ops[0].value, values[i]),
		       "printed value reads back: %s", text);
		free(buf);
	}
}

int main(void)
{
	tap_plan(84);
	spec_init(&spec);
	test_basic();
	test_quoting();
	test_variables();
	test_set_first();
	test_sizes();
	test_errors();
	test_normalise_and_print();
	spec_free(&spec);
	free(err);
	return tap_done();
}
