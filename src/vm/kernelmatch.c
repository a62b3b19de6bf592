// SPDX-License-Identifier: GPL-2.0
/*
 * kernelmatch.c: the kernel ./vm is about to boot is the release the
 * image was cut for. An image carries one release's modules
 * (/lib/modules/RELEASE): another kernel boots, finds none of them and
 * fails far from the cause (a profile's modprobe, a missing file system).
 * Two ways to get there: VM_KERNEL naming another kernel, and a kernel
 * rebuilt in KERNEL_SRC (a new localversion, a new release) after the cut.
 * Where the image's release is not known (images from before
 * KERNEL_RELEASE was recorded) or the kernel file does not say its own
 * (arm64's Image has no version header), nothing is checked.
 */
#include <string.h>
#include <stdlib.h>

#include "err.h"
#include "kimage.h"
#include "settings.h"
#include "vm.h"

void vm_kernel_match_or_die(const struct vm_settings *s, const struct vm_src *vm_kernel)
{
	char *rel = NULL, *err = NULL, where[512];
	int rc;

	if (!s->im.release || !strcmp(s->im.release, "?"))
		return;
	rc = kimage_release(s->im.kernel, &rel, &err);
	if (rc < 0)
		die("kernel: %s", err);
	if (rc > 0 || !strcmp(rel, s->im.release)) {
		free(rel);
		return;
	}
	if (vm_kernel)
		die("%s: kernel %s is release %s, but %s was cut for %s (its modules are %s's): "
		    "cut the image for that kernel, or set VM_KERNEL to a %s kernel",
		    vm_src_str(vm_kernel, where, sizeof(where)), s->im.kernel, rel, s->image,
		    s->im.release, s->im.release, s->im.release);
	die("kernel %s recorded in %s is now release %s, but the image was cut for %s (the "
	    "kernel was rebuilt since): cut it again", s->im.kernel, s->image, rel, s->im.release);
}
