// SPDX-License-Identifier: GPL-2.0
/*
 * json.c: fuzz the strict JSON reading of ./vmctl's raw commands and of
 * qemu's messages (qmp_json_object, over libjansson) and the way rapido
 * makes any bytes a JSON string (utf8_fix, then jansson: run.json, QMP
 * commands). Properties: an error points inside the text (or at its end)
 * with the line and column of that offset and a message, and a text with a
 * NUL is always one; an object read is written back and read again as the
 * same; a valid object followed by a comma is an error at the end; any
 * bytes made UTF-8 (a NUL ends them) are valid UTF-8, the same where they
 * were, and come back from a JSON command as they went in.
 */
#include <errno.h>

#include "fuzz.h"
#include "qmp.h"
#include "utf8.h"

/* the line and column of offset at, as qmp_json_error counts them */
static void where(const char *s, size_t at, unsigned int *line, unsigned int *col)
{
	*line = *col = 1;
	for (size_t i = 0; i < at; i++) {
		if (s[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static void check_fix(const char *s)
{
	char *fixed = utf8_fix(s), *cmd;
	struct qmp_json_error e;
	const char *p = s, *f = fixed;
	json_t *back;

	/* valid UTF-8 stays as it was; each other byte is one U+FFFD */
	while (*p) {
		size_t n = utf8_len((const unsigned char *)p);

		if (n) {
			fuzz_assert(!memcmp(p, f, n), "a valid sequence changed at byte %zu", (size_t)(p - s));
			p += n;
			f += n;
		} else {
			fuzz_assert(!memcmp(f, "\xef\xbf\xbd", 3), "byte %zu not U+FFFD", (size_t)(p - s));
			p++;
			f += 3;
		}
	}
	fuzz_assert(!*f, "%zu bytes more than made", strlen(f));
	cmd = qmp_command_text(json_pack("{s:s, s:{s:s}}", "execute", "x", "arguments", "v", fixed));
	fuzz_assert(cmd, "json_pack refused a fixed string");
	back = qmp_json_object(cmd, strlen(cmd), &e);
	fuzz_assert(back, "a command built is not read back: %s", e.msg);
	fuzz_assert(!strcmp(json_string_value(json_object_get(json_object_get(back, "arguments"), "v")),
			    fixed), "the string came back changed");
	json_decref(back);
	free(cmd);
	free(fixed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct qmp_json_error e;
	unsigned int line, col;
	json_t *v, *again;
	char *buf, *s;

	memset(&e, 0x55, sizeof(e));
	v = qmp_json_object(text, size, &e);
	if (!v) {
		fuzz_assert(e.offset <= size, "offset %zu of %zu bytes", e.offset, size);
		fuzz_assert(memchr(e.msg, '\0', sizeof(e.msg)) && e.msg[0], "no message");
		where(text, e.offset, &line, &col);
		fuzz_assert(e.line == line && e.column == col, "offset %zu: line %u col %u, not %u:%u",
			    e.offset, e.line, e.column, line, col);
		fuzz_assert(e.type == -1 || (e.type != JSON_OBJECT && !e.offset), "type %d", e.type);
	} else {
		fuzz_assert(!memchr(data, '\0', size), "an object read from a text with a NUL");
		/* written back, it reads as the same */
		buf = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
		fuzz_assert(buf, "an object read cannot be written");
		again = qmp_json_object(buf, strlen(buf), &e);
		fuzz_assert(again && json_equal(v, again), "written as %s, read back %s", buf,
			    again ? "different" : e.msg);
		json_decref(again);
		free(buf);
		/* a value and a comma: wrong at the end (after the value's trailing blanks) */
		buf = malloc(size + 1);
		if (!buf)
			abort();
		memcpy(buf, data, size);
		buf[size] = ',';
		again = qmp_json_object(buf, size + 1, &e);
		fuzz_assert(!again && e.offset == size, "a trailing comma: offset %zu of %zu", e.offset,
			    size);
		free(buf);
		json_decref(v);
	}
	s = fuzz_cstr(data, size);
	check_fix(s);
	free(s);
	return 0;
}
