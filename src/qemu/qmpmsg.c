// SPDX-License-Identifier: GPL-2.0
/*
 * qmpmsg.c: what qemu says on QMP, and what a user hands ./vmctl to send,
 * read as JSON by libjansson, strictly: one object, UTF-8, no NUL, no key
 * twice. A message has one of "QMP" (the greeting), "return", "error" or
 * "event", each of the type the QMP specification (qemu's
 * docs/interop/qmp-spec.rst) gives it; anything else is refused, saying
 * what was wrong and quoting it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "qmp.h"

/*
 * Integers are read as reals: qemu sends uint64 values (sizes, WWNs)
 * beyond jansson's json_int_t, and nothing here reads a number from qemu.
 */
#define QMP_JSON_FLAGS (JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL)

/*
 * The byte where jansson's complaint starts: its position is just after
 * the token it names ("... near 'TOKEN'", the raw bytes), so that token's
 * start; without one (the end of the text, a byte that is not UTF-8) the
 * position itself.
 */
static size_t error_offset(const json_error_t *je, size_t len)
{
	size_t pos = je->position > 0 ? (size_t)je->position : 0, n;
	const char *near = strstr(je->text, " near '");

	if (pos > len)
		pos = len;
	if (!near)
		return pos;
	near += strlen(" near '");
	n = strlen(near);
	/* a token too long for jansson's message is cut short: its start is not known */
	if (!n || near[n - 1] != '\'' || n - 1 > pos)
		return pos;
	return pos - (n - 1);
}

/* What jansson's words leave a person to guess, for the usual slips: a hint, or "". */
static const char *hint(const char *text, size_t len, size_t off, const json_error_t *je)
{
	size_t i = off;

	if (off < len && text[off] == '\'')
		return " (strings take double quotes, not single ones)";
	while (i > 0 && memchr(" \t\r\n", text[i - 1], 4))
		i--;
	if (i > 0 && text[i - 1] == ',' && off < len && (text[off] == '}' || text[off] == ']'))
		return " (JSON has no trailing commas)";
	if (json_error_code(je) == json_error_end_of_input_expected)
		return " (one JSON value only)";
	return "";
}

/* line and column (from 1, in bytes) of err->offset in text */
static void locate(struct qmp_json_error *err, const char *text)
{
	err->line = err->column = 1;
	for (size_t i = 0; i < err->offset; i++) {
		if (text[i] == '\n') {
			err->line++;
			err->column = 1;
		} else {
			err->column++;
		}
	}
}

static const char *type_name(int type)
{
	switch (type) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER:
	case JSON_REAL: return "a number";
	case JSON_TRUE: return "true";
	case JSON_FALSE: return "false";
	default: return "null";
	}
}

json_t *qmp_json_object(const char *text, size_t len, struct qmp_json_error *err)
{
	const char *nul = memchr(text, '\0', len);
	json_error_t je;
	json_t *v;

	memset(err, 0, sizeof(*err));
	err->line = err->column = 1;
	err->type = -1;
	/* jansson takes a NUL byte for the end of the text, and says that */
	if (nul) {
		err->offset = (size_t)(nul - text);
		locate(err, text);
		snprintf(err->msg, sizeof(err->msg), "a NUL byte (JSON text has none)");
		return NULL;
	}
	v = json_loadb(text, len, QMP_JSON_FLAGS, &je);
	if (v && json_is_object(v))
		return v;
	if (v) {
		err->type = (int)json_typeof(v);
		snprintf(err->msg, sizeof(err->msg), "expected a JSON object, got %s",
			 type_name(err->type));
		json_decref(v);
		return NULL;
	}
	err->offset = error_offset(&je, len);
	locate(err, text);
	snprintf(err->msg, sizeof(err->msg), "%s%s", je.text, hint(text, len, err->offset, &je));
	return NULL;
}

char *qmp_command_text(json_t *cmd)
{
	char *text;

	if (!cmd)
		return NULL;
	/* ", " and ": " between members, in the order packed: as a person writes it */
	text = json_dumps(cmd, JSON_PRESERVE_ORDER);
	json_decref(cmd);
	if (!text)
		die("out of memory");
	return text;
}

