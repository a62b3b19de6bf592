// SPDX-License-Identifier: GPL-2.0
/*
 * boot.c: one VM of resolved settings: take a VM number, plan what needs
 * it, launch (or print the command line), wait. ./vm runs one; --jobs
 * (jobs.c) runs one in each of its forks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devices.h"
#include "err.h"
#include "mono.h"
#include "rapido.h"
#include "verdict.h"
#include "vm.h"

/* Everything that needs the VM number: paths, NICs, the accelerator. */
static void launch_init(struct vm_launch *l, const struct vm_settings *s, unsigned int vm)
{
	memset(l, 0, sizeof(*l));
	l->s = s;
	l->vm = vm;
	l->console_log = s->log ? xstrdup(s->log) : xasprintf("%s/vm%u.log", s->log_dir, vm);
	l->qmp_path = xasprintf("%s/vm%u.qmp", s->state_dir, vm);
	l->mpath_list = xasprintf("%s/vm%u.mpath", s->state_dir, vm);
	l->hvc_path = xasprintf("%s/vm%u.hvc", s->state_dir, vm);
	l->initrd.fd = -1;
	for (const struct vm_device *const *d = vm_devices; *d; d++)
		if ((*d)->plan)
			(*d)->plan(l);
	l->accel = vm_accel_choose(s);
}

static void launch_free(struct vm_launch *l)
{
	free(l->console_log);
	free(l->qmp_path);
	free(l->mpath_list);
	free(l->hvc_path);
	vm_initrd_free(&l->initrd);
	free(l->kernel);
	for (const struct vm_device *const *d = vm_devices; *d; d++)
		if ((*d)->free)
			(*d)->free(NULL, l);
}

/* What a real run creates before qemu starts: directories, the assembled image. */
static void launch_prepare_or_die(struct vm_launch *l)
{
	const struct vm_settings *s = l->s;
	char *err;

	if (mkdir(s->log_dir, 0755) < 0 && errno != EEXIST)
		die_errno("cannot create log directory %s", s->log_dir);
	if (s->initrd.needs_cache) {
		struct strv k = STRV_INIT;

		vm_deadline_step("putting the image together from the layer cache");
		/* the layers this boot's command line asks for; a fallback to TCG asks no other */
		vm_kernel_params(l, &k);
		if (vm_initrd_prepare(s->image, 0, &k, &l->initrd, &err))
			die("%s", err);
		strv_free(&k);
	}
}

/* One VM: take a VM number, launch (or print the command line), wait; the exit status. */
int vm_boot(const struct vm_settings *s)
{
	struct vm_launch l;
	unsigned int vm;
	int lock_fd, rc;

	vm_deadline_step("taking a VM number");
	rc = vm_slot_take(s->lock_dir, s->max_vms, &vm, &lock_fd);
	if (rc == -EBUSY)
		die("all %u VM numbers are taken (VM_MAX in rapido.conf; holders in %s)", s->max_vms,
		    s->lock_dir);
	if (rc)
		die_err(rc, "cannot take a VM number: %s/vm%u.lock", s->lock_dir, vm);
	launch_init(&l, s, vm);
	vm_cmdline_check_or_die(&l);
	/* in --dry-run too: the command line printed is the one a boot runs */
	vm_deadline_step("finding the kernel's PVH entry");
	l.kernel = vm_pvh_kernel(s);

	if (s->dry_run) {
		struct strv qargv = STRV_INIT;

		vm_new_nonce(l.nonce);	/* each real boot draws its own */
		vm_qemu_argv(&l, &qargv);
		strv_print_quoted(stdout, &qargv);
		strv_free(&qargv);
		close_stdout();
		rc = 0;
	} else {
		/* a stale socket must not block qemu (conlog.c truncates the log) */
		unlink(l.qmp_path);
		unlink(l.hvc_path);
		launch_prepare_or_die(&l);
		vm_deadline_step("preparing the VM");
		for (const struct vm_device *const *d = vm_devices; *d; d++)
			if ((*d)->start)
				(*d)->start(&l);
		double start = mono_secs();

		char *cause;

		rc = vm_run(&l, lock_fd, &cause);
		/*
		 * One line at the end for a person at a terminal (CI reads the
		 * exit status and the log); not on a pipe, so scripts that
		 * read stderr see no change.
		 */
		if (isatty(2))
			verdict_summary(l.vm, rc, cause, mono_secs() - start, l.console_log);
		free(cause);
		unlink(l.qmp_path);
		unlink(l.hvc_path);
		for (const struct vm_device *const *d = vm_devices; *d; d++)
			if ((*d)->stop)
				(*d)->stop(&l);
	}
	close(lock_fd);
	launch_free(&l);
	return rc;
}
