// SPDX-License-Identifier: GPL-2.0
/*
 * tool-configfs-spec.c: fuzz the rapido-configfs spec parser, forward and
 * for teardown. Properties: errors name "FILE:LINE:", paths come out
 * normalised, values fit one configfs write, and every value printed with
 * spec_print_value() (what --dry-run shows) parses back to itself.
 */
#include "fuzz.h"
#include "../../tools/configfs/spec.h"

/* A write of v (and undo u), printed and parsed again, gives v and u back. */
static void round_trip(const struct cfs_op *op)
{
	struct cfs_spec s;
	char *text = NULL, *err = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	fuzz_assert(f, "open_memstream");
	fputs("write a ", f);
	spec_print_value(f, op->value, op->value_len);
	if (op->undo) {
		fputs(" undo ", f);
		spec_print_value(f, op->undo, op->undo_len);
	}
	fputc('\n', f);
	fclose(f);
	spec_init(&s);
	rc = spec_parse_string(&s, "again.spec", text, NULL, &err);
	fuzz_assert(!rc && s.n == 1, "\"%s\" does not parse back: %s", text, err ? err : "");
	fuzz_assert(s.ops[0].value_len == op->value_len &&
		    !memcmp(s.ops[0].value, op->value, op->value_len), "value changed: %s", text);
	fuzz_assert(!op->undo || (s.ops[0].undo_len == op->undo_len &&
				  !memcmp(s.ops[0].undo, op->undo, op->undo_len)),
		    "undo value changed: %s", text);
	spec_free(&s);
	free(err);
	free(text);
}

static void parse(const uint8_t *data, size_t size, bool teardown)
{
	struct cfs_parse_opts po = { "/nonexistent-rapido-fuzz", teardown, NULL };
	struct cfs_spec s;
	char *err = NULL;
	FILE *f = fmemopen((void *)data, size, "r");
	int rc;

	fuzz_assert(f, "fmemopen");
	spec_init(&s);
	rc = spec_parse(&s, "fuzz.spec", f, &po, &err);
	fclose(f);
	if (rc) {
		fuzz_assert(err && !strncmp(err, "fuzz.spec:", 10), "rc %d, error \"%s\"", rc,
			    err ? err : "(none)");
	} else {
		for (size_t i = 0; i < s.n; i++) {
			const struct cfs_op *op = &s.ops[i];
			const char *why;
			char *norm = spec_path_normalise(op->path, &why);

			fuzz_assert(norm && !strcmp(norm, op->path), "path \"%s\" not normalised",
				    op->path);
			free(norm);
			if (op->type != OP_WRITE)
				continue;
			fuzz_assert(op->value_len <= CFS_VALUE_MAX && op->undo_len <= CFS_VALUE_MAX,
				    "value of %zu bytes", op->value_len);
			if (op->value_len && (!op->undo || op->undo_len))
				round_trip(op);
		}
	}
	free(err);
	spec_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)	/* fmemopen refuses an empty buffer */
		return 0;
	parse(data, size, false);
	parse(data, size, true);
	return 0;
}
