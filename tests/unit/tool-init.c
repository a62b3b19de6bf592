// SPDX-License-Identifier: GPL-2.0
/* tool-init.c: the guest init's kernel command line and address parsing, and the kept status it reports. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../tools/init/init.h"
#include "tap.h"

/* DIR/NAME holding text; NULL text: removed */
static void put(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	if (!text)
		return;
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		exit(1);
}

/*
 * The status the init reports from the guest library's kept failure
 * (autorun/lib/rapido.sh): a batch autorun that bash ended with 0 after a
 * failure was kept (a profile's EXIT trap ran "exit 0") still fails.
 */
static void kept_cases(void)
{
	char dir[] = "/tmp/tool-init.XXXXXX", fifo[64];

	if (!mkdtemp(dir))
		exit(1);
	snprintf(fifo, sizeof(fifo), "%s/rapido.status", dir);
	TAP_EQ_INT(init_kept_status(dir, 0), 0, "no kept failure, exit 0: 0");
	TAP_EQ_INT(init_kept_status(dir, 3), 3, "an exit status other than 0 is the autorun's");
	put(dir, "rapido.status", "1 test t failed: exit status 1\n");
	TAP_EQ_INT(init_kept_status(dir, 0), 1, "a kept failure, bash exited 0 (an EXIT trap's exit 0): 1");
	TAP_EQ_INT(init_tests_only(dir, 1), 1, "  a failed test's only: exit-tests");
	put(dir, "rapido.status-other", "1 autorun/01-cmd.sh: exit status 1\n");
	TAP_EQ_INT(init_tests_only(dir, 1), 0, "  another failure noted: not tests only");
	put(dir, "rapido.status-other", NULL);
	put(dir, "rapido.status", "256 rapido_fail: boom\n");
	TAP_EQ_INT(init_kept_status(dir, 0), 1, "a kept 256, which bash exits as 0: 1");
	TAP_EQ_INT(init_tests_only(dir, 1), 0, "  and not tests only (the kept status is not 1)");
	put(dir, "rapido.status", "garbage\n");
	TAP_EQ_INT(init_kept_status(dir, 0), 1, "a kept line without a status: 1");
	put(dir, "rapido.status", NULL);
	TAP_EQ_INT(mkfifo(fifo, 0600), 0, "a FIFO for rapido.status");
	TAP_EQ_INT(init_kept_status(dir, 0), 1, "  is read without blocking, and fails");
	put(dir, "rapido.status", NULL);
	rmdir(dir);
}

/*
 * A power-off asked of PID 1 by signal: the guest library's poweroff (its
 * status left in rapido.poweroff) and leaving the interactive prompt
 * (rapido.prompt) end the run as documented; any other (busybox's
 * poweroff run by a suite, kill -TERM 1) came before the profile
 * finished: no verdict, never a pass.
 */
static void poweroff_cases(void)
{
	char dir[] = "/tmp/tool-init.XXXXXX", path[64], want[64];
	struct status_record r;

	if (!mkdtemp(dir))
		exit(1);
	init_poweroff_verdict(dir, SIGUSR2, getpid(), &r);
	tap_ok(r.kind == STATUS_INIT_ERROR && r.code == 255,
	       "busybox's poweroff before the profile finished: an init error, no pass");
	snprintf(want, sizeof(want), "SIGUSR2 from pid %d (tool-init)", (int)getpid());
	tap_ok(strstr(r.msg, want) && strstr(r.msg, "before the profile finished"),
	       "  names the signal, its sender and its name: %s", r.msg);
	init_poweroff_verdict(dir, SIGTERM, 0, &r);
	tap_ok(r.kind == STATUS_INIT_ERROR && strstr(r.msg, "SIGTERM from pid 0") &&
	       strstr(r.msg, "busybox's reboot"), "  kill -TERM 1 (reboot's signal) too: %s", r.msg);
	put(dir, "rapido.poweroff", "3\n");
	init_poweroff_verdict(dir, SIGUSR2, 1, &r);
	tap_ok(r.kind == STATUS_EXIT && r.code == 3, "the library's poweroff: the status it left (3)");
	put(dir, "rapido.poweroff", NULL);
	put(dir, "rapido.early", "autorun/00-simple.sh was interrupted before the profile finished\n");
	init_poweroff_verdict(dir, SIGUSR2, 1, &r);
	tap_ok(r.kind == STATUS_INIT_ERROR && r.code == 255 &&
	       strstr(r.msg, "autorun/00-simple.sh was interrupted before the profile finished") &&
	       !strchr(r.msg, '\n'),
	       "the library's no verdict (an interrupted profile left): an init error, its cause: %s",
	       r.msg);
	/* the autorun ended by itself after the interruption (exec, a replaced EXIT trap) */
	r.kind = STATUS_EXIT;
	r.code = 0;
	tap_ok(init_early_verdict(dir, &r) && r.kind == STATUS_INIT_ERROR && r.code == 255 &&
	       strstr(r.msg, "interrupted before the profile finished"),
	       "an autorun that exited 0 after the library left rapido.early: no verdict: %s", r.msg);
	put(dir, "rapido.early", NULL);
	r.kind = STATUS_EXIT;
	r.code = 0;
	tap_ok(!init_early_verdict(dir, &r) && r.kind == STATUS_EXIT && r.code == 0,
	       "  none left: the autorun's status stands");
	snprintf(path, sizeof(path), "%s/rapido.prompt", dir);
	TAP_EQ_INT(symlink("/etc/passwd", path), 0, "rapido.prompt a symbolic link");
	init_poweroff_verdict(dir, SIGUSR2, 1, &r);
	tap_ok(r.kind == STATUS_INIT_ERROR, "  is no prompt: no pass");
	unlink(path);
	put(dir, "rapido.prompt", "");
	init_poweroff_verdict(dir, SIGUSR1, 1, &r);
	tap_ok(r.kind == STATUS_EXIT && r.code == 0, "at the interactive prompt: leaving, 0");
	put(dir, "rapido.status", "4 autorun/00-simple.sh: exit status 4\n");
	init_poweroff_verdict(dir, SIGUSR1, 1, &r);
	tap_ok(r.kind == STATUS_EXIT && r.code == 4, "  the failure kept before the prompt (4)");
	put(dir, "rapido.status", NULL);
	put(dir, "rapido.prompt", NULL);
	rmdir(dir);
}

