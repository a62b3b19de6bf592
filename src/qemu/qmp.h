/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qmp.h: a minimal QMP client: one command at a time, replies one JSON per
 * line. Blocking (qmp_connect, qmp_command: ./vmctl), or driven by the
 * caller's event loop (qmp_send, qmp_read_lines: ./vm's own monitor).
 */
#ifndef RAPIDO_QMP_H
#define RAPIDO_QMP_H

struct qmp {
	int fd;
	int timeout_ms;		/* for the greeting and each reply */
	char err_class[64];	/* of qemu's last error reply, e.g. "DeviceNotFound" */
	char buf[65536];
	size_t len;
};

/*
 * Connect to a QMP unix socket and negotiate capabilities, waiting up to
 * timeout_ms for each answer. 0, or -errno with *err (malloc'd) naming
 * path and the cause: -ENOENT (no socket) and -ECONNREFUSED (nobody
 * listens) mean no qemu is there; -ETIMEDOUT means it accepted but sent no
 * greeting in time (busy, or another client holds the monitor);
 * -ECONNRESET that it hung up; -EPROTO that it does not speak QMP.
 */
int qmp_connect_timeout(struct qmp *q, const char *path, int timeout_ms, char **err);
/* qmp_connect_timeout() with 5 s for the greeting and 30 s for replies. */
int qmp_connect(struct qmp *q, const char *path, char **err);
/*
 * Send a command (a JSON object) and wait up to q->timeout_ms for its
 * reply, skipping events. Returns 0 with *reply the "return" line, 1 with
 * *reply qemu's error description (verbatim) and q->err_class its class,
 * or -errno (-ETIMEDOUT: no reply in time; -ECONNRESET: qemu hung up).
 * Events seen meanwhile are passed to on_event if non-NULL.
 */
int qmp_command(struct qmp *q, const char *json, char **reply,
		void (*on_event)(const char *line, void *arg), void *arg);
/* Wait up to timeout_ms for an event whose line contains needle. 0, -ETIMEDOUT or -errno. */
int qmp_wait_event(struct qmp *q, const char *needle, int timeout_ms);
void qmp_close(struct qmp *q);

/* What a line from qemu is: QMP sends each kind with its key first. */
enum qmp_kind { QMP_GREETING, QMP_RETURN, QMP_ERROR, QMP_EVENT, QMP_OTHER };
enum qmp_kind qmp_line_kind(const char *line);
/* Send one command (a JSON object, a newline added). 0, or -errno (-ECONNRESET: qemu hung up). */
int qmp_send(struct qmp *q, const char *json);
/*
 * For a non-blocking q->fd in an event loop: read what is there and pass
 * each complete line to on_line (without its newline). Returns 0 once the
 * read would block, -ECONNRESET at the end of the stream (or qemu
 * resetting it as it quits), -EMSGSIZE for a line longer than q->buf (the
 * buffered part is dropped, the rest of it arrives as a line of its own),
 * or -errno.
 */
int qmp_read_lines(struct qmp *q, void (*on_line)(const char *line, void *arg), void *arg);

/* The string value of "key" in a JSON line (unescaped, malloc'd) or NULL. */
char *json_string_value(const char *line, const char *key);
/* Append s to out as a JSON string literal with quotes (malloc'd result). */
char *json_quote(const char *s);

#endif
