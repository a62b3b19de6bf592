// SPDX-License-Identifier: GPL-2.0
/*
 * lib-confkeys.c: the known-key registry against rapido.conf.example, the
 * profiles and the sources (so none can drift), suggestions, and the
 * unknown-key warnings. Runs from the top of the tree (tests/run cds there).
 */
#include <dirent.h>
#include <errno.h>
#include <regex.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "confget.h"
#include "confkeys.h"
#include "err.h"
#include "io.h"
#include "tap.h"

/* Keys rapido.conf.example documents: "KEY=" or "#KEY=" at the start of a line. */
static void example_keys(struct strv *out)
{
	char *text, *line, *save;
	regex_t re;
	regmatch_t m[2];

	if (read_file("rapido.conf.example", &text, NULL))
		die("rapido.conf.example: cannot read it (run from the top of the tree)");
	if (regcomp(&re, "^#?([A-Z][A-Z0-9_]*)=", REG_EXTENDED))
		die("regcomp");
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!regexec(&re, line, 2, m, 0)) {
			line[m[1].rm_eo] = '\0';
			if (!strv_contains(out, line + m[1].rm_so))
				strv_push(out, line + m[1].rm_so);
		}
	regfree(&re);
	free(text);
}

/*
 * Keys the sources read in the usual way: a call whose first argument is
 * the conf (c, &c, p->conf) and whose second is a literal: conf_get(c,
 * "KEY"), conf_number(&c, "KEY", ...), where(c, "KEY").
 */
static void source_keys(const char *dir, regex_t *re, struct strv *out)
{
	struct strv names = STRV_INIT;
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		die_errno("%s", dir);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			strv_push(&names, de->d_name);
	closedir(d);
	for (size_t i = 0; i < names.n; i++) {
		char *path = xasprintf("%s/%s", dir, names.v[i]);
		size_t len = strlen(path);
		char *text, *s;
		regmatch_t m[4];
		struct stat st;

		/* src/vm/image.c reads the image's own rapido/vm.conf, not rapido.conf */
		if (len > 2 && !strcmp(path + len - 2, ".c") && strcmp(path, "src/vm/image.c") &&
		    !read_file(path, &text, NULL)) {
			for (s = text; !regexec(re, s, 4, m, 0); s += m[0].rm_eo) {
				char *key = xstrndup(s + m[3].rm_so, (size_t)(m[3].rm_eo - m[3].rm_so));

				if (!strv_contains(out, key))
					strv_push(out, key);
				free(key);
			}
			free(text);
		} else if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
			source_keys(path, re, out);
		}
		free(path);
	}
	strv_free(&names);
}

static int in_example(const struct strv *example, const char *pattern)
{
	for (size_t i = 0; i < example->n; i++)
		if (confkeys_match(pattern, example->v[i]))
			return 1;
	return 0;
}

static void test_registry(void)
{
	struct strv example = STRV_INIT, profiles = STRV_INIT, src = STRV_INIT;
	struct strv missing = STRV_INIT;
	regex_t re;

	example_keys(&example);
	tap_ok(example.n > 30, "rapido.conf.example documents %zu keys", example.n);
	TAP_EQ_INT(confkeys_from_profiles("autorun", &profiles, NULL), 0, "the profiles' keys are read");
	tap_ok(strv_contains(&profiles, "FSTESTS_SRC") && strv_contains(&profiles, "CIFS_PASS"),
	       "  conf, conf-optional and bins-if keys among them");

	for (size_t i = 0; i < example.n; i++)
		if (!confkeys_known(example.v[i], &profiles))
			strv_push(&missing, example.v[i]);
	if (!tap_ok(!missing.n, "every key rapido.conf.example documents is read by a program or profile"))
		for (size_t i = 0; i < missing.n; i++)
			printf("#   %s: in rapido.conf.example, not in confkeys[] nor any profile\n",
			       missing.v[i]);
	strv_free(&missing);

	for (size_t i = 0; confkeys[i].key; i++)
		if (!in_example(&example, confkeys[i].key))
			strv_push(&missing, confkeys[i].key);
	if (!tap_ok(!missing.n, "every key of confkeys[] is documented in rapido.conf.example"))
		for (size_t i = 0; i < missing.n; i++)
			printf("#   %s: undocumented\n", missing.v[i]);
	strv_free(&missing);

	for (size_t i = 0; i < profiles.n; i++)
		if (!strv_contains(&example, profiles.v[i]))
			strv_push(&missing, profiles.v[i]);
	if (!tap_ok(!missing.n, "every key a profile names is documented in rapido.conf.example"))
		for (size_t i = 0; i < missing.n; i++)
			printf("#   %s: named by a profile, undocumented\n", missing.v[i]);
	strv_free(&missing);

	/* conf_get(c, "KEY"), and src/vm/settings.c's setting(c, OPT, VAL, "KEY", ...) */
	if (regcomp(&re, "[a-z_]+\\((&?c|&?p->conf),[^;)\"]*(\"[^\"]*\"[^;)\"]*)*\"([A-Z][A-Z0-9_]+)\"",
		    REG_EXTENDED))
		die("regcomp");
	source_keys("src", &re, &src);
	regfree(&re);
	tap_ok(strv_contains(&src, "VM_MEMORY") && strv_contains(&src, "KERNEL_SRC"),
	       "the sources were scanned (%zu keys found)", src.n);
	for (size_t i = 0; i < src.n; i++)
		if (!confkeys_known(src.v[i], NULL))
			strv_push(&missing, src.v[i]);
	if (!tap_ok(!missing.n, "every key the sources read is in confkeys[]"))
		for (size_t i = 0; i < missing.n; i++)
			printf("#   %s: read in src/, not registered\n", missing.v[i]);
	strv_free(&missing);
	strv_free(&src);
	strv_free(&profiles);
	strv_free(&example);
}

