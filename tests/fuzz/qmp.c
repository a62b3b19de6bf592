// SPDX-License-Identifier: GPL-2.0
/*
 * qmp.c: fuzz the QMP client's reading of what qemu sends (./vm and
 * ./vmctl talk to any socket at VM_STATE_DIR/vmN.qmp). The input is the
 * stream: qemu's side of a socketpair, closed after it, so a reply that
 * never comes is an end, not a wait. Properties: a command gets 0 and a
 * {"return" line, 1 and qemu's error (its class bounded), or -errno;
 * every other line goes to the event callback, whole; a line too long for
 * the buffer is -EMSGSIZE; the string values read from any line are
 * strings of it, escapes decoded.
 */
#include <errno.h>
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct qmp q;
	size_t events = 0;
	char *reply = NULL;
	int sv[2], rc;

	values(data, size);
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
