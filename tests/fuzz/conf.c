// SPDX-License-Identifier: GPL-2.0
/*
 * conf.c: fuzz the rapido.conf parser, with and without the environment
 * overriding keys. Properties: every error names "FILE:LINE:" and quotes
 * the text with no control byte (an escape sequence would reach the
 * terminal) in at most ERR_MAX bytes, every value
 * fits the documented cap, every key has an origin, the unknown-key check
 * and its suggestions run on whatever parsed.
 */
#include "conf.h"
#include "confkeys.h"
#include "expand.h"
#include "fuzz.h"
#include "strv.h"

/* str_shown()'s cut (4 bytes a shown byte, at most) and the words around it */
#define ERR_MAX 4096

static void parse(const char *text, int env_override)
{
	struct conf c = { .env_override = env_override };
	struct strv msgs = STRV_INIT;
	char *err = NULL;
	int rc = conf_parse(&c, "fuzz.conf", text, &err);

	if (rc) {
		fuzz_assert(err && !strncmp(err, "fuzz.conf:", 10), "rc %d, error \"%s\"", rc,
			    err ? err : "(none)");
		fuzz_assert(strlen(err) < ERR_MAX, "an error of %zu bytes", strlen(err));
		for (const char *p = err; *p; p++)
			fuzz_assert((unsigned char)*p >= ' ' && *p != 0x7f,
				    "a control byte 0x%02x in the error \"%s\"", (unsigned char)*p, err);
	} else {
		fuzz_assert(!err, "success with an error \"%s\"", err);
		for (size_t i = 0; i < c.n; i++) {
			const char *k = c.e[i].key;

			fuzz_assert(conf_key_valid(k), "key \"%s\"", k);
			fuzz_assert(strlen(c.e[i].val) <= EXPAND_VALUE_MAX, "%s: %zu bytes", k,
				    strlen(c.e[i].val));
			fuzz_assert(conf_get(&c, k) != NULL, "%s has no value", k);
			fuzz_assert(!strncmp(conf_origin(&c, k), "fuzz.conf:", 10) ||
				    !strcmp(conf_origin(&c, k), "environment"), "%s: origin %s", k,
				    conf_origin(&c, k));
		}
		confkeys_check(&c, NULL, &msgs);
		strv_free(&msgs);
	}
	free(err);
	conf_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);

	parse(text, 0);
	parse(text, 1);
	free(text);
	return 0;
}
