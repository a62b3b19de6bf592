/* SPDX-License-Identifier: GPL-2.0 */
/*
 * depmod.h: what `depmod -a -b STAGE REL` writes in a module directory
 * holding just the given modules and the host's modules.order,
 * modules.builtin and modules.builtin.modinfo, computed here byte for
 * byte, in the layout of the host's kmod: kmod 30's (Debian 12) or kmod
 * 34's (Debian 13: its indexes' nodes in another order, and
 * modules.weakdep): the modules layer is written without running depmod
 * (issue 31: its exec and work were most of a cut after a kernel
 * rebuild). Modules may be compressed (.ko.xz, .ko.zst, .ko.gz: the
 * caller gives their ELF bytes, kmodfile.h). Where depmod's output would
 * depend on what is not given (the order it reads directories in, its
 * configuration, a compression the host's kmod does not read), or where
 * depmod would fail or warn its way to other bytes, the answer is
 * -ENOTSUP with the reason, and the caller runs depmod.
 */
#ifndef RAPIDO_DEPMOD_H
#define RAPIDO_DEPMOD_H

#include <stddef.h>

#include "strbuf.h"

struct depmod_module {
	const char *relpath;	/* as modules.dep names it: kernel/fs/xfs/xfs.ko(.zst) */
	const void *data;	/* the module's ELF bytes (a compressed one's, decompressed) */
	size_t len;
};

/* The kmod layouts the writer knows, each proven against that kmod's depmod */
enum depmod_layout {
	DEPMOD_KMOD30,		/* kmod 30: index nodes children first, no modules.weakdep */
	DEPMOD_KMOD34,		/* kmod 34: index nodes parent first, modules.weakdep */
};

struct depmod_in {
	const struct depmod_module *mods;
	size_t n;
	/* the module directory's lists (NULL: not there) */
	const char *order, *builtin, *builtin_modinfo;
	size_t order_len, builtin_len, builtin_modinfo_len;
	enum depmod_layout layout;
	unsigned int comp;	/* the compressions the host's kmod reads (KMOD_COMP_* bits) */
};

#define DEPMOD_NFILES 11

/*
 * The kmod versions whose depmod writes what depmod_compute writes (proven
 * byte for byte by tests/unit/cut-kmods*.sh against the host's depmod:
 * kmod 30 on Debian 12, 34.2 in a Debian 13 chroot); another's may write
 * other bytes, so with another the caller runs depmod.
 */
#define DEPMOD_PROVEN_KMOD "30 34.2"

/*
 * What depmod.c's rules are: in the modules layer's content key, so that
 * a layer written by a version with a mistake is not found again once it
 * is fixed. Raise it with any change to what depmod_compute writes.
 */
#define DEPMOD_WRITER "kmod " DEPMOD_PROVEN_KMOD " depmod rules 2"

/*
 * The layout of the host's depmod (toolver_kmod) and the compressions its
 * kmod reads (its --version's "+XZ +ZSTD -ZLIB"): 0; or -ENOTSUP and *why
 * (malloc'd, one line) when it is a kmod the writer was not proven
 * against, and depmod must write the indexes. No depmod at all: kmod 30's
 * (nothing to write other bytes).
 */
int depmod_host_layout(enum depmod_layout *layout, unsigned int *comp, char **why);

/* The files depmod writes, in its order, each with its bytes: n of them (the layout's). */
struct depmod_out {
	size_t n;
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
