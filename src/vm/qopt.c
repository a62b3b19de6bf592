// SPDX-License-Identifier: GPL-2.0
/* qopt.c: qemu option values escape ',' as ",," (qopt.h); the 9p exports' -fsdev. */
#include <errno.h>
#include <stdlib.h>
#include <sys/xattr.h>

#include "err.h"
#include "io.h"
#include "qopt.h"

char *qopt(const char *s)
{
	size_t n = 0;
	char *out, *p;

	for (const char *q = s; *q; q++)
		n += *q == ',' ? 2 : 1;
	out = p = xmalloc(n + 1);
	for (; *s; s++) {
		*p++ = *s;
		if (*s == ',')
			*p++ = ',';
	}
	*p = '\0';
	return out;
}

/*
 * security_model=none (or passthrough) lets the guest's chmod, chown and
 * mknod through to the host: with ./vm as root, a guest's `chmod 4755`
 * left a root-owned setuid file, and its mknod a device node, in the
 * results dir or a --share. The mapped models keep the guest's owner,
 * mode and file type in metadata of their own: on the host every file is
 * a plain file or directory owned by ./vm's user, with fmode/dmode (a
 * guest's symbolic link a file holding its target, a device or a FIFO an
 * empty file), while the guest sees what it set. mapped-xattr keeps that
 * in user.virtfs.* attributes; where the file system has none (tmpfs
 * before Linux 6.6), mapped-file keeps it in .virtfs_metadata dirs.
 */
char *qopt_fsdev(const char *id, const char *path)
{
	char *q = qopt(path), *out;
	mode_t mask = umask_now();
	int xattr = lgetxattr(path, "user.virtfs.mode", NULL, 0) >= 0 || errno != ENOTSUP;

	/* the modes a file the user makes gets: 0644 and 0755, 0600 and 0700 under 077 */
	out = xasprintf("local,id=%s,path=%s,security_model=%s,fmode=0%o,dmode=0%o", id, q,
			xattr ? "mapped-xattr" : "mapped-file", 0666 & ~mask, 0777 & ~mask);
	free(q);
	return out;
}
