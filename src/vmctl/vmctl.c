// SPDX-License-Identifier: GPL-2.0
/*
 * vmctl.c: ./vmctl N COMMAND: act on running VM number N through the QMP
 * socket ./vm made for it (VM_STATE_DIR/vmN.qmp). Multipath paths are the
 * scsi-hd devices mp<DISK>p<PATH> that ./vm attached (listed in vmN.mpath).
 * qemu's own error messages are reported verbatim.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "mpath.h"
#include "io.h"
#include "qmp.h"
#include "rapido.h"
#include "vmctl.h"

static void usage(void)
{
	printf("Usage:\n"
	       " vmctl N paths                 list the multipath paths and whether each is attached\n"
	       " vmctl N fail DISK PATH        pull a path (device_del) and wait until it is gone\n"
	       " vmctl N restore DISK PATH     plug a pulled path back (device_add)\n"
	       " vmctl N qmp JSON              send a raw QMP command, print the reply\n"
	       " vmctl N quit                  stop the VM at once\n"
	       " vmctl N shell                 a shell in the guest on its virtio console\n"
	       " vmctl N exec CMD              run CMD there; print its output, exit with its status\n"
	       "\n"
	       "Act on running VM number N (its hostname is rapidoN) through its QMP socket.\n"
	       "\n"
	       "Options:\n"
	       " -h, --help     display this help\n"
	       "\n"
	       "Exit status: 0 done, 1 qemu refused (its message is printed), 2 usage,\n"
	       "3 the VM is not running or its socket does not answer; exec: CMD's status.\n");
}

/* vmN.mpath: the paths ./vm made, one line each (src/lib/mpath.h) */
static size_t read_paths(const char *state, unsigned int vm, struct mpath_path **out)
{
	char *path = xasprintf("%s/vm%u.mpath", state, vm), *text;
	struct mpath_path *p = NULL;
	size_t n = 0;

	if (read_file(path, &text, NULL)) {
		free(path);
		*out = NULL;
		return 0;
	}
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		p = xrealloc(p, (n + 1) * sizeof(*p));
		if (mpath_path_parse_line(line, &p[n]) == 0)
			n++;
	}
	free(text);
	free(path);
	*out = p;
	return n;
}

struct deleted {
	const char *id;
	int seen;
};

static void on_event(const char *line, void *arg)
{
	struct deleted *d = arg;
	char *dev;

	if (!strstr(line, "\"DEVICE_DELETED\""))
		return;
	dev = json_string_value(line, "device");
	if (dev && !strcmp(dev, d->id))
		d->seen = 1;
	free(dev);
}

static int run_qmp(struct qmp *q, const char *json, char **reply, struct deleted *d)
{
	int rc = qmp_command(q, json, reply, d ? on_event : NULL, d);

	if (rc < 0) {
		warn("QMP: %s", strerror(-rc));
		exit(3);
	}
	if (rc > 0) {
		fprintf(stderr, "vmctl: qemu: %s\n", *reply);
		exit(1);
	}
	return 0;
}

static int present(struct qmp *q, const char *id)
{
	char *reply, *pat = xasprintf("\"name\": \"%s\"", id);
	int found;

	run_qmp(q, "{\"execute\": \"qom-list\", \"arguments\": {\"path\": \"/machine/peripheral\"}}",
		&reply, NULL);
	found = strstr(reply, pat) != NULL;
	free(reply);
	free(pat);
	return found;
}

static unsigned int parse_uint(const char *s, const char *what)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || s[0] == '-' || v > 100000) {
		fprintf(stderr, "vmctl: %s: expected a number, got '%s'\n", what, s);
		exit(2);
	}
	return (unsigned int)v;
}

static const struct mpath_path *find_path(const struct mpath_path *p, size_t n, const char *id,
					 unsigned int vm)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(p[i].id, id))
			return &p[i];
	fprintf(stderr, "vmctl: vm%u has no multipath path %s (see 'vmctl %u paths')\n", vm, id, vm);
	exit(2);
}

