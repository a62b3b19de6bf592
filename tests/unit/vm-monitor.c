// SPDX-License-Identifier: GPL-2.0
/*
 * vm-monitor.c: ./vm's own QMP monitor (monitor.c) against a scripted
 * qemu on a socketpair: the capabilities handshake, a panic before the
 * monitor is ready and the dump it then asks for, the dump's error, the
 * quit after it, SHUTDOWN's reason, a panic without dumps, qemu gone;
 * messages that are not QMP said and passed over; a dump path that is
 * not UTF-8 (no JSON string holds it) not asked for.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "monitor.h"
#include "tap.h"
#include "vm.h"

static int qemu_fd;

/* qemu says text; the monitor reads it */
static int say(struct vm_monitor *m, const char *text)
{
	if (write_all(qemu_fd, text, strlen(text)))
		exit(1);
	return vm_monitor_input(m);
}

/* what the monitor sent qemu since the last look ("" for nothing) */
static char *heard(void)
{
	static char buf[4096];
	ssize_t n = recv(qemu_fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* what the monitor says on stderr while qemu says text (its warnings) */
static char *warned(struct vm_monitor *m, const char *text, const char *dir)
{
	static char buf[4096];
	char *path = xasprintf("%s/stderr", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), saved = dup(2);
	ssize_t n;

	if (fd < 0 || saved < 0 || dup2(fd, 2) < 0)
		exit(1);
	say(m, text);
	fflush(stderr);
	if (dup2(saved, 2) < 0)
		exit(1);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	close(saved);
	free(path);
	return buf;
}

static void monitor_open(struct vm_monitor *m, const struct vm_settings *s)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 ||
	    fcntl(sv[0], F_SETFL, O_NONBLOCK) < 0)
		exit(1);
	qemu_fd = sv[1];
	vm_monitor_init(m, s, 3, sv[0]);
}

int main(void)
{
	char dir[] = "/tmp/rapido-monitor-XXXXXX", *want;
	struct vm_settings s = { .vmcore_keep = 1, .vmcore_format = "elf" };
	struct vm_monitor m;

	tap_plan(22);
	if (!mkdtemp(dir))
		return 1;
	s.state_dir = dir;
	monitor_open(&m, &s);

	TAP_EQ_INT(say(&m, "{\"QMP\": {\"version\": {}, \"capabilities\": []}}\n"), 0, "the greeting");
	TAP_EQ_STR(heard(), "{\"execute\": \"qmp_capabilities\"}\n", "  answered with qmp_capabilities");
	TAP_EQ_STR(warned(&m, "{\"return\": {}\n", dir), "rapido: qemu monitor: passed over a message that "
		   "is not QMP: not JSON at byte 13: '}' expected near end of file: '{\"return\": {}'\n",
		   "a reply cut short: said, quoted");
	TAP_EQ_INT(m.state, MON_GREETING, "  and passed over: no reply yet");
	TAP_EQ_STR(warned(&m, "{\"event\": \"GUEST_PANICKED\", \"data\": 1}\n", dir),
		   "rapido: qemu monitor: passed over a message that is not QMP: the event's \"data\" is "
		   "not an object: '{\"event\": \"GUEST_PANICKED\", \"data\": 1}'\n",
		   "an event with data of the wrong type: said");
	TAP_EQ_INT(m.panicked, 0, "  and passed over: no panic");
	say(&m, "{\"timestamp\": {\"seconds\": 1}, \"event\": \"GUEST_PANICKED\", \"data\": {}}\n");
	TAP_EQ_INT(m.panicked, 1, "a panic before the handshake's reply is seen");
	TAP_EQ_STR(heard(), "", "  but nothing is asked before the monitor is ready");
	say(&m, "{\"return\": {}}\n");
	want = xasprintf("{\"execute\": \"dump-guest-memory\", \"arguments\": {\"paging\": false, "
			 "\"protocol\": \"file:%s/vm3.vmcore\", \"format\": \"elf\"}}\n", dir);
	TAP_EQ_STR(heard(), want, "ready: the dump is asked for, into vm3.vmcore");
	free(want);
	want = xasprintf("%s/vm3.vmcore", dir);
	TAP_EQ_STR(m.vmcore, want, "  the dump's path is kept");
	free(want);
	say(&m, "{\"timestamp\": {\"seconds\": 2}, \"event\": \"GUEST_PANICKED\", \"data\": {}}\n");
	TAP_EQ_STR(heard(), "", "a second panic event asks for nothing");
	say(&m, "{\"error\": {\"class\": \"GenericError\", \"desc\": \"no \\\"space\\\"\"}}\n");
	TAP_EQ_INT(m.vmcore_ok, 0, "the dump's error");
	TAP_EQ_STR(m.vmcore_err, "no \"space\"", "  its reason, unescaped");
	TAP_EQ_STR(heard(), "{\"execute\": \"quit\"}\n", "  then quit");
	say(&m, "{\"timestamp\": {\"seconds\": 3}, \"event\": \"SHUTDOWN\", \"data\": {\"guest\": false, "
	    "\"reason\": \"host-qmp-quit\"}}\n");
	TAP_EQ_STR(m.shutdown_reason, "host-qmp-quit", "SHUTDOWN's reason");
	close(qemu_fd);
	TAP_EQ_INT(vm_monitor_input(&m), -1, "qemu gone: the monitor's end");
	vm_monitor_free(&m);

	s.vmcore_keep = 0;
	monitor_open(&m, &s);
	say(&m, "{\"QMP\": {}}\n{\"return\": {}}\n");
	heard();
	say(&m, "{\"timestamp\": {\"seconds\": 1}, \"event\": \"GUEST_PANICKED\"}\n");
	TAP_EQ_STR(heard(), "{\"execute\": \"quit\"}\n", "no dumps kept: a panic is a quit");
	TAP_EQ_STR(m.vmcore, NULL, "  and no dump");
	say(&m, "{\"return\": {}}\n");
	TAP_EQ_STR(heard(), "", "  its reply asks for nothing more");
	TAP_EQ_INT(m.state, MON_QUITTING, "  quitting");
	close(qemu_fd);
	vm_monitor_free(&m);

	/* VM_STATE_DIR of bytes that are not UTF-8: the dump cannot be named to qemu */
	s.vmcore_keep = 1;
	s.state_dir = "/nonexistent/\xff";
	monitor_open(&m, &s);
	say(&m, "{\"QMP\": {}}\n{\"return\": {}}\n");
	heard();
	say(&m, "{\"event\": \"GUEST_PANICKED\"}\n");
	TAP_EQ_STR(heard(), "{\"execute\": \"quit\"}\n", "a dump path that is not UTF-8: quit at once");
	TAP_EQ_STR(m.vmcore_err, "not asked: the path is not UTF-8, which a QMP string cannot hold",
		   "  saying why there is no dump");
	close(qemu_fd);
	vm_monitor_free(&m);
	tap_rm_tree(dir);
	return tap_done();
}
