// SPDX-License-Identifier: GPL-2.0
/*
 * lib-confget.c: the resolver every program reads rapido.conf through:
 * value or the table's default, with its origin; the environment first;
 * an empty value counts as unset; each kind's checks and messages.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "confget.h"
#include "conftype.h"
#include "err.h"
#include "confenv.h"
#include "tap.h"

static struct conf c;

static void load(const char *text)
{
	char *err;

	conf_free(&c);
	memset(&c, 0, sizeof(c));
	c.env_override = 1;
	if (conf_parse(&c, "t.conf", text, &err))
		die("%s", err);
}

/* KEY resolved: refused with exactly WANT */
static void refused(const char *key, const char *want)
{
	struct conf_value v;
	char *err;
	int rc = conf_resolve(&c, key, &v, &err);

	tap_ok(rc == -EINVAL && err && !strcmp(err, want), "%s: \"%s\" (got \"%s\")", key, want,
	       err ? err : "(none)");
	free(err);
}

static void test_origin_and_default(void)
{
	const char *at;
	unsigned int n = 99;
	uint64_t sz;
	char *err;

	unsetenv("VM_MAX");
	unsetenv("VM_CPUS");
	unsetenv("VM_MEMORY");
	load("VM_MAX=7\nVM_CPUS=\n");
	TAP_EQ_INT(conf_uint(&c, "VM_MAX", &n, &at, &err), 1, "VM_MAX from the file: 1");
	tap_ok(n == 7 && !strcmp(at, "t.conf:1"), "  7, from t.conf:1 (%u, %s)", n, at);
	TAP_EQ_INT(conf_uint(&c, "VM_CPUS", &n, &at, &err), 0, "VM_CPUS= (empty): the default");
	tap_ok(n == 1 && !strcmp(at, "default"), "  the table's 1, origin default (%u, %s)", n, at);
	TAP_EQ_INT(conf_size(&c, "VM_MEMORY", &sz, &at, &err), 0, "VM_MEMORY unset: the default");
	TAP_EQ_INT(sz, 512ULL << 20, "  512M");
	setenv("VM_MAX", "9", 1);
	conf_uint(&c, "VM_MAX", &n, &at, &err);
	tap_ok(n == 9 && !strcmp(at, "environment"), "the environment wins (%u, %s)", n, at);
	unsetenv("VM_MAX");
	n = 42;
	TAP_EQ_INT(conf_uint(&c, "NO_SUCH_KEY", &n, &at, &err), 0, "an unknown key: unset");
	TAP_EQ_INT(n, 42, "  *out untouched");
	TAP_EQ_STR(conf_str(&c, "DRACUT", &at), "dracut", "conf_str: the table's default");
	tap_ok(conf_str(&c, "KERNEL_SRC", NULL) == NULL, "  NULL for a key without one");
	load("FSTESTS_MKFS_OPTIONS=\n");
	TAP_EQ_STR(conf_value(&c, "FSTESTS_MKFS_OPTIONS", NULL), "",
		   "conf_value keeps an empty value (the guest tells it from unset)");
}

