/* SPDX-License-Identifier: GPL-2.0 */
/*
 * toolver.h: the version of a host tool, asked of the tool itself (its
 * --version), in one place: --version's report (version.c) and the checks
 * that trust a tool only at a version they were proven against (depmod's).
 */
#ifndef RAPIDO_TOOLVER_H
#define RAPIDO_TOOLVER_H

struct toolver {
	char *path;		/* where NAME was found on PATH; NULL: not found */
	char *line;		/* the first line of PATH --version; NULL: it printed nothing */
	const char *version;	/* in line, after the prefix; NULL: line lacks the prefix */
	const char *more;	/* what it printed after the first line (kmod's features); NULL: nothing */
};

/*
 * Find NAME (a name or a path) and ask it --version (10 s at most, its exit
 * status not looked at: dracut 059 says its version and exits 1). The
 * version is what follows PREFIX ("kmod version ") on the first line.
 */
void toolver_ask(const char *name, const char *prefix, struct toolver *v);
void toolver_free(struct toolver *v);

/* kmod's version, from the depmod on PATH ("kmod version 30"): asked once a process. */
const struct toolver *toolver_kmod(void);

/*
 * virtiofsd, which ./vm --virtiofs starts: Debian 12's C one in qemu
 * (/usr/lib/qemu/virtiofsd: -o source=DIR, root only, no read-only
 * mode) or the Rust one of Debian 13's virtiofsd package
 * (/usr/libexec/virtiofsd: --shared-dir DIR, --readonly, --sandbox none
 * for a user), told apart by what its --help offers.
 */
struct virtiofsd_tool {
	char *path;
	int rust;		/* --shared-dir (else -o source=) */
	int readonly;		/* --readonly */
};
/* NAME (VIRTIOFSD), else the first found of PATH's and those two; -ENOENT: none. */
int toolver_virtiofsd(const char *name, struct virtiofsd_tool *t);

#endif
