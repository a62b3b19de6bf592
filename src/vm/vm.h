/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vm.h: ./vm, which boots an image made by ./cut in qemu and reports its
 * result: resolve the settings (settings.h), take a VM number, launch,
 * wait.
 */
#ifndef RAPIDO_VM_H
#define RAPIDO_VM_H

#include <stdint.h>

#include "conf.h"
#include "settings.h"
#include "strv.h"

/* One run: the settings plus what was decided once a VM number was taken. */
struct vm_launch {
	const struct vm_settings *s;
	unsigned int vm;
	enum vm_accel accel;		/* KVM or TCG by now */
	char *console_log;		/* written by ./vm from the console pipe */
	char *qmp_path;			/* the QMP socket for ./vmctl */
	char *mpath_list;		/* vmN.mpath: the paths, for ./vmctl */
	char *hvc_path;			/* vmN.hvc: the virtio console's shell, for ./vmctl */
	unsigned int gdb_port;		/* --gdb: the port, derived from the VM number if not given */
	struct strv net_args;		/* -netdev/-device pairs (vm_net_plan) */
	struct strv net_kparams;	/* rapido.ip= for the guest init */
	struct vm_virtiofsd *virtiofsd;	/* per virtiofs share: its socket and daemon (virtiofs.c) */
	unsigned char *mpath_direct;	/* per multipath disk: cache=none (O_DIRECT) works */
	struct vm_initrd initrd;	/* a cached image put together; path NULL: the image */
	char *kernel;			/* qemu's -kernel: the PVH ELF (pvh.c), else s->im.kernel */
	char nonce[33];			/* per boot: frames the guest's status record */
};

/* args.c */
void vm_parse_args(int argc, char **argv, struct vm_opts *o);

/* image.c: read rapido/vm.conf from an image. Returns 0 or -errno, *err set. */
int vm_image_read(const char *path, struct vm_image *im, char **err);
void vm_image_free(struct vm_image *im);
/* The kernel to boot is the release s->im was cut for, or die naming both (kernelmatch.c);
 * vm_kernel: where VM_KERNEL was set, NULL for the image's own kernel. */
void vm_kernel_match_or_die(const struct vm_settings *s, const struct vm_src *vm_kernel);

/*
 * pvh.c: the path of the ELF of s->im.kernel (an x86 bzImage) for qemu to
 * boot at its PVH entry, unpacked into the cache if need be (malloc'd);
 * NULL: boot s->im.kernel itself (VM_KERNEL_ENTRY=bzimage, not x86, no
 * PVH entry, or it could not be unpacked: warned).
 */
char *vm_pvh_kernel(const struct vm_settings *s);

/*
 * initrd.c: what qemu gets as -initrd for an image (assembled from ./cut's
 * cache if need be; dry_run: only which form it is). A layer that only
 * some boots need (layers.h) is left out unless kparams, the kernel's
 * command line (vm_kernel_params), asks for it; kparams NULL: all in.
 */
int vm_initrd_prepare(const char *image, int dry_run, const struct strv *kparams,
		      struct vm_initrd *ird, char **err);
void vm_initrd_free(struct vm_initrd *ird);

/*
 * spawn.c. ./vm hands qemu three descriptors at fixed numbers: the status
 * port (ttyS1) and the console's log copy are pipes that ./vm reads, so
 * neither depends on free space in the state dir; the third is ./vm's own
 * QMP monitor, which says why qemu stopped (a QMP quit, a signal, a panic).
 */
#define VM_FD_STATUS 3
#define VM_FD_CONSOLE 4
#define VM_FD_MONITOR 5
/* --results: the guest's results port (a virtio serial port), a pipe too */
#define VM_FD_RESULTS 6
void vm_qemu_argv(const struct vm_launch *l, struct strv *argv);
/* qemu.c: the kernel's command line, a parameter a string (-append joins them). */
void vm_kernel_params(const struct vm_launch *l, struct strv *k);

/* The devices each have a file (devices.h); rbd.c and net.c have these too. */

