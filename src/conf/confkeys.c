// SPDX-License-Identifier: GPL-2.0
/*
 * confkeys.c: which rapido.conf keys mean something. A key nothing reads is
 * almost always a typo (VM_MEMRY=2G), and silently booting with 512M instead
 * is worse than a warning that names the key it probably meant.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "confkeys.h"
#include "err.h"
#include "nearest.h"
#include "netaddr.h"
#include "num.h"
#include "size.h"
#include "splatkind.h"
#include "strbuf.h"

#define WORDS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define MIB (1ULL << 20)
#define TIB (1ULL << 40)

const struct confkey confkeys[] = {
	/* the kernel (./cut finds it, ./vm boots what ./cut recorded) */
	{ "KERNEL_SRC", CONFKEY_PATH, .help = "a built kernel tree; unset: an installed kernel" },
	{ "KERNEL_INSTALL_MOD_PATH", CONFKEY_PATH,
	  .help = "with KERNEL_SRC: INSTALL_MOD_PATH of its modules_install" },
	{ "KERNEL_RELEASE", CONFKEY_STR, .help = "the installed kernel to boot; unset: the newest" },
	/* the guest's architecture, and a foreign one's userspace and kernel */
	{ "ARCH", CONFKEY_STR, .help = "the guest's architecture (amd64, arm64); unset: the host's" },
	{ "SYSROOT", CONFKEY_PATH,
	  .help = "a foreign ARCH's sysroot; unset: ~/.cache/rapido/ARCH/sysroot" },
	/* ./cut */
	{ "DRACUT_OUT", CONFKEY_PATH, .help = "the image ./cut writes and ./vm boots; unset: "
	  "initrds/myinitrd in the rapido dir" },
	{ "DRACUT", CONFKEY_STR, .def = "dracut", .help = "the dracut program" },
	{ "CUT_CACHE_DIR", CONFKEY_PATH,
	  .help = "the layer cache; unset: $XDG_CACHE_HOME/rapido, else ~/.cache/rapido" },
	{ "CUT_EXTRA_BINS", CONFKEY_WORDS, .eg = "strace gdb",
	  .help = "host programs (and their libraries) ./cut adds to every profile; --bins adds more" },
	{ "CUT_BUSYBOX", CONFKEY_STR, .eg = "/bin/busybox, or empty for none",
	  .help = "the static busybox whose applets fill in the guest shell's tools; unset: busybox in PATH" },
	{ "CUT_BASH", CONFKEY_ENUM, .words = WORDS("auto", "static", "dynamic"), .def = "auto",
	  .help = "the guest's bash: the host's bash-static when it matches bash (auto), or force one" },
	{ "CUT_CACHE_SIZE", CONFKEY_SIZE, 0, 0, .def = "4G", .eg = "4G, or 0 for no cache",
	  .help = "the layer cache's size cap; 0: no cache" },
	/*
	 * ./vm; the ./vm option that overrides a key names it in its row of
	 * vm_options[] (src/vm/options.c), which takes the key's kind, range
	 * and default from here
	 */
	{ "QEMU_BIN", CONFKEY_STR, .help = "the qemu binary; unset: the image architecture's" },
	{ "QEMU_ACCEL", CONFKEY_ENUM, .words = WORDS("auto", "kvm", "tcg"), .flags = CONFKEY_ICASE,
	  .def = "auto", .help = "auto: KVM when it works, else TCG" },
	{ "KVM_PROBE_SECS", CONFKEY_UINT, 0, 3600, .def = "10",
	  .help = "seconds a KVM guest may stay silent before auto mode falls back to TCG" },
	{ "VM_CPUS", CONFKEY_UINT, 1, 1024, .def = "1", .help = "CPUs; unset: the profile's, else 1" },
	{ "VM_MEMORY", CONFKEY_SIZE, 64 * MIB, 0, .flags = CONFKEY_HOSTMEM, .def = "512M",
	  .eg = "512M or 2G",
	  .help = "memory; unset: the profile's, else 512M" },
	{ "VM_TIMEOUT", CONFKEY_UINT, 0, 7 * 24 * 3600, .def = "0",
	  .help = "seconds before a batch VM is killed; 0: never" },
	{ "QEMU_EXTRA_ARGS", CONFKEY_WORDS, .help = "more qemu arguments, shell-quoted" },
	{ "QEMU_EXTRA_KERNEL_PARAMS", CONFKEY_WORDS, .help = "more kernel parameters, shell-quoted" },
	{ "VIRTFS_SHARE_PATH", CONFKEY_PATH, .help = "a host directory shared at /host" },
	{ "VM_VIRTIOFS", CONFKEY_WORDS, .help = "host directories shared over virtiofs, "
	  "DIR[:TAG[:ro]] each (tag: virtiofsN)" },
	{ "VIRTIOFSD", CONFKEY_PATH, .help = "the virtiofsd ./vm starts; unset: PATH's, else "
	  "/usr/libexec/virtiofsd (Debian 13: virtiofsd) or /usr/lib/qemu/virtiofsd (Debian 12: "
	  "qemu-system-common)" },
	{ "VM_STATE_DIR", CONFKEY_PATH, .help = "the VMs' state; unset: $XDG_RUNTIME_DIR/rapido, else "
	  "/tmp/rapido-UID" },
	{ "VM_LOG_DIR", CONFKEY_PATH, .help = "console logs; unset: VM_STATE_DIR" },
	{ "VM_MAX", CONFKEY_UINT, 1, 100000, .def = "64", .help = "VM numbers ./vm may take" },
	{ "VM_LOCK_DIR", CONFKEY_PATH, .help = "the VM number locks; unset: /run/lock/rapido, else "
	  "/tmp/rapido-locks" },
	{ "VM_VMCORE_KEEP", CONFKEY_UINT, 0, 1000, .def = "3", .help = "vmcores kept per VM" },
	{ "VM_VMCORE_FORMAT", CONFKEY_ENUM, .def = "elf",
	  .words = WORDS("elf", "kdump-zlib", "kdump-lzo", "kdump-snappy"),
	  .help = "the format of a panicked guest's vmcore" },
	{ "VM_RESULTS_DIR", CONFKEY_PATH, .help = "where the guest's results go" },
	{ "VM_SHARD", CONFKEY_STR, .check = num_shard_check,
	  .help = "I/N: run the Ith of N shards of the suite" },
	{ "VM_SPLATS", CONFKEY_STR, .def = "all", .check = splat_mask_check,
	  .help = "kernel splats that fail a run; none: detection off" },
	{ "VM_JOBS", CONFKEY_UINT, 0, 1024, .def = "0",
	  .help = "batch runs with results: the tests as N shards in N VMs at once; 0: one VM" },
	{ "VM_SERIAL_TESTS", CONFKEY_PATH,
	  .help = "with VM_JOBS: a file of tests run in one VM after the others" },
	{ "VM_SPLATS_ALLOW", CONFKEY_PATH,
	  .help = "kernel reports (REGEX # REASON lines) that fail nothing" },
	{ "VM_TEST_TIMEOUT", CONFKEY_UINT, 0, 7 * 24 * 3600, .def = "0",
	  .help = "seconds a test may run before the VM is stopped with its stacks" },
	{ "VM_TEST_TIMEOUT_DUMP", CONFKEY_ENUM, .words = WORDS("no", "yes"), .def = "no",
	  .help = "yes: a vmcore of a VM the test watchdog stops" },
	{ "VM_KNOWN_FAILURES", CONFKEY_WORDS,
	  .help = "files of known failures: those tests fail no run" },
	{ "VM_RERUN_FAILURES", CONFKEY_UINT, 0, 100, .def = "0",
	  .help = "re-runs of a failed test in the same guest; a pass then is flaky" },
	{ "VM_KERNEL", CONFKEY_PATH, .help = "the kernel to boot instead of the one ./cut recorded" },
	{ "VM_KERNEL_ENTRY", CONFKEY_ENUM, .words = WORDS("pvh", "bzimage"), .def = "pvh",
	  .help = "x86: boot the ELF inside the bzImage at its PVH entry (unpacked once into "
		  "CUT_CACHE_DIR/kernels), or the bzImage itself" },
	{ "QEMU_MPATH_DISKS", CONFKEY_WORDS, .help = "files attached as multipath disks" },
	{ "QEMU_MPATH_PATHS", CONFKEY_UINT, 1, 16, .def = "2", .help = "paths per multipath disk" },
	/* networking: ./vm and ./netsetup */
	{ "NET", CONFKEY_ENUM, .words = WORDS("tap", "user", "none"), .def = "none",
	  .help = "the guest's network; unset: tap with --tap, user with --hostfwd, else none" },
	{ "BR_DEV", CONFKEY_STR, .def = "rapido-br0", .help = "the bridge ./netsetup makes" },
	{ "BR_ADDR", CONFKEY_ADDR, .flags = CONFKEY_BRIDGE, .def = NETADDR_BR_DEFAULT,
	  .eg = NETADDR_BR_DEFAULT, .help = "the bridge's address; VM N gets .(100+N)" },
	{ "TAP_DEVS", CONFKEY_WORDS, .def = "rapido-tap1 rapido-tap2",
	  .help = "the TAP devices, VM N uses the Nth (past the list: rapido-tapN)" },
	{ "TAP_USER", CONFKEY_STR, .help = "the TAP devices' owner; unset: $SUDO_USER, else the caller" },
	{ "VM#_IP", CONFKEY_ADDR, .eg = "192.168.155.7/24", .help = "VM N's address on the bridge" },
	{ "VM#_IP#", CONFKEY_ADDR, .eg = "192.168.155.7/24", .help = "VM N's address on NIC M" },
	{ "LINK_SUBNET", CONFKEY_ADDR, .def = "192.168.156.0/24", .eg = "192.168.156.0/24",
	  .help = "the network of --link-listen/--link-connect" },
	{ "USER_HOSTFWD", CONFKEY_WORDS, .help = "NET=user port forwards, as qemu's hostfwd=" },
	/* Ceph: ./cut and ./vm --rbd (the cluster's files), ./ceph-local */
	{ "CEPH_CONF", CONFKEY_PATH, .help = "the cluster's ceph.conf; unset: CEPH_LOCAL_DIR's" },
	{ "CEPH_KEYRING", CONFKEY_PATH, .flags = CONFKEY_SECRET, .help = "the client's keyring; unset: next to CEPH_CONF" },
	{ "CEPH_USER", CONFKEY_STR, .def = "admin", .help = "the client (client.admin)" },
	{ "CEPH_TIMEOUT", CONFKEY_UINT, 1, 3600, .def = "20",
	  .help = "seconds to reach the monitors" },
	{ "QEMU_RBD_DISKS", CONFKEY_WORDS, .help = "RBD images attached as disks" },
	{ "CEPH_LOCAL_DIR", CONFKEY_PATH, .flags = CONFKEY_ABSOLUTE, .def = "/var/tmp/rapido-ceph",
	  .help = "./ceph-local's cluster" },
	{ "CEPH_OSDS", CONFKEY_UINT, 1, 16, .def = "3", .help = "OSDs ./ceph-local starts" },
	{ "CEPH_OSD_STORE", CONFKEY_ENUM, .words = WORDS("memstore", "bluestore"), .def = "memstore",
	  .help = "in memory, or in sparse files" },
	/*
	 * 1T at most: a CI cluster's (1G by default) is far below it, and a
	 * memstore OSD keeps its data in RAM and a bluestore one in a sparse
	 * file of that size, so 1P or 1E is a typo that would fail only once
	 * the daemons start, or an OSD the host's memory or disk cannot back.
	 */
	{ "CEPH_OSD_SIZE", CONFKEY_SIZE, 256 * MIB, TIB, .def = "1G", .eg = "1G",
	  .help = "each OSD (bluestore: at least 1G)" },
	{ "CEPH_POOL_SIZE", CONFKEY_UINT, 1, 3, .def = "1",
	  .help = "copies of each object (at most CEPH_OSDS)" },
	{ "CEPH_FS_NAME", CONFKEY_STR, .def = "cephfs", .help = "the file system ./ceph-local makes" },
	{ "CEPH_RBD_POOL", CONFKEY_STR, .def = "rbd", .help = "the RBD pool" },
	{ "CEPH_RBD_IMAGE", CONFKEY_STR, .def = "rapido", .help = "the RBD image" },
	{ "CEPH_RBD_IMAGE_SIZE", CONFKEY_SIZE, 16 * MIB, TIB, .def = "256M", .eg = "1G",
	  .help = "the image ./ceph-local makes, whole MiB" },
	{ "CEPH_UP_TIMEOUT", CONFKEY_UINT, 10, 3600, .def = "300",
	  .help = "seconds for ./ceph-local up to reach HEALTH_OK" },
	/*
	 * Profiles read these (cifs, samba_*, usb_rbd) and mark them `#@
	 * secret:`; here so that a user's profile passing one is as careful
	 */
	{ "CIFS_PASS", CONFKEY_STR, .flags = CONFKEY_SECRET,
	  .help = "the CIFS password the cifs and samba profiles use" },
	{ "USB_RBD_KEY", CONFKEY_STR, .flags = CONFKEY_SECRET,
	  .help = "usb_rbd's LUKS passphrase" },
	{ .key = NULL }
};

