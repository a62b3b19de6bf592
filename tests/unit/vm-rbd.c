// SPDX-License-Identifier: GPL-2.0
/*
 * vm-rbd.c: ./vm --rbd: the settings resolved from options or
 * QEMU_RBD_DISKS with the cluster's files checked, and the -drive/-device
 * pairs, with paths that hold ':' and ',' unable to add options.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "tap.h"
#include "vm.h"

int main(void)
{
	char dir[] = "/tmp/rapido-vm-rbd.XXXXXX";
	struct vm_settings s = { 0 };
	struct vm_opts o = { 0 };
	struct conf c = { .env_override = 1 };
	struct strv argv = STRV_INIT;
	const char *text_conf = "[global]\nmon host = v1:192.168.155.1:6789\n";
	const char *text_kr = "[client.rapido]\nkey = AQBX3CtpAAAAABAA==\n";
	char *conf, *kr, *want;

	if (!mkdtemp(dir))
		return 99;
	tap_plan(8);
	unsetenv("CEPH_CONF");
	unsetenv("CEPH_KEYRING");
	unsetenv("CEPH_USER");
	unsetenv("CEPH_TIMEOUT");
	unsetenv("QEMU_RBD_DISKS");
	/* a directory name with both of the characters qemu's syntaxes give meaning to */
	conf = xasprintf("%s/a:b,c", dir);
	if (mkdir(conf, 0755) < 0)
		return 99;
	free(conf);
	conf = xasprintf("%s/a:b,c/ceph.conf", dir);
	kr = xasprintf("%s/a:b,c/keyring", dir);
	if (write_file_atomic(conf, text_conf, strlen(text_conf), 0644) ||
	    write_file_atomic(kr, text_kr, strlen(text_kr), 0600))
		return 99;

	vm_rbd_resolve_or_die(&s, &o, &c);
	TAP_EQ_INT(s.rbd.disks.n, 0, "no --rbd, no QEMU_RBD_DISKS: no disks, no files needed");

	conf_set(&c, "CEPH_CONF", conf);
	conf_set(&c, "CEPH_USER", "client.rapido");
	conf_set(&c, "QEMU_RBD_DISKS", "rbd/one pool2/two");
	vm_rbd_resolve_or_die(&s, &o, &c);
	tap_ok(s.rbd.disks.n == 2 && !strcmp(s.rbd.disks.v[1], "pool2/two"), "QEMU_RBD_DISKS: two images");
	TAP_EQ_STR(s.rbd.keyring, kr, "the keyring next to CEPH_CONF");
	TAP_EQ_STR(s.rbd.user, "rapido", "CEPH_USER without client.");
	TAP_EQ_INT(s.rbd.timeout, 20, "CEPH_TIMEOUT default 20s");
	vm_rbd_free(&s.rbd);

	strv_push(&o.rbd, "rbd/img");
	vm_rbd_resolve_or_die(&s, &o, &c);
	tap_ok(s.rbd.disks.n == 1 && !strcmp(s.rbd.disks.v[0], "rbd/img"), "--rbd replaces the key's list");
	vm_rbd_argv(&s, &argv);
	want = xasprintf("file=rbd:rbd/img:id=rapido:conf=%s/a\\:b,,c/ceph.conf:keyring=%s/a\\:b,,c/keyring"
			 ":client_mount_timeout=20:rados_mon_op_timeout=20,format=raw,if=none,id=rbd0,"
			 "cache=writeback", dir, dir);
	tap_ok(argv.n == 4 && !strcmp(argv.v[0], "-drive"), "one -drive and one -device");
	TAP_EQ_STR(argv.n == 4 ? argv.v[1] : NULL, want, "':' escaped for rbd:, ',' doubled for qemu");
	free(want);
	strv_free(&argv);
	vm_rbd_free(&s.rbd);
	vm_opts_free(&o);
	conf_free(&c);
	unlink(conf);
	unlink(kr);
	free(conf);
	free(kr);
	conf = xasprintf("%s/a:b,c", dir);
	rmdir(conf);
	free(conf);
	rmdir(dir);
	return tap_done();
}
