// SPDX-License-Identifier: GPL-2.0
/*
 * lib-qmp.c: the QMP client against a fake qemu monitor (a forked child
 * on a unix socket in a tmpdir that plays a script: what it expects to
 * read, what it answers): the greeting and capabilities handshake and its
 * failures, replies, error replies, events around them, waiting for an
 * event, qemu hanging up; the event-loop side (qmp_send, qmp_read_lines,
 * qmp_line_kind) on a socketpair; and the JSON string helpers.
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
static void on_event(const char *line, void *arg)
{
	if (strstr(line, (const char *)arg))
		events_seen++;
}

static void session(void)
{
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
		{ "\"quit\"", NULL },	/* then hang up without a reply */
	};
	struct qmp q;
	char *err, *reply;
	pid_t pid = serve(steps, sizeof(steps) / sizeof(steps[0]), 0);
	int rc;

	rc = qmp_connect(&q, sock, &err);
	TAP_EQ_INT(rc, 0, "qmp_connect: greeting and qmp_capabilities");
	TAP_EQ_STR(err, NULL, "  no error");

	events_seen = 0;
	rc = qmp_command(&q, "{\"execute\": \"query-status\"}", &reply, on_event, "\"RESUME\"");
	TAP_EQ_INT(rc, 0, "a command's reply");
	TAP_EQ_STR(reply, "{\"return\": {\"status\": \"running\", \"running\": true}}",
		   "  is the return line, not the event before it");
	TAP_EQ_INT(events_seen, 1, "  the event went to on_event");
	free(reply);

	rc = qmp_command(&q, "{\"execute\": \"device_del\", \"arguments\": {\"id\": \"mp0\"}}",
			 &reply, NULL, NULL);
	TAP_EQ_INT(rc, 1, "an error reply");
	TAP_EQ_STR(reply, "Device 'mp0' has \"no\" path", "  its desc, unescaped");
	TAP_EQ_STR(q.err_class, "DeviceNotFound", "  its class");
	free(reply);

	rc = qmp_wait_event(&q, "DEVICE_DELETED", 5000);
	TAP_EQ_INT(rc, 0, "an event that already came is found, past another event");
	rc = qmp_wait_event(&q, "DEVICE_DELETED", 200);
	TAP_EQ_INT(rc, -ETIMEDOUT, "  it is consumed: waiting again times out");

	rc = qmp_command(&q, "{\"execute\": \"nodesc\"}", &reply, NULL, NULL);
	TAP_EQ_INT(rc, 1, "an error reply without desc");
	TAP_EQ_STR(reply, "{\"error\": {\"class\": \"GenericError\"}}", "  is passed verbatim");
	TAP_EQ_STR(q.err_class, "GenericError", "  with its class");
	free(reply);

	rc = qmp_command(&q, "{\"execute\": \"quit\"}", &reply, NULL, NULL);
	TAP_EQ_INT(rc, -ECONNRESET, "qemu hanging up before the reply: -ECONNRESET");
	TAP_EQ_STR(reply, NULL, "  no reply");
	TAP_EQ_STR(q.err_class, "", "  and no error class left from before");
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
	bad_handshake(not_qmp, 1, 1, 10000, -EPROTO, "no QMP greeting (SSH-2.0-OpenSSH_9.2)",
		      "something else than QMP");
	bad_handshake(refused, 2, 1, 10000, -EPROTO,
		      "qmp_capabilities: Capabilities negotiation is already complete",
		      "qmp_capabilities refused");
	bad_handshake(no_answer, 2, 1, 1000, -ETIMEDOUT, "no answer to qmp_capabilities within 1000 ms",
		      "qmp_capabilities unanswered");

	/* no qemu: no socket, or a socket nobody listens on */
	unlink(sock);
	rc = qmp_connect(&q, sock, &err);
	TAP_EQ_INT(rc, -ENOENT, "no socket: -ENOENT");
	want = xasprintf("%s: No such file or directory", sock);
	TAP_EQ_STR(err, want, "  the message names the socket");
	free(want);
	free(err);

	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	strcpy(sa.sun_path, sock);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		exit(1);
	rc = qmp_connect(&q, sock, &err);
	TAP_EQ_INT(rc, -ECONNREFUSED, "a socket nobody listens on: -ECONNREFUSED");
	want = xasprintf("%s: Connection refused", sock);
	TAP_EQ_STR(err, want, "  the message names the socket");
	free(want);
	free(err);
	close(fd);

	longpath = xasprintf("%s/%0200d", dir, 0);
	rc = qmp_connect(&q, longpath, &err);
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
	int n;
};

static void collect(const char *line, void *arg)
{
	struct lines *l = arg;

	if (l->n < 8)
		snprintf(l->got[l->n], sizeof(l->got[0]), "%s", line);
	l->n++;
}

