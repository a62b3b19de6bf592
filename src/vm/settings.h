/* SPDX-License-Identifier: GPL-2.0 */
/*
 * settings.h: everything ./vm needs, resolved once from the options, the
 * environment, rapido.conf and the image, each value with where it came
 * from. Every check happens while resolving, before a VM number is taken;
 * what runs afterwards (the devices, qemu.c, launch.c) only reads it; what
 * needs the VM number or the host goes into struct vm_launch (vm.h).
 */
#ifndef RAPIDO_VM_SETTINGS_H
#define RAPIDO_VM_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "conf.h"
#include "known.h"
#include "netaddr.h"
#include "strv.h"

struct splat_allow;

enum vm_accel { ACCEL_AUTO, ACCEL_KVM, ACCEL_TCG };
enum vm_net_mode { NET_NONE, NET_TAP, NET_USER };
/*
 * Who writes the console to stdout: qemu, all of it (-v; not a terminal);
 * ./vm without the kernel's boot log (a terminal, or -q interactive); ./vm,
 * kernel reports only (-q --batch).
 */
enum vm_display_mode { DISPLAY_ALL, DISPLAY_BOOT_QUIET, DISPLAY_REPORTS };

/* Where a value came from, for messages: "--cpus", "rapido.conf:3: VM_CPUS", ... */
enum vm_src_kind { SRC_DEFAULT, SRC_OPTION, SRC_ENV, SRC_FILE, SRC_IMAGE };
struct vm_src {
	enum vm_src_kind kind;
	const char *name;	/* option (with dashes), key, or profile */
	const char *file;	/* SRC_FILE: "FILE:LINE" (conf_origin) */
};
/*
 * Render a source into buf: "--cpus", "environment: VM_CPUS",
 * "FILE:LINE: VM_CPUS", "profile simple", "default". Returns buf.
 */
const char *vm_src_str(const struct vm_src *s, char *buf, size_t len);

/* A VM-to-VM link over a qemu socket netdev. */
struct vm_link {
	int listen;		/* else connect */
	const char *hostport;	/* HOST:PORT (checked once resolved) */
};

/*
 * The command line, as given; resolved into settings. Filled by the
 * option table (options.c): an option that overrides a rapido.conf key
 * with one value needs no field here (given[], read by the key through
 * vm_opt_setting(), lookup.h); the others fill theirs.
 */
#define VM_OPTS_GIVEN 64	/* rows of vm_options[] at most */
struct vm_opts {
	const char *given[VM_OPTS_GIVEN];	/* by row: what a key's option was given, or NULL */
	const char *image;	/* NULL: DRACUT_OUT or the default image */
	int batch;
	int dry_run;
	int verbose, quiet;	/* -v, -q: how much of the console stdout gets */
	const char *log;	/* --log PATH */
	struct strv shares;	/* --share DIR (9p, mounted in the guest) */
	struct strv virtiofs;	/* --virtiofs DIR[:TAG[:ro]] */
	struct strv mpath;	/* --mpath FILE: one disk seen through several paths */
	struct strv rbd;	/* --rbd POOL/IMAGE: an RBD image through qemu's rbd driver */
	const char *tap;	/* --tap NAME */
	struct strv hostfwd;	/* --hostfwd SPEC (user mode) */
	struct vm_link *links;	/* --link-listen, --link-connect, in order */
	size_t n_links;
	struct strv extra;	/* after -- */
	struct strv append;	/* --append ARGS (each split into words) */
	const char *gdb;	/* --gdb[=HOST:PORT]: "" for the default */
	int gdb_wait;		/* --gdb-wait */
	const char *exec;	/* rapido run -- CMD: run CMD after the autorun (execout.c) */
	struct known_cli known;	/* --known-failures, --rerun-failures, ... (known.h) */
};
void vm_opts_free(struct vm_opts *o);

/* What ./cut recorded in the image (rapido/vm.conf). */
struct vm_image {
	char *path;
	char *profile;
	const struct arch *arch;	/* ARCH the image was cut for */
	char *kernel;
	char *release;
	unsigned int cpus;	/* 0: not stated */
	uint64_t memory;	/* bytes, 0: not stated */
	unsigned int test_timeout;	/* #@ test-timeout: seconds, 0: not stated */
	int results;		/* #@ results: yes: the profile sends records */
	char *virtiofs;		/* #@ virtiofs: DIR:TAG[:ro], NULL: none */
};

/* The -initrd qemu gets for the image (initrd.c). */
struct vm_initrd {
	char *path;		/* the image, or /proc/self/fd/N of an assembled memfd */
	int fd;			/* the memfd (inherited by qemu, at 10 or above), or -1 */
	int needs_cache;	/* dry run of a cached image: path alone does not boot */
};

/* A virtiofs share: virtiofsd exports dir as tag, read-only if ro. */
struct vm_virtiofs {
	char *dir;
	char *tag;
	int ro;
};

/* A multipath disk: one backing file, `paths` scsi-hd devices with one serial. */
struct vm_mpath_disk {
	const char *file;
};

