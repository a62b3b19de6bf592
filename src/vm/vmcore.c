// SPDX-License-Identifier: GPL-2.0
/*
 * vmcore.c: the names of the memory dumps a panic leaves (vmN.vmcore,
 * older ones rotated to vmN.vmcore.1 .. .K-1); monitor.c has qemu write them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "err.h"
#include "vm.h"

char *vm_vmcore_path(const struct vm_settings *s, unsigned int vm)
{
	char *path = xasprintf("%s/vm%u.vmcore", s->state_dir, vm);

	/* vmN.vmcore.(K-2) -> .(K-1), ..., vmN.vmcore -> .1; the oldest is dropped */
	for (unsigned int i = s->vmcore_keep - 1; i > 0; i--) {
		char *from = i > 1 ? xasprintf("%s.%u", path, i - 1) : xstrdup(path);
		char *to = xasprintf("%s.%u", path, i);

		if (rename(from, to) < 0 && errno != ENOENT)
			warn_errno("rename %s to %s", from, to);
		free(from);
		free(to);
	}
	if (unlink(path) < 0 && errno != ENOENT)
		warn_errno("%s", path);
	/* older dumps beyond the limit (it may have been lowered) */
	for (unsigned int i = s->vmcore_keep ? s->vmcore_keep : 1;; i++) {
		char *old = xasprintf("%s.%u", path, i);
		int gone = unlink(old) < 0 && errno == ENOENT;

		free(old);
		if (gone)
			break;
	}
	return path;
}
