/* SPDX-License-Identifier: GPL-2.0 */
/* profile.h: a profile is autorun/NAME.sh; its "#@ key: value" header says what it needs. */
#ifndef RAPIDO_PROFILE_H
#define RAPIDO_PROFILE_H

#include <errno.h>
#include <stdint.h>

#include "conftype.h"
#include "strv.h"

/*
 * Header lines, anywhere in the script's leading comment block:
 *
 *	#@ description: one line shown by ./cut --list
 *	#@ bins: host binaries the image needs (names or absolute paths)
 *	#@ bins-optional: binaries included when the host has them
 *	#@ bins-if KEY: binaries required only when rapido.conf sets KEY
 *	#@ bins-optional-if KEY: included when KEY is set and the host has them
 *	#@ shell-bins: programs for a person at the guest's shell, which the
 *		  profile itself never runs: busybox's applet of the name where
 *		  the image has busybox and busybox has it (nothing of the
 *		  host's copied), else the host's, as bins-optional; names only
 *	#@ modules: kernel modules loaded at boot (must exist for the kernel)
 *	#@ modules-optional: modules included and loaded when the kernel has them
 *	#@ modules-on-demand: modules included when the kernel has them, not
 *		  loaded at boot: the profile (or the tests it runs) modprobe
 *		  the ones a configuration needs; "${KEY}": the modules
 *		  rapido.conf's KEY names (words), each one required
 *	#@ helpers: rapido helpers (tools/NAME) packed as /usr/bin/rapido-NAME
 *	#@ conf: rapido.conf keys that must be set; passed to the guest
 *	#@ conf-optional: keys passed to the guest when set
 *	#@ conf-type: KEY KIND [ARG]: a type for one of the profile's keys
 *		  (conftype.h: "FSTESTS_FS enum btrfs,xfs,ext4"), so ./cut
 *		  refuses a bad value before a boot
 *	#@ secret: conf or conf-optional keys whose values are secrets (passwords,
 *		   private keys): an image holding one is readable by its owner only
 *	#@ kconfig: kernel config symbols needed: CONFIG_X (y or m; make
 *		    kernel-config builds it in), CONFIG_X=m (y or m; built as a
 *		    module), CONFIG_X=y (built in), CONFIG_X=VALUE (exactly)
 *	#@ kconfig-optional: symbols make kernel-config sets (CONFIG_X=n: off)
 *		    and ./cut does not check
 *	#@ files: SRC:/DEST trees or files copied in; SRC may start with ${KEY}
 *		  (skipped when KEY is unset) or be relative to the rapido dir;
 *		  without ${KEY} it may be a glob pattern naming one path (a
 *		  versioned directory: /usr/lib/python3.[0-9]*), and a DEST
 *		  that is the same pattern is that path; parsed here (struct
 *		  profile_file), expanded by ./cut
 *	#@ include: NAME... reads the header of DIR/include/NAME.inc (DIR: the
 *		    profile's directory) as if its lines stood here: shared
 *		    parts (the NIC, zram) said once. Fragments may include
 *		    fragments; a cycle or a missing one is an error at the
 *		    including line. A fragment has no description.
 *	#@ packages: BIN=PKG...: the Debian package that has BIN, named when
 *		  ./cut cannot find BIN on the host (host/install-deps installs it)
 *	#@ kernel-config: yes: the kernel's config goes into the image as
 *		  /boot/config-RELEASE, where suites look for it (blktests'
 *		  _have_kernel_option, the kernel has no /proc/config.gz)
 *	#@ prepare KEY: PROGRAM [ARG...]: when rapido.conf leaves KEY unset,
 *		  ./cut runs PROGRAM (relative: in the rapido dir) before its
 *		  checks, with the profile's keys and the kernel's in its
 *		  environment, and takes the last line it prints as KEY's value
 *		  (a suite built to match the kernel: kselftest's tree); it
 *		  fails the cut, in its own words, when it cannot
 *	#@ cpus: 2
 *	#@ memory: 1G
 *	#@ memory-use: KEY FACTOR: KEY's value (a uint conf-type, MiB) times
 *		  FACTOR is guest memory the profile's RAM disks may take:
 *		  ./cut refuses a value that leaves the guest less than
 *		  PROFILE_MEMORY_RESERVE of its memory (VM_MEMORY, else memory)
 *	#@ test-timeout: SECS: seconds a test may run under ./vm --results
 *		  before the watchdog stops the VM with the task stacks (1 to
 *		  604800); --test-timeout and VM_TEST_TIMEOUT (the environment,
 *		  then rapido.conf) override it, as they do cpus and memory
 *	#@ virtiofs: DIR:TAG[:ro]: ./vm shares DIR over virtiofs as TAG
 *		  (as --virtiofs does) unless a share of its own has that tag;
 *		  one in a profile (with its fragments)
 *		  (hostfs: /:host:ro); DIR absolute, no blanks
 *	#@ results: yes: the profile's tests send records (autorun/lib/results.sh):
 *		  ./vm on a terminal without --results keeps them, and the
 *		  suite's own report, in VM_STATE_DIR/results/PROFILE-TIME
 *	#@ suite: KEY[/KEY...] NAME: WITHOUT: the profile drives the test suite
 *		  NAME, which the conf-optional KEY (or any of the KEYs) puts in
 *		  the image; ./cut with none of them set says so on one line,
 *		  naming the keys and what the image does WITHOUT it (a shell
 *		  with the devices set up). One a profile; a profile that can do
 *		  nothing without its suite makes the key "#@ conf:" instead
 *
 * Keys may repeat; list values accumulate, in reading order.
 */
