// SPDX-License-Identifier: GPL-2.0
/*
 * qmp.c: fuzz the QMP client's reading of what qemu sends (./vm and
 * ./vmctl talk to any socket at VM_STATE_DIR/vmN.qmp). The input is the
 * stream: qemu's side of a socketpair, closed after it, so a reply that
 * never comes is an end, not a wait. Properties: a command gets 0 and a
 * "return" message, 1 and an error with its class and desc, or -errno
 * (-EPROTO saying why); each message before it goes to the event callback
 * as an event with a name; a line too long for the buffer is -EMSGSIZE;
 * read as ./vm's event loop reads it (qmp_read_lines on a non-blocking
 * socket), each line comes whole, without its newline, no longer than
 * QMP_MSG_MAX, and parses to a message with its kind's key, or is refused
 * with a reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz.h"
#include "qmp.h"

static const char *const keys[] = { "QMP", "return", "error", "event" };

static int on_event(const struct qmp_msg *m, void *arg)
{
	fuzz_assert(m->kind == QMP_EVENT && m->event, "kind %d passed as an event: %s", m->kind,
		    m->text);
	fuzz_assert(!strchr(m->text, '\n'), "an event with a newline");
	fuzz_assert(!m->data || json_is_object(m->data), "data not an object: %s", m->text);
	(*(size_t *)arg)++;
	return 0;
}

static void loop_line(const char *line, size_t len, void *arg)
{
	struct qmp_msg m;
	char why[512] = "";
	int rc = qmp_msg_parse(line, len, &m, why, sizeof(why));

	fuzz_assert(!memchr(line, '\n', len), "a line with a newline");
	fuzz_assert(len < QMP_MSG_MAX, "a line of %zu bytes", len);
	if (rc) {
		fuzz_assert(rc == -EPROTO && why[0], "rc %d, why '%s'", rc, why);
	} else {
		fuzz_assert(json_object_get(m.root, keys[m.kind]), "kind %d without its key", m.kind);
		fuzz_assert(m.text && strlen(m.text) == len, "text of %zu bytes kept as %zu", len,
			    m.text ? strlen(m.text) : 0);
		fuzz_assert(m.kind != QMP_ERROR || (m.err_class && m.err_desc), "error without class/desc");
	}
	qmp_msg_free(&m);
	(*(size_t *)arg)++;
}

/* the stream in pieces of at most 4096 bytes, as the event loop sees it arrive */
static void event_loop(const uint8_t *data, size_t size)
{
	static struct qmp q;
	size_t lines = 0, newlines = 0, off = 0;
	int sv[2], rc = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 ||
	    fcntl(sv[0], F_SETFL, O_NONBLOCK) < 0)
		abort();
	memset(&q, 0, sizeof(q));
	q.fd = sv[0];
	for (size_t i = 0; i < size; i++)
		newlines += data[i] == '\n';
	while (off < size) {
		size_t n = size - off < 4096 ? size - off : 4096;

		if (write(sv[1], data + off, n) != (ssize_t)n)
			abort();
		off += n;
		rc = qmp_read_lines(&q, loop_line, &lines);
		fuzz_assert(rc == 0 || rc == -EMSGSIZE, "rc %d (%s)", rc, strerror(-rc));
	}
	close(sv[1]);
	while ((rc = qmp_read_lines(&q, loop_line, &lines)) == -EMSGSIZE)
		;
	fuzz_assert(rc == -ECONNRESET, "at the end: rc %d (%s)", rc, strerror(-rc));
	fuzz_assert(lines <= newlines, "%zu lines from %zu newlines", lines, newlines);
	qmp_close(&q);
}

static int never(const struct qmp_msg *m, void *arg)
{
	(void)arg;
	fuzz_assert(m->kind == QMP_EVENT, "kind %d waited on as an event", m->kind);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct qmp q;
	struct qmp_msg reply;
	size_t events = 0;
	int sv[2], rc;

	event_loop(data, size);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		abort();
	if (size && write(sv[1], data, size) != (ssize_t)size)
		abort();
	shutdown(sv[1], SHUT_WR);
	memset(&q, 0, sizeof(q));
	q.fd = sv[0];
	q.timeout_ms = 1000;
	rc = qmp_command(&q, "{\"execute\": \"query-status\"}", &reply, on_event, &events);
	if (rc == 0) {
		fuzz_assert(reply.kind == QMP_RETURN && reply.ret && reply.text, "reply %s", reply.text);
	} else if (rc == 1) {
		fuzz_assert(reply.kind == QMP_ERROR && reply.err_class && reply.err_desc,
			    "an error without its class or description");
	} else {
		fuzz_assert(rc == -ECONNRESET || rc == -EMSGSIZE || rc == -EPROTO, "rc %d (%s)", rc,
			    strerror(-rc));
		fuzz_assert(rc != -EPROTO || q.why[0], "-EPROTO without why");
		fuzz_assert(!reply.text && !reply.root, "a failure with a reply");
	}
	qmp_msg_free(&reply);
	/* what follows the reply: events until the stream ends */
	while (rc >= 0 || rc == -EPROTO)
		rc = qmp_wait_event(&q, never, NULL, 1000);
	fuzz_assert(rc == -ECONNRESET || rc == -EMSGSIZE, "waiting: rc %d (%s)", rc, strerror(-rc));
	qmp_close(&q);
	close(sv[1]);
	return 0;
}
