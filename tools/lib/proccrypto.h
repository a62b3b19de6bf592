/* SPDX-License-Identifier: GPL-2.0 */
/* proccrypto.h: parse /proc/crypto into a list of algorithm implementations (the afalg tools). */
#ifndef RAPIDO_PROCCRYPTO_H
#define RAPIDO_PROCCRYPTO_H

#include <stdbool.h>
#include <stddef.h>

/*
 * /proc/crypto is a series of blocks separated by blank lines, one per
 * registered implementation, each line "key : value" (crypto/proc.c).
 * Keys it keeps: name (the generic name, "sha256"), driver (unique,
 * "sha256-avx2"), module ("kernel" when built in), type ("shash",
 * "ahash", "skcipher", "aead", ...), selftest ("passed", "unknown",
 * missing on old kernels), internal ("yes" for helpers that user space
 * cannot bind, since 4.1). Unknown keys are ignored.
 */
struct pc_entry {
	char *name;
	char *driver;
	char *module;	/* "" when absent */
	char *type;	/* "" when absent */
	char *selftest;	/* "" when absent */
	int priority;
	bool internal;
};

struct pc_list {
	struct pc_entry *v;
	size_t n;
	size_t dropped;	/* blocks without a name or driver */
};

/* Parse text (NUL-terminated); always succeeds, allocating with xmalloc. */
void pc_parse(const char *text, struct pc_list *out);
/* Read and parse a file. 0 or -errno (from read_file). */
int pc_load(const char *path, struct pc_list *out);
void pc_free(struct pc_list *l);
/* True if the file at path (/proc/crypto) lists an implementation of the algorithm name. */
bool pc_file_has(const char *path, const char *name);

/* "shash"/"ahash" (and the pre-4.x "digest"/"hash"). */
bool pc_type_is_hash(const char *type);

#endif
