// SPDX-License-Identifier: GPL-2.0
/*
 * conftype.c: fuzz "#@ conf-type:" specs (src/conf/conftype.c) and the value
 * parser every key goes through (confkey_parse, src/conf/confget.c). The
 * input is "SPEC\nVALUE". Properties: a parsed spec names a valid key and
 * a range that is not upside down; a value a type accepts is inside it (a
 * number in MIN..MAX, a size at least MIN, an enum word one of its words);
 * a value refused says what was expected (a word list: what is wrong); the same holds for every key of
 * confkeys[].
 */
#include "conf.h"
#include "confget.h"
#include "conftype.h"
#include "fuzz.h"

static void check_value(const struct confkey *k, const char *val)
{
	struct conf_value v;
	char *why;

	memset(&v, 0, sizeof(v));
	if (confkey_parse(k, val, &v, &why)) {
		/* shwords' own messages name the quoting problem instead */
		fuzz_assert(why && (k->kind == CONFKEY_WORDS ? *why != '\0' : !!strstr(why, "expected")),
			    "%s='%s' refused without saying what is expected: %s", k->key, val,
			    why ? why : "(null)");
		free(why);
		return;
	}
	fuzz_assert(!why, "%s='%s' accepted with a message", k->key, val);
	switch (k->kind) {
	case CONFKEY_UINT:
		fuzz_assert(v.n >= k->min && v.n <= k->max, "%s='%s' gave %llu outside %llu..%llu",
			    k->key, val, v.n, k->min, k->max);
		break;
	case CONFKEY_SIZE:
		fuzz_assert(v.n >= k->min && (!k->max || v.n <= k->max), "%s='%s' gave %llu",
			    k->key, val, v.n);
		break;
	case CONFKEY_ENUM: {
		int found = 0;

		for (size_t i = 0; k->words[i]; i++)
			found |= v.word == k->words[i];
		fuzz_assert(found, "%s='%s' is none of its words", k->key, val);
		break;
	}
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), *nl = strchr(text, '\n');
	const char *val = nl ? nl + 1 : "";
	struct confkey k;
	char *why;

	if (nl)
		*nl = '\0';
	if (!confkey_type_parse(text, &k, &why)) {
		fuzz_assert(!why && conf_key_valid(k.key), "spec \"%s\" gave key \"%s\"", text, k.key);
		fuzz_assert(k.kind != CONFKEY_UINT || k.min <= k.max, "spec \"%s\": %llu > %llu", text,
			    k.min, k.max);
		fuzz_assert(k.kind != CONFKEY_SIZE || !k.max || k.min <= k.max, "spec \"%s\"", text);
		fuzz_assert(k.kind != CONFKEY_ENUM || (k.words && k.words[0]), "spec \"%s\"", text);
		check_value(&k, val);
		confkey_type_free(&k);
	} else {
		fuzz_assert(why && *why, "spec \"%s\" refused without a reason", text);
		free(why);
	}
	for (const struct confkey *p = confkeys; p->key; p++)
		check_value(p, val);
	free(text);
	return 0;
}
