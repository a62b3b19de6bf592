// SPDX-License-Identifier: GPL-2.0
/*
 * profile.c: fuzz the "#@ key: value" header parser of autorun profiles.
 * Properties: errors name the file, a parsed profile has a description
 * (its absence is PROFILE_ENODESC and said so), its memory fits the host,
 * the keys it names are valid rapido.conf keys; a key refused as unknown is
 * none of those the message lists as known (one table reads the keys and
 * names them); a #@ shell-bins entry is a program name, never a path nor
 * empty (busybox is asked for it by that name). The same input as
 * autorun/packages' table: a program's package is one word (no blank, no
 * newline, no '|'), never empty.
 */
#include <string.h>

#include "conf.h"
#include "fuzz.h"
#include "hostmem.h"
#include "profile.h"

/* "unknown profile key \"KEY\" (known: A, B KEY, ...)": KEY is none of A, B KEY, ... */
static void unknown_not_known(const char *err)
{
	const char *q = err + strlen("fuzz.sh:"), *known = NULL;
	char *key;

	/* the profile's own line, not a value another message quotes */
	q += strspn(q, "0123456789");
	if (strncmp(q, ": unknown profile key \"", strlen(": unknown profile key \"")))
		return;
	q += strlen(": unknown profile key \"");
	for (const char *k = q; (k = strstr(k, "\" (known: ")); k++)
		known = k;
	fuzz_assert(known, "unknown key without its known list: \"%s\"", err);
	key = strndup(q, (size_t)(known - q));
	for (const char *k = known + strlen("\" (known: "); key && *k && *k != ')';) {
		size_t n = strcspn(k, ",)");

		fuzz_assert(n != strlen(key) || strncmp(k, key, n), "\"%s\" refused, yet known: %s",
			    key, err);
		k += n;
		k += strspn(k, ", ");
	}
	free(key);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), *err = NULL;
	struct strv keys = STRV_INIT;
	struct profile p;
	int rc = profile_parse(&p, "fuzz", "fuzz.sh", text, &err);

	if (rc) {
		fuzz_assert(err && !strncmp(err, "fuzz.sh:", 8), "rc %d, error \"%s\"", rc,
			    err ? err : "(none)");
		fuzz_assert((rc == PROFILE_ENODESC) == !strcmp(err, "fuzz.sh: no '#@ description:' line"),
			    "rc %d for \"%s\"", rc, err);
		unknown_not_known(err);
	} else {
		char why[HOSTMEM_WHY_LEN];

		fuzz_assert(p.description, "parsed without a description");
		fuzz_assert(!hostmem_check(p.memory, why), "memory %llu accepted: %s",
			    (unsigned long long)p.memory, why);
		for (size_t i = 0; i < p.shell_bins.n; i++)
			fuzz_assert(profile_program_name_valid(p.shell_bins.v[i]) &&
				    !strchr(p.shell_bins.v[i], '/'), "shell-bins \"%s\" accepted",
				    p.shell_bins.v[i]);
		profile_conf_keys(&p, &keys);
		for (size_t i = 0; i < keys.n; i++)
			fuzz_assert(keys.v[i][0], "an empty key");
		strv_free(&keys);
		profile_free(&p);
	}
	free(err);
	/* the input as the program->package table, asked for its first word */
	{
		size_t n = strcspn(text, " \t\n");
		char *bin = strndup(text, n), *pkg = bin ? packages_table_lookup(text, bin) : NULL;

		fuzz_assert(!pkg || (*pkg && !pkg[strcspn(pkg, " \t\n|")]), "package \"%s\"", pkg);
		free(pkg);
		free(bin);
	}
	free(text);
	return 0;
}