int confkey_secret(const char *key, const struct strv *extra)
{
	const struct confkey *k = confkey_find(key);

	return (k && (k->flags & CONFKEY_SECRET)) || (extra && strv_contains(extra, key));
}

const char *confkey_shown(const char *key, const char *val, const struct strv *extra)
{
	const struct confkey *k = confkey_find(key);

	if (k && k->kind == CONFKEY_PATH)
		return val;
	return confkey_secret(key, extra) ? "***" : val;
}

const struct confkey *confkey_find(const char *key)
{
	for (const struct confkey *k = confkeys; k->key; k++)
		if (confkeys_match(k->key, key))
			return k;
	return NULL;
}

int confkeys_match(const char *pattern, const char *key)
{
	for (; *pattern; pattern++) {
		if (*pattern != '#') {
			if (*key++ != *pattern)
				return 0;
			continue;
		}
		if (!isdigit((unsigned char)*key))
			return 0;
		while (isdigit((unsigned char)*key))
			key++;
	}
	return !*key;
}

int confkeys_known(const char *key, const struct strv *extra)
{
	return confkey_find(key) || (extra && strv_contains(extra, key));
}

/* PATTERN with each '#' replaced by the next number in KEY ("1" past the last). */
static char *instantiate(const char *pattern, const char *key)
{
	struct strbuf out = STRBUF_INIT;

	strbuf_reset(&out);
	for (const char *p = pattern; *p; p++) {
		size_t len;

		if (*p != '#') {
			strbuf_addc(&out, *p);
			continue;
		}
		while (*key && !isdigit((unsigned char)*key))
			key++;
		len = strspn(key, "0123456789");
		if (len)
			strbuf_add(&out, key, len);
		else
			strbuf_addc(&out, '1');
		key += len;
	}
	return out.s;
}

char *confkeys_suggest(const char *key, const struct strv *extra)
{
	struct strv cands = STRV_INIT;
	const char *near;
	char *r;

	for (size_t i = 0; confkeys[i].key; i++) {
		char *cand = instantiate(confkeys[i].key, key);

		strv_push(&cands, cand);
		free(cand);
	}
	for (size_t i = 0; extra && i < extra->n; i++)
		strv_push(&cands, extra->v[i]);
	near = nearest_word(key, &cands);
	r = near ? xstrdup(near) : NULL;
	strv_free(&cands);
	return r;
}

void confkeys_check(const struct conf *c, const struct strv *extra, struct strv *msgs)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct conf_entry *e = &c->e[i];
		char *near;

		/* only the file's own keys; a helper key other lines expand is in use */
		if (!e->origin || e->used || confkeys_known(e->key, extra))
			continue;
		near = confkeys_suggest(e->key, extra);
		if (near)
			strv_pushf(msgs, "%s: warning: unknown key %s: no program or profile reads it "
				   "(did you mean %s?)", e->origin, e->key, near);
		else
			strv_pushf(msgs, "%s: warning: unknown key %s: no program or profile reads it "
				   "(rapido.conf.example lists the keys)", e->origin, e->key);
		free(near);
	}
}

