// SPDX-License-Identifier: GPL-2.0
/*
 * qmp.c: talk to qemu's QMP socket. QMP sends one JSON object per line:
 * a greeting, then for each command either {"return": ...} or
 * {"error": {"class": ..., "desc": ...}}, with {"event": ...} lines
 * interleaved at any time (each read by qmpmsg.c).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "qmp.h"
#include "usock.h"

/*
 * A complete line from the buffer (malloc'd, NUL-terminated, *len bytes
 * without its newline), or NULL if none is there yet. The rest of a line
 * too long for the buffer is dropped on the way, up to its newline.
 */
static char *take_line(struct qmp *q, size_t *len)
{
	for (;;) {
		char *nl = memchr(q->buf, '\n', q->len), *line;
		size_t l;

		if (!nl) {
			if (q->skip)
				q->len = 0;
			return NULL;
		}
		l = (size_t)(nl - q->buf);
		line = q->skip ? NULL : xmalloc(l + 1);
		if (line) {
			memcpy(line, q->buf, l);
			line[l] = '\0';
		}
		memmove(q->buf, nl + 1, q->len - l - 1);
		q->len -= l + 1;
		if (line) {
			*len = l;
			return line;
		}
		q->skip = 0;
	}
}

/*
 * One read into the buffer: bytes read, 0 at the end of the stream, -errno;
 * -EMSGSIZE when a line fills it: its part there is dropped, and so is the
 * rest as it comes (take_line), so the next line is read whole.
 */
