// SPDX-License-Identifier: GPL-2.0
/* lib-conf.c: rapido.conf parser: good inputs, hostile values, errors with file:line. */
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "err.h"
#include "expand.h"
#include "tap.h"

/* name: what the test is, for texts too long to show */
static void good_named(const char *name, const char *text, const char *key, const char *want)
{
	struct conf c = { 0 };
	char *err = NULL;
	int rc = conf_parse(&c, "t.conf", text, &err);

	if (!tap_ok(rc == 0, "parses: %s", name))
		printf("#   error: %s\n", err ? err : "(none)");
	else
		TAP_EQ_STR(conf_get(&c, key), want, "  value of %s", key);
	free(err);
	conf_free(&c);
}

static void good(const char *text, const char *key, const char *want)
{
	good_named(text, text, key, want);
}

static void bad_named(const char *name, const char *text, const char *want_in_err)
{
	struct conf c = { 0 };
	char *err = NULL;
	int rc = conf_parse(&c, "t.conf", text, &err);

	if (!tap_ok(rc != 0 && err && strstr(err, want_in_err), "rejects: %s", name))
		printf("#   rc %d, error \"%s\", wanted it to contain \"%s\"\n", rc,
		       err ? err : "(none)", want_in_err);
	free(err);
	conf_free(&c);
}

static void bad(const char *text, const char *want_in_err)
{
	bad_named(text, text, want_in_err);
}

/* Parse with the environment overriding the file, as ./cut and ./vm do. */
static int parse_env(struct conf *c, const char *text, char **err)
{
	memset(c, 0, sizeof(*c));
	c->env_override = 1;
	*err = NULL;
	return conf_parse(c, "t.conf", text, err);
}

/* issue 11, item 10: the environment wins inside ${KEY} too, as in a shell */
static void test_env_in_expansions(void)
{
	const char *text = "KERNEL_SRC=/file/linux\n"
			   "KERNEL_INSTALL_MOD_PATH=\"${KERNEL_SRC}/mods\"\n";
	struct conf c;
	char *err;

	setenv("KERNEL_SRC", "/env/linux", 1);
	TAP_EQ_INT(parse_env(&c, text, &err), 0, "parses with KERNEL_SRC in the environment");
	TAP_EQ_STR(conf_get(&c, "KERNEL_SRC"), "/env/linux", "  KERNEL_SRC from the environment");
	TAP_EQ_STR(conf_get(&c, "KERNEL_INSTALL_MOD_PATH"), "/env/linux/mods",
		   "  and ${KERNEL_SRC} of a later line expands to it");
	conf_free(&c);
	free(err);

	/* without the override (the image's own vm.conf), the file's value stands */
	memset(&c, 0, sizeof(c));
	conf_parse(&c, "t.conf", text, &err);
	TAP_EQ_STR(conf_get(&c, "KERNEL_INSTALL_MOD_PATH"), "/file/linux/mods",
		   "without env_override the file's own value is expanded");
	conf_free(&c);
	free(err);
	unsetenv("KERNEL_SRC");
}

/* issue 11, item 11: a key from the environment is not "FILE:0" */
static void test_origin(void)
{
	struct conf c;
	char *err;

	setenv("RAPIDO_TEST_ORIGIN", "1x", 1);
	parse_env(&c, "A=1\n\nRAPIDO_TEST_ORIGIN=2\nB=${A}\n", &err);
	TAP_EQ_STR(conf_origin(&c, "RAPIDO_TEST_ORIGIN"), "environment",
		   "a key the environment overrides comes from the environment");
	TAP_EQ_STR(conf_origin(&c, "B"), "t.conf:4", "a key of the file: FILE:LINE");
	TAP_EQ_STR(conf_origin(&c, "NOT_SET_ANYWHERE"), "default", "an unset key: default");
	conf_set(&c, "A", "code");
	TAP_EQ_STR(conf_origin(&c, "A"), "default", "a key set by code: default");
	conf_free(&c);
	free(err);
	unsetenv("RAPIDO_TEST_ORIGIN");
}

static char *cat(char *text, const char *add)
{
	char *t = xasprintf("%s%s", text, add);

	free(text);
	return t;
}

/* issue 11, item 12: values cannot grow without bound */
static void test_limits(void)
{
	char *text = xstrdup("A0=x\n"), *big;

	/* 33 doublings once took 45 s and 2 GB, then "out of memory" */
	for (int i = 1; i <= 33; i++) {
		char *line = xasprintf("A%d=\"${A%d}${A%d}\"\n", i, i - 1, i - 1);

		text = cat(text, line);
		free(line);
	}
	bad_named("33 lines doubling a value", text,
		  "t.conf:18: A17: with ${A16} the value would be longer than 65536 bytes");
	free(text);

	/* exactly the limit is fine, one more byte is not, with or without ${...} */
	big = xmalloc(EXPAND_VALUE_MAX + 2);
	memset(big, 'b', EXPAND_VALUE_MAX + 1);
	big[EXPAND_VALUE_MAX] = '\0';
	text = xasprintf("A=%s\nB=${A}", big);
	good_named("a value of 65536 bytes, expanded", text, "B", big);
	free(text);
	text = xasprintf("A=%s\nB=x${A}", big);
	bad_named("65537 bytes by expansion", text,
		  "t.conf:2: B: with ${A} the value would be longer than 65536 bytes");
	free(text);
	big[EXPAND_VALUE_MAX] = 'b';
	big[EXPAND_VALUE_MAX + 1] = '\0';
	text = xasprintf("A=%s", big);
	bad_named("65537 bytes written out", text,
		  "t.conf:1: A: the value is 65537 bytes, longer than the limit of 65536");
	free(text);
	free(big);

	/* many short lines copying one large value: bounded for the whole file */
	text = xstrdup("A=x\n");
	for (int i = 0; i < 16; i++)
		text = cat(text, "A=\"${A}${A}\"\n");
	for (int i = 0; i < 20; i++) {
		char *line = xasprintf("B%d=${A}\n", i);

		text = cat(text, line);
		free(line);
	}
	bad_named("many lines expanding a 64 KiB value", text,
		  "t.conf:32: B14: with ${A} the expansions in this file would pass 1048576 bytes");
	free(text);
}

