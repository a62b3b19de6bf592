// SPDX-License-Identifier: GPL-2.0
/* image.c: read what ./cut recorded at the front of an image (rapido/vm.conf). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "confget.h"
#include "cpio.h"
#include "err.h"
#include "io.h"
#include "num.h"
#include "pct.h"
#include "profile.h"
#include "rapido.h"
#include "size.h"
#include "vm.h"

int vm_image_read(const char *path, struct vm_image *im, char **err)
{
	struct conf c = { 0 };
	const char *v;
	char *text, *perr, why[NUM_WHY_LEN];
	struct stat st;
	int fd, rc;

	memset(im, 0, sizeof(*im));
	*err = NULL;
	/* a FIFO must not block ./vm: only a regular file is an image */
	fd = open_regular(path, 0, &st);
	if (fd < 0) {
		*err = xasprintf("%s: %s%s%s%s", path, file_strerror(fd, &st),
				 fd == -ENOENT ? " (run " : "", fd == -ENOENT ? rapido_cmd_prefix() : "",
				 fd == -ENOENT ? "cut PROFILE first)" : "");
		return fd;
	}
	rc = cpio_find(fd, "rapido/vm.conf", 8, &text, NULL);
	close(fd);
	if (rc) {
		*err = xasprintf("%s: not an image made by ./cut (no rapido/vm.conf at its start)", path);
		return rc == -ENOENT ? -EINVAL : rc;
	}
	rc = conf_parse(&c, "rapido/vm.conf", text, &perr);
	free(text);
	if (rc) {
		*err = xasprintf("%s: %s", path, perr);
		free(perr);
		conf_free(&c);
		return rc;
	}
	im->path = xstrdup(path);
	v = conf_value(&c, "PROFILE", NULL);
	/* it names the default results dir: never a path of its own */
	if (v && !profile_name_valid(v)) {
		char *shown = pct_field(v);

		*err = xasprintf("%s: rapido/vm.conf: PROFILE=%s: not a profile name (expected "
				 "letters, digits, '_' and '-')", path, shown);
		free(shown);
		conf_free(&c);
		vm_image_free(im);
		return -EINVAL;
	}
	im->profile = xstrdup(v ? v : "?");
	/* an image from before ARCH was recorded is the host's */
	v = conf_value(&c, "ARCH", NULL);
	im->arch = v ? arch_find(v) : arch_host();
	if (!im->arch) {
		*err = xasprintf("%s: rapido/vm.conf: ARCH=%s: unknown architecture (known: %s; "
				 "cut by a newer rapido?)", path, v, arch_names());
		conf_free(&c);
		vm_image_free(im);
		return -EINVAL;
	}
	v = conf_value(&c, "KERNEL_IMAGE", NULL);
	im->kernel = v ? xstrdup(v) : NULL;
	v = conf_value(&c, "KERNEL_RELEASE", NULL);
	im->release = xstrdup(v ? v : "?");
	v = conf_value(&c, "CPUS", NULL);
	if (v && num_parse_uint(v, 1, 1024, &im->cpus, why)) {
		*err = xasprintf("%s: rapido/vm.conf: CPUS: %s", path, why);
		conf_free(&c);
		vm_image_free(im);
		return -EINVAL;
	}
	v = conf_value(&c, "TEST_TIMEOUT", NULL);
	if (v && num_parse_uint(v, 1, PROFILE_TEST_TIMEOUT_MAX, &im->test_timeout, why)) {
		*err = xasprintf("%s: rapido/vm.conf: TEST_TIMEOUT: %s", path, why);
		conf_free(&c);
		vm_image_free(im);
		return -EINVAL;
	}
	v = conf_value(&c, "RESULTS", NULL);
	if (v && strcmp(v, "yes")) {
		*err = xasprintf("%s: rapido/vm.conf: RESULTS: expected yes, got \"%s\"", path, v);
		conf_free(&c);
		vm_image_free(im);
		return -EINVAL;
	}
	im->results = v != NULL;
	/* #@ virtiofs: a profile has one share of its own (profile.c refuses a second) */
	v = conf_value(&c, "VIRTIOFS", NULL);
	im->virtiofs = v ? xstrdup(v) : NULL;
	v = conf_value(&c, "MEMORY", NULL);
	if (v && parse_size(v, &im->memory))
		im->memory = 0;
	conf_free(&c);
	if (!im->kernel) {
		*err = xasprintf("%s: rapido/vm.conf names no KERNEL_IMAGE", path);
		vm_image_free(im);
		return -EINVAL;
	}
	return 0;
}

void vm_image_free(struct vm_image *im)
{
	free(im->path);
	free(im->profile);
	free(im->kernel);
	free(im->release);
	free(im->virtiofs);
	memset(im, 0, sizeof(*im));
}
