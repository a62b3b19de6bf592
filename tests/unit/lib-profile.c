// SPDX-License-Identifier: GPL-2.0
/* lib-profile.c: profile headers: lists, resources, includes, and errors naming file:line. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confget.h"
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

/* DIR/include/NAME.inc, the fragment "#@ include: NAME" reads */
static void fragment(const char *name, const char *text)
{
	char *path;

	if (asprintf(&path, "%s/include/%s.inc", dir, name) < 0)
		abort();
	write_file_atomic(path, text, strlen(text), 0644);
	free(path);
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

	tap_plan(113);
	if (!mkdtemp(dir))
		return 1;
	rc = load("#!/bin/bash\n"
		  "#@ description: test profile\n"
		  "#@ bins: uname  cat\n"
		  "#@ bins: ls\n"
		  "#@ modules: zram dm-delay\n"
		  "#@ modules-on-demand: btrfs xfs\n"
		  "#@ helpers: zram\n"
		  "#@ conf: FSTESTS_FS\n"
		  "#@ kconfig: CONFIG_ZRAM CONFIG_BTRFS_FS=y\n"
		  "#@ kconfig-optional: CONFIG_AIO=y CONFIG_RD_GZIP=n\n"
		  "#@ cpus: 2\n"
		  "#@ memory: 1G\n"
		  "#@ test-timeout: 90\n"
		  "#@ virtiofs: /:host:ro\n"
		  "#@ results: yes\n"
		  "#@ bins-if FSTESTS_SRC: xfs_io fio\n"
		  "#@ bins-optional-if FSTESTS_SRC: quota\n"
		  "echo '#@ not a header: in code'\n", &p, &err);
	tap_ok(rc == 0, "loads (%s)", err ? err : "ok");
	TAP_EQ_STR(p.description, "test profile", "description");
	TAP_EQ_INT(p.bins.n, 3, "bins accumulate over repeated keys");
	TAP_EQ_STR(p.bins.v[2], "ls", "  in order");
	TAP_EQ_STR(p.modules.v[1], "dm-delay", "modules");
	TAP_EQ_STR(p.modules_demand.n == 2 ? p.modules_demand.v[1] : NULL, "xfs",
		   "modules-on-demand, apart from modules");
	TAP_EQ_INT(p.kconfig.n, 2, "kconfig symbols");
	TAP_EQ_INT(p.kconfig_opt.n, 2, "kconfig-optional symbols");
	tap_ok(p.kconfig_at.n == 2 && strstr(p.kconfig_at.v[1], "/p.sh:9") &&
	       p.kconfig_opt_at.n == 2 && strstr(p.kconfig_opt_at.v[0], "/p.sh:10"),
	       "each kconfig entry knows its FILE:LINE");
	TAP_EQ_INT(p.cpus, 2, "cpus");
	TAP_EQ_INT(p.memory, 1ULL << 30, "memory");
	TAP_EQ_INT(p.test_timeout, 90, "test-timeout (#28: a profile's own per-test timeout)");
	TAP_EQ_INT(p.results, 1, "results: yes (#42: ./vm keeps a terminal run's results)");
	TAP_EQ_STR(p.virtiofs.n == 1 ? p.virtiofs.v[0] : NULL, "/:host:ro",
		   "virtiofs (#43: hostfs's share of /, for ./vm)");
	TAP_EQ_STR(p.bins_if.n == 2 ? p.bins_if.v[1] : NULL, "FSTESTS_SRC=fio", "bins-if KEY");
	TAP_EQ_STR(p.bins_opt_if.n == 1 ? p.bins_opt_if.v[0] : NULL, "FSTESTS_SRC=quota",
		   "bins-optional-if KEY");
	profile_free(&p);

	/* #@ prepare KEY: PROGRAM ARG... */
	rc = load("#@ description: x\n"
		  "#@ prepare KSELFTEST_DIR: host/kselftests --quiet\n", &p, &err);
	tap_ok(rc == 0, "prepare loads (%s)", err ? err : "ok");
	TAP_EQ_STR(p.prepare_key, "KSELFTEST_DIR", "prepare: its KEY");
	tap_ok(p.prepare.n == 2 && !strcmp(p.prepare.v[0], "host/kselftests") &&
	       !strcmp(p.prepare.v[1], "--quiet"), "prepare: PROGRAM and its ARGs");
	{
		struct strv keys = STRV_INIT;

		profile_conf_keys(&p, &keys);
		tap_ok(strv_contains(&keys, "KSELFTEST_DIR"), "prepare's KEY is a key of the profile");
		strv_free(&keys);
	}
	profile_free(&p);
	bad("#@ description: x\n#@ prepare A: a\n#@ prepare B: b\n",
	    "p.sh:3: prepare: a profile prepares one key (A at ");

	bad("#@ description: x\n#@ bogus: 1\n", "p.sh:2: unknown profile key \"bogus\" (known: "
	    "description, bins, bins-optional, bins-if KEY[=VALUE], bins-optional-if KEY[=VALUE], "
	    "shell-bins, modules, "
	    "modules-optional, modules-on-demand, helpers, conf, conf-optional, conf-type, secret, "
	    "kconfig, kconfig-optional, files, include, packages, kernel-config, prepare KEY, cpus, "
	    "memory, memory-use, test-timeout, virtiofs, results, suite)");
	bad("#@ description: x\n#@ bins-if: x\n", "p.sh:2: unknown profile key \"bins-if\"");
	bad("#@ description: x\n#@ prepare a-b: x\n",
	    "p.sh:2: prepare a-b: expected a rapido.conf key name after 'prepare'");
	bad("#@ description: x\n#@ cpus: lots\n", "p.sh:2: cpus: expected a number");
	bad("#@ description: x\n\n#@ memory: 12\n", "p.sh:3: memory: expected a size");
	bad("#@ description: x\n#@ test-timeout: 0\n",
	    "p.sh:2: test-timeout: expected a number from 1 to 604800, got '0' (seconds)");
	bad("#@ description: x\n#@ results: maybe\n",
	    "p.sh:2: results: expected yes or no, got \"maybe\"");
	bad("#@ description: x\n#@ test-timeout: 1m\n", "p.sh:2: test-timeout: expected a number");
	bad("#@ description: x\n#@ virtiofs: /srv\n",
	    "p.sh:2: virtiofs: expected /DIR:TAG or /DIR:TAG:ro, got \"/srv\"");
	bad("#@ description: x\n#@ virtiofs: srv:t\n", "p.sh:2: virtiofs: expected /DIR:TAG");
	/* ./vm shares one of the profile's (vm.conf's last VIRTIOFS): a second is refused */
	bad("#@ description: x\n#@ virtiofs: /srv:a\n#@ virtiofs: /srv:b:ro\n",
	    "p.sh:3: virtiofs: a second share; a profile has one");
	/* issue 40: qemu was handed -m 1073741824M */
	bad("#@ description: x\n#@ memory: 1P\n", "p.sh:2: memory: \"1P\" is more than this host's memory (");
	/* issue 43 #8: #@ memory-use KEY FACTOR, KEY a uint the profile types */
	bad("#@ description: x\n#@ memory-use: SZ\n",
	    "p.sh:2: memory-use: expected a rapido.conf key and a factor of 1 to 64");
	bad("#@ description: x\n#@ memory-use: SZ 0\n", "p.sh:2: memory-use: expected a rapido.conf key");
	bad("#@ description: x\n#@ conf-optional: SZ\n#@ memory-use: SZ 2\n",
	    "p.sh:3: memory-use: SZ has no conf-type uint in this profile");
	rc = load("#@ description: x\n#@ conf-optional: SZ\n#@ conf-type: SZ uint 1-9\n"
		  "#@ memory-use: SZ 2\n", &p, &err);
	tap_ok(!rc && p.memory_use.n == 1 && !strcmp(p.memory_use.v[0], "SZ=2"),
	       "memory-use: SZ 2 read as SZ=2");
	profile_free(&p);
	/* the first hour: a suite profile cut without its suite says so (#@ suite) */
	rc = load("#@ description: x\n#@ conf-optional: LTP_SRC LTP_DIR\n"
		  "#@ suite: LTP_SRC/LTP_DIR LTP: a shell\n", &p, &err);
	tap_ok(!rc && p.suite_keys.n == 2 && !strcmp(p.suite_keys.v[1], "LTP_DIR") &&
	       !strcmp(p.suite_name, "LTP") && !strcmp(p.suite_without, "a shell") &&
	       strstr(p.suite_at, "/p.sh:3"), "suite: KEY/KEY NAME: WITHOUT read (%s)", err ? err : "ok");
	profile_free(&p);
	bad("#@ description: x\n#@ conf-optional: S\n#@ suite: S xfstests\n",
	    "p.sh:3: suite: expected KEY[/KEY...] NAME: WHAT THE IMAGE DOES WITHOUT IT");
	bad("#@ description: x\n#@ conf-optional: S\n#@ suite: S: a shell\n",
	    "p.sh:3: suite: expected KEY[/KEY...] NAME:");
	bad("#@ description: x\n#@ conf-optional: S\n#@ suite: S xfstests:\n",
	    "p.sh:3: suite: expected KEY[/KEY...] NAME:");
	bad("#@ description: x\n#@ conf-optional: S\n#@ suite: S/a-b x: y\n",
	    "p.sh:3: suite: expected KEY[/KEY...] NAME:");
	bad("#@ description: x\n#@ conf-optional: S\n#@ suite: S x: y\n#@ suite: S z: w\n",
	    "p.sh:4: suite: a profile drives one suite (the first at ");
	bad("#@ description: x\n#@ suite: S x: y\n",
	    "p.sh:2: suite: S is not a conf-optional key of this profile");
	bad("#@ bins: x\n", "no '#@ description:' line");
	bad("#@ description: x\n#@ bins-if a-b: x\n", "p.sh:2: bins-if a-b: expected a rapido.conf key");
	/* issue 43 #5: bins-if KEY=VALUE, a program one value of the key needs */
	rc = load("#@ description: x\n#@ bins-if FSTESTS_FS=f2fs: mkfs.f2fs fsck.f2fs\n"
		  "#@ bins-optional-if  FSTESTS_FS=f2fs : dump.f2fs\n", &p, &err);
	tap_ok(!rc && p.bins_if.n == 2 && !strcmp(p.bins_if.v[1], "FSTESTS_FS=f2fs=fsck.f2fs") &&
	       p.bins_opt_if.n == 1 && !strcmp(p.bins_opt_if.v[0], "FSTESTS_FS=f2fs=dump.f2fs"),
	       "bins-if KEY=VALUE read as KEY=VALUE=BIN (%s)", err ? err : "ok");
	{
		struct strv keys = STRV_INIT;

		profile_conf_keys(&p, &keys);
		tap_ok(keys.n == 1 && !strcmp(keys.v[0], "FSTESTS_FS"), "  its KEY is a key of the profile");
		strv_free(&keys);
	}
	profile_free(&p);
	bad("#@ description: x\n#@ bins-if FS=: x\n", "p.sh:2: bins-if FS: expected a value after FS=");
	bad("#@ description: x\n#@ bins-if FS=a=b: x\n", "p.sh:2: bins-if FS: expected a value after FS=");
	bad("#@ description: x\n#@ bins-if FS=a: x=y\n", "p.sh:2: bins-if FS: \"x=y\" is not a program name");
	bad("#@ description: x\n#@ bins-if 1=a: x\n", "p.sh:2: bins-if 1: expected a rapido.conf key name");
	bad("#@ description x\n", "p.sh:1: expected '#@ key: value'");

	/* #@ conf-type: a type for one of the profile's keys, with where it was given */
	rc = load("#@ description: x\n#@ conf-optional: FS SIZE\n#@ conf-type: FS enum a,b\n"
		  "#@ files: ${SRC}:/src\n#@ conf-type: SIZE size 16M-1G\n#@ conf-type: SRC path\n",
		  &p, &err);
	TAP_EQ_INT(rc, 0, "conf-type lines parse (%s)", err ? err : "");
	tap_ok(p.types.n == 3 && p.types.k[0].kind == CONFKEY_ENUM &&
	       !strcmp(p.types.k[0].words[1], "b") && !p.types.k[0].words[2] &&
	       p.types.k[1].kind == CONFKEY_SIZE && p.types.k[1].min == 16ULL << 20 &&
	       p.types.k[1].max == 1ULL << 30 && p.types.k[2].kind == CONFKEY_PATH,
	       "  each key with its kind and range");
	tap_ok(p.types.n == 3 && strstr(p.types.at[1], "p.sh:5"), "  and the line that typed it");
	if (!rc)
		profile_free(&p);
	free(err);
	err = NULL;
	bad("#@ description: x\n#@ conf: FS\n#@ conf-type: FS enum\n",
	    "p.sh:3: conf-type: FS: enum: expected words separated by commas");
	bad("#@ description: x\n#@ conf: N\n#@ conf-type: N uint 9-1\n",
	    "p.sh:3: conf-type: N: uint: expected a range MIN-MAX");
	bad("#@ description: x\n#@ conf: N\n#@ conf-type: N float\n",
	    "p.sh:3: conf-type: N: unknown kind \"float\"");
	bad("#@ description: x\n#@ conf: N\n#@ conf-type: N uint 1-2\n#@ conf-type: N uint 1-3\n",
	    "p.sh:4: conf-type: N is typed twice");
	bad("#@ description: x\n#@ conf: FS\n#@ conf-type: FSS enum a,b\n",
	    "p.sh:3: conf-type: FSS is not a key of this profile");

	/* words A,B: each word of the value one of them (BLKTESTS_DEVS) */
	rc = load("#@ description: x\n#@ conf-optional: DEVS\n#@ conf-type: DEVS words zram,loop\n"
		  "#@ packages: column=bsdextrautils fio=fio\n#@ kernel-config: yes\n", &p, &err);
	TAP_EQ_INT(rc, 0, "words-set type, packages, kernel-config parse (%s)", err ? err : "");
	if (!rc) {
		struct conf_value v;
		char *why = NULL;
		int r1, r2, r3;

		r1 = confkey_parse(&p.types.k[0], "zram loop,zram", &v, &why);
		free(why);
		why = NULL;
		r2 = confkey_parse(&p.types.k[0], "zram,lop", &v, &why);
		tap_ok(r1 == 0 && r2 == -EINVAL && why && strstr(why, "got 'lop' in 'zram,lop'"),
		       "  words-set: known words pass, blanks or commas between; another is named (%s)",
		       why ? why : "none");
		free(why);
		why = NULL;
		r3 = confkey_parse(&p.types.k[0], "", &v, &why);
		free(why);
		TAP_EQ_INT(r3, 0, "  words-set: no word at all is fine");
		tap_ok(profile_package(&p, "column") && !strcmp(profile_package(&p, "column"),
								 "bsdextrautils") &&
		       profile_package(&p, "fio") && !profile_package(&p, "col") &&
		       !profile_package(&p, "fi"), "  packages: BIN's package, a prefix is no BIN");
		{
			static const char table[] = "# mkfs.xfs xfsprogs tests\nmkfs.x\tnot-this all\n"
						    "mkfs.xfs\t\txfsprogs\t\tprofile\n"
						    "-\tlibclang-rt-dev|libclang-rt-14-dev tests\n"
						    "clang clang-19|clang tests\nbare";
			char *a = packages_table_lookup(table, "mkfs.xfs");
			char *b = packages_table_lookup(table, "clang");
			char *c = packages_table_lookup(table, "xfsprogs");
			char *d = packages_table_lookup(table, "bare");

			tap_ok(a && !strcmp(a, "xfsprogs") && b && !strcmp(b, "clang-19") && !c && !d,
			       "  autorun/packages: a program's package (not a comment's, a prefix's, a "
			       "package's own name; A|B: A), got %s %s", a ? a : "NULL", b ? b : "NULL");
			free(a);
			free(b);
			free(c);
			free(d);
		}
		TAP_EQ_INT(p.kernel_config, 1, "  kernel-config: yes");
		profile_free(&p);
	}
	free(err);
	err = NULL;
	bad("#@ description: x\n#@ packages: column\n", "p.sh:2: packages: expected BIN=PACKAGE");
	bad("#@ description: x\n#@ kernel-config: maybe\n", "p.sh:2: kernel-config: expected yes or no");

	rc = load("#@ description: x\n#@ secret: PASS\n#@ conf: USER PASS\n"
		  "#@ conf-optional: KEY\n#@ secret: KEY\n", &p, &err);
	tap_ok(rc == 0 && p.secret.n == 2 && !strcmp(p.secret.v[0], "PASS") &&
	       !strcmp(p.secret.v[1], "KEY"), "secret: conf and conf-optional keys, before or after them (%s)",
	       err ? err : "ok");
	profile_free(&p);
	bad("#@ description: x\n#@ conf: PASS\n#@ secret: PASS\n#@ secret: PSAS\n",
	    "p.sh:4: secret: PSAS is not a conf or conf-optional key of this profile");
	bad("#@ description: x\n#@ secret: a-b\n", "p.sh:2: secret: expected rapido.conf key names, got \"a-b\"");
	bad("#@ description: x\n#@ kconfig: ZRAM\n",
	    "p.sh:2: kconfig: expected CONFIG_NAME or CONFIG_NAME=VALUE, got \"ZRAM\"");
	bad("#@ description: x\n#@ kconfig-optional: CONFIG_X=\n",
	    "p.sh:2: kconfig-optional: expected CONFIG_NAME or CONFIG_NAME=VALUE");
	bad("#@ description: x\n#@ kconfig: CONFIG_X=n\n",
	    "p.sh:2: kconfig: CONFIG_X=n: a needed symbol cannot be off");

	/* files: split once, here, into ${KEY}, the path after it and DEST */
	rc = load("#@ description: x\n#@ conf-optional: SRC\n"
		  "#@ files: ${SRC}:/t ${SRC}/sub/f:/etc/f autorun/x.spec:/x.spec\n"
		  "#@ files: /a:b:/c\n", &p, &err);
	tap_ok(rc == 0 && p.n_files == 4, "files: entries parsed, from two lines (%s)", err ? err : "ok");
	tap_ok(p.n_files == 4 && !strcmp(p.files[0].key, "SRC") && !strcmp(p.files[0].path, "") &&
	       !strcmp(p.files[0].dest, "/t"), "  ${KEY}:/DEST");
	tap_ok(p.n_files == 4 && !strcmp(p.files[1].key, "SRC") &&
	       !strcmp(p.files[1].path, "/sub/f") && !strcmp(p.files[1].dest, "/etc/f"),
	       "  ${KEY}/PATH:/DEST");
	tap_ok(p.n_files == 4 && !p.files[2].key && !strcmp(p.files[2].path, "autorun/x.spec") &&
	       !strcmp(p.files[2].dest, "/x.spec"), "  a relative SRC, no key");
	tap_ok(p.n_files == 4 && !strcmp(p.files[3].path, "/a:b") && !strcmp(p.files[3].dest, "/c"),
	       "  DEST after the last colon");
	{
		struct strv keys = STRV_INIT;

		profile_conf_keys(&p, &keys);
		tap_ok(keys.n == 1 && !strcmp(keys.v[0], "SRC"),
		       "  its key named once among the profile's keys");
		strv_free(&keys);
	}
	profile_free(&p);
	bad("#@ description: x\n#@ files: ${SRC:/t\n", "p.sh:2: files: \"${SRC:/t\": ${ without its }");
	bad("#@ description: x\n#@ files: ${a-b}:/t\n",
	    "p.sh:2: files: \"${a-b}:/t\": expected a rapido.conf key");
	bad("#@ description: x\n#@ bins: ls\n#@ files: /x\n", "p.sh:3: files: \"/x\" is not SRC:/DEST");
	bad("#@ description: x\n#@ files: /x:rel\n", "p.sh:2: files: \"/x:rel\" is not SRC:/DEST");
	bad("#@ description: x\n#@ files: :/x\n", "p.sh:2: files: \":/x\" is not SRC:/DEST");

	/* includes: read in place, nested, each file once per chain */
	{
		char *incdir;

		if (asprintf(&incdir, "%s/include", dir) < 0 || mkdir(incdir, 0755) < 0)
			abort();
		free(incdir);
	}
	fragment("net", "# the NIC\n#@ modules: virtio_net\n#@ bins: ip\n"
		 "#@ kconfig: CONFIG_VIRTIO_NET=m\n#@ include: base-net\n");
	fragment("base-net", "#@ kconfig-optional: CONFIG_NET_CORE=y\n#@ bins: ping\n");
	fragment("zram", "#@ modules: zram\n#@ helpers: zram\n");
	rc = load("#@ description: with includes\n"
		  "#@ bins: cat\n"
		  "#@ include: net zram\n"
		  "#@ bins: ls\n", &p, &err);
	tap_ok(rc == 0, "a profile with includes loads (%s)", err ? err : "ok");
	TAP_EQ_INT(p.bins.n, 4, "  the fragments' bins are added");
	TAP_EQ_STR(p.bins.n == 4 ? p.bins.v[1] : NULL, "ip", "  where the include line stands");
	TAP_EQ_STR(p.bins.n == 4 ? p.bins.v[2] : NULL, "ping", "  a nested include's too");
	TAP_EQ_STR(p.bins.n == 4 ? p.bins.v[3] : NULL, "ls", "  then the profile goes on");
	tap_ok(p.modules.n == 2 && !strcmp(p.modules.v[0], "virtio_net") &&
	       !strcmp(p.modules.v[1], "zram"), "  modules of two fragments on one line");
	tap_ok(p.kconfig_at.n == 1 && strstr(p.kconfig_at.v[0], "/include/net.inc:4"),
	       "  a fragment's kconfig entry knows the fragment's line");
	tap_ok(p.kconfig_opt_at.n == 1 && strstr(p.kconfig_opt_at.v[0], "/include/base-net.inc:1"),
	       "  and a nested fragment's");
	tap_ok(p.sources.n == 4 && strstr(p.sources.v[0], "/p.sh") &&
	       strstr(p.sources.v[2], "/base-net.inc") && strstr(p.sources.v[3], "/zram.inc"),
	       "  sources: the profile, then each fragment in reading order");
	profile_free(&p);

	bad("#@ description: x\n\n#@ include: nosuch\n",
	    "p.sh:3: include: nosuch: ");
	bad("#@ description: x\n#@ include: ../net\n", "p.sh:2: include: \"../net\" is not a fragment name");
	fragment("loop-a", "#@ bins: a\n#@ include: loop-b\n");
	fragment("loop-b", "#@ include: loop-a\n");
	bad("#@ description: x\n#@ include: loop-a\n",
	    "loop-b.inc:1: include: loop-a: an include cycle: loop-a.inc -> loop-b.inc -> loop-a.inc");
	fragment("vfs", "#@ virtiofs: /srv:b\n");
	bad("#@ description: x\n#@ virtiofs: /srv:a\n#@ include: vfs\n",
	    "vfs.inc:1: virtiofs: a second share; a profile has one");
	fragment("self", "#@ include: self\n");
	bad("#@ description: x\n#@ include: self\n", "self.inc:1: include: self: an include cycle: self.inc -> self.inc");
	fragment("d1", "#@ include: d2\n");
	fragment("d2", "#@ include: d3\n");
	fragment("d3", "#@ include: d4\n");
	fragment("d4", "#@ include: d5\n");
	fragment("d5", "#@ bins: x\n");
	bad("#@ description: x\n#@ include: d1\n", "d4.inc:1: include: d5: fragments nest more than 4 deep");
	fragment("described", "#@ description: a fragment\n");
	bad("#@ description: x\n#@ include: described\n",
	    "described.inc:1: description: belongs in the profile");
	fragment("secrets", "#@ conf-optional: TOKEN\n#@ secret: TOKEN TOKNE\n");
	bad("#@ description: x\n#@ include: secrets\n",
	    "secrets.inc:2: secret: TOKNE is not a conf or conf-optional key of this profile");
	fragment("broken", "#@ bins: a\n#@ cpus: many\n");
	bad("#@ description: x\n#@ include: broken\n", "broken.inc:2: cpus: expected a number");
	/* #@ shell-bins: programs for the person at the shell, by name (busybox's applets) */
	fragment("shell", "#@ shell-bins: dmesg\n");
	rc = load("#@ description: x\n#@ shell-bins: uname  cat\n#@ shell-bins: mkfs.ext4 c++ run-parts\n"
		  "#@ include: shell\n", &p, &err);
	tap_ok(!rc && p.shell_bins.n == 6 && !strcmp(p.shell_bins.v[0], "uname") &&
	       !strcmp(p.shell_bins.v[2], "mkfs.ext4") && !strcmp(p.shell_bins.v[5], "dmesg") &&
	       !p.bins.n && !p.bins_opt.n, "shell-bins: names accumulate, a fragment's too, apart "
	       "from bins (%s)", err ? err : "ok");
	profile_free(&p);
	bad("#@ description: x\n#@ shell-bins: cat /usr/bin/uname\n",
	    "p.sh:2: shell-bins: expected a program name (a busybox applet or a program in the "
	    "host's PATH: letters, digits, '.', '_', '+' and '-', not a path), got \"/usr/bin/uname\"");
	bad("#@ description: x\n\n#@ shell-bins: cat ..\n", "p.sh:3: shell-bins: expected a program name");
	bad("#@ description: x\n#@ shell-bins: -n\n", "p.sh:2: shell-bins: expected a program name");
	bad("#@ description: x\n#@ shell-bins: a=b\n", "got \"a=b\"");
	bad("#@ description: x\n#@ shell-bins: 'ls'\n", "got \"'ls'\"");
	fragment("badshell", "#@ shell-bins: ok\n#@ shell-bins: x/y\n");
	bad("#@ description: x\n#@ include: badshell\n", "include/badshell.inc:2: shell-bins: expected");
	bad("#@ description: x\n#@ shell-bins KEY: x\n", "p.sh:2: unknown profile key \"shell-bins KEY\"");
	tap_ok(profile_name_valid("fstests_local") && !profile_name_valid("../x") &&
	       !profile_name_valid(""), "profile names are plain words");
	tap_rm_tree(dir);
	return tap_done();
}
