// SPDX-License-Identifier: GPL-2.0
/*
 * vmctl.c: ./vmctl N COMMAND: act on running VM number N through the QMP
 * socket ./vm made for it (VM_STATE_DIR/vmN.qmp). Multipath paths are the
 * scsi-hd devices mp<DISK>p<PATH> that ./vm attached (listed in vmN.mpath).
 * A VM that is not there, one that does not answer, and qemu refusing a
 * command are three different failures, told apart in words and exit codes.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "mpath.h"
#include "io.h"
#include "num.h"
#include "qmp.h"
#include "rapido.h"
#include "usock.h"
#include "version.h"
#include "vmctl.h"

enum {
	EXIT_REFUSED = 1,	/* qemu refused, or the path already is as asked */
	EXIT_USAGE = 2,
	EXIT_NO_VM = 3,		/* no socket, or nobody listens on it */
	EXIT_NO_ANSWER = 4,	/* the VM is there but did not answer in time */
};

struct vmctl {
	unsigned int vm;
	int timeout_s;
	const char *sock;
	struct qmp q;
};

/* "vmctl: MESSAGE" on stderr */
static void say(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static void say(const char *fmt, va_list ap)
{
	fputs("vmctl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static noreturn void fail_with(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static noreturn void fail_with(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	exit(status);
}

static noreturn void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static noreturn void usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	usage_die(EXIT_USAGE, NULL);
}

/* vmN.mpath: the paths ./vm made, one line each (src/qemu/mpath.h) */
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

/* DEVICE_DELETED of d->id: seen (an event while waiting for the reply, or after it) */
static int on_event(const struct qmp_msg *m, void *arg)
{
	struct deleted *d = arg;
	const char *dev = qmp_msg_data_string(m, "device");

	if (!strcmp(m->event, "DEVICE_DELETED") && dev && !strcmp(dev, d->id))
		d->seen = 1;
	return d->seen;
}

/* A connection that failed: no VM, or a VM that does not answer. */
static noreturn void connect_failed(const struct vmctl *v, int rc, const char *err)
{
	switch (rc) {
	case -ENOENT:
		fail_with(EXIT_NO_VM, "no VM %u: %s does not exist (no ./vm runs as VM %u with this "
			  "VM_STATE_DIR)", v->vm, v->sock, v->vm);
	case -ECONNREFUSED:
		fail_with(EXIT_NO_VM, "no VM %u: nothing listens on %s (a socket left by a VM that is gone)",
			  v->vm, v->sock);
	case -ETIMEDOUT:
		fail_with(EXIT_NO_ANSWER, "VM %u did not answer within %d s: %s took the connection but "
			  "sent no QMP greeting (is another QMP client connected to it?)", v->vm,
			  v->timeout_s, v->sock);
	case -ECONNRESET:
		fail_with(EXIT_NO_ANSWER, "VM %u hung up: %s (is qemu exiting?)", v->vm, err);
	default:
		fail_with(EXIT_NO_ANSWER, "VM %u: cannot talk QMP: %s", v->vm, err);
	}
}

/* A wait for qemu that failed: why, in words, and exit 4. */
static noreturn void qmp_failed(const struct vmctl *v, int rc, const char *what)
{
	if (rc == -ETIMEDOUT)
		fail_with(EXIT_NO_ANSWER, "VM %u did not answer %s within %d s (%s)", v->vm, what,
			  v->timeout_s, v->sock);
	if (rc == -ECONNRESET)
		fail_with(EXIT_NO_ANSWER, "VM %u hung up before answering %s (is qemu exiting?)", v->vm,
			  what);
	if (rc == -EPROTO)
		fail_with(EXIT_NO_ANSWER, "VM %u: qemu's answer to %s is not QMP: %s", v->vm, what,
			  v->q.why);
	if (rc == -EMSGSIZE)
		fail_with(EXIT_NO_ANSWER, "VM %u: qemu sent a message longer than %d bytes while %s "
			  "was due", v->vm, QMP_MSG_MAX - 1, what);
	fail_with(EXIT_NO_ANSWER, "VM %u: %s: %s: %s", v->vm, v->sock, what, strerror(-rc));
}

/*
 * Send json (what names it for messages) and return qemu's reply. On qemu's
 * refusal, 1 with *reply its error when may_refuse, else exit 1 saying so.
 */
static int run_qmp(struct vmctl *v, const char *json, const char *what, struct qmp_msg *reply,
		   struct deleted *d, int may_refuse)
{
	int rc = qmp_command(&v->q, json, reply, d ? on_event : NULL, d);

	if (rc < 0)
		qmp_failed(v, rc, what);
	if (rc > 0 && !may_refuse)
		fail_with(EXIT_REFUSED, "qemu: %s", reply->err_desc);
	return rc;
}

/* Is device id plugged in? qom-list of /machine/peripheral names every -device id=. */
static int present(struct vmctl *v, const char *id)
{
	struct qmp_msg reply;
	size_t i;
	json_t *prop;
	int found = 0;

	run_qmp(v, "{\"execute\": \"qom-list\", \"arguments\": {\"path\": \"/machine/peripheral\"}}",
		"qom-list", &reply, NULL, 0);
	/* [{"name": "mp0p1", "type": "child<scsi-hd>"}, ...] */
	if (!json_is_array(reply.ret))
		fail_with(EXIT_NO_ANSWER, "VM %u: qemu's answer to qom-list is not QMP: \"return\" is "
			  "not an array of properties: %.200s", v->vm, reply.text);
	json_array_foreach(reply.ret, i, prop) {
		const char *name = json_string_value(json_object_get(prop, "name"));

		if (!name)
			fail_with(EXIT_NO_ANSWER, "VM %u: qemu's answer to qom-list is not QMP: property "
				  "%zu has no \"name\" string: %.200s", v->vm, i + 1, reply.text);
		found |= !strcmp(name, id);
	}
	qmp_msg_free(&reply);
	return found;
}

static unsigned int parse_uint(const char *s, const char *what)
{
	char why[NUM_WHY_LEN];
	unsigned int v;

	if (num_parse_uint(s, 0, 100000, &v, why))
		usage_error("%s: %s", what, why);
	return v;
}

static const struct mpath_path *find_path(const struct mpath_path *p, size_t n, const char *id,
					 unsigned int vm)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(p[i].id, id))
			return &p[i];
	usage_error("VM %u has no multipath path %s (see 'vmctl %u paths')", vm, id, vm);
}

