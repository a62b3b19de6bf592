// SPDX-License-Identifier: GPL-2.0
/*
 * monitor.c: ./vm's QMP monitor as a state machine fed by launch's event
 * loop (see monitor.h). After the greeting it negotiates capabilities;
 * a GUEST_PANICKED (qemu pauses the guest: -action panic=pause) asks for
 * the dump once the monitor is ready, and the dump's answer, or the
 * panic without a dump, asks qemu to quit. Replies come in order, so the
 * state says which command a reply answers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "monitor.h"
#include "vm.h"

void vm_monitor_init(struct vm_monitor *m, const struct vm_settings *s, unsigned int vm, int fd)
{
	memset(m, 0, sizeof(*m));
	m->s = s;
	m->vm = vm;
	m->q.fd = fd;
	m->state = MON_GREETING;
}

static void send_cmd(struct vm_monitor *m, const char *json)
{
	int rc = qmp_send(&m->q, json);

	/* qemu gone is no news: its end shows on the pidfd */
	if (rc && rc != -ECONNRESET)
		warn_err(rc, "qemu monitor");
}

/* Have qemu write the guest's memory to path (taken over), then quit; quit alone without one. */
static void dump_then_quit(struct vm_monitor *m, char *path)
{
	char *proto, *cmd = NULL;

	if (path) {
		free(m->vmcore);
		m->vmcore = path;
		proto = xasprintf("file:%s", m->vmcore);
		cmd = qmp_command_text(json_pack("{s:s, s:{s:b, s:s, s:s}}", "execute",
						 "dump-guest-memory", "arguments", "paging", 0,
						 "protocol", proto, "format", m->s->vmcore_format));
		free(proto);
		/* JSON strings are UTF-8: a path of other bytes cannot be named to qemu */
		if (!cmd) {
			m->vmcore_ok = 0;
			snprintf(m->vmcore_err, sizeof(m->vmcore_err),
				 "not asked: the path is not UTF-8, which a QMP string cannot hold");
		}
	}
	if (cmd) {
		send_cmd(m, cmd);
		free(cmd);
		m->state = MON_DUMPING;
	} else {
		send_cmd(m, "{\"execute\": \"quit\"}");
		m->state = MON_QUITTING;
	}
}

/* The guest panicked and qemu paused it: dump its memory if asked, then quit. */
static void on_panic(struct vm_monitor *m)
{
	m->panicked = 1;
	if (m->state != MON_READY)
		return;
	dump_then_quit(m, m->s->vmcore_keep ? vm_vmcore_path(m->s, m->vm) : NULL);
}

void vm_monitor_send(struct vm_monitor *m, const char *json)
{
	if (m->q.fd >= 0)
		send_cmd(m, json);
}

int vm_monitor_stop(struct vm_monitor *m, char *vmcore)
{
	if (m->q.fd < 0 || m->state != MON_READY) {
		free(vmcore);
		return -EAGAIN;
	}
	dump_then_quit(m, vmcore);
	return 0;
}

static void on_event(struct vm_monitor *m, const struct qmp_msg *msg)
{
	if (!strcmp(msg->event, "SHUTDOWN")) {
		const char *r = qmp_msg_data_string(msg, "reason");

		snprintf(m->shutdown_reason, sizeof(m->shutdown_reason), "%s", r ? r : "");
	} else if (!strcmp(msg->event, "GUEST_PANICKED") && !m->panicked) {
		on_panic(m);
	}
}

/* A reply: to qmp_capabilities, then to the dump */
static void on_reply(struct vm_monitor *m, const struct qmp_msg *msg)
{
	int ok = msg->kind == QMP_RETURN;

	if (m->state == MON_GREETING) {
		m->state = MON_READY;
		if (m->panicked)	/* the panic came before we were ready */
			on_panic(m);
	} else if (m->state == MON_DUMPING) {
		m->vmcore_ok = ok;
		if (!ok)
			snprintf(m->vmcore_err, sizeof(m->vmcore_err), "%s", msg->err_desc);
		send_cmd(m, "{\"execute\": \"quit\"}");
		m->state = MON_QUITTING;
	}
}

static void on_line(const char *line, size_t len, void *arg)
{
	struct vm_monitor *m = arg;
	struct qmp_msg msg;
	char why[512];

	/* one bad message does not stop the VM: said, and passed over */
	if (qmp_msg_parse(line, len, &msg, why, sizeof(why))) {
		warn("qemu monitor: passed over a message that is not QMP: %s", why);
		return;
	}
	switch (msg.kind) {
	case QMP_GREETING:
		send_cmd(m, "{\"execute\": \"qmp_capabilities\"}");
		break;
	case QMP_EVENT:
		on_event(m, &msg);
		break;
	case QMP_RETURN:
	case QMP_ERROR:
		on_reply(m, &msg);
		break;
	}
	qmp_msg_free(&msg);
}

int vm_monitor_input(struct vm_monitor *m)
{
	int rc = qmp_read_lines(&m->q, on_line, m);

	if (rc == -EMSGSIZE)
		return 0;	/* no message of interest is that long: read on */
	if (!rc)
		return 0;
	if (rc != -ECONNRESET)
		warn_err(rc, "reading from qemu");
	return -1;
}

void vm_monitor_free(struct vm_monitor *m)
{
	qmp_close(&m->q);
	free(m->vmcore);
	m->vmcore = NULL;
}