/* KEY's value on its "#KEY=VALUE" line of rapido.conf.example (quotes removed), malloc'd, or NULL. */
static char *example_value(const char *text, const char *key)
{
	size_t kl = strlen(key);

	for (const char *l = text; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *v = l + (*l == '#');

		if (strncmp(v, key, kl) || v[kl] != '=')
			continue;
		v += kl + 1;
		if (*v == '"' || *v == '\'')
			return xstrndup(v + 1, strcspn(v + 1, *v == '"' ? "\"" : "'"));
		return xstrndup(v, strcspn(v, " \t\n"));
	}
	return NULL;
}

/*
 * rapido.conf.example (and rapido.conf(5), made from it) against confkeys[]:
 * each key with a default shows that default, each value shown is of the
 * key's kind, and each default the table gives is one its kind accepts.
 */
static void test_example_defaults(void)
{
	struct strv bad = STRV_INIT;
	char *text;

	if (read_file("rapido.conf.example", &text, NULL))
		die("rapido.conf.example: cannot read it (run from the top of the tree)");
	for (const struct confkey *k = confkeys; k->key; k++) {
		char *name = xstrdup(k->key), *shown, *why;
		struct conf_value v;

		for (char *h = strchr(name, '#'); h; h = strchr(h, '#'))
			*h = '1';
		shown = example_value(text, name);
		if (k->def && confkey_parse(k, k->def, &v, &why)) {
			strv_pushf(&bad, "%s: the table's default: %s", k->key, why);
			free(why);
		}
		if (k->def && (!shown || strcmp(shown, k->def)))
			strv_pushf(&bad, "%s: rapido.conf.example shows '%s', the table's default is '%s'",
				   k->key, shown ? shown : "(no value)", k->def);
		/* a placeholder (<rapido dir>) or ${KEY} is text for the reader, not a value */
		if (shown && *shown && !strpbrk(shown, "<$") && confkey_parse(k, shown, &v, &why)) {
			strv_pushf(&bad, "%s: rapido.conf.example's '%s': %s", k->key, shown, why);
			free(why);
		}
		free(shown);
		free(name);
	}
	if (!tap_ok(!bad.n, "rapido.conf.example shows each key's default and kind as confkeys[] has them"))
		for (size_t i = 0; i < bad.n; i++)
			printf("#   %s\n", bad.v[i]);
	strv_free(&bad);
	free(text);
}

static void suggest(const char *key, const char *want)
{
	char *got = confkeys_suggest(key, NULL);

	TAP_EQ_STR(got, want, "%s suggests %s", key, want ? want : "nothing");
	free(got);
}

