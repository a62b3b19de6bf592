// SPDX-License-Identifier: GPL-2.0
/*
 * pid1.c: rapido-init's own command, PID 1 of a rapido image (main.c runs
 * it under any name but rapido-ktap's and rapido-exec's).
 *
 * Mounts the API filesystems, loads the profile's modules, names the host
 * rapido<N>, then runs /rapido/autorun.sh under bash with the console as
 * controlling terminal: non-interactively in batch mode (rapido.batch=1),
 * else as the rc file of an interactive shell. When bash exits, every other
 * process is killed, and its status goes to the second serial port (ttyS1,
 * read by ./vm) as a framed record (status.h), then the guest syncs and
 * powers off. The host never scrapes the console for the verdict.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <termios.h>
#include <unistd.h>

#include "err.h"
#include "guestpath.h"
#include "io.h"
#include "init.h"
#include "mono.h"

/* the guest library's RAPIDO_RUN_DIR (autorun/lib/rapido.sh), where it keeps the status */
#define RUN_DIR "/run"

/*
 * sysfs creates /sys/kernel/{config,debug} only once configfs and debugfs
 * are registered; in the Debian kernel configfs is a module. So this runs
 * again after the profile's modules are loaded (late = 1), mounting what
 * has appeared meanwhile.
 */
