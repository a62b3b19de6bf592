/* SPDX-License-Identifier: GPL-2.0 */
/* init.h: pieces of the guest init that are testable on the host. */
#ifndef RAPIDO_INIT_H
#define RAPIDO_INIT_H

struct init_cmdline {
	unsigned int vm;	/* rapido.vm=N, 0 if absent */
	int batch;		/* rapido.batch=1 */
	char *net;		/* rapido.net=..., NULL if absent */
	unsigned int shares;	/* rapido.shares=N: 9p tags rapido0.. */
};

/* Parse a kernel command line (the text of /proc/cmdline). */
void init_cmdline_parse(const char *text, struct init_cmdline *cl);
/* Read /proc/cmdline and parse it. */
void init_parse_cmdline(struct init_cmdline *cl);
void init_set_hostname(unsigned int vm);
/* Bring up lo (and, later, configured interfaces). */
void init_net_up(const struct init_cmdline *cl);

/* Mount the host shares: rapido0 on /host, rapidoN on /hostN. */
void init_mount_shares(const struct init_cmdline *cl);

/* fork/exec argv, reaping every child until it exits; returns its exit code. */
int init_run(char *const argv[]);
/* Run the autorun scripts under bash on the console; returns the status to report. */
int init_run_autorun(int batch);
/* Write "N\n" to the status port. */
void init_report_status(int status);
/* Exit code for a wait status: the code, or 128+signal as the shell does. */
int init_status_code(int wstatus);

#endif
