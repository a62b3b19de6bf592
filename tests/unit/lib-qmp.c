// SPDX-License-Identifier: GPL-2.0
/*
 * lib-qmp.c: the QMP client against a fake qemu monitor (a forked child
 * on a unix socket in a tmpdir that plays a script: what it expects to
 * read, what it answers): the greeting and capabilities handshake and its
 * failures, replies, error replies, events around them, waiting for an
 * event, qemu hanging up, replies that are not QMP (not JSON, members of
 * the wrong type, longer than QMP_MSG_MAX); the event-loop side (qmp_send,
 * qmp_read_lines) on a socketpair; qmp_msg_parse on each kind of message
 * and each way one is wrong; and commands built with json_pack.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "qmp.h"
#include "tap.h"

static char dir[] = "/tmp/rapido-qmp-XXXXXX";
static char *sock;

#define GREETING "{\"QMP\": {\"version\": {\"qemu\": {\"major\": 8}}, \"capabilities\": [\"oob\"]}}\n"

/* One step of the monitor's script: read a line holding expect (if set), then send. */
struct step {
	const char *expect;
	const char *send;
};

/* {"return": "xx...x"} and its newline, len bytes in all */
static void long_reply(char *buf, size_t len)
{
	memset(buf, 'x', len);
	memcpy(buf, "{\"return\": \"", 12);
	memcpy(buf + len - 3, "\"}\n", 4);
}

/* Read one line from fd into buf; 0 at EOF. */
static int read_line(int fd, char *buf, size_t len)
{
	size_t n = 0;

	while (n + 1 < len) {
		if (read(fd, buf + n, 1) != 1)
			break;
		if (buf[n] == '\n')
			break;
		n++;
	}
	buf[n] = '\0';
	return n > 0;
}

/*
 * Listen on sock and serve one client with the script in a child. With
 * hold, the child keeps the connection until the client closes it.
 * The child exits 0 if every line it read held what it expected.
 */
static pid_t serve(const struct step *steps, size_t n, int hold)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	pid_t pid;

	unlink(sock);
	strcpy(sa.sun_path, sock);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(lfd, 1) < 0)
		exit(1);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		exit(1);
	if (pid == 0) {
		int fd = accept(lfd, NULL, NULL), bad = 0;
		char line[4096];

		/* the client may hang up first; that is its test, not a crash here */
		signal(SIGPIPE, SIG_IGN);
		if (fd < 0)
			_exit(2);
		for (size_t i = 0; i < n; i++) {
			if (steps[i].expect &&
			    (!read_line(fd, line, sizeof(line)) || !strstr(line, steps[i].expect))) {
				fprintf(stderr, "# fake qemu: expected %s, read '%s'\n", steps[i].expect, line);
				bad = 1;
			}
			if (steps[i].send && write_all(fd, steps[i].send, strlen(steps[i].send)))
				_exit(2);
		}
		while (hold && read_line(fd, line, sizeof(line)))
			;
		_exit(bad);
	}
	close(lfd);
	return pid;
}

