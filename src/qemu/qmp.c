// SPDX-License-Identifier: GPL-2.0
/*
 * qmp.c: talk to qemu's QMP socket. QMP sends one JSON object per line:
 * a greeting, then for each command either {"return": ...} or
 * {"error": {"class": ..., "desc": ...}}, with {"event": ...} lines
 * interleaved at any time.
 */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "qmp.h"
#include "utf8.h"

char *json_quote(const char *s)
{
	size_t cap = strlen(s) * 6 + 3, n = 0;
	char *out = xmalloc(cap);

	out[n++] = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		size_t len;

		if (c == '"' || c == '\\') {
			out[n++] = '\\';
			out[n++] = (char)c;
		} else if (c < 0x20) {
			n += (size_t)sprintf(out + n, "\\u%04x", c);
		} else if (!(len = utf8_len((const unsigned char *)s))) {
			/* not UTF-8 (a path's raw bytes): JSON has no way to say it, so U+FFFD */
			n += (size_t)sprintf(out + n, "\\ufffd");
		} else {
			memcpy(out + n, s, len);
			n += len;
			s += len - 1;
		}
	}
	out[n++] = '"';
	out[n] = '\0';
	return out;
}

char *json_string_value(const char *line, const char *key)
{
	char *pat = xasprintf("\"%s\"", key);
	const char *p = strstr(line, pat);
	char *out, *o;

	free(pat);
	if (!p)
		return NULL;
	p += strlen(key) + 2;
	while (*p == ' ' || *p == ':')
		p++;
	if (*p != '"')
		return NULL;
	p++;
	out = o = xmalloc(strlen(p) + 1);
	for (; *p && *p != '"'; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			switch (*p) {
			case 'n': *o++ = '\n'; break;
			case 't': *o++ = '\t'; break;
			case 'u':
				/* \uXXXX: one '?'; a line cut short may hold fewer than four digits */
				*o++ = '?';
				for (int i = 0; i < 4 && isxdigit((unsigned char)p[1]); i++)
					p++;
				break;
			default: *o++ = *p;
			}
			continue;
		}
		*o++ = *p;
	}
	*o = '\0';
	return out;
}

enum qmp_kind qmp_line_kind(const char *line)
{
	if (!strncmp(line, "{\"QMP\"", 6))
		return QMP_GREETING;
	if (!strncmp(line, "{\"return\"", 9))
		return QMP_RETURN;
	if (!strncmp(line, "{\"error\"", 8))
		return QMP_ERROR;
	/* an event leads with its timestamp: {"timestamp": {...}, "event": "NAME", ...} */
	if (strstr(line, "\"event\""))
		return QMP_EVENT;
	return QMP_OTHER;
}

/* A complete line from the buffer (malloc'd), or NULL if none is there yet. */
static char *take_line(struct qmp *q)
{
	char *nl = memchr(q->buf, '\n', q->len), *line;
	size_t l;

	if (!nl)
		return NULL;
	l = (size_t)(nl - q->buf);
	line = xstrndup(q->buf, l);
	memmove(q->buf, nl + 1, q->len - l - 1);
	q->len -= l + 1;
	return line;
}

