// SPDX-License-Identifier: GPL-2.0
/*
 * vm-settings.c: ./vm's settings come from one resolution: option over
 * environment over rapido.conf over the image's profile over the default,
 * each value with its source, and every bad value named by that source.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conf.h"
#include "cpio.h"
#include "err.h"
#include "io.h"
#include "confenv.h"
#include "options.h"
#include "tap.h"
#include "vm.h"

static char dir[] = "/tmp/rapido-settings-XXXXXX";
static char *image;

/* An image as ./cut writes it: only rapido/vm.conf matters to ./vm here. */
static void make_image(const char *vmconf)
{
	struct cpio_writer w;
	int fd = open(image, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	cpio_init(&w, fd);
	cpio_add_file(&w, "rapido/vm.conf", 0644, vmconf, strlen(vmconf));
	if (cpio_finish(&w) || close(fd))
		exit(1);
}

static void load(struct conf *c, const char *text)
{
	char *err;

	memset(c, 0, sizeof(*c));
	c->env_override = 1;
	if (conf_parse(c, "rapido.conf", text, &err)) {
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
	c->path = xstrdup("rapido.conf");
}

/* Resolve in a child: its exit status, and its stderr in msg. */
/* As if KEY's option (its row in vm_options[]) was given v on the command line. */
static void give(struct vm_opts *o, const char *key, const char *v)
{
	o->given[vm_option_by_key(vm_options, key) - vm_options] = v;
}

static int resolve_fails(const char *conftext, struct vm_opts *o, char *msg, size_t len)
{
	int p[2], st;
	ssize_t n;
	pid_t pid;

	if (pipe(p) < 0)
		exit(1);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct vm_settings s;
		struct conf c;

		dup2(p[1], 2);
		load(&c, conftext);
		vm_settings_resolve_or_die(&s, o, &c);
		_exit(0);
	}
	close(p[1]);
	n = read_full(p[0], msg, len - 1);
	msg[n > 0 ? n : 0] = '\0';
	msg[strcspn(msg, "\n")] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 255;
}

int main(void)
{
	struct vm_settings s;
	struct vm_opts o = { 0 };
	struct conf c;
	char buf[512], msg[1024];

	confenv_clear();
	tap_plan(30);
	if (!mkdtemp(dir))
		return 1;
	image = xasprintf("%s/image", dir);
	setenv("VM_STATE_DIR", dir, 1);
	setenv("VM_LOCK_DIR", dir, 1);
	err_exit_status = 125;
	make_image("PROFILE=fstests_local\nKERNEL_IMAGE=/dev/null\nCPUS=2\nMEMORY=1G\n");
	o.image = image;

	/* nothing set: the profile's needs, then the defaults */
	load(&c, "");
	vm_settings_resolve_or_die(&s, &o, &c);
	TAP_EQ_INT(s.cpus, 2, "cpus from the profile");
	TAP_EQ_STR(vm_src_str(&s.cpus_src, buf, sizeof(buf)), "profile fstests_local", "  and it says so");
	tap_ok(s.memory == 1ULL << 30, "memory from the profile");
	TAP_EQ_INT(s.timeout, 0, "no timeout by default");
	TAP_EQ_STR(vm_src_str(&s.timeout_src, buf, sizeof(buf)), "default", "  source: default");
	TAP_EQ_INT(s.accel, ACCEL_AUTO, "accelerator: auto");
	TAP_EQ_STR(s.qemu, "qemu-system-x86_64", "qemu binary default");
	TAP_EQ_INT(s.net, NET_NONE, "no network");
	TAP_EQ_INT(s.kvm_probe_secs, 10, "KVM probe default");
	vm_settings_free(&s);
	conf_free(&c);

	/* rapido.conf beats the profile */
	load(&c, "VM_CPUS=3\nVM_MEMORY=768M\n\nVM_TIMEOUT=60\n");
	vm_settings_resolve_or_die(&s, &o, &c);
	TAP_EQ_INT(s.cpus, 3, "cpus from rapido.conf");
	TAP_EQ_STR(vm_src_str(&s.cpus_src, buf, sizeof(buf)), "rapido.conf:1: VM_CPUS", "  with FILE:LINE");
	TAP_EQ_STR(vm_src_str(&s.timeout_src, buf, sizeof(buf)), "rapido.conf:4: VM_TIMEOUT",
		   "timeout's line");
	vm_settings_free(&s);

	/* the environment beats rapido.conf */
	setenv("VM_CPUS", "5", 1);
	vm_settings_resolve_or_die(&s, &o, &c);
	TAP_EQ_INT(s.cpus, 5, "cpus from the environment");
	TAP_EQ_STR(vm_src_str(&s.cpus_src, buf, sizeof(buf)), "environment: VM_CPUS", "  says environment");
	vm_settings_free(&s);

	/* an option beats everything */
	give(&o, "VM_CPUS", "7");
	give(&o, "VM_TIMEOUT", "9");
	vm_settings_resolve_or_die(&s, &o, &c);
	TAP_EQ_INT(s.cpus, 7, "--cpus beats the environment");
	TAP_EQ_STR(vm_src_str(&s.cpus_src, buf, sizeof(buf)), "--cpus", "  says --cpus");
	TAP_EQ_INT(s.timeout, 9, "--timeout beats VM_TIMEOUT");
	vm_settings_free(&s);
	conf_free(&c);
	unsetenv("VM_CPUS");
	give(&o, "VM_CPUS", NULL);
	give(&o, "VM_TIMEOUT", NULL);

	/* errors name the source */
	TAP_EQ_INT(resolve_fails("\nVM_CPUS=many\n", &o, msg, sizeof(msg)), 125, "bad VM_CPUS: exit 125");
	tap_ok(strstr(msg, "rapido.conf:2: VM_CPUS: expected a number from 1 to 1024, got 'many'") != NULL,
	       "  named with FILE:LINE, the range from the key registry (%s)", msg);
	give(&o, "VM_CPUS", "0");
	resolve_fails("", &o, msg, sizeof(msg));
	tap_ok(strstr(msg, "--cpus: expected a number from 1 to 1024, got '0'") != NULL,
	       "--cpus 0: the same range as ./cut --check-conf (%s)", msg);
	give(&o, "VM_CPUS", " 2");
	resolve_fails("", &o, msg, sizeof(msg));
	tap_ok(strstr(msg, "--cpus: expected a number from 1 to 1024, got ' 2'") != NULL,
	       "--cpus ' 2': no leading blank (strtoul took it) (%s)", msg);
	give(&o, "VM_CPUS", NULL);
	setenv("QEMU_ACCEL", "hvf", 1);
	resolve_fails("QEMU_ACCEL=tcg\n", &o, msg, sizeof(msg));
	tap_ok(strstr(msg, "environment: QEMU_ACCEL: expected auto, kvm or tcg, got 'hvf'") != NULL,
	       "bad accelerator from the environment says environment (%s)", msg);
	unsetenv("QEMU_ACCEL");
	give(&o, "VM_MEMORY", "12");
	resolve_fails("", &o, msg, sizeof(msg));
	tap_ok(strstr(msg, "--memory: expected a size of at least 64M") != NULL, "bad --memory (%s)", msg);
	give(&o, "VM_MEMORY", NULL);
	resolve_fails("NET=wifi\n", &o, msg, sizeof(msg));
	tap_ok(strstr(msg, "rapido.conf:1: NET: expected tap, user or none, got 'wifi'") != NULL,
	       "bad NET (%s)", msg);
	resolve_fails("VM4_IP1=10.0.0.300/24\n", &o, msg, sizeof(msg));
	tap_ok(strstr(msg, "rapido.conf:1: VM4_IP1: expected an IPv4 address") != NULL,
	       "a bad address of another VM is found before any number is taken (%s)", msg);

	/* issue 33, item 14: one TAP for two VMs; the same rule as ./netsetup's */
	resolve_fails("\nTAP_DEVS='tap1 tap2 tap1'\n", &o, msg, sizeof(msg));
	tap_ok(strstr(msg, "rapido.conf:2: TAP_DEVS: 'tap1' is listed twice (each VM needs its own TAP device)") != NULL,
	       "a TAP_DEVS name listed twice (%s)", msg);
	resolve_fails("TAP_DEVS='tap1 a,b'\n", &o, msg, sizeof(msg));
	tap_ok(strstr(msg, "rapido.conf:1: TAP_DEVS: 'a,b' is not a valid interface name") != NULL,
	       "a TAP_DEVS name that is no interface name (%s)", msg);

	/* network settings and static addresses */
	give(&o, "NET", "user");
	load(&c, "VM2_IP=10.1.1.2/16\nVM2_IP1=10.9.9.9/8\nUSER_HOSTFWD='tcp:127.0.0.1:2222-:22'\n");
	setenv("VM2_IP", "172.16.0.2/12", 1);
	vm_settings_resolve_or_die(&s, &o, &c);
	TAP_EQ_INT(s.net, NET_USER, "--net user");
	tap_ok(s.hostfwd.n == 1 && !strcmp(s.hostfwd.v[0], "tcp:127.0.0.1:2222-:22"), "USER_HOSTFWD split");
	{
		int env_won = 0, nic1 = 0;

		for (size_t i = 0; i < s.n_ips; i++) {
			char a[32];

			ipv4_prefix_format(&s.ips[i].addr, a, sizeof(a));
			if (s.ips[i].vm == 2 && s.ips[i].nic == 0)
				env_won = !strcmp(a, "172.16.0.2/12");
			if (s.ips[i].vm == 2 && s.ips[i].nic == 1)
				nic1 = !strcmp(a, "10.9.9.9/8");
		}
		tap_ok(env_won && nic1 && s.n_ips == 2, "static addresses: the environment's VM2_IP wins, VM2_IP1 kept");
	}
	vm_settings_free(&s);
	conf_free(&c);
	unsetenv("VM2_IP");
	vm_opts_free(&o);
	free(image);
	return tap_done();
}