/* The raw command must be one JSON object, or qemu waits for the rest of it. */
static void check_json(const char *json)
{
	struct qmp_json_error e;
	json_t *cmd = qmp_json_object(json, strlen(json), &e);
	const char *line;
	size_t llen;

	if (cmd) {
		/* sent as it was given: what was checked is what qemu reads */
		json_decref(cmd);
		return;
	}
	if (e.type >= 0)
		usage_error("qmp: a QMP command is a JSON object, such as "
			    "'{\"execute\": \"query-status\"}', not a JSON %s",
			    e.type == JSON_ARRAY ? "array" : e.type == JSON_STRING ? "string" :
			    e.type == JSON_INTEGER || e.type == JSON_REAL ? "number" : "literal");
	fprintf(stderr, "vmctl: qmp: invalid JSON at line %u, column %u: %s\n", e.line, e.column, e.msg);
	/* the line in question with a caret under the spot, if it is short enough to read */
	line = json;
	for (unsigned int l = 1; l < e.line; l++)
		line = strchr(line, '\n') + 1;
	llen = strcspn(line, "\n");
	if (llen <= 120) {
		fprintf(stderr, "  %.*s\n  ", (int)llen, line);
		for (unsigned int c = 1; c < e.column; c++)
			fputc(line[c - 1] == '\t' ? '\t' : ' ', stderr);
		fputs("^\n", stderr);
	}
	usage_die(EXIT_USAGE, NULL);
}