int cmd_vmctl(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct mpath_path *paths;
	struct conf c;
	struct qmp q;
	char *state, *sock, *err, *reply = NULL;
	const char *cmd;
	unsigned int vm;
	size_t np;
	int ch;

	err_prog = "vmctl";
	err_exit_status = 3;
	while ((ch = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (ch == 'h') {
			usage();
			close_stdout();
			return 0;
		}
		fprintf(stderr, "Try 'vmctl --help' for more information.\n");
		return 2;
	}
	if (argc - optind < 2) {
		fprintf(stderr, "vmctl: expected a VM number and a command\n"
			"Try 'vmctl --help' for more information.\n");
		return 2;
	}
	vm = parse_uint(argv[optind], "VM number");
	cmd = argv[optind + 1];
	/* check the command line before talking to anyone */
	if (!((!strcmp(cmd, "paths") && argc - optind == 2) ||
	      ((!strcmp(cmd, "fail") || !strcmp(cmd, "restore")) && argc - optind == 4) ||
	      (!strcmp(cmd, "qmp") && argc - optind == 3) ||
	      (!strcmp(cmd, "quit") && argc - optind == 2) ||
	      (!strcmp(cmd, "shell") && argc - optind == 2) ||
	      (!strcmp(cmd, "exec") && argc - optind == 3))) {
		fprintf(stderr, "vmctl: unknown command or wrong arguments: %s\n"
			"Try 'vmctl --help' for more information.\n", cmd);
		return 2;
	}
	rapido_conf_load_or_die(&c);
	state = rapido_state_dir_or_die(&c);
	if (!strcmp(cmd, "shell") || !strcmp(cmd, "exec")) {
		char *hvc = xasprintf("%s/vm%u.hvc", state, vm);
		int rc = cmd[0] == 's' ? vmctl_shell(hvc, vm) : vmctl_exec(hvc, vm, argv[optind + 2], 60);

		free(hvc);
		free(state);
		conf_free(&c);
		return rc;
	}
	sock = xasprintf("%s/vm%u.qmp", state, vm);
	np = read_paths(state, vm, &paths);
	if (qmp_connect(&q, sock, &err)) {
		fprintf(stderr, "vmctl: vm%u is not running or does not answer: %s\n", vm, err);
		free(err);
		free(paths);
		free(sock);
		free(state);
		conf_free(&c);
		return 3;
	}

	if (!strcmp(cmd, "paths")) {
		if (!np)
			printf("vm%u has no multipath disks\n", vm);
		for (size_t i = 0; i < np; i++)
			printf("%-8s %-12s %s\n", paths[i].id, paths[i].serial,
			       present(&q, paths[i].id) ? "attached" : "failed");
	} else if (!strcmp(cmd, "fail") || !strcmp(cmd, "restore")) {
		unsigned int d = parse_uint(argv[optind + 2], "DISK");
		unsigned int p = parse_uint(argv[optind + 3], "PATH");
		char *id = xasprintf("mp%up%u", d, p), *json;
		const struct mpath_path *pi = find_path(paths, np, id, vm);
		struct deleted del = { .id = id };

		if (cmd[0] == 'f') {
			json = xasprintf("{\"execute\": \"device_del\", \"arguments\": {\"id\": \"%s\"}}", id);
			run_qmp(&q, json, &reply, &del);
			/* the guest acknowledges the unplug; wait so the path is really gone */
			if (!del.seen) {
				char *needle = xasprintf("\"device\": \"%s\"", id);

				if (qmp_wait_event(&q, needle, 30000))
					warn("vm%u: no DEVICE_DELETED for %s within 30s", vm, id);
				free(needle);
			}
			printf("vm%u: path %s failed\n", vm, id);
		} else {
			/* the same properties ./vm gave it (src/lib/mpath.c) */
			json = mpath_path_device_add_json(pi);
			run_qmp(&q, json, &reply, NULL);
			printf("vm%u: path %s restored\n", vm, id);
		}
		free(json);
		free(id);
	} else if (!strcmp(cmd, "qmp")) {
		run_qmp(&q, argv[optind + 2], &reply, NULL);
		printf("%s\n", reply);
	} else {
		run_qmp(&q, "{\"execute\": \"quit\"}", &reply, NULL);
	}
	free(reply);
	qmp_close(&q);
	free(paths);
	free(sock);
	free(state);
	conf_free(&c);
	close_stdout();
	return 0;
}
