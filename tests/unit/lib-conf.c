// SPDX-License-Identifier: GPL-2.0
/* lib-conf.c: rapido.conf parser: good inputs, hostile values, errors with file:line. */
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "tap.h"

static void good(const char *text, const char *key, const char *want)
{
	struct conf c = { 0 };
	char *err = NULL;
	int rc = conf_parse(&c, "t.conf", text, &err);

	if (!tap_ok(rc == 0, "parses: %s", text))
		printf("#   error: %s\n", err ? err : "(none)");
	else
		TAP_EQ_STR(conf_get(&c, key), want, "  value of %s", key);
	free(err);
	conf_free(&c);
}

static void bad(const char *text, const char *want_in_err)
{
	struct conf c = { 0 };
	char *err = NULL;
	int rc = conf_parse(&c, "t.conf", text, &err);

	if (!tap_ok(rc != 0 && err && strstr(err, want_in_err), "rejects: %s", text))
		printf("#   rc %d, error \"%s\", wanted it to contain \"%s\"\n", rc,
		       err ? err : "(none)", want_in_err);
	free(err);
	conf_free(&c);
}

int main(void)
{
	tap_plan(61);
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
		TAP_EQ_INT(conf_line(&c, "B"), 2, "line of B recorded");
		conf_free(&c);
	}
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