/*
 * What #@ memory-use leaves the kernel, the image (unpacked in memory) and
 * the tests: 384 MiB (zoned_local: two disks of 384 MiB ran out of 1 GiB,
 * two of 256 did not)
 */
#define PROFILE_MEMORY_RESERVE (384ULL << 20)
/* The most #@ test-timeout takes: VM_TEST_TIMEOUT's maximum, a week. */
#define PROFILE_TEST_TIMEOUT_MAX (7 * 24 * 3600)

/* One "#@ files: SRC:/DEST" entry: SRC is "${KEY}PATH" or PATH. */
struct profile_file {
	char *key;		/* KEY of a leading ${KEY}; NULL: none */
	char *path;		/* SRC after ${KEY} (may be ""), or SRC */
	char *dest;		/* absolute */
};

struct profile {
	char *name;
	char *path;
	char *description;
	struct strv bins, bins_opt;
	struct strv bins_if, bins_opt_if;	/* "KEY=binary", "KEY=VALUE=binary" entries */
	struct strv shell_bins;	/* #@ shell-bins: program names, no '/' */
	struct strv modules, modules_opt;
	struct strv modules_demand;	/* in the image, loaded by the profile */
	struct strv helpers;
	struct strv conf, conf_opt;
	struct strv secret;	/* each also in conf or conf_opt (checked) */
	struct strv secret_at;	/* "FILE:LINE" of each secret, for errors */
	struct strv kconfig, kconfig_opt;
	struct strv kconfig_at, kconfig_opt_at;	/* "FILE:LINE" of each entry */
	struct profile_file *files;
	size_t n_files;
	struct confkey_types types;	/* #@ conf-type, each key the profile reads */
	char *prepare_key;	/* #@ prepare KEY: ...; NULL: none */
	struct strv prepare;	/* its PROGRAM and ARGs */
	char *prepare_at;	/* "FILE:LINE" */
	unsigned int cpus;	/* 0: not stated */
	uint64_t memory;	/* bytes, 0: not stated */
	struct strv memory_use;	/* "KEY=FACTOR" (#@ memory-use) */
	struct strv memory_use_at;	/* "FILE:LINE" of each */
	unsigned int test_timeout;	/* seconds, 0: not stated */
	struct strv virtiofs;	/* #@ virtiofs: DIR:TAG[:ro], for ./vm: at most one */
	struct strv sources;	/* the profile, then each fragment read, in order */
	struct strv packages;	/* "BIN=PKG": the Debian package of BIN */
	int kernel_config;	/* #@ kernel-config: yes */
	int results;		/* #@ results: yes */
	struct strv suite_keys;	/* #@ suite: its KEYs; none: no suite */
	char *suite_name, *suite_without, *suite_at;
};

/* The Debian package p names for BIN (#@ packages), or NULL. */
const char *profile_package(const struct profile *p, const char *bin);
/*
 * The Debian package that TEXT, autorun/packages' table (lines "NAME
 * PACKAGE SETS", # comments), names for the program BIN, newly allocated,
 * or NULL. host/install-deps installs from the same table.
 */
char *packages_table_lookup(const char *text, const char *bin);

/* A profile's or a fragment's bound: a file past it is none (a link to /dev/zero's bytes) */
#define PROFILE_FILE_MAX (1u << 20)
/*
 * Parse the header of PATH, a regular file of at most PROFILE_FILE_MAX bytes
 * (its fragments too), into p. Returns 0 or -errno with *err "FILE:LINE: ...";
 * PROFILE_ENODESC for a header with no "#@ description:" (a helper script
 * beside the profiles, not a profile).
 */
#define PROFILE_ENODESC (-ENODATA)
int profile_load(struct profile *p, const char *name, const char *path, char **err);
/*
 * The same for a profile's text already in memory; path is for messages
 * and says where "#@ include: NAME" looks (DIR/include/NAME.inc, read).
 */
int profile_parse(struct profile *p, const char *name, const char *path, const char *text,
		  char **err);

/*
 * Append the rapido.conf keys p names (conf, conf-optional, the KEY of
 * bins-if and bins-optional-if, ${KEY} in files), each once.
 */
void profile_conf_keys(const struct profile *p, struct strv *out);
void profile_free(struct profile *p);

/* Valid profile names: [A-Za-z0-9_-]+ (they become file names). */
int profile_name_valid(const char *name);
/*
 * A #@ shell-bins name: [A-Za-z0-9._+-]+, not starting with '.' or '-'
 * (busybox's applets and the host's programs: run-parts, c++, mkfs.ext4)
 */
int profile_program_name_valid(const char *name);

/*
 * Append the keys the profiles in DIR (its NAME.sh files) name in their
 * headers to out, and the types they give them (#@ conf-type) to types
 * (may be NULL). A profile whose header does not parse is skipped: ./cut
 * reports it when it is used. Returns 0, or -errno if DIR cannot be listed.
 */
int profile_dir_conf_keys(const char *dir, struct strv *out, struct confkey_types *types);

#endif
