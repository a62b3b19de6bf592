// SPDX-License-Identifier: GPL-2.0
/*
 * lib-kernel.c: kernel_locate() over fixture /boot and /lib/modules trees
 * and a fake KERNEL_SRC tree made in a tmpdir: which kernel is chosen,
 * what is missing named by path, and what its modules and .config offer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conf.h"
#include "err.h"
#include "arch.h"
#include "io.h"
#include "kernel.h"
#include "tap.h"

static char dir[] = "/tmp/rapido-kernel-XXXXXX";

/* mkdir -p for the parents of path */
static void mkparents(const char *path)
{
	char *p = xstrdup(path);

	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			exit(1);
		*s = '/';
	}
	free(p);
}

/* Write text to dir/rel, making its directories. */
static void put(const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", dir, rel);
	FILE *f;

	mkparents(path);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		exit(1);
	free(path);
}

static char *at(const char *rel)
{
	return xasprintf("%s/%s", dir, rel);
}

/* A rapido.conf from text, the environment ignored. */
static void load(struct conf *c, const char *text)
{
	char *err;

	memset(c, 0, sizeof(*c));
	if (conf_parse(c, "rapido.conf", text, &err)) {
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
}

/* kernel_locate() with conf text; the error (or "") in *err. */
static int locate(const char *conftext, const char *boot, const char *mods,
		  struct kernel *k, char **err)
{
	char *b = at(boot), *m = at(mods);
	struct conf c;
	int rc;

	load(&c, conftext);
	rc = kernel_locate(&c, arch_host(), b, m, k, err);
	if (!*err)
		*err = xstrdup("");
	conf_free(&c);
	free(b);
	free(m);
	return rc;
}

static void expect_err(const char *conftext, const char *boot, const char *mods,
		       int want_rc, const char *want, const char *name)
{
	struct kernel k;
	char *err;
	int rc = locate(conftext, boot, mods, &k, &err);

	TAP_EQ_INT(rc, want_rc, "%s: fails", name);
	TAP_EQ_STR(err, want, "  %s: the message", name);
	free(err);
}

static void installed(void)
{
	struct kernel k;
	char *err, *want;
	int rc;

	/* 6.1.0-10 is newer than -9 (version order, not strcmp); 6.2 has no modules */
	put("boot/vmlinuz-6.1.0-9", "kernel");
	put("boot/vmlinuz-6.1.0-10", "kernel");
	put("boot/vmlinuz-6.2.0-nomods", "kernel");
	put("boot/config-6.1.0-10", "CONFIG_ZRAM=m\n");
	put("boot/System.map-6.1.0-10", "");
	put("mods/6.1.0-9/modules.dep", "kernel/fs/ext4/ext4.ko:\n");
	put("mods/6.1.0-10/modules.dep",
	    "kernel/drivers/block/zram/zram.ko.xz: kernel/lib/lz4.ko\n"
	    "kernel/drivers/md/dm-multipath.ko.zst: kernel/drivers/md/dm-mod.ko.zst\n"
	    "kernel/drivers/md/dm-mod.ko.zst:\n");
	put("mods/6.1.0-10/modules.builtin", "kernel/fs/ext4/ext4.ko\nkernel/drivers/virtio/virtio_pci.ko\n");

	rc = locate("", "boot", "mods", &k, &err);
	TAP_EQ_INT(rc, 0, "installed: the newest kernel with modules is found");
	TAP_EQ_STR(k.release, "6.1.0-10", "  6.1.0-10: newer than -9, and 6.2 has no modules");
	want = at("boot/vmlinuz-6.1.0-10");
	TAP_EQ_STR(k.image, want, "  its image");
	free(want);
	want = at("mods/6.1.0-10");
	TAP_EQ_STR(k.moddir, want, "  its module directory");
	free(want);
	want = at("boot/config-6.1.0-10");
	TAP_EQ_STR(k.config, want, "  its config");
	free(want);
	tap_ok(!k.from_src && !k.kmoddir_root, "  not from a tree, modules installed");

	/* modules: loadable (from modules.dep), built in, absent; '-' is '_' */
	TAP_EQ_INT(kernel_has_module(&k, "zram"), 2, "zram is loadable");
	TAP_EQ_INT(kernel_has_module(&k, "dm-multipath"), 2, "dm-multipath is loadable");
	TAP_EQ_INT(kernel_has_module(&k, "dm_multipath"), 2, "  as dm_multipath too");
	TAP_EQ_INT(kernel_has_module(&k, "dm_mod"), 2, "dm-mod (a line of its own) is loadable");
	TAP_EQ_INT(kernel_has_module(&k, "lz4"), 0, "a dependency only named after ':' is not a module");
	TAP_EQ_INT(kernel_has_module(&k, "ext4"), 1, "ext4 is built in (modules.builtin)");
	TAP_EQ_INT(kernel_has_module(&k, "virtio-pci"), 1, "virtio-pci is built in as virtio_pci");
	TAP_EQ_INT(kernel_has_module(&k, "btrfs"), 0, "btrfs is absent");
	kernel_free(&k);
	free(err);

	rc = locate("KERNEL_RELEASE=6.1.0-9\n", "boot", "mods", &k, &err);
	TAP_EQ_INT(rc, 0, "KERNEL_RELEASE selects an older kernel");
	TAP_EQ_STR(k.release, "6.1.0-9", "  6.1.0-9");
	TAP_EQ_STR(k.config, NULL, "  it has no config-REL: config is NULL");
	TAP_EQ_INT(kernel_has_module(&k, "ext4"), 2, "  its own modules.dep (ext4 loadable there)");
	TAP_EQ_INT(kernel_has_module(&k, "zram"), 0, "  not the newest one's");
	kernel_free(&k);
	free(err);

	want = xasprintf("rapido.conf:2: KERNEL_RELEASE=0.0-none: %s/boot/vmlinuz-0.0-none is missing",
			 dir);
	expect_err("A=1\nKERNEL_RELEASE=0.0-none\n", "boot", "mods", -ENOENT, want,
		   "KERNEL_RELEASE not installed");
	free(want);
	want = xasprintf("kernel 6.2.0-nomods: module directory %s/mods/6.2.0-nomods is missing", dir);
	expect_err("KERNEL_RELEASE=6.2.0-nomods\n", "boot", "mods", -ENOENT, want,
		   "an image without modules");
	free(want);
	put("empty/.keep", "");
	want = xasprintf("no installed kernel: no %s/empty/vmlinuz-REL with modules in %s/mods/REL "
			 "(install linux-image-amd64 or set KERNEL_SRC)", dir, dir);
	expect_err("", "empty", "mods", -ENOENT, want, "no kernel in the boot dir");
	free(want);
	want = xasprintf("no installed kernel: no %s/nosuch/vmlinuz-REL with modules in %s/mods/REL "
			 "(install linux-image-amd64 or set KERNEL_SRC)", dir, dir);
	expect_err("", "nosuch", "mods", -ENOENT, want, "a boot dir that does not exist");
	free(want);

	/* a module directory without modules.dep */
	put("boot/vmlinuz-6.3.0-nodep", "kernel");
	put("mods/6.3.0-nodep/modules.builtin", "kernel/fs/ext4/ext4.ko\n");
	want = xasprintf("%s/mods/6.3.0-nodep/modules.dep: No such file or directory "
			 "(run depmod, or 'make modules_install' again)", dir);
	expect_err("KERNEL_RELEASE=6.3.0-nodep\n", "boot", "mods", -ENOENT, want, "no modules.dep");
	free(want);
}

static void src_tree(void)
{
	struct kernel k;
	char *err, *want, *conf;
	int rc;

	put("linux/arch/x86/boot/bzImage", "kernel");
	put("linux/include/config/kernel.release", "6.9.0-rc1+\n");
	put("linux/.config", "CONFIG_ZRAM=y\n");
	put("linux/modules.builtin", "kernel/drivers/block/zram/zram.ko\n");

	conf = xasprintf("KERNEL_SRC=%s/linux\n", dir);
	rc = locate(conf, "boot", "mods", &k, &err);
	TAP_EQ_INT(rc, 0, "KERNEL_SRC: a built tree without installed modules");
	TAP_EQ_STR(k.release, "6.9.0-rc1+", "  release from include/config/kernel.release, newline cut");
	want = at("linux/arch/x86/boot/bzImage");
	TAP_EQ_STR(k.image, want, "  the tree's bzImage, not /boot's");
	free(want);
	want = at("linux/.config");
	TAP_EQ_STR(k.config, want, "  the tree's .config");
	free(want);
	tap_ok(k.from_src && !k.moddir && !k.kmoddir_root, "  from the tree, no module directory");
	TAP_EQ_INT(kernel_has_module(&k, "zram"), 1, "  the tree's modules.builtin is read");
	kernel_free(&k);
	free(err);
	free(conf);

	put("inst/lib/modules/6.9.0-rc1+/modules.dep", "kernel/fs/btrfs/btrfs.ko:\n");
	put("inst/lib/modules/6.9.0-rc1+/modules.builtin", "kernel/fs/ext4/ext4.ko\n");
	conf = xasprintf("KERNEL_SRC=%s/linux\nKERNEL_INSTALL_MOD_PATH=%s/inst\n", dir, dir);
	rc = locate(conf, "boot", "mods", &k, &err);
	TAP_EQ_INT(rc, 0, "KERNEL_SRC with KERNEL_INSTALL_MOD_PATH");
	want = at("inst/lib/modules/6.9.0-rc1+");
	TAP_EQ_STR(k.moddir, want, "  modules under INSTALL_MOD_PATH/lib/modules/REL");
	free(want);
	want = at("inst");
	TAP_EQ_STR(k.kmoddir_root, want, "  the root for dracut --kmoddir");
	free(want);
	TAP_EQ_INT(kernel_has_module(&k, "btrfs"), 2, "  its modules.dep is read");
	TAP_EQ_INT(kernel_has_module(&k, "ext4"), 1, "  its modules.builtin wins over the tree's");
	TAP_EQ_INT(kernel_has_module(&k, "zram"), 0, "  (the tree's is not read then)");
	kernel_free(&k);
	free(err);
	free(conf);

	put("inst2/lib/modules/6.8.0/modules.dep", "");
	conf = xasprintf("KERNEL_SRC=%s/linux\nKERNEL_INSTALL_MOD_PATH=%s/inst2\n", dir, dir);
	want = xasprintf("rapido.conf:2: KERNEL_INSTALL_MOD_PATH=%s/inst2 has no modules for release "
			 "6.9.0-rc1+ (found: 6.8.0); run 'make modules_install INSTALL_MOD_PATH=%s/inst2' "
			 "in KERNEL_SRC", dir, dir);
	expect_err(conf, "boot", "mods", -ENOENT, want, "modules of another release installed");
	free(want);
	free(conf);

	conf = xasprintf("KERNEL_SRC=%s/nosuch\n", dir);
	want = xasprintf("rapido.conf:1: KERNEL_SRC=%s/nosuch: not a directory", dir);
	expect_err(conf, "boot", "mods", -ENOENT, want, "KERNEL_SRC that does not exist");
	free(want);
	free(conf);

	put("unbuilt/Makefile", "");
	conf = xasprintf("KERNEL_SRC=%s/unbuilt\n", dir);
	want = xasprintf("rapido.conf:1: KERNEL_SRC=%s/unbuilt is not built for amd64: "
			 "%s/unbuilt/arch/x86/boot/bzImage is missing (run make in the tree)", dir, dir);
	expect_err(conf, "boot", "mods", -ENOENT, want, "KERNEL_SRC without bzImage");
	free(want);

	put("unbuilt/arch/x86/boot/bzImage", "kernel");
	want = xasprintf("rapido.conf:1: KERNEL_SRC=%s/unbuilt is not built: "
			 "%s/unbuilt/include/config/kernel.release: No such file or directory", dir, dir);
	expect_err(conf, "boot", "mods", -ENOENT, want, "KERNEL_SRC without kernel.release");
	free(want);

	put("unbuilt/include/config/kernel.release", "\n");
	want = xasprintf("rapido.conf:1: KERNEL_SRC=%s/unbuilt: include/config/kernel.release is empty",
			 dir);
	expect_err(conf, "boot", "mods", -EINVAL, want, "an empty kernel.release");
	free(want);

	put("unbuilt/include/config/kernel.release", "6.9.0\n");
	want = xasprintf("rapido.conf:1: KERNEL_SRC=%s/unbuilt: %s/unbuilt/.config is missing", dir, dir);
	expect_err(conf, "boot", "mods", -ENOENT, want, "KERNEL_SRC without .config");
	free(want);
	free(conf);
}

static void kconfig(void)
{
	struct kernel k = { 0 };
	struct strv reqs = STRV_INIT, missing = STRV_INIT;
	const char *want[] = {
		"CONFIG_OFF is not set (needed: y or m)",
		"CONFIG_NO is not set (needed: y or m)",
		"CONFIG_MOD=m, but built-in (=y) is needed",
		"CONFIG_OFF is not set (needed: m)",
		"CONFIG_NR=4, but 8 is needed",
		"CONFIG_YE is not set (needed: y or m)",
	};
	int rc;

	put("kconfig/.config",
	    "CONFIG_YES=y\n"
	    "CONFIG_MOD=m\n"
	    "# CONFIG_OFF is not set\n"
	    "CONFIG_NO=n\n"
	    "CONFIG_NR=4\n"
	    "CONFIG_YES2=y");	/* no newline at the end */
	k.config = at("kconfig/.config");
	strv_push(&reqs, "CONFIG_YES");		/* y: fine */
	strv_push(&reqs, "CONFIG_MOD");		/* m: fine */
	strv_push(&reqs, "CONFIG_OFF");
	strv_push(&reqs, "CONFIG_NO");
	strv_push(&reqs, "CONFIG_YES=y");	/* fine */
	strv_push(&reqs, "CONFIG_MOD=y");
	strv_push(&reqs, "CONFIG_YES=m");	/* y or m both fine */
	strv_push(&reqs, "CONFIG_MOD=m");	/* fine */
	strv_push(&reqs, "CONFIG_OFF=m");
	strv_push(&reqs, "CONFIG_NR=4");	/* fine */
	strv_push(&reqs, "CONFIG_NR=8");
	strv_push(&reqs, "CONFIG_YE");		/* a prefix of CONFIG_YES is not it */
	strv_push(&reqs, "CONFIG_YES2");	/* the last line, unterminated */
	rc = kernel_check_kconfig(&k, &reqs, &missing);
	TAP_EQ_INT(rc, 0, "kconfig: the config is read");
	TAP_EQ_INT(missing.n, 6, "  six of thirteen requirements unmet");
	for (size_t i = 0; i < 6; i++)
		TAP_EQ_STR(i < missing.n ? missing.v[i] : NULL, want[i], "  unmet: %s", want[i]);
	strv_free(&missing);

	free(k.config);
	k.config = at("kconfig/nosuch");
	rc = kernel_check_kconfig(&k, &reqs, &missing);
	TAP_EQ_INT(rc, -ENOENT, "a config that cannot be read: -ENOENT");
	TAP_EQ_INT(missing.n, 0, "  and nothing listed");
	free(k.config);
	k.config = at("kconfig");
	rc = kernel_check_kconfig(&k, &reqs, &missing);
	TAP_EQ_INT(rc, -ENOTREG, "a config that is a directory: -ENOTREG (read_file reads regular files only)");
	free(k.config);
	k.config = NULL;
	rc = kernel_check_kconfig(&k, &reqs, &missing);
	TAP_EQ_INT(rc, -ENOENT, "no config at all (an installed kernel without config-REL): -ENOENT");
	strv_free(&reqs);
	rc = kernel_check_kconfig(&k, &reqs, &missing);
	TAP_EQ_INT(rc, 0, "no requirements need no config");
	strv_free(&missing);
}

int main(void)
{
	tap_plan(66);
	if (!mkdtemp(dir))
		return 1;
	installed();
	src_tree();
	kconfig();
	tap_rm_tree(dir);
	return tap_done();
}