static void test_kinds(void)
{
	const char *w, *at;
	struct ipv4_prefix a;
	struct strv words = STRV_INIT;
	char *err;

	load("QEMU_ACCEL=KVM\nNET=TAP\nVM_VMCORE_FORMAT=kdump-lzo\n");
	TAP_EQ_INT(conf_enum(&c, "QEMU_ACCEL", &w, &at, &err), 1, "QEMU_ACCEL=KVM: accepted");
	TAP_EQ_STR(w, "kvm", "  as the table spells it");
	refused("NET", "t.conf:2: NET: expected tap, user or none, got 'TAP'");
	conf_enum(&c, "VM_VMCORE_FORMAT", &w, NULL, &err);
	TAP_EQ_STR(w, "kdump-lzo", "an enum's later word");

	load("VM_CPUS=0\nVM_MEMORY=63M\nCEPH_OSD_SIZE=2T\nCUT_CACHE_SIZE=lots\n"
	     "BR_ADDR=10.1.2.255/24\nLINK_SUBNET=10.0.0.1\nCEPH_LOCAL_DIR=rel\n"
	     "QEMU_EXTRA_ARGS='-a \"b'\n");
	refused("VM_CPUS", "t.conf:1: VM_CPUS: expected a number from 1 to 1024, got '0'");
	refused("VM_MEMORY",
		"t.conf:2: VM_MEMORY: expected a size of at least 64M such as 512M or 2G, got '63M'");
	refused("CEPH_OSD_SIZE",
		"t.conf:3: CEPH_OSD_SIZE: expected a size from 256M to 1T such as 1G, got '2T'");
	refused("CUT_CACHE_SIZE",
		"t.conf:4: CUT_CACHE_SIZE: expected a size such as 4G, or 0 for no cache, got 'lots'");
	refused("BR_ADDR", "t.conf:5: BR_ADDR: that is the broadcast address of its network: "
		"expected a host address such as 192.168.155.1/24, got '10.1.2.255/24'");
	refused("LINK_SUBNET", "t.conf:6: LINK_SUBNET: expected an IPv4 address with prefix length "
		"such as 192.168.156.0/24, got '10.0.0.1'");
	refused("CEPH_LOCAL_DIR", "t.conf:7: CEPH_LOCAL_DIR: expected an absolute path, got 'rel'");
	tap_ok(conf_words(&c, "QEMU_EXTRA_ARGS", &words, NULL, &err) == -EINVAL && err &&
	       !strncmp(err, "t.conf:8: QEMU_EXTRA_ARGS: ", 27), "bad quoting refused (%s)",
	       err ? err : "");
	free(err);

	load("VM3_IP2=10.0.0.3/24\nTAP_DEVS=\"a 'b c'\"\n");
	TAP_EQ_INT(conf_addr(&c, "VM3_IP2", &a, NULL, &err), 1, "VM#_IP# resolves VM3_IP2");
	TAP_EQ_INT(a.prefix, 24, "  its prefix");
	conf_words(&c, "TAP_DEVS", &words, NULL, &err);
	tap_ok(words.n == 2 && !strcmp(words.v[1], "b c"), "words split with quoting");
	strv_free(&words);
}

/* every default of the table is one its own kind accepts */
static void test_defaults(void)
{
	size_t bad = 0;

	for (const struct confkey *k = confkeys; k->key; k++) {
		struct conf_value v;
		char *why;

		if (k->def && confkey_parse(k, k->def, &v, &why)) {
			printf("#   %s=%s: %s\n", k->key, k->def, why);
			free(why);
			bad++;
		}
		if (k->kind == CONFKEY_ENUM && (!k->words || !k->words[0])) {
			printf("#   %s: an enum without words\n", k->key);
			bad++;
		}
		if ((k->kind == CONFKEY_SIZE || k->kind == CONFKEY_ADDR) && !k->eg) {
			printf("#   %s: no example for its messages\n", k->key);
			bad++;
		}
		if (!k->help || !*k->help) {
			printf("#   %s: no help line\n", k->key);
			bad++;
		}
	}
	TAP_EQ_INT(bad, 0, "every entry of confkeys[] is whole: default of its kind, words, "
		   "example, help");
}

/* a profile's type resolves the same way, and says which line typed it */
static void test_profile_types(void)
{
	struct confkey_types t = { 0 };
	struct strv msgs = STRV_INIT;
	struct confkey k;
	char *why;

	TAP_EQ_INT(confkey_type_parse("FS enum btrfs,xfs", &k, &why), 0, "a conf-type spec");
	confkey_types_add(&t, &k, "p.sh:3");
	TAP_EQ_INT(confkey_type_parse("SZ size 1-2G", &k, &why), 0, "a size range");
	confkey_types_add(&t, &k, "p.sh:4");
	load("FS=zfs\nSZ=3G\n");
	TAP_EQ_INT(confkey_types_check(&c, &t, &msgs), 2, "two values refused");
	TAP_EQ_STR(msgs.n ? msgs.v[0] : NULL,
		   "t.conf:1: FS: expected btrfs or xfs, got 'zfs' (#@ conf-type at p.sh:3)",
		   "  naming the conf's line and the profile's");
	TAP_EQ_STR(msgs.n > 1 ? msgs.v[1] : NULL,
		   "t.conf:2: SZ: expected a size from 1 to 2G such as 512M or 1G, got '3G' "
		   "(#@ conf-type at p.sh:4)", "  a size beyond its range");
	strv_free(&msgs);
	load("FS=xfs\n");
	TAP_EQ_INT(confkey_types_check(&c, &t, &msgs), 0, "good and unset values pass");
	confkey_types_free(&t);
	strv_free(&msgs);
	tap_ok(confkey_type_parse("FS enum a,,b", &k, &why) == -EINVAL && why, "an empty word: %s",
	       why ? why : "");
	free(why);
	tap_ok(confkey_type_parse("fs-x path", &k, &why) == -EINVAL && why, "a bad key name");
	free(why);
}

int main(void)
{
	confenv_clear();
	tap_plan(36);
	test_origin_and_default();
	test_kinds();
	test_defaults();
	test_profile_types();
	conf_free(&c);
	return tap_done();
}
