/* SPDX-License-Identifier: GPL-2.0 */
/*
 * resctx.h: the one door into src/results for a program that boots:
 * what a run's verdict needs (its results dir, the verdict's options, the
 * run's facts), filled by the launcher from its own settings (./vm:
 * src/vm/resctx.c). The results code sees this and nothing of the
 * launcher, so a new launcher setting the verdict needs is one field here.
 */
#ifndef RAPIDO_RESULTS_RESCTX_H
#define RAPIDO_RESULTS_RESCTX_H

struct known_opts;
struct splat_allow;

struct results_ctx {
	/* where: NULL, no --results (the splats are still reported) */
	const char *dir;
	char dir_where[512];		/* what set dir, for messages: the option or key */

	/* the verdict's options */
	const struct known_opts *known;	/* known failures, --flaky, --rerun-failures, --strict,
					 * --write-known-failures (known.h); never NULL */
	unsigned int splat_mask;	/* splat kinds that fail a passing run (splatkind.h) */
	const struct splat_allow *splat_allow;	/* --splats-allow; NULL: none */
	unsigned int shard_i, shard_n;	/* shard I of N; 0/0: no sharding */
	int serial_only;		/* the VM of the tests that run alone (--jobs) */
	unsigned int jobs;		/* --jobs N: N VMs into dir; 0: one VM */

	/* the run's facts (run.json, the suite's meta records, messages) */
	unsigned int vm;		/* the VM number: "vmN: ..." */
	const char *profile, *release;	/* the image's profile and kernel release */
	const char *kernel;		/* the kernel booted */
	const char *kernel_src;		/* KERNEL_SRC; NULL: an installed kernel */
	const char *image;		/* the image booted */
	const char *qemu;		/* the qemu binary */
	const char *accel;		/* "kvm", "tcg", or "auto": not decided yet */
};

#endif
