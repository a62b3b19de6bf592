/* SPDX-License-Identifier: GPL-2.0 */
/* vm.h: ./vm, which boots an image made by ./cut in qemu and reports its result. */
#ifndef RAPIDO_VM_H
#define RAPIDO_VM_H

#include <stdint.h>

#include "conf.h"
#include "strv.h"

enum vm_accel { ACCEL_AUTO, ACCEL_KVM, ACCEL_TCG };

struct vm_opts {
	const char *image;	/* NULL: rapido_default_image() */
	int batch;
	int dry_run;
	unsigned int timeout;	/* seconds, 0: none */
	int timeout_set;
	const char *accel;	/* --accel, else QEMU_ACCEL */
	const char *log;	/* --log PATH */
	const char *cpus;	/* --cpus */
	const char *memory;	/* --memory */
	struct strv shares;	/* --share DIR (9p, mounted in the guest) */
	struct strv mpath;	/* --mpath FILE: one disk seen through several paths */
	const char *mpath_paths; /* --mpath-paths N */
	const char *net;	/* --net tap|user|none, else NET */
	const char *tap;	/* --tap NAME */
	struct strv hostfwd;	/* --hostfwd SPEC (user mode) */
	struct strv links;	/* "LHOST:PORT" listen / "CHOST:PORT" connect */
	struct strv extra;	/* after -- */
};

/* What ./cut recorded in the image (rapido/vm.conf). */
struct vm_image {
	char *path;
	char *profile;
	char *kernel;
	char *release;
	unsigned int cpus;	/* 0: not stated */
	uint64_t memory;	/* bytes, 0: not stated */
};

/* A multipath disk: one backing file, `paths` scsi-hd devices with one serial. */
struct vm_mpath_disk {
	const char *file;
	int direct;		/* cache=none (O_DIRECT) works on its filesystem */
};

/* Everything the qemu command line is made of; filled by cmd_vm, tested alone. */
struct vm_launch {
	const char *qemu;
	enum vm_accel accel;	/* KVM or TCG by now */
	unsigned int vm;
	unsigned int cpus;
	uint64_t memory;
	const char *kernel;
	const char *initrd;
	int batch;
	const char *console_log;
	const char *status_path;
	const char *qmp_path;
	const struct strv *kernel_params;	/* QEMU_EXTRA_KERNEL_PARAMS, split */
	const struct strv *shares;		/* host dirs shared with 9p */
	const struct vm_mpath_disk *mpath;	/* multipath disks */
	size_t n_mpath;
	unsigned int mpath_paths;		/* paths per disk */
	const struct strv *extra;		/* QEMU_EXTRA_ARGS, then -- args */
};

/* args.c */
void vm_parse_args(int argc, char **argv, struct vm_opts *o);

/* image.c: read rapido/vm.conf from an image. Returns 0 or -errno, *err set. */
int vm_image_read(const char *path, struct vm_image *im, char **err);
void vm_image_free(struct vm_image *im);

/* initrd.c: what qemu gets as -initrd for an image (assembled from ./cut's cache if need be). */
struct vm_initrd {
	char *path;		/* the image, or /proc/self/fd/N of an assembled memfd */
	int fd;			/* the memfd (inherited by qemu), or -1 */
	int needs_cache;	/* dry run of a cached image: path alone does not boot */
};
int vm_initrd_prepare(const char *image, int dry_run, struct vm_initrd *ird, char **err);
void vm_initrd_free(struct vm_initrd *ird);

/* qemu.c */
void vm_qemu_argv(const struct vm_launch *l, struct strv *argv);
/* A value for a qemu option list, with ',' doubled (malloc'd). */
char *qopt(const char *s);
int vm_accel_parse(const char *s, enum vm_accel *out);

/* mpath.c: qemu devices for the multipath disks; ids are mp<DISK>p<PATH>. */
void vm_mpath_argv(const struct vm_launch *l, struct strv *argv);
/* Serial number of disk i (VPD page 0x80), the same on every path. */
char *vm_mpath_serial(size_t disk);
char *vm_mpath_wwn(size_t disk);
/* SCSI target id of a path: disk * paths + path (virtio-scsi allows 0..255) */
size_t vm_mpath_scsi_id(size_t disk, unsigned int path, unsigned int paths);
/* Validate FILE and probe O_DIRECT; dies with the path on errors. */
void vm_mpath_check_or_die(const char *file, int *direct);

/* net.c: qemu NIC arguments and the guest's rapido.ip= parameters; dies on bad config. */
void vm_net_plan(const struct conf *c, const struct vm_opts *o, unsigned int vm,
		 struct strv *args, struct strv *kparams);

/* slot.c: take the first free VM number under a lock; fd stays open (and locked). */
int vm_slot_take(const char *state_dir, unsigned int max, unsigned int *vm, int *lock_fd);

/* accel.c */
/* 0 if /dev/kvm can create a VM, else -errno with *why set. */
int vm_kvm_usable(const char **why);
/* Remember that KVM hung on this host boot; and ask whether it did. */
void vm_kvm_mark_broken(const char *state_dir);
int vm_kvm_known_broken(const char *state_dir);

/* launch.c: run qemu, wait with timeout, return ./vm's exit status. */
int vm_run(struct vm_launch *l, unsigned int timeout,
	   unsigned int kvm_probe_secs, int auto_accel, const char *state_dir, int lock_fd);

int cmd_vm(int argc, char **argv);

#endif