/* The start of text for a message: at most 80 bytes, each one not printable ASCII as \xNN. */
static void quote_start(char *out, size_t outlen, const char *text, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n + 8 < outlen; i++) {
		unsigned char c = (unsigned char)text[i];

		if (i == 80) {
			n += (size_t)snprintf(out + n, outlen - n, "...");
			break;
		}
		if (c >= 0x20 && c < 0x7f)
			out[n++] = (char)c;
		else
			n += (size_t)snprintf(out + n, outlen - n, "\\x%02x", c);
	}
	out[n] = '\0';
}

static const char *const kind_keys[] = {
	[QMP_GREETING] = "QMP", [QMP_RETURN] = "return", [QMP_ERROR] = "error", [QMP_EVENT] = "event",
};

/* Which kind m->root is and its members: NULL, or what is wrong (a static string). */
static const char *classify(struct qmp_msg *m, char *buf, size_t buflen)
{
	json_t *v, *err, *cls, *desc;
	int found = -1;

	for (size_t k = 0; k < sizeof(kind_keys) / sizeof(kind_keys[0]); k++) {
		if (!json_object_get(m->root, kind_keys[k]))
			continue;
		if (found >= 0) {
			snprintf(buf, buflen, "both \"%s\" and \"%s\" in one message", kind_keys[found],
				 kind_keys[k]);
			return buf;
		}
		found = (int)k;
	}
	if (found < 0)
		return "an object with none of \"QMP\", \"return\", \"error\" or \"event\"";
	m->kind = (enum qmp_kind)found;
	v = json_object_get(m->root, kind_keys[found]);
	switch (m->kind) {
	case QMP_GREETING:
		if (!json_is_object(v))
			return "\"QMP\" (the greeting) is not an object";
		break;
	case QMP_RETURN:
		m->ret = v;
		break;
	case QMP_ERROR:
		err = v;
		if (!json_is_object(err))
			return "\"error\" is not an object";
		cls = json_object_get(err, "class");
		desc = json_object_get(err, "desc");
		if (!json_is_string(cls))
			return cls ? "the error's \"class\" is not a string" : "an error without \"class\"";
		if (!json_is_string(desc))
			return desc ? "the error's \"desc\" is not a string" : "an error without \"desc\"";
		m->err_class = json_string_value(cls);
		m->err_desc = json_string_value(desc);
		break;
	case QMP_EVENT:
		if (!json_is_string(v))
			return "\"event\" (its name) is not a string";
		m->event = json_string_value(v);
		m->data = json_object_get(m->root, "data");
		if (m->data && !json_is_object(m->data))
			return "the event's \"data\" is not an object";
		break;
	}
	return NULL;
}

int qmp_msg_parse(const char *text, size_t len, struct qmp_msg *m, char *why, size_t whylen)
{
	struct qmp_json_error e;
	char wrong[160], start[336];
	const char *bad;

	memset(m, 0, sizeof(*m));
	m->root = qmp_json_object(text, len, &e);
	if (!m->root) {
		if (e.type < 0)
			snprintf(wrong, sizeof(wrong), "not JSON at byte %zu: %.120s", e.offset, e.msg);
		else
			snprintf(wrong, sizeof(wrong), "%.150s", e.msg);
		bad = wrong;
	} else {
		bad = classify(m, wrong, sizeof(wrong));
	}
	if (bad) {
		quote_start(start, sizeof(start), text, len);
		snprintf(why, whylen, "%s: '%s'", bad, start);
		qmp_msg_free(m);
		return -EPROTO;
	}
	m->text = xstrndup(text, len);
	return 0;
}

void qmp_msg_free(struct qmp_msg *m)
{
	json_decref(m->root);
	free(m->text);
	memset(m, 0, sizeof(*m));
}

const char *qmp_msg_data_string(const struct qmp_msg *m, const char *key)
{
	return m->data ? json_string_value(json_object_get(m->data, key)) : NULL;
}