/* The monitor's verdict: 0 if the client sent what the script expected. */
static int served(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int events_seen;
static int on_event(const struct qmp_msg *m, void *arg)
{
	if (!strcmp(m->event, (const char *)arg))
		events_seen++;
	return 0;
}

/* DEVICE_DELETED of the device arg names */
static int deleted(const struct qmp_msg *m, void *arg)
{
	const char *dev = qmp_msg_data_string(m, "device");

	return !strcmp(m->event, "DEVICE_DELETED") && dev && !strcmp(dev, arg);
}

/* A command qemu answers with what is not QMP: -EPROTO, q->why saying why and quoting it. */
static void not_qmp(struct qmp *q, const char *cmd, const char *why, const char *name)
{
	struct qmp_msg reply;
	int rc = qmp_command(q, cmd, &reply, NULL, NULL);

	TAP_EQ_INT(rc, -EPROTO, "%s: -EPROTO", name);
	TAP_EQ_STR(q->why, why, "  %s: why", name);
	TAP_EQ_STR(reply.text, NULL, "  %s: no reply", name);
}

static void session(void)
{
	static char edge[QMP_MSG_MAX + 1], huge[QMP_MSG_MAX + 2];
	static const struct step steps[] = {
		{ NULL, GREETING },
		{ "\"qmp_capabilities\"", "{\"return\": {}}\n" },
		/* an event arrives before the reply */
		{ "\"query-status\"",
		  "{\"timestamp\": {\"seconds\": 1, \"microseconds\": 2}, \"event\": \"RESUME\"}\n"
		  "{\"return\": {\"status\": \"running\", \"running\": true}}\n" },
		{ "\"device_del\"",
		  "{\"error\": {\"class\": \"DeviceNotFound\", \"desc\": \"Device 'mp0' has \\\"no\\\" path\"}}\n"
		  "{\"event\": \"STOP\"}\n"
		  "{\"event\": \"DEVICE_DELETED\", \"data\": {\"device\": \"mp1\"}}\n" },
		{ "\"nodesc\"", "{\"error\": {\"class\": \"GenericError\"}}\n" },
		{ "\"cut\"", "{\"return\": {\"status\": \"running\"}\n" },
		{ "\"class\"", "{\"error\": {\"class\": 7, \"desc\": \"x\"}}\n" },
		{ "\"array\"", "[{\"return\": {}}]\n" },
		{ "\"both\"", "{\"return\": {}, \"error\": {\"class\": \"a\", \"desc\": \"b\"}}\n" },
		{ "\"badevent\"", "{\"event\": {\"name\": \"STOP\"}}\n" },
		{ "\"huge\"", huge },
		{ "\"edge\"", edge },
		{ "\"after\"", "{\"return\": [1, 18446744073709551615]}\n" },
		{ "\"quit\"", NULL },	/* then hang up without a reply */
	};
	struct qmp q;
	struct qmp_msg reply;
	char *err;
	pid_t pid;
	int rc;

	/* a reply one byte longer than a message may be, then one just as long */
	long_reply(huge, QMP_MSG_MAX + 1);
	long_reply(edge, QMP_MSG_MAX);
	pid = serve(steps, sizeof(steps) / sizeof(steps[0]), 0);

	rc = qmp_connect_timeout(&q, sock, 30000, &err);
	TAP_EQ_INT(rc, 0, "qmp_connect_timeout: greeting and qmp_capabilities");
	TAP_EQ_STR(err, NULL, "  no error");

	events_seen = 0;
	rc = qmp_command(&q, "{\"execute\": \"query-status\"}", &reply, on_event, "RESUME");
	TAP_EQ_INT(rc, 0, "a command's reply");
	TAP_EQ_STR(reply.text, "{\"return\": {\"status\": \"running\", \"running\": true}}",
		   "  is the return line, not the event before it");
	TAP_EQ_STR(json_string_value(json_object_get(reply.ret, "status")), "running",
		   "  its \"return\" read");
	TAP_EQ_INT(events_seen, 1, "  the event went to on_event");
	qmp_msg_free(&reply);

	rc = qmp_command(&q, "{\"execute\": \"device_del\", \"arguments\": {\"id\": \"mp0\"}}",
			 &reply, NULL, NULL);
	TAP_EQ_INT(rc, 1, "an error reply");
	TAP_EQ_STR(reply.err_desc, "Device 'mp0' has \"no\" path", "  its desc, unescaped");
	TAP_EQ_STR(reply.err_class, "DeviceNotFound", "  its class");
	qmp_msg_free(&reply);

	rc = qmp_wait_event(&q, deleted, "mp1", 5000);
	TAP_EQ_INT(rc, 0, "an event that already came is found, past another event");
	rc = qmp_wait_event(&q, deleted, "mp1", 200);
	TAP_EQ_INT(rc, -ETIMEDOUT, "  it is consumed: waiting again times out");

	not_qmp(&q, "{\"execute\": \"nodesc\"}",
		"an error without \"desc\": '{\"error\": {\"class\": \"GenericError\"}}'",
		"an error reply without desc");
	not_qmp(&q, "{\"execute\": \"cut\"}",
		"not JSON at byte 32: '}' expected near end of file: '{\"return\": {\"status\": \"running\"}'",
		"a reply cut short");
	not_qmp(&q, "{\"execute\": \"class\"}",
		"the error's \"class\" is not a string: '{\"error\": {\"class\": 7, \"desc\": \"x\"}}'",
		"an error class that is a number");
	not_qmp(&q, "{\"execute\": \"array\"}",
		"expected a JSON object, got an array: '[{\"return\": {}}]'", "a reply in an array");
	not_qmp(&q, "{\"execute\": \"both\"}",
		"both \"return\" and \"error\" in one message: "
		"'{\"return\": {}, \"error\": {\"class\": \"a\", \"desc\": \"b\"}}'",
		"a return that is an error too");
	not_qmp(&q, "{\"execute\": \"badevent\"}",
		"\"event\" (its name) is not a string: '{\"event\": {\"name\": \"STOP\"}}'",
		"an event that is not QMP before the reply");
	rc = qmp_command(&q, "{\"execute\": \"huge\"}", &reply, NULL, NULL);
	TAP_EQ_INT(rc, -EMSGSIZE, "a reply longer than QMP_MSG_MAX: -EMSGSIZE");
	rc = qmp_command(&q, "{\"execute\": \"edge\"}", &reply, NULL, NULL);
	TAP_EQ_INT(rc, 0, "  the next reply, QMP_MSG_MAX long, is read whole");
	TAP_EQ_INT(json_string_length(reply.ret), QMP_MSG_MAX - 15, "  all of it");
	qmp_msg_free(&reply);
	rc = qmp_command(&q, "{\"execute\": \"after\"}", &reply, NULL, NULL);
	TAP_EQ_INT(rc, 0, "  the next reply is read whole");
	TAP_EQ_INT(json_array_size(reply.ret), 2, "  a uint64 beyond json_int_t is taken");
	qmp_msg_free(&reply);

	rc = qmp_command(&q, "{\"execute\": \"quit\"}", &reply, NULL, NULL);
	TAP_EQ_INT(rc, -ECONNRESET, "qemu hanging up before the reply: -ECONNRESET");
	TAP_EQ_STR(reply.text, NULL, "  no reply");
	rc = qmp_command(&q, "{\"execute\": \"cont\"}", &reply, NULL, NULL);
	TAP_EQ_INT(rc, -ECONNRESET, "a command after qemu hung up: -ECONNRESET, no SIGPIPE");
	qmp_close(&q);
	TAP_EQ_INT(q.fd, -1, "qmp_close");
	TAP_EQ_INT(served(pid), 0, "the monitor read qmp_capabilities and each command in order");
}

/*
 * A handshake that fails: rc, and the message naming the socket. timeout_ms
 * is short where the test waits it out, long where an answer is due (a
 * loaded machine may be slow to run the monitor).
 */
static void bad_handshake(const struct step *steps, size_t n, int hold, int timeout_ms,
			  int want_rc, const char *want_msg, const char *name)
{
	struct qmp q;
	char *err, *want = xasprintf("%s: %s", sock, want_msg);
	pid_t pid = serve(steps, n, hold);
	int rc = qmp_connect_timeout(&q, sock, timeout_ms, &err);

	TAP_EQ_INT(rc, want_rc, "%s", name);
	TAP_EQ_STR(err, want, "  %s: message", name);
	TAP_EQ_INT(q.fd, -1, "  %s: the socket is closed", name);
	TAP_EQ_INT(served(pid), 0, "  %s: the monitor saw what it expected", name);
	free(err);
	free(want);
}

static void handshakes(void)
{
	static const struct step silent[] = { { NULL, NULL } };
	static const struct step not_qmp[] = { { NULL, "SSH-2.0-OpenSSH_9.2\n" } };
	static const struct step no_greeting[] = { { NULL, "{\"event\": \"STOP\"}\n" } };
	static const struct step refused[] = {
		{ NULL, GREETING },
		{ "\"qmp_capabilities\"",
		  "{\"error\": {\"class\": \"CommandNotFound\", "
		  "\"desc\": \"Capabilities negotiation is already complete\"}}\n" },
	};
	static const struct step no_answer[] = {
		{ NULL, GREETING },
		{ "\"qmp_capabilities\"", NULL },
	};
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct qmp q;
	char *err, *want, *longpath;
	int fd, rc;

	bad_handshake(silent, 1, 1, 1000, -ETIMEDOUT, "connected, but no QMP greeting within 1000 ms",
		      "no greeting in time");
	bad_handshake(silent, 1, 0, 10000, -ECONNRESET, "closed before the QMP greeting",
		      "hung up before the greeting");
	bad_handshake(not_qmp, 1, 1, 10000, -EPROTO, "no QMP greeting: not JSON at byte 0: "
		      "invalid token near 'SSH': 'SSH-2.0-OpenSSH_9.2'", "something else than QMP");
	bad_handshake(no_greeting, 1, 1, 10000, -EPROTO, "no QMP greeting: a message with \"event\" "
		      "came first", "an event before the greeting");
	bad_handshake(refused, 2, 1, 10000, -EPROTO,
		      "qmp_capabilities: Capabilities negotiation is already complete",
		      "qmp_capabilities refused");
	bad_handshake(no_answer, 2, 1, 1000, -ETIMEDOUT, "no answer to qmp_capabilities within 1000 ms",
		      "qmp_capabilities unanswered");

	/* no qemu: no socket, or a socket nobody listens on */
	unlink(sock);
	rc = qmp_connect_timeout(&q, sock, 30000, &err);
	TAP_EQ_INT(rc, -ENOENT, "no socket: -ENOENT");
	want = xasprintf("%s: No such file or directory", sock);
	TAP_EQ_STR(err, want, "  the message names the socket");
	free(want);
	free(err);

	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	strcpy(sa.sun_path, sock);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		exit(1);
	rc = qmp_connect_timeout(&q, sock, 30000, &err);
	TAP_EQ_INT(rc, -ECONNREFUSED, "a socket nobody listens on: -ECONNREFUSED");
	want = xasprintf("%s: Connection refused", sock);
	TAP_EQ_STR(err, want, "  the message names the socket");
	free(want);
	free(err);
	close(fd);

	longpath = xasprintf("%s/%0200d", dir, 0);
	rc = qmp_connect_timeout(&q, longpath, 30000, &err);
	TAP_EQ_INT(rc, -ENAMETOOLONG, "a path longer than sun_path: -ENAMETOOLONG");
	want = xasprintf("%s: socket path too long", longpath);
	TAP_EQ_STR(err, want, "  the message names it");
	free(want);
	free(err);
	free(longpath);
}

static int write_str(int fd, const char *s)
{
	return write_all(fd, s, strlen(s));
}

struct lines {
	char got[8][128];
	size_t len[8];
	int n;
};

static void collect(const char *line, size_t len, void *arg)
{
	struct lines *l = arg;

	if (l->n < 8) {
		snprintf(l->got[l->n], sizeof(l->got[0]), "%s", line);
		l->len[l->n] = len;
	}
	l->n++;
}

/* ./vm's side: a non-blocking socket read as it comes, in pieces, and commands sent on it */
static void event_loop(void)
{
	static const char big[] = "{\"event\": \"X\"}";
	struct lines l = { .n = 0 };
	struct qmp q = { .fd = -1 };
	struct qmp_msg m;
	char buf[256], why[512], *line;
	int sv[2], rc;
	ssize_t n;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 ||
	    fcntl(sv[0], F_SETFL, O_NONBLOCK) < 0)
		exit(1);
	q.fd = sv[0];
	rc = qmp_read_lines(&q, collect, &l);
	TAP_EQ_INT(rc, 0, "qmp_read_lines: nothing there yet is 0, not a wait");
	TAP_EQ_INT(l.n, 0, "  and no line");
	if (write_str(sv[1], GREETING "{\"return\": {}}\n{\"timestamp\": {\"seconds\": 1}, "
		      "\"event\": \"SHUT"))
		exit(1);
	rc = qmp_read_lines(&q, collect, &l);
	TAP_EQ_INT(rc, 0, "complete lines are passed");
	TAP_EQ_INT(l.n, 2, "  two of them, the half line kept");
	TAP_EQ_STR(l.got[1], "{\"return\": {}}", "  each without its newline");
	if (write_str(sv[1], "DOWN\", \"data\": {\"reason\": \"host-qmp-quit\"}}\n"))
		exit(1);
	rc = qmp_read_lines(&q, collect, &l);
	TAP_EQ_INT(l.n, 3, "the rest of a line completes it");
	rc = qmp_msg_parse(l.got[2], l.len[2], &m, why, sizeof(why));
	TAP_EQ_INT(rc, 0, "  whole: it is a message");
	TAP_EQ_STR(qmp_msg_data_string(&m, "reason"), "host-qmp-quit", "  its data read");
	qmp_msg_free(&m);
	if (write_all(sv[1], "{\"a\0\": 1}\n", 10))
		exit(1);
	rc = qmp_read_lines(&q, collect, &l);
	TAP_EQ_INT(l.len[3], 9, "a line with a NUL byte is passed whole, its length with it");

	rc = qmp_send(&q, "{\"execute\": \"quit\"}");
	TAP_EQ_INT(rc, 0, "qmp_send");
	n = read(sv[1], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	TAP_EQ_STR(buf, "{\"execute\": \"quit\"}\n", "  one line, its newline added");

	/* a line longer than the buffer: dropped up to its newline, and reading goes on */
	l.n = 0;
	line = xmalloc(QMP_MSG_MAX + 100);
	memset(line, 'x', QMP_MSG_MAX + 100);
	/* one write: the socket's buffer counts each write's overhead */
	if (write_all(sv[1], line, QMP_MSG_MAX + 100))
		exit(1);
	free(line);
	rc = qmp_read_lines(&q, collect, &l);
	TAP_EQ_INT(rc, -EMSGSIZE, "a line longer than the buffer: -EMSGSIZE");
	while ((rc = qmp_read_lines(&q, collect, &l)) == -EMSGSIZE)
		;
	if (write_str(sv[1], "xxx\n") || write_str(sv[1], big) || write_str(sv[1], "\n"))
		exit(1);
	rc = qmp_read_lines(&q, collect, &l);
	TAP_EQ_INT(rc, 0, "  then reading goes on");
	TAP_EQ_INT(l.n, 1, "  its rest is no line of its own");
	TAP_EQ_STR(l.n ? l.got[l.n - 1] : NULL, big, "  and the next line is whole");

	close(sv[1]);
	rc = qmp_read_lines(&q, collect, &l);
	TAP_EQ_INT(rc, -ECONNRESET, "qemu gone: -ECONNRESET");
	rc = qmp_send(&q, "{\"execute\": \"cont\"}");
	TAP_EQ_INT(rc, -ECONNRESET, "qmp_send to qemu gone: -ECONNRESET, no SIGPIPE");
	qmp_close(&q);
}

/* text parses as a message of kind */
static void kind(const char *text, enum qmp_kind k, const char *name)
{
	struct qmp_msg m;
	char why[512] = "";
	int rc = qmp_msg_parse(text, strlen(text), &m, why, sizeof(why));

	if (!tap_ok(rc == 0 && m.kind == k, "qmp_msg_parse: %s", name))
		printf("#   rc %d kind %d (want %d): %s\n", rc, m.kind, k, why);
	TAP_EQ_STR(m.text, rc ? NULL : text, "  %s: its text kept", name);
	qmp_msg_free(&m);
}

/* text (len bytes) is refused, saying why */
static void refused_n(const char *text, size_t len, const char *want, const char *name)
{
	struct qmp_msg m;
	char why[512] = "";
	int rc = qmp_msg_parse(text, len, &m, why, sizeof(why));

	TAP_EQ_INT(rc, -EPROTO, "qmp_msg_parse: %s: -EPROTO", name);
	TAP_EQ_STR(why, want, "  %s: why", name);
	qmp_msg_free(&m);
}

static void refused(const char *text, const char *want, const char *name)
{
	refused_n(text, strlen(text), want, name);
}

/* text, a message that parses */
static void parse(const char *text, struct qmp_msg *m)
{
	char why[512];

	if (qmp_msg_parse(text, strlen(text), m, why, sizeof(why)))
		printf("# %s: %s\n", text, why);
}

static void messages(void)
{
	static char longtext[200];
	struct qmp_msg m;
	char *cmd;

	kind(GREETING "", QMP_GREETING, "the greeting");
	parse("{\"return\": [1, \"a\"], \"id\": 3}", &m);
	TAP_EQ_INT(m.kind, QMP_RETURN, "a return with an id");
	TAP_EQ_INT(json_array_size(m.ret), 2, "  its \"return\" is any JSON value");
	qmp_msg_free(&m);
	parse("{\"error\": {\"class\": \"GenericError\", \"desc\": \"caf\\u00e9 \\\"x\\\"\"}}", &m);
	TAP_EQ_STR(m.err_class, "GenericError", "an error's class");
	TAP_EQ_STR(m.err_desc, "caf\xc3\xa9 \"x\"", "  its desc, unescaped");
	qmp_msg_free(&m);
	parse("{\"event\": \"STOP\", \"timestamp\": {\"seconds\": 1}}", &m);
	TAP_EQ_STR(m.event, "STOP", "an event's name");
	TAP_EQ_STR(qmp_msg_data_string(&m, "reason"), NULL, "  without data: no member");
	qmp_msg_free(&m);
	kind("{\"timestamp\": {\"seconds\": 1}, \"event\": \"SHUTDOWN\", \"data\": {\"reason\": 3}}",
	     QMP_EVENT, "an event after its timestamp, a number where a string may be");

	refused("{\"id\": 3}", "an object with none of \"QMP\", \"return\", \"error\" or \"event\": "
		"'{\"id\": 3}'", "none of the four");
	refused("{\"QMP\": []}", "\"QMP\" (the greeting) is not an object: '{\"QMP\": []}'",
		"a greeting of the wrong type");
	refused("{\"error\": \"x\"}", "\"error\" is not an object: '{\"error\": \"x\"}'",
		"an error that is a string");
	refused("{\"error\": {\"desc\": \"x\"}}", "an error without \"class\": '{\"error\": {\"desc\": \"x\"}}'",
		"an error without class");
	refused("{\"error\": {\"class\": \"a\", \"desc\": null}}",
		"the error's \"desc\" is not a string: '{\"error\": {\"class\": \"a\", \"desc\": null}}'",
		"an error with a null desc");
	refused("{\"event\": \"X\", \"data\": [1]}",
		"the event's \"data\" is not an object: '{\"event\": \"X\", \"data\": [1]}'",
		"an event's data that is an array");
	refused("{\"event\": \"X\", \"event\": \"Y\"}",
		"not JSON at byte 15: duplicate object key near '\"event\"': "
		"'{\"event\": \"X\", \"event\": \"Y\"}'", "a key twice");
	refused("{\"return\": \"\xff\"}", "not JSON at byte 11: unable to decode byte 0xff near '\"': "
		"'{\"return\": \"\\xff\"}'", "not UTF-8: the byte shown as \\xff");
	refused_n("{\"return\": \"a\0b\"}", 17, "not JSON at byte 13: a NUL byte (JSON text has none): "
		  "'{\"return\": \"a\\x00b\"}'", "a NUL byte in a message: shown as \\x00");
	memset(longtext, 'x', sizeof(longtext) - 1);
	memcpy(longtext, "{\"x", 3);
	/* (jansson names no token that long: the error is where it stopped, the end) */
	refused(longtext, "not JSON at byte 199: premature end of input: '{\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		"xxxxxxxxxxxxxxxxxxxx...'", "a long message: quoted in part");

	/* commands built with json_pack: ", " and ": ", in order, strings escaped */
	cmd = qmp_command_text(json_pack("{s:s, s:{s:s, s:b}}", "execute", "x", "arguments",
					 "path", "a\"b\n\xc3\xa9", "on", 1));
	TAP_EQ_STR(cmd, "{\"execute\": \"x\", \"arguments\": {\"path\": \"a\\\"b\\n\xc3\xa9\", \"on\": true}}",
		   "qmp_command_text");
	free(cmd);
	cmd = qmp_command_text(json_pack("{s:s}", "path", "\xff"));
	TAP_EQ_STR(cmd, NULL, "  NULL for a string that is not UTF-8 (json_pack refuses it)");
}

int main(void)
{
	tap_plan(118);
	if (!mkdtemp(dir))
		return 1;
	sock = xasprintf("%s/qmp.sock", dir);
	session();
	handshakes();
	event_loop();
	messages();
	tap_rm_tree(dir);
	free(sock);
	return tap_done();
}
