/* SPDX-License-Identifier: GPL-2.0 */
/* init.h: pieces of the guest init that are testable on the host. */
#ifndef RAPIDO_INIT_H
#define RAPIDO_INIT_H

#include <stddef.h>
#include <sys/types.h>

#include "status.h"

struct init_cmdline {
	unsigned int vm;	/* rapido.vm=N, 0 if absent */
	int batch;		/* rapido.batch=1 */
	char *ip[8];		/* rapido.ip=IFACE,ADDR/PREFIX[,GW] */
	unsigned int n_ip;
	unsigned int shares;	/* rapido.shares=N: 9p tags rapido0.. */
	unsigned int virtiofs;	/* rapido.virtiofs=N: virtiofs shares (the module) */
	char nonce[STATUS_NONCE_LEN + 1];	/* rapido.nonce=: frames the status record */
	int hvc;		/* rapido.hvc=1: keep a shell on /dev/hvc0 */
	char shell[16];		/* rapido.shell=TTY: keep it on /dev/TTY instead; "": none */
	int results;		/* rapido.results=1: ./vm --results, see results.c */
	char shard[24];		/* rapido.shard=I/N, "" if none */
	char serial[8];		/* rapido.serial=defer|only (./vm --jobs), "" if none */
	char *serial_tests;	/* rapido.serial-test=NAME..., unescaped, a line each; NULL: none */
	unsigned int rerun;	/* rapido.rerun=N: re-runs of a failed test, 0 if none */
	char *exec;		/* rapido.exec=NONCE,CRC,BASE64: rapido run's command, "NONCE CRC BASE64"; NULL: none */
	char status_port[64];	/* rapido.status=NAME: the virtio serial port for the status; "": ttyS1 */
	char console[16];	/* the last console=NAME[,OPTIONS], /dev/console's tty; "": none */
};

/* Parse a kernel command line (the text of /proc/cmdline). */
void init_cmdline_parse(const char *text, struct init_cmdline *cl);
/* Read /proc/cmdline and parse it. */
void init_parse_cmdline(struct init_cmdline *cl);
void init_set_hostname(unsigned int vm);
/* Bring up lo and the interfaces named by rapido.ip=. */
void init_net_up(const struct init_cmdline *cl);

struct init_ip {
	char ifname[16];
	char addr[16];
	unsigned int prefix;
	char gw[16];	/* "" if none */
};
/* Parse "eth0,192.168.155.101/24[,GW]"; 0 or -EINVAL. */
int init_ip_parse(const char *s, struct init_ip *ip);

/* debug.c: pvpanic and VMCOREINFO for dumps; a shell on the virtio console. */
void init_debug_setup(const struct init_cmdline *cl);

/* Mount the host shares: rapido0 on /host, rapidoN on /hostN; load virtiofs for its tags. */
void init_mount_shares(const struct init_cmdline *cl);

/*
 * results.c: for ./vm --results, mount DIR/files (9p tag rapido.results) on
 * /results and find the results port; export RAPIDO_RESULTS_DIR,
 * RAPIDO_RESULTS_PORT, RAPIDO_SHARD, RAPIDO_SERIAL and RAPIDO_SERIAL_TESTS
 * for autorun/lib/results.sh.
 */
void init_results_setup(const struct init_cmdline *cl);
/*
 * After the autorun and every other process are gone: were the failures
 * of an autorun that exited with code all failed tests? The guest
 * library (autorun/lib/rapido.sh) keeps its first failure in
 * DIR/rapido.status ("CODE WHY"; DIR is /run) and notes any that was no
 * failed test's in DIR/rapido.status-other. Said in the status record,
 * not on the results port, which every test can write to.
 */
int init_tests_only(const char *dir, int code);
/*
 * The batch autorun's status: code, or when code is 0 and the library
 * kept a failure in DIR/rapido.status (a profile's EXIT trap ran "exit",
 * bash cut a status to 8 bits), that failure (1 for one that is no exit
 * status): the first failure sticks, whatever ended bash.
 */