/* ./vm's side: a non-blocking socket read as it comes, in pieces, and commands sent on it */
static void event_loop(void)
{
	static const char big[] = "{\"event\": \"X\"}";
	struct lines l = { .n = 0 };
	struct qmp q = { .fd = -1 };
	char buf[256], *line;
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
	line = json_string_value(l.got[2], "reason");
	TAP_EQ_STR(line, "host-qmp-quit", "  whole: its values are read");
	free(line);

	TAP_EQ_INT(qmp_line_kind(l.got[0]), QMP_GREETING, "qmp_line_kind: the greeting");
	TAP_EQ_INT(qmp_line_kind(l.got[1]), QMP_RETURN, "qmp_line_kind: a return");
	TAP_EQ_INT(qmp_line_kind(l.got[2]), QMP_EVENT, "qmp_line_kind: an event after its timestamp");
	TAP_EQ_INT(qmp_line_kind("{\"error\": {\"class\": \"GenericError\"}}"), QMP_ERROR,
		   "qmp_line_kind: an error");
	TAP_EQ_INT(qmp_line_kind("{\"id\": 3}"), QMP_OTHER, "qmp_line_kind: anything else");

	rc = qmp_send(&q, "{\"execute\": \"quit\"}");
	TAP_EQ_INT(rc, 0, "qmp_send");
	n = read(sv[1], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	TAP_EQ_STR(buf, "{\"execute\": \"quit\"}\n", "  one line, its newline added");

	/* a line longer than the buffer: dropped, and reading goes on */
	l.n = 0;
	line = xmalloc(sizeof(q.buf) + 100);
	memset(line, 'x', sizeof(q.buf) + 100);
	/* one write: the socket's buffer counts each write's overhead */
	if (write_all(sv[1], line, sizeof(q.buf) + 100))
		exit(1);
	free(line);
	rc = qmp_read_lines(&q, collect, &l);
	TAP_EQ_INT(rc, -EMSGSIZE, "a line longer than the buffer: -EMSGSIZE");
	while ((rc = qmp_read_lines(&q, collect, &l)) == -EMSGSIZE)
		;
	if (write_str(sv[1], "\n") || write_str(sv[1], big) || write_str(sv[1], "\n"))
		exit(1);
	rc = qmp_read_lines(&q, collect, &l);
	TAP_EQ_INT(rc, 0, "  then reading goes on");
	TAP_EQ_STR(l.n ? l.got[l.n - 1] : NULL, big, "  and the next line is whole");

	close(sv[1]);
	rc = qmp_read_lines(&q, collect, &l);
	TAP_EQ_INT(rc, -ECONNRESET, "qemu gone: -ECONNRESET");
	rc = qmp_send(&q, "{\"execute\": \"cont\"}");
	TAP_EQ_INT(rc, -ECONNRESET, "qmp_send to qemu gone: -ECONNRESET, no SIGPIPE");
	qmp_close(&q);
}

static void quote(const char *in, const char *want, const char *name)
{
	char *got = json_quote(in);

	TAP_EQ_STR(got, want, "json_quote: %s", name);
	free(got);
}

static void value(const char *line, const char *key, const char *want, const char *name)
{
	char *got = json_string_value(line, key);

	TAP_EQ_STR(got, want, "json_string_value: %s", name);
	free(got);
}

static void json(void)
{
	quote("", "\"\"", "empty");
	quote("mp0", "\"mp0\"", "plain");
	quote("a\"b\\c", "\"a\\\"b\\\\c\"", "quote and backslash escaped");
	quote("l1\nl2\t\x01\x1f", "\"l1\\u000al2\\u0009\\u0001\\u001f\"", "control characters as \\u00XX");
	quote("caf\xc3\xa9 \x7f", "\"caf\xc3\xa9 \x7f\"", "UTF-8 and DEL pass through");

	value("{\"return\": {\"status\": \"running\"}}", "status", "running", "nested key");
	value("{\"a\" : \"b\"}", "a", "b", "blanks around the colon");
	value("{\"xdesc\": \"no\", \"desc\": \"yes\"}", "desc", "yes", "a key that ends another is not it");
	value("{\"desc\": \"say \\\"hi\\\" \\\\ \\n\\t\\u00e9.\"}", "desc", "say \"hi\" \\ \n\t?.",
	      "escapes: quote, backslash, newline, tab; \\u as '?'");
	value("{\"id\": 3}", "id", NULL, "a number is not a string");
	value("{\"id\": \"x\"}", "desc", NULL, "an absent key");
}

int main(void)
{
	tap_plan(75);
	if (!mkdtemp(dir))
		return 1;
	sock = xasprintf("%s/qmp.sock", dir);
	session();
	handshakes();
	event_loop();
	json();
	tap_rm_tree(dir);
	free(sock);
	return tap_done();
}
