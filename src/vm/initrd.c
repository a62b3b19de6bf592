// SPDX-License-Identifier: GPL-2.0
/*
 * initrd.c: the file qemu gets as -initrd. A plain or standalone image is
 * passed as it is; an image whose layers are in ./cut's cache (head +
 * tail, see docs/CACHE.md) is put together in a memfd, every layer
 * checked against its size and XXH64 on the way, and qemu, which inherits
 * the descriptor, reads it as /proc/self/fd/N. A layer that is gone or
 * corrupted stops the boot with a message saying to cut again. A layer
 * that only some boots need is left out of the others (layers.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "layers.h"
#include "vm.h"

int vm_initrd_prepare(const char *image, int dry_run, const struct strv *kparams,
		      struct vm_initrd *ird, char **err)
{
	struct img_layers l;
	enum img_form form;
	struct stat st;
	off_t head_len;
	int fd, mfd, rc;

	memset(ird, 0, sizeof(*ird));
	ird->fd = -1;
	*err = NULL;
	fd = open_regular(image, 0, &st);
	if (fd < 0) {
		*err = xasprintf("%s: %s", image, file_strerror(fd, &st));
		return fd;
	}
	rc = img_probe(fd, image, &l, &head_len, &form, err);
	if (rc || form != IMG_CACHED || dry_run) {
		/* --dry-run shows the image; qemu alone could not boot a cached one */
		if (!rc && form == IMG_CACHED)
			ird->needs_cache = 1;
		close(fd);
		img_layers_free(&l);
		if (!rc)
			ird->path = xstrdup(image);
		return rc;
	}
	mfd = memfd_create("rapido-initrd", MFD_CLOEXEC);
	if (mfd < 0) {
		rc = -errno;
		*err = xasprintf("memfd_create for %s: %s", image, strerror(errno));
		goto out;
	}
	/*
	 * qemu opens it through /proc/self/fd, so the copy it inherits has no
	 * close-on-exec; at 10 or above, since spawn.c's child dup2()s its
	 * pipes onto VM_FD_STATUS..VM_FD_RESULTS (3..6) before exec.
	 */
	{
		int hi = fcntl(mfd, F_DUPFD, 10);

		if (hi < 0) {
			rc = -errno;
			*err = xasprintf("memfd for %s: %s", image, strerror(errno));
			close(mfd);
			goto out;
		}
		close(mfd);
		mfd = hi;
	}
	/*
	 * The one decision of which layers a boot gets: a layer that only
	 * some boots need (the modules the init loads for a share, a NIC, the
	 * virtio console, the results port; the shared libraries where no
	 * program of the image is dynamic) is in when the command line this
	 * boot gets asks for it. Not in: every byte is unpacked by the
	 * kernel before /init runs (6-8 ms a MiB under TCG).
	 */
	for (size_t i = 0; kparams && i < l.n; i++)
		l.v[i].skip = !img_layer_wanted(&l.v[i], (const char *const *)kparams->v, kparams->n);
	rc = img_assemble(fd, image, &l, head_len, mfd, err);
	if (rc) {
		close(mfd);
		goto out;
	}
	/*
	 * mark the layers used, for the cache's least-recently-used eviction:
	 * those left out of this boot too, which the next boot of the same
	 * image with a share needs (one evicted first would have it cut again)
	 */
	for (size_t i = 0; i < l.n; i++) {
		char *meta = img_layer_meta_path(l.v[i].path);

		utimensat(AT_FDCWD, meta, NULL, 0);	/* a read-only cache is fine */
		free(meta);
	}
	ird->fd = mfd;
	ird->path = xasprintf("/proc/self/fd/%d", mfd);
out:
	close(fd);
	img_layers_free(&l);
	return rc;
}

void vm_initrd_free(struct vm_initrd *ird)
{
	if (ird->fd >= 0)
		close(ird->fd);
	free(ird->path);
	memset(ird, 0, sizeof(*ird));
	ird->fd = -1;
}