/* RBD images as virtio disks (rbd.c), with the cluster's files qemu reads. */
struct vm_rbd {
	struct strv disks;	/* POOL/IMAGE, checked */
	char *conf;		/* CEPH_CONF (default: the ./ceph-local cluster's) */
	char *keyring;		/* CEPH_KEYRING */
	char *user;		/* CEPH_USER without "client." */
	unsigned int timeout;	/* CEPH_TIMEOUT: seconds to reach the monitors */
};

/* A static guest address from rapido.conf: VM<vm>_IP (nic 0) or VM<vm>_IP<nic>. */
struct vm_static_ip {
	unsigned int vm, nic;
	struct ipv4_prefix addr;
};


struct vm_settings {
	char *image;
	struct vm_src image_src;
	struct vm_image im;
	struct vm_initrd initrd;	/* probed only: needs_cache says launch puts it together */
	int batch, dry_run;
	enum vm_display_mode display;	/* -v, -q, stdout a terminal (display.h) */
	const char *exec;	/* rapido run's command (vm_opts), NULL if none */

	const char *qemu;
	struct vm_src qemu_src;
	enum vm_accel accel;	/* as asked: ACCEL_AUTO is decided at launch */
	struct vm_src accel_src;
	unsigned int cpus;
	struct vm_src cpus_src;
	uint64_t memory;	/* bytes */
	struct vm_src memory_src;
	unsigned int timeout;	/* seconds, 0: none */
	struct vm_src timeout_src;
	unsigned int kvm_probe_secs;
	unsigned int max_vms;

	struct strv kparams;	/* QEMU_EXTRA_KERNEL_PARAMS, split, then --append */
	struct strv extra;	/* QEMU_EXTRA_ARGS, then the -- arguments */
	struct strv shares;	/* host directories shared over 9p, checked */
	struct vm_virtiofs *virtiofs;	/* host directories shared over virtiofs (virtiofs.c) */
	size_t n_virtiofs;
	char *virtiofsd;		/* its path, found when there is a share */
	int virtiofsd_rust, virtiofsd_readonly;	/* what its --help offers (toolver.h) */
	struct vm_mpath_disk *mpath;
	size_t n_mpath;
	unsigned int mpath_paths;
	struct vm_rbd rbd;

	enum vm_net_mode net;
	struct vm_src net_src;
	const char *tap;	/* --tap, else NULL */
	struct strv tap_devs;	/* TAP_DEVS, split; empty: rapido-tapN */
	struct vm_src tap_devs_src;
	struct strv hostfwd;	/* user mode port forwards, checked */
	struct ipv4_prefix br_net, link_net;
	struct vm_src br_net_src, link_net_src;
	struct vm_static_ip *ips;
	size_t n_ips;
	struct vm_link *links;
	size_t n_links;

	/* debugging */
	int gdb;		/* a gdb stub on gdb_host:gdb_port (+ VM number if not given) */
	char *gdb_host;
	unsigned int gdb_port;	/* 0: derived from the VM number */
	int gdb_wait;		/* stop the CPUs until gdb continues them */
	unsigned int vmcore_keep;	/* dumps kept per VM number; 0: no dumps */
	const char *vmcore_format;	/* elf, kdump-zlib, kdump-lzo, kdump-snappy */

	/* per-test results (results.h) */
	char *results_dir;	/* absolute, created with files/ in it; NULL: none */
	struct vm_src results_src;
	unsigned int shard_i, shard_n;	/* shard I of N; 0/0: no sharding */
	unsigned int splat_mask;	/* splat kinds that fail a passing run */
	/* --jobs: N shards in N VMs at once (jobs.c); 0: one VM */
	unsigned int jobs;
	struct vm_src jobs_src;
	/* tests run in one VM after the others: names or globs (--serial-tests) */
	struct strv serial_tests;
	enum vm_serial { SERIAL_NONE, SERIAL_DEFER, SERIAL_ONLY } serial;	/* this VM's part */
	struct splat_allow *splat_allow;	/* --splats-allow: reports that fail nothing; NULL */
	unsigned int test_timeout;	/* --test-timeout: seconds a test may run, 0: no watchdog */
	struct vm_src test_timeout_src;	/* the option, VM_TEST_TIMEOUT or the profile */
	int test_timeout_dump;		/* --test-timeout-dump: a vmcore before the VM stops */
	const char *kernel_src;		/* KERNEL_SRC, for run.json; NULL: an installed kernel */
	int kernel_pvh;			/* VM_KERNEL_ENTRY=pvh: an x86 kernel's ELF at its PVH entry */
	char *cache_dir;		/* ./cut's cache (kernels/ for pvh.c); NULL: none */
	struct known_opts known;	/* known failures and re-runs (knownopt.c) */

	char *state_dir;
	char *lock_dir;
	char *log_dir;
	const char *log;	/* --log, else NULL: LOG_DIR/vmN.log */
};

/*
 * Resolve settings from options, the configuration (with the environment
 * over the file) and the image; dies with the value's source on any error.
 * Takes over the option lists of o. Creates nothing but the state and
 * lock directories; the log directory and --results DIR are created at
 * launch.
 */
void vm_settings_resolve_or_die(struct vm_settings *s, struct vm_opts *o, const struct conf *c);
void vm_settings_free(struct vm_settings *s);

/* An accelerator name (auto, kvm, tcg; any case; empty is auto); -1 if unknown. */
int vm_accel_parse(const char *s, enum vm_accel *out);

#endif
