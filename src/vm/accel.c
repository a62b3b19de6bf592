// SPDX-License-Identifier: GPL-2.0
/*
 * accel.c: is KVM usable? /dev/kvm can open and create a VM and yet a real
 * kernel stalls right after its real-mode setup (nested virtualisation that
 * hangs). The cheap checks live here; the real proof is console output from
 * the guest within KVM_PROBE_SECS, watched by watch.c; launch.c records a hang
 * here so later runs on the same host boot go straight to TCG.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "vm.h"

int vm_kvm_usable(const char **why)
{
	int fd, vmfd, v;

	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		int err = -errno;

		*why = errno == ENOENT ? "/dev/kvm does not exist" :
		       errno == EACCES ? "no permission to open /dev/kvm (join the kvm group)" :
		       "cannot open /dev/kvm";
		return err;
	}
	v = ioctl(fd, KVM_GET_API_VERSION, 0);
	if (v != KVM_API_VERSION) {
		close(fd);
		*why = "/dev/kvm has an unexpected API version";
		return -ENOTSUP;
	}
	vmfd = ioctl(fd, KVM_CREATE_VM, 0);
	if (vmfd < 0) {
		int err = -errno;

		close(fd);
		*why = "KVM_CREATE_VM failed";
		return err;
	}
	close(vmfd);
	close(fd);
	return 0;
}

static char *boot_id(void)
{
	char *id;
	size_t len;

	if (read_file("/proc/sys/kernel/random/boot_id", &id, &len))
		return xstrdup("unknown");
	while (len && id[len - 1] == '\n')
		id[--len] = '\0';
	return id;
}

void vm_kvm_mark_broken(const char *state_dir)
{
	char *path = xasprintf("%s/kvm-unusable", state_dir);
	char *id = boot_id();
	char *text = xasprintf("%s\n", id);
	int rc = write_file_atomic(path, text, strlen(text), 0644);

	if (rc)
		warn_err(rc, "%s", path);
	free(path);
	free(id);
	free(text);
}

int vm_kvm_known_broken(const char *state_dir)
{
	char *path = xasprintf("%s/kvm-unusable", state_dir);
	char *id = boot_id(), *text;
	int broken = 0;

	if (read_file(path, &text, NULL) == 0) {
		broken = !strncmp(text, id, strlen(id));
		free(text);
	}
	free(path);
	free(id);
	return broken;
}

enum vm_accel vm_accel_choose(const struct vm_settings *s)
{
	const char *why;
	int rc;

	if (s->accel != ACCEL_AUTO)
		return s->accel;
	/* KVM runs the host's architecture only: a foreign guest is emulated */
	if (arch_foreign(s->im.arch))
		return ACCEL_TCG;
	rc = vm_kvm_usable(&why);
	if (rc) {
		if (rc != -ENOENT)
			warn("KVM: %s: %s; using TCG", why, strerror(-rc));
		return ACCEL_TCG;
	}
	if (vm_kvm_known_broken(s->state_dir)) {
		warn("KVM failed earlier on this host boot (%s/kvm-unusable); using TCG", s->state_dir);
		return ACCEL_TCG;
	}
	return ACCEL_KVM;
}
