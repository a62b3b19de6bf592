/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qmp.h: a minimal QMP client: one command at a time, messages one JSON
 * object per line, read with libjansson (qmpmsg.c). Blocking (qmp_connect_timeout,
 * qmp_command: ./vmctl), or driven by the caller's event loop (qmp_send,
 * qmp_read_lines, qmp_msg_parse: ./vm's own monitor).
 */
#ifndef RAPIDO_QMP_H
#define RAPIDO_QMP_H

#include <stddef.h>
#include <jansson.h>

/* the longest message qemu may send, its newline included */
#define QMP_MSG_MAX 65535

struct qmp {
	int fd;
	int timeout_ms;		/* for the greeting and each reply */
	int skip;		/* dropping the rest of a line longer than buf */
	char why[512];		/* after -EPROTO: what was wrong with qemu's message */
	char buf[QMP_MSG_MAX + 1];
	size_t len;
};

/* What a message from qemu is: the one of "QMP", "return", "error", "event" it has. */
enum qmp_kind { QMP_GREETING, QMP_RETURN, QMP_ERROR, QMP_EVENT };

/* One message from qemu, its kind's members checked for their JSON types. */
struct qmp_msg {
	enum qmp_kind kind;
	json_t *root;			/* the whole object */
	char *text;			/* as qemu sent it, without its newline */
	json_t *ret;			/* QMP_RETURN: "return", any JSON value */
	const char *err_class;		/* QMP_ERROR: "class", e.g. "DeviceNotFound" */
	const char *err_desc;		/* QMP_ERROR: "desc", qemu's words */
	const char *event;		/* QMP_EVENT: its name */
	json_t *data;			/* QMP_EVENT: "data" (an object), NULL without one */
};

/*
 * Parse one message (len bytes, without its newline) strictly: exactly one
 * JSON object (RFC 8259: UTF-8, no NUL, no duplicate keys) with exactly one
 * of the four keys, of its type: "QMP" an object, "error" an object with
 * string "class" and "desc", "event" a string with an object "data" if any.
 * 0 with *m filled (free it with qmp_msg_free), or -EPROTO with why saying
 * what is wrong and quoting the start of text.
 */
int qmp_msg_parse(const char *text, size_t len, struct qmp_msg *m, char *why, size_t whylen);
void qmp_msg_free(struct qmp_msg *m);
/* The string member key of an event's data, or NULL (no data, no key, not a string). */
const char *qmp_msg_data_string(const struct qmp_msg *m, const char *key);

/* Where and why a text is not the one JSON object wanted. */
struct qmp_json_error {
	size_t offset;			/* byte offset of the wrong token (len: at the end) */
	unsigned int line, column;	/* of that byte, from 1; the column counts bytes */
	int type;			/* valid JSON but not an object: its json_type; else -1 */
	char msg[224];			/* what is wrong there (jansson's words) */
};
/*
 * Parse text (len bytes) as exactly one JSON object, as qmp_msg_parse does:
 * the object (a new reference), or NULL with *err filled in.
 */
json_t *qmp_json_object(const char *text, size_t len, struct qmp_json_error *err);
/*
 * A command built with json_pack() as the text to send (malloc'd; cmd
 * released), or NULL if cmd is NULL (json_pack refused a value: a string
 * that is not UTF-8).
 */
char *qmp_command_text(json_t *cmd);

/*
 * Connect to a QMP unix socket and negotiate capabilities, waiting up to
 * timeout_ms for each answer. 0, or -errno with *err (malloc'd) naming
 * path and the cause: -ENOENT (no socket) and -ECONNREFUSED (nobody
 * listens) mean no qemu is there; -ETIMEDOUT means it accepted but sent no
 * greeting in time (busy, or another client holds the monitor);
 * -ECONNRESET that it hung up; -EPROTO that it does not speak QMP.
 */
int qmp_connect_timeout(struct qmp *q, const char *path, int timeout_ms, char **err);

/* Told of each event that arrives while waiting; a non-zero return ends qmp_wait_event(). */
typedef int (*qmp_event_fn)(const struct qmp_msg *m, void *arg);
/*
 * Send a command (a JSON object) and wait up to q->timeout_ms for its
 * reply, passing events that come first to on_event if non-NULL. Returns 0
 * with *reply its QMP_RETURN, 1 with *reply qemu's QMP_ERROR (free either
 * with qmp_msg_free), or -errno with *reply empty: -ETIMEDOUT (no reply in
 * time), -ECONNRESET (qemu hung up), -EMSGSIZE (a message longer than
 * QMP_MSG_MAX), -EPROTO (a message that is not QMP: q->why says why).
 */
int qmp_command(struct qmp *q, const char *json, struct qmp_msg *reply, qmp_event_fn on_event,
		void *arg);
/*
 * Wait up to timeout_ms for an event that match (called with each) says is
 * the one. 0, -ETIMEDOUT, or -errno as qmp_command's.
 */
int qmp_wait_event(struct qmp *q, qmp_event_fn match, void *arg, int timeout_ms);
void qmp_close(struct qmp *q);

/* Send one command (a JSON object, a newline added). 0, or -errno (-ECONNRESET: qemu hung up). */
int qmp_send(struct qmp *q, const char *json);
/*
 * For a non-blocking q->fd in an event loop: read what is there and pass
 * each complete line to on_line (len bytes, without its newline; a NUL in
 * it is qemu's, for qmp_msg_parse to refuse). Returns 0 once the read would
 * block, -ECONNRESET at the end of the stream (or qemu resetting it as it
 * quits), -EMSGSIZE for a line longer than QMP_MSG_MAX (dropped up to its
 * newline; reading goes on after it), or -errno.
 */
int qmp_read_lines(struct qmp *q, void (*on_line)(const char *line, size_t len, void *arg),
		   void *arg);

#endif