int main(void)
{
	struct init_cmdline cl;
	struct init_ip ip;

	tap_plan(48);
	init_cmdline_parse("console=ttyS0 panic=-1 rapido.vm=7 rapido.batch=1 rapido.shares=2 rapido.virtiofs=3 "
			   "rapido.ip=eth0,192.168.155.107/24 rapido.ip=eth1,10.0.2.15/24,10.0.2.2\n", &cl);
	TAP_EQ_INT(cl.vm, 7, "VM number");
	TAP_EQ_INT(cl.batch, 1, "batch mode");
	TAP_EQ_INT(cl.shares, 2, "shares");
	TAP_EQ_INT(cl.virtiofs, 3, "virtiofs shares (the init loads virtiofs)");
	TAP_EQ_INT(cl.n_ip, 2, "two interfaces");
	TAP_EQ_STR(cl.ip[1], "eth1,10.0.2.15/24,10.0.2.2", "second interface spec kept");
	for (unsigned int i = 0; i < cl.n_ip; i++)
		free(cl.ip[i]);

	/* ./vm --jobs: a shard's part, and the serial tests one escaped word each */
	init_cmdline_parse("rapido.shard=1/2 rapido.serial=defer rapido.serial-test=generic/336 "
			   "rapido.serial-test=with%20space%25 rapido.serial=bogus", &cl);
	TAP_EQ_STR(cl.serial, "defer", "rapido.serial=defer (an unknown mode ignored)");
	TAP_EQ_STR(cl.serial_tests, "generic/336\nwith space%", "serial tests unescaped, a line each");
	free(cl.serial_tests);
	init_cmdline_parse("rapido.vm=1", &cl);
	tap_ok(!*cl.serial && !cl.serial_tests, "no serial parameters: none");
	tap_ok(!cl.exec, "no rapido.exec=: no command");

	/* rapido run -- CMD: rapido-exec's three arguments, the last one kept */
	init_cmdline_parse("rapido.exec=0123456789abcdef,1a2b3c4d,ZWNobyBoaQ== "
			   "rapido.exec=0123456789abcdef,00000000,dHJ1ZQ==", &cl);
	TAP_EQ_STR(cl.exec, "0123456789abcdef 00000000 dHJ1ZQ==", "rapido.exec=: NONCE CRC BASE64");
	free(cl.exec);

	init_cmdline_parse("rapido.shell=ttyS2", &cl);
	TAP_EQ_STR(cl.shell, "ttyS2", "rapido.shell=ttyS2: the console shell's tty");
	init_cmdline_parse("rapido.shell=../sda", &cl);
	TAP_EQ_STR(cl.shell, "", "rapido.shell= with a '/' or '.': no shell, not a path");
	init_cmdline_parse("rapido.shell=ttyS2345678901234567", &cl);
	TAP_EQ_STR(cl.shell, "", "rapido.shell= too long for a tty name: no shell");
	/* the autorun's controlling tty (run.c): the kernel's last console=, its options left */
	init_cmdline_parse("console=tty0 console=ttyS0,115200n8 quiet", &cl);
	TAP_EQ_STR(cl.console, "ttyS0", "the last console=, without its options: /dev/console's tty");
	init_cmdline_parse("console=ttyS0 console=../sda", &cl);
	TAP_EQ_STR(cl.console, "", "a console= that is no tty name: none (sysfs asked)");

	init_cmdline_parse("rapido.vm=x rapido.batch=0", &cl);
	tap_ok(cl.vm == 0 && cl.batch == 0 && cl.n_ip == 0, "bad or absent values ignored");

	tap_ok(init_ip_parse("eth0,192.168.155.101/24", &ip) == 0, "parse interface spec");
	TAP_EQ_STR(ip.ifname, "eth0", "  interface");
	TAP_EQ_STR(ip.addr, "192.168.155.101", "  address");
	TAP_EQ_INT(ip.prefix, 24, "  prefix");
	TAP_EQ_STR(ip.gw, "", "  no gateway");
	tap_ok(init_ip_parse("eth0,10.0.2.15/24,10.0.2.2", &ip) == 0 && !strcmp(ip.gw, "10.0.2.2"),
	       "gateway");
	tap_ok(init_ip_parse("eth0,10.0.2.15", &ip) < 0, "prefix required");
	tap_ok(init_ip_parse("eth0,10.0.2.15/24,not-an-ip", &ip) < 0, "bad gateway refused");
	tap_ok(init_ip_parse("averyveryverylongname0,10.0.2.15/24", &ip) < 0, "long interface name refused");

	TAP_EQ_INT(init_status_code(0x0700), 7, "exit status 7");
	kept_cases();
	poweroff_cases();
	return tap_done();
}