static void cmd_fail(struct vmctl *v, const char *id, unsigned int d, unsigned int p)
{
	struct deleted del = { .id = id };
	struct qmp_msg reply;
	char *json;
	int rc;

	if (!present(v, id))
		fail_with(EXIT_REFUSED, "VM %u: path %s (disk %u, path %u) is already failed: it is not "
			  "attached ('vmctl %u restore %u %u' plugs it back)", v->vm, id, d, p, v->vm, d, p);
	json = qmp_command_text(json_pack("{s:s, s:{s:s}}", "execute", "device_del", "arguments",
					  "id", id));
	rc = run_qmp(v, json, "device_del", &reply, &del, 1);
	/* pulled meanwhile by someone else */
	if (rc > 0 && !strcmp(reply.err_class, "DeviceNotFound"))
		fail_with(EXIT_REFUSED, "VM %u: path %s (disk %u, path %u) is already failed: it is not "
			  "attached ('vmctl %u restore %u %u' plugs it back)", v->vm, id, d, p, v->vm, d, p);
	if (rc > 0)
		fail_with(EXIT_REFUSED, "qemu: %s", reply.err_desc);
	/* the unplug is done when qemu says DEVICE_DELETED, maybe after the reply */
	if (!del.seen) {
		rc = qmp_wait_event(&v->q, on_event, &del, v->timeout_s * 1000);
		if (rc == -ETIMEDOUT)
			fail_with(EXIT_NO_ANSWER, "VM %u: qemu took device_del of %s but did not delete it "
				  "within %d s", v->vm, id, v->timeout_s);
		if (rc) {
			char *what = xasprintf("device_del of %s (its DEVICE_DELETED)", id);

			qmp_failed(v, rc, what);
		}
	}
	printf("vm%u: path %s failed\n", v->vm, id);
	qmp_msg_free(&reply);
	free(json);
}

static void cmd_restore(struct vmctl *v, const struct mpath_path *pi, unsigned int d, unsigned int p)
{
	struct qmp_msg reply;
	char *json, *dup;
	int rc;

	if (present(v, pi->id))
		fail_with(EXIT_REFUSED, "VM %u: path %s (disk %u, path %u) is already present: it is "
			  "attached, nothing to restore", v->vm, pi->id, d, p);
	/* the same properties ./vm gave it (src/qemu/mpath.c) */
	json = mpath_path_device_add_json(pi);
	rc = run_qmp(v, json, "device_add", &reply, NULL, 1);
	/* plugged back meanwhile by someone else: qemu says "Duplicate device ID 'mp0p1' ..." */
	dup = xasprintf("'%s'", pi->id);
	if (rc > 0 && strstr(reply.err_desc, "Duplicate") && strstr(reply.err_desc, dup))
		fail_with(EXIT_REFUSED, "VM %u: path %s (disk %u, path %u) is already present: it is "
			  "attached, nothing to restore", v->vm, pi->id, d, p);
	if (rc > 0)
		fail_with(EXIT_REFUSED, "qemu: %s", reply.err_desc);
	printf("vm%u: path %s restored\n", v->vm, pi->id);
	free(dup);
	qmp_msg_free(&reply);
	free(json);
}

/* A VM runs as vmN.qmp: something listens on the socket ./vm made for it. */
static int qmp_listening(const char *path)
{
	int fd = usock_connect(path);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/*
 * No N given: the one VM that runs with this state dir (a socket left by a
 * VM that is gone does not count), or exit 3 saying none or which ones.
 */
static unsigned int only_vm_or_exit(const char *state)
{
	DIR *d = opendir(state);
	struct dirent *e;
	unsigned int n = 0, first = 0;
	char list[256] = "";

	if (!d)
		fail_with(EXIT_NO_VM, "no VM runs: %s: %s", state, strerror(errno));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char num[16], *path;
		unsigned int vm;

		if (strncmp(e->d_name, "vm", 2) || len < 7 || len - 6 >= sizeof(num) ||
		    strcmp(e->d_name + len - 4, ".qmp"))
			continue;
		memcpy(num, e->d_name + 2, len - 6);
		num[len - 6] = '\0';
		if (num_parse_uint(num, 0, 100000, &vm, NULL))
			continue;
		path = xasprintf("%s/%s", state, e->d_name);
		if (qmp_listening(path)) {
			if (!n++)
				first = vm;
			if (strlen(list) + 12 < sizeof(list))
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%u",
					 *list ? ", " : "", vm);
		}
		free(path);
	}
	closedir(d);
	if (!n)
		fail_with(EXIT_NO_VM, "no VM runs with this VM_STATE_DIR (%s): start one with ./vm",
			  state);
	if (n > 1)
		fail_with(EXIT_NO_VM, "%u VMs run (%s): say which, as 'vmctl N COMMAND'", n, list);
	return first;
}

