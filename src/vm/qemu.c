// SPDX-License-Identifier: GPL-2.0
/*
 * qemu.c: the qemu command line, as a vector: no value ever meets a
 * shell. The machine, then each device of vm_devices[] (devices.h) in
 * turn, then the user's extra arguments; the kernel command line the same
 * way.
 */
#include <stdlib.h>
#include <string.h>

#include "devices.h"
#include "err.h"
#include "protocol.h"
#include "vm.h"

void vm_kernel_params(const struct vm_launch *l, struct strv *k)
{
	const struct vm_settings *s = l->s;
	const struct arch *a = s->im.arch;

	strv_pushf(k, "console=%s", a->console);
	strv_push(k, "panic=-1");
	if (l->accel == ACCEL_TCG && *a->tcg_kparams)
		strv_push(k, a->tcg_kparams);
	/* the init writes its status record to that virtio serial port, not to ttyS1 */
	if (a->status_port)
		strv_pushf(k, KP_STATUS "%s", a->status_port);
	strv_pushf(k, KP_VM "%u", l->vm);
	strv_pushf(k, KP_NONCE "%s", l->nonce);
	if (s->batch)
		strv_push(k, KP_BATCH "1");
	for (const struct vm_device *const *d = vm_devices; *d; d++)
		if ((*d)->kparams)
			(*d)->kparams(l, k);
	strv_push_all(k, &s->kparams);
	/*
	 * After the user's parameters, so it wins: the splat scanner tells
	 * the kernel's lines from the guest's by the printk timestamp, and a
	 * kernel built without CONFIG_PRINTK_TIME (or printk.time=0) would
	 * hide every Oops and WARNING from it.
	 */
	strv_push(k, "printk.time=1");
}

/* The kernel command line: what ./vm and the network add, then the user's parameters. */
static char *kernel_cmdline(const struct vm_launch *l)
{
	struct strv append = STRV_INIT;
	size_t len = 0;
	char *cmdline, *p;

	vm_kernel_params(l, &append);
	for (size_t i = 0; i < append.n; i++)
		len += strlen(append.v[i]) + 1;
	cmdline = p = xmalloc(len + 1);
	for (size_t i = 0; i < append.n; i++) {
		size_t n = strlen(append.v[i]);

		memcpy(p, append.v[i], n);
		p += n;
		*p++ = ' ';
	}
	p[append.n ? -1 : 0] = '\0';
	strv_free(&append);
	return cmdline;

}

void vm_cmdline_check_or_die(const struct vm_launch *l)
{
	struct vm_launch t = *l;
	char *cmdline;
	size_t len;

	/* the longest it gets: a fallback to TCG adds its parameters; a nonce is 32 digits */
	t.accel = ACCEL_TCG;
	memset(t.nonce, 'x', 32);
	t.nonce[32] = '\0';
	cmdline = kernel_cmdline(&t);
	len = strlen(cmdline);
	free(cmdline);
	if (len + 1 > VM_CMDLINE_MAX)
		die("the kernel command line would be %zu characters, over the kernel's limit of %d "
		    "(COMMAND_LINE_SIZE, with its NUL, on x86 and arm64; the kernel would cut it and "
		    "hang): shorten --append or QEMU_EXTRA_KERNEL_PARAMS", len, VM_CMDLINE_MAX - 1);
}

void vm_qemu_argv(const struct vm_launch *l, struct strv *argv)
{
	const struct vm_settings *s = l->s;
	const struct arch *a = s->im.arch;
	char *cmdline;

	strv_push(argv, s->qemu);
	strv_pushf(argv, "-name");
	strv_pushf(argv, "rapido-vm%u", l->vm);
	/* nothing we did not ask for: no default NIC, VGA, floppy or user config */
	strv_push(argv, "-nodefaults");
	strv_push(argv, "-no-user-config");
	strv_push(argv, "-display");
	strv_push(argv, "none");
	/* with panic=-1 a panic reboots at once, and -no-reboot turns that into exit */
	strv_push(argv, "-no-reboot");
	/* the machine, CPU, console and status port are the image's architecture's (arch.c) */
	strv_push(argv, "-machine");
	strv_push(argv, a->machine);
	strv_push(argv, "-accel");
	if (l->accel == ACCEL_KVM) {
		strv_push(argv, "kvm");
		strv_push(argv, "-cpu");
		strv_push(argv, "host");
	} else {
		strv_push(argv, "tcg");
		strv_push(argv, "-cpu");
		strv_push(argv, a->tcg_cpu);
	}
	strv_push(argv, "-smp");
	strv_pushf(argv, "%u", s->cpus);
	strv_push(argv, "-m");
	strv_pushf(argv, "%lluM", (unsigned long long)(s->memory >> 20));
	strv_push(argv, "-kernel");
	strv_push(argv, l->kernel ? l->kernel : s->im.kernel);
	strv_push(argv, "-initrd");
	strv_push(argv, l->initrd.path ? l->initrd.path : s->image);

	cmdline = kernel_cmdline(l);
	strv_push(argv, "-append");
	strv_push(argv, cmdline);
	free(cmdline);

	for (const struct vm_device *const *d = vm_devices; *d; d++)
		if ((*d)->argv)
			(*d)->argv(l, argv);
	/* the user's extra arguments last: they may refer to what ./vm made */
	strv_push_all(argv, &s->extra);
}
