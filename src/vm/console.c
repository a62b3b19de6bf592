// SPDX-License-Identifier: GPL-2.0
/*
 * console.c: the guest's consoles and the status port. The console is on
 * the first serial port (ttyS0, ttyAMA0), copied to ./vm through a pipe
 * (which keeps the log file, and batch, shows it); interactive, it is multiplexed with the
 * human monitor (Ctrl-a c) and Ctrl-c goes to the guest; batch, stdin is
 * /dev/null and there is no monitor. The guest init writes its framed
 * status record to ttyS1, or to a virtio serial port where the machine
 * has one UART. A second shell runs on a third ISA UART (x86: ttyS2) or
 * the virtio console (/dev/hvc0), for ./vmctl N shell and exec.
 */
#include <stdlib.h>

#include "devices.h"
#include "protocol.h"
#include "qopt.h"
#include "vm.h"

static void console_argv(const struct vm_launch *l, struct strv *argv)
{
	const struct vm_settings *s = l->s;
	const struct arch *a = s->im.arch;
	char *hvc = qopt(l->hvc_path);

	/*
	 * qemu's UART writes each byte the guest sends with a syscall of its
	 * own, in the vCPU's thread, to each destination: as stdio with a
	 * logfile, some 48 K a boot; as a file, 24 K. Batch, ./vm is
	 * the console's only reader: it logs what it reads and shows it
	 * (watch.c; rapido run: the command's frames only), through a
	 * buffer that never waits for a stalled stdout (display.h), so its
	 * timeout and watchdog still run. Interactive, the terminal is
	 * qemu's stdio, multiplexed with the monitor, and the log a second
	 * destination.
	 */
	strv_push(argv, "-chardev");
	if (s->batch)
		strv_pushf(argv, "file,id=con,path=/dev/fd/%d", VM_FD_CONSOLE);
	else
		strv_pushf(argv, "stdio,id=con,mux=on,signal=off,logfile=/dev/fd/%d", VM_FD_CONSOLE);
	strv_push(argv, "-serial");
	strv_push(argv, "chardev:con");
	if (!s->batch) {
		strv_push(argv, "-mon");
		strv_push(argv, "chardev=con,mode=readline");
	}
	strv_push(argv, "-chardev");
	strv_pushf(argv, "file,id=status,path=/dev/fd/%d", VM_FD_STATUS);
	if (!a->status_port) {
		strv_push(argv, "-serial");
		strv_push(argv, "chardev:status");
	}
	/* the virtio-serial bus: the shell's or the status' port, or the results port (resport.c) */
	if (!a->shell_tty || a->status_port || s->results_dir) {
		strv_push(argv, "-device");
		strv_push(argv, "virtio-serial-pci,id=vser0");
	}
	strv_push(argv, "-chardev");
	strv_pushf(argv, "socket,id=hvc,path=%s,server=on,wait=off", hvc);
	strv_push(argv, "-device");
	if (a->shell_tty)
		strv_push(argv, "isa-serial,chardev=hvc,index=2,irq=5");
	else
		strv_push(argv, "virtconsole,chardev=hvc,name=" PORT_SHELL);
	if (a->status_port) {
		strv_push(argv, "-device");
		strv_pushf(argv, "virtserialport,chardev=status,name=%s", a->status_port);
	}
	free(hvc);
}

static void console_kparams(const struct vm_launch *l, struct strv *k)
{
	const struct arch *a = l->s->im.arch;

	if (a->shell_tty)
		strv_pushf(k, KP_SHELL "%s", a->shell_tty);
	else
		strv_push(k, KP_HVC "1");
}

const struct vm_device vm_dev_console = {
	.name = "console",
	.argv = console_argv,
	.kparams = console_kparams,
};