int init_kept_status(const char *dir, int code);

/* fork/exec argv, reaping every child until it exits; returns its exit code. */
int init_run(char *const argv[]);
/*
 * Run the autorun scripts under bash on the console and fill *r with what
 * to report: the scripts' status, or an init error when bash could not be
 * started at all (so that it never passes for the scripts' own 127).
 * Returns the signal that asked PID 1 to power off before the autorun
 * ended (halt SIGUSR1, poweroff SIGUSR2, reboot SIGTERM: busybox's), its
 * sender in *sender, 0 when it ended by itself; *r is then
 * init_poweroff_verdict()'s to fill.
 */
int init_run_autorun(const struct init_cmdline *cl, struct status_record *r, pid_t *sender);
/*
 * What a power-off asked by signal sig (from pid sender) ends the run
 * with, from the guest library's files in DIR: the guest library's own
 * poweroff left the status of the command before it in DIR/rapido.poweroff
 * (a clean end, never a crash); at the interactive shell's prompt
 * (DIR/rapido.prompt) leaving is no verdict: the kept failure, else 0.
 * Anything else (busybox's poweroff run by a suite, kill -TERM 1) came
 * before the profile finished: no verdict at all, an init error that
 * names the signal and its sender (./vm: 123), never a pass; or the
 * cause the library left in DIR/rapido.early when it ended the run so
 * (a poweroff in a second shell, the prompt of an interrupted profile left).
 */
void init_poweroff_verdict(const char *dir, int sig, pid_t sender, struct status_record *r);
/*
 * The cause the guest library left in DIR/rapido.early when the profile
 * cannot finish (it was interrupted at an interactive prompt, from the
 * moment of the interruption): *r an init error naming it, returns 1 (no
 * verdict, however the shell ends: exit, exec, a replaced EXIT trap); 0
 * when it left none.
 */
int init_early_verdict(const char *dir, struct status_record *r);
/* Kill every process but PID 1 and reap them: nothing may write after the report. */
void init_kill_all(void);
/*
 * Open the status port, ttyS1 or the virtio serial port rapido.status=
 * names (machines with one UART), before the autorun starts: the fd
 * (close-on-exec) or -1, warned. Held from boot, so that a test that
 * removes or hides /dev/ttyS1 (or mounts over /dev) after writing a
 * record of its own cannot keep the init's from coming last; a virtio
 * port held open cannot be opened by a test at all.
 */
int init_open_status(const struct init_cmdline *cl);
/* Write the framed status record (status.h) to fd (init_open_status's) and close it. */
void init_report_status(const struct init_cmdline *cl, int fd, const struct status_record *r);
/*
 * Load MODS (a NULL-terminated guestmods.h list) as modprobe -a [-q]
 * would; 0 when all loaded (or the kernel has no modules to load).
 */
int init_modprobe(const char *const mods[], int quiet);
/* modload.c: the same for n names; -q: a name not found is no error. */
int init_load_modules(const char *const *names, size_t n, int quiet);
/* A line in the kernel log, at the debug level (dmesg, not the console): bench/boot's breakdown. */
void init_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The console's "up" line (upmark.h): the boot log ends here. */
void init_mark_up(void);
/* port.c: /dev/vportNpM of the virtio serial port named name, or NULL (malloc'd). */
char *init_find_port(const char *name);
/* The same, once its device node is writable: tries at 10 ms apart, else NULL. */
char *init_wait_port(const char *name, int tries);
/* Exit code for a wait status: the code, or 128+signal as the shell does. */
int init_status_code(int wstatus);

/*
 * pid1.c: the init itself, PID 1: mounts, modules, the profile under bash,
 * the status, the power-off. Dies at once when it is not PID 1.
 */
int cmd_init(int argc, char **argv);

#endif
