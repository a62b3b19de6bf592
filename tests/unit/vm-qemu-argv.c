// SPDX-License-Identifier: GPL-2.0
/* vm-qemu-argv.c: the qemu command line ./vm builds, argument by argument. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tap.h"
#include "vm.h"

static int index_of(const struct strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return (int)i;
	return -1;
}

static const char *after(const struct strv *sv, const char *opt)
{
	int i = index_of(sv, opt);

	return i >= 0 && (size_t)i + 1 < sv->n ? sv->v[i + 1] : NULL;
}

int main(void)
{
	struct strv argv = STRV_INIT;
	struct vm_settings s = {
		.qemu = "qemu-system-x86_64", .cpus = 2, .memory = 1ULL << 30,
		.im = { .kernel = "/boot/vmlinuz-x", .arch = arch_find("amd64") }, .image = "/i/my initrd", .batch = 1,
	};
	struct vm_launch l = {
		.s = &s, .accel = ACCEL_TCG, .vm = 3, .console_log = "/s/vm3.log",
		.qmp_path = "/s/a,b/vm3.qmp", .nonce = "0123456789abcdef0123456789abcdef",
		.hvc_path = "/s/vm3.hvc", .gdb_port = 1236,
	};
	struct strv *kp = &s.kparams, *extra = &s.extra, *shares = &s.shares;
	enum vm_accel a;

	tap_plan(43);
	strv_push(kp, "quiet");
	strv_push(kp, "foo=a;b");
	strv_push(extra, "-device");
	strv_push(extra, "virtio-rng-pci");
	strv_push(shares, "/host/results");
	umask(022);
	vm_qemu_argv(&l, &argv);

	TAP_EQ_STR(argv.v[0], "qemu-system-x86_64", "qemu binary first");
	TAP_EQ_STR(after(&argv, "-accel"), "tcg", "TCG accelerator");
	TAP_EQ_STR(after(&argv, "-cpu"), "max,-erms,-fsrm",
		   "TCG's max CPU without rep movsb/stosb (a byte at a time under TCG)");
	TAP_EQ_STR(after(&argv, "-smp"), "2", "cpus");
	TAP_EQ_STR(after(&argv, "-m"), "1024M", "memory in MiB");
	TAP_EQ_STR(after(&argv, "-initrd"), "/i/my initrd", "initrd with a space stays one argument");
	TAP_EQ_STR(after(&argv, "-append"),
		   "console=ttyS0 panic=-1 no_timer_check tsc=unstable rapido.vm=3 "
		   "rapido.nonce=0123456789abcdef0123456789abcdef rapido.batch=1 rapido.shares=1 "
		   "rapido.shell=ttyS2 quiet foo=a;b printk.time=1",
		   "kernel command line: console, panic=-1, TCG timer and clock, VM number, nonce, batch, shares, "
		   "console shell, extras, printk.time=1 last");
	tap_ok(index_of(&argv, "pvpanic") > 0 && index_of(&argv, "panic=pause") > 0,
	       "pvpanic, and a panic pauses the VM for its dump");
	tap_ok(index_of(&argv, "socket,id=hvc,path=/s/vm3.hvc,server=on,wait=off") > 0 &&
	       index_of(&argv, "isa-serial,chardev=hvc,index=2,irq=5") > 0,
	       "x86: the console shell's socket on a third UART (IRQ 5) for vmctl shell/exec");
	tap_ok(index_of(&argv, "virtio-serial-pci,id=vser0") < 0 &&
	       index_of(&argv, "virtconsole,chardev=hvc,name=rapido.shell") < 0,
	       "x86 without --results: no virtio-serial device (nor its modules in the guest)");
	tap_ok(index_of(&argv, "-gdb") < 0 && index_of(&argv, "-S") < 0, "no gdb stub unless asked");
	tap_ok(index_of(&argv, "-no-reboot") > 0, "-no-reboot so a panic ends qemu");
	tap_ok(index_of(&argv, "-nodefaults") > 0, "-nodefaults");
	TAP_EQ_STR(after(&argv, "-chardev"), "file,id=con,path=/dev/fd/4",
		   "batch console, stdout not a terminal (-v, CI): one stream, ./vm's pipe (it logs and shows it), no monitor");
	tap_ok(index_of(&argv, "chardev=con,mode=readline") < 0, "no human monitor in batch mode");
	tap_ok(index_of(&argv, "file,id=status,path=/dev/fd/3") > 0,
	       "status port: ./vm's pipe at fd 3");
	TAP_EQ_STR(after(&argv, "-qmp"), "unix:/s/a,,b/vm3.qmp,server=on,wait=off",
		   "QMP socket with its comma escaped for qemu");
	tap_ok(index_of(&argv, "socket,id=rapido-mon,fd=5") > 0, "./vm's own monitor at fd 5");
	TAP_EQ_STR(after(&argv, "-mon"), "chardev=rapido-mon,mode=control",
		   "batch: only ./vm's control monitor");
	/* the guest makes no setuid, device or FIFO file on the host (issue 40, 9) */
	TAP_EQ_STR(after(&argv, "-fsdev"),
		   "local,id=share0,path=/host/results,security_model=mapped-xattr,fmode=0644,dmode=0755",
		   "9p share: a mapped security model, the umask's modes");
	TAP_EQ_STR(argv.v[argv.n - 2], "-device", "extra args last");
	TAP_EQ_STR(argv.v[argv.n - 1], "virtio-rng-pci", "  in order");
	strv_free(&argv);

	/* under ./vm's 077 (an image holding a secret): the guest's files are private too */
	umask(077);
	vm_qemu_argv(&l, &argv);
	TAP_EQ_STR(after(&argv, "-fsdev"),
		   "local,id=share0,path=/host/results,security_model=mapped-xattr,fmode=0600,dmode=0700",
		   "9p share under umask 077: 0600 files, 0700 dirs");
	umask(022);
	strv_free(&argv);

	/* on a terminal, -q: the same one stream from qemu, to ./vm */
	s.display = DISPLAY_REPORTS;
	vm_qemu_argv(&l, &argv);
	TAP_EQ_STR(after(&argv, "-chardev"), "file,id=con,path=/dev/fd/4",
		   "batch console shown by ./vm (-q, a terminal): one stream, ./vm's pipe");
	strv_free(&argv);
	s.display = DISPLAY_ALL;

	s.batch = 0;
	s.gdb = 1;
	s.gdb_host = "127.0.0.1";
	s.gdb_wait = 1;
	l.accel = ACCEL_KVM;
	vm_qemu_argv(&l, &argv);
	TAP_EQ_STR(after(&argv, "-gdb"), "tcp:127.0.0.1:1236", "--gdb: the stub on loopback");
	tap_ok(index_of(&argv, "-S") > 0, "--gdb-wait: -S");
	tap_ok(strstr(after(&argv, "-append"), " nokaslr") != NULL, "--gdb: KASLR off");
	TAP_EQ_STR(after(&argv, "-accel"), "kvm", "KVM accelerator with -cpu host");
	TAP_EQ_STR(after(&argv, "-mon"), "chardev=con,mode=readline",
		   "interactive: monitor multiplexed on the console");
	TAP_EQ_STR(after(&argv, "-chardev"), "stdio,id=con,mux=on,signal=off,logfile=/dev/fd/4",
		   "interactive console: the terminal, its log copy to ./vm's pipe");
	strv_free(&argv);

	/* an arm64 image on this host: the virt machine, its UART, the status on a virtio port */
	s.batch = 1;
	s.gdb = 0;
	s.gdb_wait = 0;
	s.im.arch = arch_find("aarch64");
	s.qemu = s.im.arch->qemu;
	l.accel = ACCEL_TCG;
	vm_qemu_argv(&l, &argv);
	TAP_EQ_STR(argv.v[0], "qemu-system-aarch64", "arm64: qemu-system-aarch64");
	TAP_EQ_STR(after(&argv, "-machine"), "virt,gic-version=3", "arm64: machine virt with GICv3");
	TAP_EQ_STR(after(&argv, "-cpu"), "max,pauth-impdef=on", "arm64: TCG's max CPU, cheap pointer auth");
	tap_ok(!strncmp(after(&argv, "-append"), "console=ttyAMA0 panic=-1 rapido.status=rapido.status ",
			strlen("console=ttyAMA0 panic=-1 rapido.status=rapido.status ")),
	       "arm64: console on ttyAMA0, no x86 timer parameter, the status port named");
	tap_ok(strstr(after(&argv, "-append"), "no_timer_check") == NULL &&
	       strstr(after(&argv, "-append"), "tsc=") == NULL, "arm64: no no_timer_check, no tsc=");
	tap_ok(index_of(&argv, "virtserialport,chardev=status,name=rapido.status") > 0,
	       "arm64: the status record on a virtio serial port");
	tap_ok(index_of(&argv, "chardev:status") < 0, "arm64: no second UART (virt has one)");
	tap_ok(index_of(&argv, "pvpanic-pci") > 0 && index_of(&argv, "pvpanic") < 0,
	       "arm64: pvpanic on PCI, not ISA");
	TAP_EQ_STR(after(&argv, "-serial"), "chardev:con", "arm64: the console on the first UART");
	tap_ok(index_of(&argv, "virtconsole,chardev=hvc,name=rapido.shell") > 0 &&
	       index_of(&argv, "virtio-serial-pci,id=vser0") > 0 &&
	       strstr(after(&argv, "-append"), " rapido.hvc=1 ") != NULL,
	       "arm64: the console shell on the virtio console (rapido.hvc=1)");
	strv_free(&argv);
	tap_ok(arch_find("amd64") == arch_find("x86_64") && arch_find("arm64") == arch_find("aarch64") &&
	       arch_find("arm64") != arch_find("amd64") && !arch_find("riscv") && !arch_find(""),
	       "architectures found by Debian name and uname -m, unknown ones not");

	tap_ok(vm_accel_parse("TCG", &a) == 0 && a == ACCEL_TCG && vm_accel_parse("", &a) == 0 &&
	       a == ACCEL_AUTO, "accel names parse");
	tap_ok(vm_accel_parse("hvf", &a) < 0, "unknown accel rejected");
	strv_free(kp);
	strv_free(extra);
	strv_free(shares);
	return tap_done();
}