static void mount_api(int late)
{
	static const struct {
		const char *src, *dir, *type;
		unsigned long flags;
		const char *data;
	} mounts[] = {
		{ "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL },
		{ "sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL },
		/* the Debian kernel does not mount devtmpfs by itself for an initramfs */
		{ "devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755" },
		{ "devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "gid=5,mode=620,ptmxmode=666" },
		{ "tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777" },
		/* each directory mounted on here is in GUEST_MOUNTED_DIRS (guestpath.h) */
		{ "tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777" },
		{ "tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755" },
		{ "configfs", "/sys/kernel/config", "configfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL },
		{ "debugfs", "/sys/kernel/debug", "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL },
	};

	for (size_t i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++) {
		/*
		 * sysfs creates /sys/kernel/{config,debug} only when configfs
		 * and debugfs are registered (a module may not be loaded yet).
		 */
		int kernel_dir = !strncmp(mounts[i].dir, "/sys/kernel/", 12);

		if (late != kernel_dir)
			continue;
		/*
		 * the kernel's own directory, there or not (no mkdir in
		 * sysfs), and mounted by nothing before this one late pass:
		 * no stat of it and its parent to ask, nor a mkdir: the
		 * init's step "shares", this pass with the 9p mounts, 1.2 to
		 * 0.8 ms under TCG (medians of 5 boots, load 4-5)
		 */
		if (kernel_dir && access(mounts[i].dir, F_OK) < 0)
			continue;
		if (!kernel_dir && mkdir(mounts[i].dir, 0755) < 0 && errno != EEXIST)
			warn_errno("mkdir %s", mounts[i].dir);
		if (mount(mounts[i].src, mounts[i].dir, mounts[i].type, mounts[i].flags,
			  mounts[i].data) < 0 && errno != EBUSY)
			warn_errno("mount %s on %s", mounts[i].type, mounts[i].dir);
	}
	/*
	 * what udev (or systemd's static nodes) makes on a full system and a
	 * devtmpfs has not: scripts write to /dev/stdout (kselftest's
	 * runner.sh appends each test's output to it), which would otherwise
	 * become a plain file that swallows what they print
	 */
	static const char *const links[][2] = {
		{ "/proc/self/fd", "/dev/fd" },
		{ "/proc/self/fd/0", "/dev/stdin" },
		{ "/proc/self/fd/1", "/dev/stdout" },
		{ "/proc/self/fd/2", "/dev/stderr" },
	};
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		if (symlink(links[i][0], links[i][1]) < 0 && errno != EEXIST)
			warn_errno("symlink %s", links[i][1]);
}

/* stdin/out/err on /dev/console before anything prints */
static void open_console(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);

	if (fd < 0)
		return;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
}

static void load_env(void)
{
	char *text;

	if (read_file("/rapido/env", &text, NULL)) {
		warn_errno("/rapido/env");
		return;
	}
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n'), *eq;

		if (nl)
			*nl = '\0';
		eq = strchr(line, '=');
		if (eq) {
			*eq = '\0';
			if (setenv(line, eq + 1, 1) < 0)
				warn_errno("setenv %s", line);
		}
		line = nl ? nl + 1 : NULL;
	}
	free(text);
}

static void load_modules(void)
{
	const char *names[256];
	size_t n = 0;
	char *text;
	int status;

	if (read_file("/rapido/modules", &text, NULL))
		return;
	for (char *line = text; line && *line && n < sizeof(names) / sizeof(names[0]);) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (*line)
			names[n++] = line;
		line = nl ? nl + 1 : NULL;
	}
	status = init_load_modules(names, n, 0);
	if (status)
		warn("loading modules failed (status %d): the profile's modules may be missing", status);
	free(text);
}

/* How long each step took, in the kernel log (bench/boot prints it). */
static void step_done(const char *step, long long *since)
{
	long long now = mono_ms();

	init_trace("step %s %lld ms\n", step, now - *since);
	*since = now;
}

int cmd_init(int argc, char **argv)
{
	struct init_cmdline cl;
	struct status_record rec;
	pid_t sender;
	char *env;
	int sig;
	long long t;
	int status_fd;

	(void)argc;
	(void)argv;
	err_prog = "rapido-init";
	/*
	 * Started by hand on a host it would remount, rename and power off
	 * that host: it is only ever the kernel's first process in an image.
	 */
	if (getpid() != 1)
		die("must run as PID 1 of a rapido image (it mounts, sets the hostname and powers off"
		    " the machine); this is PID %d", (int)getpid());
	open_console();
	t = mono_ms();
	mount_api(0);
	init_parse_cmdline(&cl);
	init_set_hostname(cl.vm);
	/*
	 * busybox's applets last (./cut's busybox layer): the shells find
	 * them where the image has no real program of the name; the guest
	 * library takes them off a suite harness's PATH (rapido.sh)
	 */
	setenv("PATH", GUEST_PATH ":" GUEST_BUSYBOX_DIR, 1);
	setenv("RAPIDO_BUSYBOX_DIR", GUEST_BUSYBOX_DIR, 1);
	setenv("HOME", "/root", 1);
	/*
	 * bash sets $SHELL, when its environment has none, from getpwuid():
	 * glibc's NSS (nscd's socket twice, nsswitch.conf, /etc/passwd), code
	 * run nowhere else, which qemu translates at the first bash's start
	 * under TCG: 8 ms of the autorun's (18 against 10 for a bash -c :,
	 * medians of 5 boots, load 4-6), then 1 ms of each bash. Without
	 * an /etc/passwd (most images) that finds no entry and bash takes
	 * /bin/sh: given here, the same for bash, and for its children what a
	 * program takes when SHELL is unset.
	 */
	if (!getenv("SHELL") && access("/etc/passwd", F_OK) < 0)
		setenv("SHELL", "/bin/sh", 1);
	if (!getenv("TERM"))
		setenv("TERM", "linux", 1);
	env = xasprintf("%u", cl.vm);
	setenv("RAPIDO_VM", env, 1);
	free(env);
	setenv("RAPIDO_BATCH", cl.batch ? "1" : "0", 1);
	/* rapido run -- CMD: the guest library runs it last (autorun/lib/rapido.sh) */
	if (cl.exec)
		setenv("RAPIDO_EXEC", cl.exec, 1);
	/*
	 * the prompt, for the console's shell and ./vmctl's second one (bash
	 * --norc reads no rc file, but takes PS1 from its environment)
	 */
	env = xasprintf("rapido%u:\\w# ", cl.vm);
	setenv("PS1", env, 1);
	free(env);
	load_env();
	if (mkdir("/root", 0700) < 0 && errno != EEXIST)
		warn_errno("mkdir /root");
	if (chdir("/root") < 0)
		warn_errno("chdir /root");
	step_done("setup", &t);
	load_modules();
	step_done("modules", &t);
	mount_api(1);
	init_mount_shares(&cl);
	step_done("shares", &t);
	init_net_up(&cl);
	step_done("net", &t);
	init_debug_setup(&cl);
	step_done("debug", &t);
	init_results_setup(&cl);
	step_done("results", &t);

	status_fd = init_open_status(&cl);
	init_mark_up();
	sig = init_run_autorun(&cl, &rec, &sender);
	if (sig)
		init_poweroff_verdict(RUN_DIR, sig, sender, &rec);
	else if (rec.kind == STATUS_EXIT)
		(void)init_early_verdict(RUN_DIR, &rec);
	step_done("autorun", &t);
	init_kill_all();
	/* read once no test can write: the failures were all failed tests? */
	if (rec.kind == STATUS_EXIT) {
		/*
		 * an interactive shell's status is the autorun's verdict (the
		 * library's EXIT trap for the shell), never its last command's
		 */
		if (cl.batch)
			rec.code = init_kept_status(RUN_DIR, rec.code);
		rec.tests_only = init_tests_only(RUN_DIR, rec.code);
	}
	/*
	 * The autorun's session leader drained what the profile printed; what
	 * the init itself said since (why bash could not start, a failed
	 * kill) may still sit in the console's transmit queue, and the status
	 * record (another port) and the power-off would overtake it.
	 */
	if (tcdrain(STDOUT_FILENO) < 0 && errno != ENOTTY && errno != EBADF)
		warn_errno("tcdrain /dev/console");
	init_report_status(&cl, status_fd, &rec);
	sync();
	reboot(RB_POWER_OFF);
	/* only reached if reboot() failed; PID 1 must not exit */
	warn_errno("reboot(RB_POWER_OFF)");
	for (;;)
		pause();
}
