// SPDX-License-Identifier: GPL-2.0
/*
 * qmp.c: fuzz the QMP client's reading of what qemu sends (./vm and
 * ./vmctl talk to any socket at VM_STATE_DIR/vmN.qmp). The input is the
 * stream: qemu's side of a socketpair, closed after it, so a reply that
 * never comes is an end, not a wait. Properties: a command gets 0 and a
 * {"return" line, 1 and qemu's error (its class bounded), or -errno;
 * every other line goes to the event callback, whole; a line too long for
 * the buffer is -EMSGSIZE; the string values read from any line are
 * strings of it, escapes decoded; read as ./vm's event loop reads it
 * (qmp_read_lines on a non-blocking socket), each line comes whole, without
 * its newline, and its kind agrees with the command's reading of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz.h"
#include "qmp.h"

static void on_event(const char *line, void *arg)
{
	size_t *events = arg;

	fuzz_assert(!strchr(line, '\n'), "an event line with a newline");
	fuzz_assert(strncmp(line, "{\"return\"", 9) && strncmp(line, "{\"error\"", 8),
		    "a reply passed as an event: %s", line);
	(*events)++;
}

/* the string values of each line, as ./vm and ./vmctl look them up */
static void values(const uint8_t *data, size_t size)
{
	static const char *const keys[] = { "desc", "class", "event", "status", "return", "" };
	char *text = fuzz_cstr(data, size), *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			char *v = json_string_value(line, keys[k]);

			fuzz_assert(!v || strlen(v) <= strlen(line), "a value longer than its line");
			free(v);
		}
	}
	free(text);
}

static void loop_line(const char *line, void *arg)
{
	enum qmp_kind k = qmp_line_kind(line);

	fuzz_assert(!strchr(line, '\n'), "a line with a newline");
	fuzz_assert((k == QMP_RETURN) == !strncmp(line, "{\"return\"", 9) &&
		    (k == QMP_ERROR) == !strncmp(line, "{\"error\"", 8), "kind %d of %s", k, line);
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct qmp q;
	size_t events = 0;
	char *reply = NULL;
	int sv[2], rc;

	values(data, size);
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
		fuzz_assert(reply && !strncmp(reply, "{\"return\"", 9), "reply %s", reply ? reply : "(null)");
	} else if (rc == 1) {
		fuzz_assert(reply != NULL, "an error without its description");
		fuzz_assert(strlen(q.err_class) < sizeof(q.err_class), "class unbounded");
	} else {
		fuzz_assert(rc == -ECONNRESET || rc == -EMSGSIZE, "rc %d (%s)", rc, strerror(-rc));
		fuzz_assert(!reply, "a failure with a reply");
	}
	free(reply);
	/* what follows the reply: events until the stream ends */
	while (rc >= 0)
		rc = qmp_wait_event(&q, "\"SHUTDOWN\"", 1000);
	fuzz_assert(rc == -ECONNRESET || rc == -EMSGSIZE, "waiting: rc %d (%s)", rc, strerror(-rc));
	qmp_close(&q);
	close(sv[1]);
	return 0;
}