/* One read into the buffer: bytes read, 0 at the end of the stream, -EMSGSIZE if full, -errno. */
static ssize_t fill(struct qmp *q)
{
	ssize_t n;

	if (q->len == sizeof(q->buf) - 1)
		return -EMSGSIZE;
	do
		n = read(q->fd, q->buf + q->len, sizeof(q->buf) - 1 - q->len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	q->len += (size_t)n;
	return n;
}

/* Next complete line, waiting up to timeout_ms (-1: forever). */
static int read_line(struct qmp *q, char **line, int timeout_ms)
{
	for (;;) {
		struct pollfd pfd = { .fd = q->fd, .events = POLLIN };
		ssize_t n;
		int rc;

		*line = take_line(q);
		if (*line)
			return 0;
		if (q->len == sizeof(q->buf) - 1)
			return -EMSGSIZE;
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

int qmp_read_lines(struct qmp *q, void (*on_line)(const char *line, void *arg), void *arg)
{
	for (;;) {
		char *line;
		ssize_t n;

		while ((line = take_line(q))) {
			on_line(line, arg);
			free(line);
		}
		n = fill(q);
		if (n == -EMSGSIZE) {
			q->len = 0;
			return -EMSGSIZE;
		}
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
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char *line = NULL, *reply = NULL;
	int rc;

	*err = NULL;
	q->len = 0;
	q->timeout_ms = timeout_ms;
	q->err_class[0] = '\0';
	if (strlen(path) >= sizeof(sa.sun_path)) {
		*err = xasprintf("%s: socket path too long", path);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, path);
	q->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (q->fd < 0) {
		rc = -errno;
		*err = xasprintf("socket: %s", strerror(errno));
		return rc;
	}
	if (connect(q->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		rc = -errno;
		*err = xasprintf("%s: %s", path, strerror(errno));
		goto fail;
	}
	rc = read_line(q, &line, timeout_ms);
	if (rc == -ETIMEDOUT) {
		*err = xasprintf("%s: connected, but no QMP greeting within %d ms", path, timeout_ms);
		goto fail;
	}
	if (rc == -ECONNRESET) {
		*err = xasprintf("%s: closed before the QMP greeting", path);
		goto fail;
	}
	if (rc || !strstr(line, "\"QMP\"")) {
		*err = xasprintf("%s: no QMP greeting (%s)", path, rc ? strerror(-rc) : line);
		rc = rc ? rc : -EPROTO;
		goto fail;
	}
	free(line);
	line = NULL;
	rc = qmp_command(q, "{\"execute\": \"qmp_capabilities\"}", &reply, NULL, NULL);
	if (rc) {
		*err = rc == -ETIMEDOUT ?
			xasprintf("%s: no answer to qmp_capabilities within %d ms", path, timeout_ms) :
			xasprintf("%s: qmp_capabilities: %s", path, rc > 0 ? reply : strerror(-rc));
		rc = rc > 0 ? -EPROTO : rc;
		free(reply);
		goto fail;
	}
	free(reply);
	return 0;
fail:
	free(line);
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

int qmp_connect(struct qmp *q, const char *path, char **err)
{
	int rc = qmp_connect_timeout(q, path, 5000, err);

	q->timeout_ms = 30000;
	return rc;
}

int qmp_send(struct qmp *q, const char *json)
{
	char *msg = xasprintf("%s\n", json);
	int rc = send_all(q->fd, msg, strlen(msg));

	free(msg);
	return rc;
}

int qmp_command(struct qmp *q, const char *json, char **reply,
		void (*on_event)(const char *line, void *arg), void *arg)
{
	int rc = qmp_send(q, json);

	*reply = NULL;
	q->err_class[0] = '\0';
	if (rc)
		return rc;
	for (;;) {
		char *line;

		rc = read_line(q, &line, q->timeout_ms);
		if (rc)
			return rc;
		/* replies start with "return" or "error"; anything else is an event */
		if (qmp_line_kind(line) == QMP_ERROR) {
			char *desc = json_string_value(line, "desc");
			char *class = json_string_value(line, "class");

			if (class)
				snprintf(q->err_class, sizeof(q->err_class), "%s", class);
			free(class);

			if (desc) {
				free(line);
				*reply = desc;
			} else {
				*reply = line;
			}
			return 1;
		}
		if (qmp_line_kind(line) != QMP_RETURN) {
			if (on_event)
				on_event(line, arg);
			free(line);
			continue;
		}
		*reply = line;
		return 0;
	}
}

int qmp_wait_event(struct qmp *q, const char *needle, int timeout_ms)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		char *line;
		long left;
		int rc;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = timeout_ms - ((now.tv_sec - start.tv_sec) * 1000 +
				     (now.tv_nsec - start.tv_nsec) / 1000000);
		if (left <= 0)
			return -ETIMEDOUT;
		rc = read_line(q, &line, (int)left);
		if (rc)
			return rc;
		rc = strstr(line, needle) != NULL;
		free(line);
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
