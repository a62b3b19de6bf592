/* SPDX-License-Identifier: GPL-2.0 */
/*
 * depmod.h: what `depmod -a -b STAGE REL` (kmod 30, Debian 12) writes in
 * a module directory holding just the given modules and the host's
 * modules.order, modules.builtin and modules.builtin.modinfo, computed
 * here byte for byte: the modules layer is written without running depmod
 * (issue 31: its exec and work were most of a cut after a kernel rebuild).
 * Where depmod's output would depend on what is not given (the order it
 * reads directories in, its configuration, a compressed module), or where
 * depmod would fail or warn its way to other bytes, the answer is
 * -ENOTSUP with the reason, and the caller runs depmod.
 */
#ifndef RAPIDO_DEPMOD_H
#define RAPIDO_DEPMOD_H

#include <stddef.h>

#include "strbuf.h"

struct depmod_module {
	const char *relpath;	/* as modules.dep names it: kernel/fs/xfs/xfs.ko */
	const void *data;	/* the module's bytes */
	size_t len;
};

struct depmod_in {
	const struct depmod_module *mods;
	size_t n;
	/* the module directory's lists (NULL: not there) */
	const char *order, *builtin, *builtin_modinfo;
	size_t order_len, builtin_len, builtin_modinfo_len;
};

#define DEPMOD_NFILES 10

/*
 * The kmod version whose depmod writes what depmod_compute writes (proven
 * byte for byte by tests/unit/cut-kmods*.sh); another's may write other
 * bytes, so with another the caller runs depmod.
 */
#define DEPMOD_PROVEN_KMOD "30"

/*
 * What depmod.c's rules are: in the modules layer's content key, so that
 * a layer written by a version with a mistake is not found again once it
 * is fixed. Raise it with any change to what depmod_compute writes.
 */
#define DEPMOD_WRITER "kmod " DEPMOD_PROVEN_KMOD " depmod rules 1"

/*
 * NULL when the host's depmod (toolver_kmod) is kmod DEPMOD_PROVEN_KMOD's,
 * or there is none (nothing to write other bytes); else why depmod must
 * write the indexes (malloc'd, one line).
 */
char *depmod_unproven(void);

/* The files depmod writes, in its order, each with its bytes. */
struct depmod_out {
	struct {
		const char *name;
		struct strbuf data;
	} f[DEPMOD_NFILES];
};

/*
 * Fill out (depmod_out_free it either way). 0, or -ENOTSUP with *why
 * (malloc'd) saying what only depmod can answer.
 */
int depmod_compute(const struct depmod_in *in, struct depmod_out *out, char **why);
void depmod_out_free(struct depmod_out *out);

#endif