/* What a command works with: its words (its name first), and the VM's state. */
struct vmctl_call {
	char **args;
	const char *state;		/* VM_STATE_DIR */
	struct mpath_path *paths;	/* vmN.mpath's (QMP commands) */
	size_t np;
};

static int run_paths(struct vmctl *v, const struct vmctl_call *c)
{
	if (!c->np)
		printf("vm%u has no multipath disks\n", v->vm);
	for (size_t i = 0; i < c->np; i++)
		printf("%-8s %-12s %s\n", c->paths[i].id, c->paths[i].serial,
		       present(v, c->paths[i].id) ? "attached" : "failed");
	return 0;
}

static void check_disk_path(char **args)
{
	parse_uint(args[1], "DISK");
	parse_uint(args[2], "PATH");
}

/* fail and restore DISK PATH: a path ./vm made (vmN.mpath) */
static int run_fail_restore(struct vmctl *v, const struct vmctl_call *c)
{
	unsigned int d = parse_uint(c->args[1], "DISK");
	unsigned int p = parse_uint(c->args[2], "PATH");
	char *id = xasprintf("mp%up%u", d, p);
	const struct mpath_path *pi = find_path(c->paths, c->np, id, v->vm);

	if (c->args[0][0] == 'f')
		cmd_fail(v, id, d, p);
	else
		cmd_restore(v, pi, d, p);
	free(id);
	return 0;
}

static void check_qmp(char **args)
{
	check_json(args[1]);
}

static int run_raw_qmp(struct vmctl *v, const struct vmctl_call *c)
{
	struct qmp_msg reply;

	run_qmp(v, c->args[1], "the command", &reply, NULL, 0);
	printf("%s\n", reply.text);
	qmp_msg_free(&reply);
	return 0;
}

static int run_quit(struct vmctl *v, const struct vmctl_call *c)
{
	struct qmp_msg reply;

	(void)c;
	run_qmp(v, "{\"execute\": \"quit\"}", "quit", &reply, NULL, 0);
	qmp_msg_free(&reply);
	return 0;
}

/* shell and exec: over the guest's console port (vmN.hvc), not QMP; the exit status is theirs */
static int run_console(struct vmctl *v, const struct vmctl_call *c)
{
	char *hvc = xasprintf("%s/vm%u.hvc", c->state, v->vm);
	int rc = c->args[0][0] == 's' ? vmctl_shell(hvc, v->vm) :
		 vmctl_exec(hvc, v->vm, c->args[1], (unsigned int)v->timeout_s * 2);

	free(hvc);
	return rc;
}

/* The commands: --help's usage lines, the words taken and what runs, in one row each. */
static const struct vmctl_cmd {
	const char *name;
	const char *args;	/* as --help shows them */
	int nargs;		/* words after the name */
	int console;		/* over the console port, not QMP */
	void (*check)(char **args);	/* before anyone is asked; NULL: nothing to check */
	int (*run)(struct vmctl *v, const struct vmctl_call *c);
	const char *help;
} cmds[] = {
	{ "paths", "", 0, 0, NULL, run_paths,
	  "list the multipath paths and whether each is attached" },
	{ "fail", "DISK PATH", 2, 0, check_disk_path, run_fail_restore,
	  "pull a path (device_del) and wait until it is gone" },
	{ "restore", "DISK PATH", 2, 0, check_disk_path, run_fail_restore,
	  "plug a pulled path back (device_add)" },
	{ "qmp", "JSON", 1, 0, check_qmp, run_raw_qmp,
	  "send a raw QMP command (a JSON object), print the reply" },
	{ "quit", "", 0, 0, NULL, run_quit, "stop the VM at once" },
	{ "shell", "", 0, 1, NULL, run_console, "a shell in the guest on its console port" },
	{ "exec", "CMD", 1, 1, NULL, run_console,
	  "run CMD there; copy its output, exit with its status" },
};
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

static const struct vmctl_cmd *find_cmd(const char *w)
{
	for (size_t i = 0; i < NCMDS; i++)
		if (!strcmp(w, cmds[i].name))
			return &cmds[i];
	return NULL;
}

