// SPDX-License-Identifier: GPL-2.0
/* qemu.c: the qemu command line, as a vector: no value ever meets a shell. */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "vm.h"

/* qemu option values escape ',' as ",,": a path must not add options */
char *qopt(const char *s)
{
	size_t n = 0;
	char *out, *p;

	for (const char *q = s; *q; q++)
		n += *q == ',' ? 2 : 1;
	out = p = xmalloc(n + 1);
	for (; *s; s++) {
		*p++ = *s;
		if (*s == ',')
			*p++ = ',';
	}
	*p = '\0';
	return out;
}

/* The kernel command line: what ./vm and the network add, then the user's parameters. */
static char *kernel_cmdline(const struct vm_launch *l)
{
	const struct vm_settings *s = l->s;
	const struct arch *a = s->im.arch;
	struct strv append = STRV_INIT;
	size_t len = 0;
	char *cmdline, *p;

	strv_pushf(&append, "console=%s", a->console);
	strv_push(&append, "panic=-1");
	if (l->accel == ACCEL_TCG && *a->tcg_kparams)
		strv_push(&append, a->tcg_kparams);
	/* the init writes its status record to that virtio serial port, not to ttyS1 */
	if (a->status_port)
		strv_pushf(&append, "rapido.status=%s", a->status_port);
	strv_pushf(&append, "rapido.vm=%u", l->vm);
	strv_pushf(&append, "rapido.nonce=%s", l->nonce);
	if (s->batch)
		strv_push(&append, "rapido.batch=1");
	if (s->shares.n)
		strv_pushf(&append, "rapido.shares=%zu", s->shares.n);
	strv_push(&append, "rapido.hvc=1");
	if (s->results_dir)
		strv_push(&append, "rapido.results=1");
	if (s->shard_n)
		strv_pushf(&append, "rapido.shard=%u/%u", s->shard_i, s->shard_n);
	/* gdb needs the addresses of vmlinux and System.map */
	if (s->gdb)
		strv_push(&append, "nokaslr");
	strv_push_all(&append, &l->net_kparams);
	strv_push_all(&append, &s->kparams);
	/*
	 * After the user's parameters, so it wins: the splat scanner tells
	 * the kernel's lines from the guest's by the printk timestamp, and a
	 * kernel built without CONFIG_PRINTK_TIME (or printk.time=0) would
	 * hide every Oops and WARNING from it.
	 */
	strv_push(&append, "printk.time=1");
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
	char *qmp = qopt(l->qmp_path), *hvc = qopt(l->hvc_path);
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
	strv_push(argv, s->im.kernel);
	strv_push(argv, "-initrd");
	strv_push(argv, s->initrd.path ? s->initrd.path : s->image);

	cmdline = kernel_cmdline(l);
	strv_push(argv, "-append");
	strv_push(argv, cmdline);
	free(cmdline);

	/*
	 * Console on the first serial port (ttyS0, ttyAMA0), copied to ./vm through a pipe (which keeps the log
	 * file). Interactive: multiplexed with the monitor (Ctrl-a c), Ctrl-c
	 * goes to the guest. Batch: stdin is /dev/null, so no monitor.
	 */
	strv_push(argv, "-chardev");
	strv_pushf(argv, "stdio,id=con,%ssignal=off,logfile=/dev/fd/%d", s->batch ? "" : "mux=on,",
		   VM_FD_CONSOLE);
	strv_push(argv, "-serial");
	strv_push(argv, "chardev:con");
	if (!s->batch) {
		strv_push(argv, "-mon");
		strv_push(argv, "chardev=con,mode=readline");
	}
	/* the guest init writes its framed status record here: ttyS1, or a virtio port below */
	strv_push(argv, "-chardev");
	strv_pushf(argv, "file,id=status,path=/dev/fd/%d", VM_FD_STATUS);
	if (!a->status_port) {
		strv_push(argv, "-serial");
		strv_push(argv, "chardev:status");
	}
	/* control socket for ./vmctl, found from the VM number */
	strv_push(argv, "-qmp");
	strv_pushf(argv, "unix:%s,server=on,wait=off", qmp);
	/*
	 * A panic reaches qemu through pvpanic (the guest init loads its
	 * driver) and pauses the VM, so ./vm can dump its memory before it
	 * quits; vmcoreinfo puts the kernel's VMCOREINFO note in that dump.
	 */
	strv_push(argv, "-device");
	strv_push(argv, a->pvpanic);
	strv_push(argv, "-device");
	strv_push(argv, "vmcoreinfo");
	strv_push(argv, "-action");
	strv_push(argv, "panic=pause");
	/* a second shell on the virtio console (/dev/hvc0), for ./vmctl N shell and exec */
	strv_push(argv, "-device");
	strv_push(argv, "virtio-serial-pci,id=vser0");
	strv_push(argv, "-chardev");
	strv_pushf(argv, "socket,id=hvc,path=%s,server=on,wait=off", hvc);
	strv_push(argv, "-device");
	strv_push(argv, "virtconsole,chardev=hvc,name=rapido.shell");
	if (a->status_port) {
		strv_push(argv, "-device");
		strv_pushf(argv, "virtserialport,chardev=status,name=%s", a->status_port);
	}
	if (s->results_dir) {
		char *files = xasprintf("%s/files", s->results_dir), *q = qopt(files);

		/*
		 * The test records stream over a virtio serial port: a write
		 * returns once qemu has taken the bytes, so a later panic
		 * loses none of them. The files tests write go to DIR/files
		 * over 9p (security_model=none: no root needed).
		 */
		strv_push(argv, "-chardev");
		strv_pushf(argv, "file,id=results,path=/dev/fd/%d", VM_FD_RESULTS);
		strv_push(argv, "-device");
		strv_push(argv, "virtserialport,chardev=results,name=rapido.results");
		strv_push(argv, "-fsdev");
		strv_pushf(argv, "local,id=resultsfs,path=%s,security_model=none", q);
		strv_push(argv, "-device");
		strv_push(argv, "virtio-9p-pci,fsdev=resultsfs,mount_tag=rapido.results");
		free(q);
		free(files);
	}
	if (s->gdb) {
		char *host = qopt(s->gdb_host);

		strv_push(argv, "-gdb");
		strv_pushf(argv, "tcp:%s:%u", host, l->gdb_port);
		if (s->gdb_wait)
			strv_push(argv, "-S");
		free(host);
	}
	/* ./vm's own monitor: events such as SHUTDOWN with its reason */
	strv_push(argv, "-chardev");
	strv_pushf(argv, "socket,id=rapido-mon,fd=%d", VM_FD_MONITOR);
	strv_push(argv, "-mon");
	strv_push(argv, "chardev=rapido-mon,mode=control");

	for (size_t i = 0; i < s->shares.n; i++) {
		char *dir = qopt(s->shares.v[i]);

		strv_push(argv, "-fsdev");
		strv_pushf(argv, "local,id=share%zu,path=%s,security_model=none", i, dir);
		free(dir);
		strv_push(argv, "-device");
		strv_pushf(argv, "virtio-9p-pci,fsdev=share%zu,mount_tag=rapido%zu", i, i);
	}
	vm_mpath_argv(s, argv);
	vm_rbd_argv(s, argv);
	/* NICs before the user's extra arguments, which may refer to them */
	strv_push_all(argv, &l->net_args);
	strv_push_all(argv, &s->extra);
	free(qmp);
	free(hvc);
}
