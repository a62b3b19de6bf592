// SPDX-License-Identifier: GPL-2.0
/*
 * vm-image.c: vm_image_read() on images written here with the cpio writer
 * (what ./vm reads of them is rapido/vm.conf at the archive's start): the
 * recorded kernel, profile, CPUs and memory, and each way a file is not a
 * usable image, named by its path.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpio.h"
#include "err.h"
#include "io.h"
#include "tap.h"
#include "vm.h"

static char dir[] = "/tmp/rapido-image-XXXXXX";
static char *image;

/* An image as ./cut lays it out: rapido/ first, vm.conf after `before` other files. */
static void make_image(const char *vmconf, int before)
{
	struct cpio_writer w;
	int fd = open(image, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		exit(1);
	cpio_init(&w, fd);
	cpio_add_dir(&w, "rapido", 0755);
	for (int i = 0; i < before; i++) {
		char name[32];

		snprintf(name, sizeof(name), "rapido/f%d", i);
		cpio_add_file(&w, name, 0644, "x\n", 2);
	}
	if (vmconf)
		cpio_add_file(&w, "rapido/vm.conf", 0644, vmconf, strlen(vmconf));
	cpio_add_file(&w, "init", 0755, "#!/bin/sh\n", 10);
	if (cpio_finish(&w) || close(fd))
		exit(1);
}

/* vm_image_read() must fail with want_rc and "IMAGE: want_msg". */
static void bad(int want_rc, const char *want_msg, const char *name)
{
	struct vm_image im;
	char *err, *want = xasprintf("%s: %s", image, want_msg);
	int rc = vm_image_read(image, &im, &err);

	TAP_EQ_INT(rc, want_rc, "%s: refused", name);
	TAP_EQ_STR(err, want, "  %s: the message", name);
	tap_ok(!im.path && !im.kernel && !im.profile, "  %s: nothing left in the result", name);
	free(err);
	free(want);
	vm_image_free(&im);
}

int main(void)
{
	struct vm_image im;
	char *err;
	int rc;

	tap_plan(43);
	if (!mkdtemp(dir))
		return 1;
	image = xasprintf("%s/image", dir);

	make_image("PROFILE=fstests_local\nKERNEL_IMAGE='/boot/vmlinuz-6.1.0-10'\n"
		   "KERNEL_RELEASE=6.1.0-10\nCPUS=4\nMEMORY=1536M\n", 0);
	rc = vm_image_read(image, &im, &err);
	TAP_EQ_INT(rc, 0, "a good image");
	TAP_EQ_STR(err, NULL, "  no error");
	TAP_EQ_STR(im.path, image, "  its path");
	TAP_EQ_STR(im.profile, "fstests_local", "  the profile");
	TAP_EQ_STR(im.kernel, "/boot/vmlinuz-6.1.0-10", "  the kernel (quotes removed)");
	TAP_EQ_STR(im.release, "6.1.0-10", "  the release");
	TAP_EQ_INT(im.cpus, 4, "  CPUs");
	tap_ok(im.memory == 1536ULL << 20, "  memory in bytes");
	vm_image_free(&im);
	TAP_EQ_STR(im.kernel, NULL, "vm_image_free clears it");

	/* only the kernel: the rest is "not stated" */
	make_image("KERNEL_IMAGE=/k\n", 3);
	rc = vm_image_read(image, &im, &err);
	TAP_EQ_INT(rc, 0, "an image with only KERNEL_IMAGE, after three other files");
	TAP_EQ_STR(im.kernel, "/k", "  its kernel");
	TAP_EQ_STR(im.profile, "?", "  profile unknown");
	TAP_EQ_STR(im.release, "?", "  release unknown");
	TAP_EQ_INT(im.cpus, 0, "  CPUs not stated");
	TAP_EQ_INT(im.memory, 0, "  memory not stated");
	vm_image_free(&im);

	make_image("KERNEL_IMAGE=/k\nMEMORY=lots\n", 0);
	rc = vm_image_read(image, &im, &err);
	TAP_EQ_INT(rc, 0, "a MEMORY that is not a size is not the image's fault");
	TAP_EQ_INT(im.memory, 0, "  it counts as not stated (the default applies)");
	vm_image_free(&im);

	make_image(NULL, 2);
	bad(-EINVAL, "not an image made by ./cut (no rapido/vm.conf at its start)", "no rapido/vm.conf");
	/* a huge image is never read whole: vm.conf must be among the first entries */
	make_image("KERNEL_IMAGE=/k\n", 10);
	bad(-EINVAL, "not an image made by ./cut (no rapido/vm.conf at its start)",
	    "rapido/vm.conf only after ten other files");
	make_image("PROFILE=simple\nCPUS=2\n", 0);
	bad(-EINVAL, "rapido/vm.conf names no KERNEL_IMAGE", "no KERNEL_IMAGE");
	make_image("KERNEL_IMAGE=/k\nCPUS=0\n", 0);
	bad(-EINVAL, "rapido/vm.conf: CPUS: expected a number from 1 to 1024, got '0'", "CPUS=0");
	make_image("KERNEL_IMAGE=/k\nCPUS=1025\n", 0);
	bad(-EINVAL, "rapido/vm.conf: CPUS: expected a number from 1 to 1024, got '1025'", "CPUS=1025");
	make_image("KERNEL_IMAGE=/k\nCPUS=two\n", 0);
	bad(-EINVAL, "rapido/vm.conf: CPUS: expected a number from 1 to 1024, got 'two'", "CPUS=two");
	make_image("KERNEL_IMAGE=/k\nCPUS=$(nproc)\n", 0);
	rc = vm_image_read(image, &im, &err);
	TAP_EQ_INT(rc, -EINVAL, "vm.conf with shell code is refused");
	tap_ok(err && !strncmp(err, image, strlen(image)) &&
	       strstr(err, ": rapido/vm.conf:2: command substitution"),
	       "  the message names the image, vm.conf's line and the reason (%s)", err);
	free(err);
	vm_image_free(&im);

	if (write_file_atomic(image, "not a cpio\n", 11, 0644))
		return 1;
	bad(-EINVAL, "not an image made by ./cut (no rapido/vm.conf at its start)", "not a cpio at all");
	unlink(image);
	bad(-ENOENT, "No such file or directory (run ./cut PROFILE first)", "no image file");

	tap_rm_tree(dir);
	free(image);
	return tap_done();
}