static void usage(void)
{
	/* a line a command: bash's and zsh's completion take the commands from these */
	printf("Usage:\n");
	for (size_t i = 0; i < NCMDS; i++) {
		char *words = *cmds[i].args ? xasprintf("%s %s", cmds[i].name, cmds[i].args) :
					       xstrdup(cmds[i].name);

		printf(" vmctl [options] [N] %-18s %s\n", words, cmds[i].help);
		free(words);
	}
	printf("\n"
	       "Act on running VM number N (its hostname is rapidoN) through its QMP socket.\n"
	       "N may be left out when exactly one VM runs (with this VM_STATE_DIR).\n"
	       "\n"
	       "Options:\n"
	       " -t, --timeout SECS   wait at most SECS for each answer from qemu (default 30)\n"
	       "     --version        print the version, and dracut's and qemu's\n"
	       " -h, --help           display this help\n"
	       "\n"
	       "Exit status:\n"
	       " 0  done\n"
	       " 1  qemu refused (its message is printed), or the path already is failed\n"
	       "    (fail) or attached (restore)\n"
	       " 2  usage or rapido.conf error, or JSON that is not valid (where is printed)\n"
	       " 3  there is no VM N: no QMP socket, or nothing listens on it (no N: no VM,\n"
	       "    or more than one, runs)\n"
	       " 4  VM N is there but did not answer in time (or hung up, or answered with\n"
	       "    what is not QMP: what is wrong with it is printed)\n"
	       "\n"
	       "exec runs CMD under bash -c in the guest, stdin /dev/null, through the image's\n"
	       "rapido-exec: CMD's stdout and stderr arrive byte for byte (NULs, CRs, no newline\n"
	       "added), each on its own, and vmctl exits with CMD's status (128+N for signal N),\n"
	       "or 3 and 4 as above when it cannot run; 4 also when the answer arrived damaged\n"
	       "(what was printed before may be cut short) or the image has no rapido-exec.\n");
}

int cmd_vmctl(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vmctl v = { .timeout_s = 30 };
	struct vmctl_call call = { .paths = NULL };
	const struct vmctl_cmd *cmd;
	struct conf c;
	char *state, *sock, *err;
	int ch, rc, given, nargs;

	err_prog = "vmctl";
	err_exit_status = EXIT_USAGE;
	opterr = 0;	/* our own messages, named vmctl */
	while ((ch = getopt_long(argc, argv, "+:t:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'V':
			version_print("vmctl");
			return 0;
		case 'h':
			usage();
			close_stdout();
			return 0;
		case 't':
			v.timeout_s = (int)parse_uint(optarg, "--timeout");
			if (v.timeout_s < 1 || v.timeout_s > INT_MAX / 1000)
				usage_error("--timeout: expected 1 to %d seconds, got '%s'", INT_MAX / 1000,
					    optarg);
			break;
		case '?':
			usage_error("unknown option '%s'", argv[optind - 1]);
		default:
			usage_error("option '%s' needs an argument", argv[optind - 1]);
		}
	}
	/* N, or no N and the command: the one VM that runs */
	given = argc - optind >= 1 && !find_cmd(argv[optind]);
	call.args = argv + optind + given;
	nargs = argc - optind - given;
	if (nargs < 1)
		usage_error("expected a VM number and a command");
	if (given)
		v.vm = parse_uint(argv[optind], "VM number");
	/* check the whole command line before talking to anyone */
	cmd = find_cmd(call.args[0]);
	if (!cmd || nargs != cmd->nargs + 1)
		usage_error("unknown command or wrong arguments: %s", call.args[0]);
	if (cmd->check)
		cmd->check(call.args);

	rapido_conf_load_or_die(&c);
	state = rapido_state_dir_or_die(&c);
	call.state = state;
	if (!given)
		v.vm = only_vm_or_exit(state);
	if (cmd->console) {
		rc = cmd->run(&v, &call);
		free(state);
		conf_free(&c);
		return rc;
	}
	sock = xasprintf("%s/vm%u.qmp", state, v.vm);
	v.sock = sock;
	call.np = read_paths(state, v.vm, &call.paths);
	rc = qmp_connect_timeout(&v.q, sock, v.timeout_s * 1000, &err);
	if (rc)
		connect_failed(&v, rc, err);
	cmd->run(&v, &call);
	qmp_close(&v.q);
	free(call.paths);
	free(sock);
	free(state);
	conf_free(&c);
	close_stdout();
	return 0;
}