int main(void)
{
	tap_plan(80);
	good("A=b", "A", "b");
	good("A=", "A", "");
	good("# comment\n\n  \nA=1\n", "A", "1");
	good("A=\"x y z\"", "A", "x y z");
	good("A='x $(rm -rf /) `id` ; | & y'", "A", "x $(rm -rf /) `id` ; | & y");
	good("A=\"semi;colon & pipe|\"", "A", "semi;colon & pipe|");
	good("A=one\nB=${A}-two", "B", "one-two");
	good("A=one\nB=\"<${A}>\"", "B", "<one>");
	good("A=one\nB='${A}'", "B", "${A}");
	good("A=x # trailing comment", "A", "x");
	good("export A=exported", "A", "exported");
	good("A=\"a\\\"b\\\\c\\$d\"", "A", "a\"b\\c$d");
	good("A=it\\'s", "A", "it's");
	good("A=a'b c'\"d e\"", "A", "ab cd e");
	good("A=1\nA=2", "A", "2");
	good("A=\"price $ 5\"", "A", "price $ 5");
	good("A=x#y", "A", "x#y");
	good("A=\"-device 'virtio-rng-pci,id=r'\"", "A", "-device 'virtio-rng-pci,id=r'");

	bad("A=$(id)", "t.conf:1: command substitution");
	bad("A=\"$(id)\"", "t.conf:1: command substitution");
	bad("A=`id`", "t.conf:1: command substitution '`'");
	bad("\nA=\"x", "t.conf:2: unterminated double quote");
	bad("A='x", "t.conf:1: unterminated single quote");
	bad("A=x y", "t.conf:1: unexpected text after the value");
	bad("A=x;y", "unquoted ';'");
	bad("A=x|y", "unquoted '|'");
	bad("A=${NOPE_NOT_SET_ANYWHERE}", "'${NOPE_NOT_SET_ANYWHERE}' is not set");
	bad("A=$HOME", "unbraced variable");
	bad("A=${B:-x}", "only ${KEY} is allowed");
	bad("A=${B", "unterminated '${'");
	bad("echo hi", "t.conf:1: expected KEY=value");
	bad("A = b", "space before '='");
	bad("A= b", "space after '='");
	bad("1A=b", "invalid key name");
	bad("A-B=c", "invalid key name");
	bad("A=x\\", "line continuation");
	/* issue 33, item 14: a BOM (an editor's choice) is named, not left invisible */
	bad_named("a UTF-8 BOM", "\xef\xbb\xbfQEMU_ACCEL=kvm",
		  "t.conf:1: starts with a UTF-8 byte order mark (EF BB BF): save it without one");
	bad_named("a BOM before a comment", "\xef\xbb\xbf# c\nA=1", "byte order mark");
	/* any other invisible byte in a key is shown escaped */
	bad_named("a zero-width space in a key", "A\xe2\x80\x8b=1",
		  "invalid key name \"A\\xe2\\x80\\x8b\"");
	bad_named("a control byte in a key", "A\x01" "B\x7f=1", "invalid key name \"A\\x01B\\x7f\"");
	bad_named("a tab inside a key", "A\tB=1", "invalid key name \"A\\x09B\"");
	bad_named("a backslash in a key", "A\\x41=1", "invalid key name \"A\\\\x41\"");
	bad("ok=1\n\n\nA=$$", "t.conf:4: special parameter");

	/* environment fallback for ${VAR} and env override of values */
	setenv("RAPIDO_TEST_ENV", "fromenv", 1);
	good("A=${RAPIDO_TEST_ENV}/x", "A", "fromenv/x");
	{
		struct conf c = { 0 };
		char *err;

		conf_parse(&c, "t.conf", "RAPIDO_TEST_ENV=fromfile\nB=2", &err);
		TAP_EQ_STR(conf_get(&c, "RAPIDO_TEST_ENV"), "fromfile", "file value without override");
		c.env_override = 1;
		TAP_EQ_STR(conf_get(&c, "RAPIDO_TEST_ENV"), "fromenv", "environment overrides file");
		conf_free(&c);
	}
	test_env_in_expansions();
	test_origin();
	test_limits();
	{
		struct conf c = { 0 };
		char *err = NULL;
		int rc = conf_load(&c, "/nonexistent/rapido.conf", &err);

		tap_ok(rc < 0 && err && strstr(err, "/nonexistent/rapido.conf: No such file"),
		       "missing file named in the error: %s", err ? err : "(none)");
		free(err);
		conf_free(&c);
	}
	return tap_done();
}