/* rbd.c: --rbd / QEMU_RBD_DISKS, resolved (dies on errors) and as qemu devices rbdN. */
void vm_rbd_resolve_or_die(struct vm_settings *s, struct vm_opts *o, const struct conf *c);
void vm_rbd_free(struct vm_rbd *r);
void vm_rbd_argv(const struct vm_settings *s, struct strv *argv);

/*
 * net.c: qemu NIC arguments and the guest's rapido.ip= parameters for VM
 * number vm; dies only where the number matters (the TAP device, an
 * address out of its network).
 */
void vm_net_plan(const struct vm_settings *s, unsigned int vm, struct strv *args,
		 struct strv *kparams);

/*
 * slot.c: take the first free VM number under a lock; fd stays open (and
 * locked). -ENOTREG or another -errno with *vm the number whose LOCKDIR/vmN.lock
 * cannot be used (a symbolic link, a FIFO: the directory is everyone's).
 */
int vm_slot_take(const char *lock_dir, unsigned int max, unsigned int *vm, int *lock_fd);
/* VM_LOCK_DIR, else /run/lock/rapido (or /tmp/rapido-locks): one per machine. */
char *vm_lock_dir_or_die(const struct conf *c);

/* accel.c */
/* 0 if /dev/kvm can create a VM, else -errno with *why set. */
int vm_kvm_usable(const char **why);
/* Remember that KVM hung on this host boot; and ask whether it did. */
void vm_kvm_mark_broken(const char *state_dir);
int vm_kvm_known_broken(const char *state_dir);
/* KVM or TCG for this run, from the setting and what the host can do. */
enum vm_accel vm_accel_choose(const struct vm_settings *s);

/* vmcore.c: name of the next vmcore of VM vm in the state dir (malloc'd); prune to keep-1 older ones. */
char *vm_vmcore_path(const struct vm_settings *s, unsigned int vm);

/*
 * errout.c: ./vm's stderr through a description of its own that waits
 * for a stalled reader at most 2 s (its children get fd 2's stderr back);
 * fd: that description, else 2.
 */
void vm_errout_init(void);
int vm_errout_fd(void);

/*
 * deadline.c: --timeout over every step of ./vm. arm: from now, SIGALRM
 * ends ./vm with 124 naming the step; step: what ./vm does now (a string
 * literal); stop: no alarm any more (the qemu loop has its own timer),
 * returns the seconds left; left: the seconds left (0: no timeout).
 */
void vm_deadline_arm(unsigned int secs);
void vm_deadline_step(const char *what);
double vm_deadline_stop(void);
double vm_deadline_left(void);

/* COMMAND_LINE_SIZE on x86 and arm64: the kernel's command line with its NUL */
#define VM_CMDLINE_MAX 2048
/* qemu.c: a kernel command line over VM_CMDLINE_MAX dies (125) naming the limit. */
void vm_cmdline_check_or_die(const struct vm_launch *l);

/*
 * launch.c: run qemu, wait with the settings' timeout, return ./vm's exit
 * status; *cause (malloc'd) says it in words (results.txt's meta cause).
 */
int vm_run(struct vm_launch *l, int lock_fd, char **cause);
/* A fresh random nonce (32 hex digits) for one boot. */
void vm_new_nonce(char nonce[33]);


/*
 * resctx.c: the one door into src/results: the results context of a run
 * of settings s as VM number vm with accelerator accel (resctx.h). It
 * points into s; filled again when the accelerator changes.
 */
struct results_ctx;
void vm_results_ctx(struct results_ctx *c, const struct vm_settings *s, unsigned int vm,
		    enum vm_accel accel);

/* boot.c: one VM of these settings: take a VM number, launch, wait; the exit status. */
int vm_boot(const struct vm_settings *s);
int cmd_vm(int argc, char **argv);
/*
 * rapido run -- CMD: ./vm with argv, batch, running the shell command cmd
 * after the autorun; only cmd's output on stdout and stderr (execout.c).
 */
int cmd_vm_exec(int argc, char **argv, const char *cmd);

#endif