static void test_match_and_suggest(void)
{
	tap_ok(confkeys_match("VM#_IP#", "VM12_IP3"), "VM#_IP# matches VM12_IP3");
	tap_ok(!confkeys_match("VM#_IP#", "VM12_IP"), "  but not VM12_IP");
	tap_ok(!confkeys_match("VM#_IP", "VM_IP"), "# needs a digit");
	tap_ok(!confkeys_match("VM#_IP", "VM1_IPX"), "trailing text does not match");
	tap_ok(confkeys_known("VM1_IP", NULL) && confkeys_known("VM2_IP1", NULL),
	       "VM<N>_IP and VM<N>_IP<M> are known");
	suggest("VM_MEMRY", "VM_MEMORY");
	suggest("VM_MEMROY", "VM_MEMORY");	/* a swap counts once */
	suggest("vm_memory", "VM_MEMORY");
	suggest("KERNEL_SCR", "KERNEL_SRC");
	suggest("VM3_PI", "VM3_IP");
	suggest("QEMU_EXTRA_ARG", "QEMU_EXTRA_ARGS");
	suggest("TOTALLY_UNRELATED", NULL);
	suggest("X", NULL);
}

static void test_check(void)
{
	struct strv extra = STRV_INIT, msgs = STRV_INIT;
	struct conf c = { 0 };
	char *err = NULL;

	strv_push(&extra, "FSTESTS_SRC");
	conf_parse(&c, "t.conf",
		   "VM_MEMRY=2G\n"			/* a typo */
		   "MYDIR=/src\n"			/* a helper other lines expand */
		   "KERNEL_SRC=${MYDIR}/linux\n"
		   "FSTESTS_SRC=${MYDIR}/xfstests\n"	/* a profile's key */
		   "VM3_IP2=10.0.0.3/24\n"
		   "VM_MEMRY=4G\n"			/* the same typo again */
		   "NOBODY_READS_THIS=1\n", &err);
	confkeys_check(&c, &extra, &msgs);
	TAP_EQ_INT(msgs.n, 2, "two unknown keys, each warned about once");
	if (msgs.n == 2) {
		TAP_EQ_STR(msgs.v[0], "t.conf:6: warning: unknown key VM_MEMRY: no program or profile "
			   "reads it (did you mean VM_MEMORY?)", "the typo, at its last line, with the fix");
		tap_ok(strstr(msgs.v[1], "t.conf:7: warning: unknown key NOBODY_READS_THIS") != NULL,
		       "a key like no other: %s", msgs.v[1]);
	} else {
		tap_ok(0, "the typo");
		tap_ok(0, "a key like no other");
	}
	conf_free(&c);
	free(err);
	strv_free(&msgs);
	strv_free(&extra);
}

/* The type table: its keys are real, and each kind accepts and refuses what ./vm does. */
static void test_types(void)
{
	char *err;

	tap_ok(confkeys_check_type("NET", "wifi", &err) == -EINVAL && err &&
	       !strcmp(err, "expected tap, user or none, got 'wifi'"), "NET=wifi: the enum's words");
	free(err);

	tap_ok(!confkeys_check_type("VM_CPUS", "4", &err) && !err, "VM_CPUS=4 is fine");
	tap_ok(confkeys_check_type("VM_CPUS", "0", &err) == -EINVAL && err &&
	       !strcmp(err, "expected a number from 1 to 1024, got '0'"), "VM_CPUS=0: out of range, said so");
	free(err);
	tap_ok(confkeys_check_type("VM_TIMEOUT", "5s", &err) == -EINVAL, "VM_TIMEOUT=5s: trailing junk");
	free(err);
	tap_ok(!confkeys_check_type("VM_MEMORY", "2GiB", &err), "VM_MEMORY=2GiB is fine");
	tap_ok(confkeys_check_type("VM_MEMORY", "63M", &err) == -EINVAL, "VM_MEMORY=63M: below 64M");
	free(err);
	tap_ok(!confkeys_check_type("VM_VMCORE_FORMAT", "kdump-lzo", &err), "an enum's middle word");
	tap_ok(confkeys_check_type("NET", "tap user", &err) == -EINVAL, "NET='tap user': one word only");
	free(err);
	tap_ok(confkeys_check_type("QEMU_ACCEL", "", &err) == -EINVAL, "QEMU_ACCEL='': not a value");
	free(err);
	tap_ok(!confkeys_check_type("KERNEL_SRC", "anything", &err) && !err, "untyped keys pass");
}

int main(void)
{
	tap_plan(35);
	test_registry();
	test_example_defaults();
	test_match_and_suggest();
	test_check();
	test_types();
	return tap_done();
}