static ssize_t fill(struct qmp *q)
{
	ssize_t n;

	if (q->len == QMP_MSG_MAX) {
		q->len = 0;
		q->skip = 1;
		return -EMSGSIZE;
	}
	do
		n = read(q->fd, q->buf + q->len, QMP_MSG_MAX - q->len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	q->len += (size_t)n;
	return n;
}

/* Next complete line, waiting up to timeout_ms (-1: forever). */
static int read_line(struct qmp *q, char **line, size_t *len, int timeout_ms)
{
	for (;;) {
		struct pollfd pfd = { .fd = q->fd, .events = POLLIN };
		ssize_t n;
		int rc;

		*line = take_line(q, len);
		if (*line)
			return 0;
		if (q->len == QMP_MSG_MAX)
			return (int)fill(q);
		rc = poll(&pfd, 1, timeout_ms);
		if (rc < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (rc == 0)
			return -ETIMEDOUT;
		n = fill(q);
		if (n < 0)
			return (int)n;
		if (n == 0)
			return -ECONNRESET;
	}
}

/* The next message, waiting up to timeout_ms: 0, -EPROTO with q->why, or read_line's -errno. */
static int read_msg(struct qmp *q, struct qmp_msg *m, int timeout_ms)
{
	char *line;
	size_t len;
	int rc = read_line(q, &line, &len, timeout_ms);

	memset(m, 0, sizeof(*m));
	if (rc)
		return rc;
	rc = qmp_msg_parse(line, len, m, q->why, sizeof(q->why));
	free(line);
	return rc;
}

int qmp_read_lines(struct qmp *q, void (*on_line)(const char *line, size_t len, void *arg),
		   void *arg)
{
	for (;;) {
		char *line;
		size_t len;
		ssize_t n;

		while ((line = take_line(q, &len))) {
			on_line(line, len, arg);
			free(line);
		}
		n = fill(q);
		if (n == -EMSGSIZE)
			return -EMSGSIZE;
		if (n == -EAGAIN)
			return 0;
		/* qemu closing its monitor as it quits resets the socket: that is the end too */
		if (n == 0 || n == -ECONNRESET)
			return -ECONNRESET;
		if (n < 0)
			return (int)n;
	}
}

int qmp_connect_timeout(struct qmp *q, const char *path, int timeout_ms, char **err)
{
	struct qmp_msg m;
	int rc;

	*err = NULL;
	q->len = 0;
	q->skip = 0;
	q->why[0] = '\0';
	q->timeout_ms = timeout_ms;
	q->fd = usock_connect(path);
	if (q->fd < 0) {
		rc = q->fd;
		*err = rc == -ENAMETOOLONG ? xasprintf("%s: socket path too long", path) :
					     xasprintf("%s: %s", path, strerror(-rc));
		q->fd = -1;
		return rc;
	}
	rc = read_msg(q, &m, timeout_ms);
	if (rc == -ETIMEDOUT) {
		*err = xasprintf("%s: connected, but no QMP greeting within %d ms", path, timeout_ms);
		goto fail;
	}
	if (rc == -ECONNRESET) {
		*err = xasprintf("%s: closed before the QMP greeting", path);
		goto fail;
	}
	if (!rc && m.kind != QMP_GREETING) {
		snprintf(q->why, sizeof(q->why), "a message with \"%s\" came first",
			 m.kind == QMP_RETURN ? "return" : m.kind == QMP_ERROR ? "error" : "event");
		rc = -EPROTO;
	}
	qmp_msg_free(&m);
	if (rc) {
		*err = xasprintf("%s: no QMP greeting: %s", path, rc == -EPROTO ? q->why :
				 rc == -EMSGSIZE ? "a first line longer than QMP allows" : strerror(-rc));
		rc = rc == -EMSGSIZE ? -EPROTO : rc;
		goto fail;
	}
	rc = qmp_command(q, "{\"execute\": \"qmp_capabilities\"}", &m, NULL, NULL);
	if (rc) {
		*err = rc == -ETIMEDOUT ?
			xasprintf("%s: no answer to qmp_capabilities within %d ms", path, timeout_ms) :
			xasprintf("%s: qmp_capabilities: %s", path, rc > 0 ? m.err_desc :
				  rc == -EPROTO ? q->why : strerror(-rc));
		rc = rc > 0 ? -EPROTO : rc;
		qmp_msg_free(&m);
		goto fail;
	}
	qmp_msg_free(&m);
	return 0;
fail:
	close(q->fd);
	q->fd = -1;
	return rc;
}

/* write_all() for the socket, but a qemu that hung up is -ECONNRESET, not SIGPIPE */
static int send_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno == EPIPE ? -ECONNRESET : -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int qmp_send(struct qmp *q, const char *json)
{
	char *msg = xasprintf("%s\n", json);
	int rc = send_all(q->fd, msg, strlen(msg));

	free(msg);
	return rc;
}

int qmp_command(struct qmp *q, const char *json, struct qmp_msg *reply, qmp_event_fn on_event,
		void *arg)
{
	int rc = qmp_send(q, json);

	memset(reply, 0, sizeof(*reply));
	q->why[0] = '\0';
	if (rc)
		return rc;
	for (;;) {
		struct qmp_msg m;

		rc = read_msg(q, &m, q->timeout_ms);
		if (rc)
			return rc;
		if (m.kind == QMP_RETURN || m.kind == QMP_ERROR) {
			*reply = m;
			return m.kind == QMP_ERROR;
		}
		if (m.kind == QMP_GREETING) {
			snprintf(q->why, sizeof(q->why), "a second greeting where a reply was due");
			qmp_msg_free(&m);
			return -EPROTO;
		}
		if (on_event)
			on_event(&m, arg);
		qmp_msg_free(&m);
	}
}

int qmp_wait_event(struct qmp *q, qmp_event_fn match, void *arg, int timeout_ms)
{
	struct timespec start, now;

	q->why[0] = '\0';
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct qmp_msg m;
		long left;
		int rc;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = timeout_ms - ((now.tv_sec - start.tv_sec) * 1000 +
				     (now.tv_nsec - start.tv_nsec) / 1000000);
		if (left <= 0)
			return -ETIMEDOUT;
		rc = read_msg(q, &m, (int)left);
		if (rc)
			return rc;
		/* no command is pending: only events come */
		rc = m.kind == QMP_EVENT && match(&m, arg);
		qmp_msg_free(&m);
		if (rc)
			return 0;
	}
}

void qmp_close(struct qmp *q)
{
	if (q->fd >= 0)
		close(q->fd);
	q->fd = -1;
}
