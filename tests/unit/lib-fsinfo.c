// SPDX-License-Identifier: GPL-2.0
/* lib-fsinfo.c: the file system under a path: longest mount point, escapes, stacking. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsinfo.h"
#include "io.h"
#include "tap.h"

static char dir[] = "/tmp/rapido-fsinfo-XXXXXX";

/* Is / a mount point in this process's mountinfo (field 5: the mount point)? */
static int root_mounted(void)
{
	char *text, *line;
	int found = 0;

	if (read_file("/proc/self/mountinfo", &text, NULL))
		return 0;
	for (line = text; line && *line && !found; line = strchr(line, '\n'), line += !!line) {
		const char *f = line;

		for (int i = 0; i < 4 && f; i++) {
			f = strchr(f, ' ');
			f += !!f;
		}
		found = f && !strncmp(f, "/ ", 2);
	}
	free(text);
	return found;
}

int main(void)
{
	struct fs_info fi;
	char *mi, *p, *text, *s;
	int rc;

	tap_plan(12);
	if (!mkdtemp(dir))
		return 1;
	if (asprintf(&p, "%s/a b/c", dir) < 0)
		return 1;
	*strrchr(p, '/') = '\0';
	mkdir(p, 0755);
	*strchr(p, '\0') = '/';
	mkdir(p, 0755);
	if (asprintf(&mi, "%s/mountinfo", dir) < 0)
		return 1;
	/* dev numbers no path here has: the longest mount point decides */
	if (asprintf(&text,
		     "1 0 250:1 / / rw - ext4 /dev/sda1 rw\n"
		     "2 1 250:2 / /tmp rw shared:3 - tmpfs tmpfs rw\n"
		     "3 2 250:3 / %s/a rw - xfs /dev/not-a-prefix rw\n"
		     "4 2 250:4 / %s/a\\040b rw shared:5 master:1 - ext4 /dev/with\\040space rw\n"
		     "5 2 250:5 / %s/ab rw - xfs /dev/ab rw\n"
		     "garbage line\n",
		     dir, dir, dir) < 0)
		return 1;
	write_file_atomic(mi, text, strlen(text), 0644);

	rc = fs_info_get_from(p, mi, &fi);
	tap_ok(rc == 0, "a path below an escaped mount point (%d)", rc);
	if (asprintf(&s, "%s/a b", dir) < 0)
		return 1;
	TAP_EQ_STR(fi.mount_point, s, "  the mount point, unescaped");
	TAP_EQ_STR(fi.source, "/dev/with space", "  its source, unescaped");
	TAP_EQ_STR(fi.fstype, "ext4", "  its type, after the optional fields");
	fs_info_free(&fi);
	free(s);

	rc = fs_info_get_from(dir, mi, &fi);
	TAP_EQ_STR(rc ? NULL : fi.mount_point, "/tmp", "the directory itself: /tmp (mounts below it do not count)");
	fs_info_free(&fi);

	/* a mount stacked on /tmp: the later line is what the path sees */
	free(text);
	if (asprintf(&text, "1 0 250:1 / / rw - ext4 /dev/sda1 rw\n"
		     "2 1 250:2 / /tmp rw - tmpfs tmpfs rw\n"
		     "6 2 250:6 / /tmp rw - btrfs /dev/top rw\n") < 0)
		return 1;
	write_file_atomic(mi, text, strlen(text), 0644);
	rc = fs_info_get_from(dir, mi, &fi);
	TAP_EQ_STR(rc ? NULL : fi.fstype, "btrfs", "stacked mounts: the latest wins");
	fs_info_free(&fi);

	rc = fs_info_get_from("/nonexistent/rapido", mi, &fi);
	TAP_EQ_INT(rc, -2, "a missing path: -ENOENT");

	/* the real mount table */
	rc = fs_info_get("/proc/self", &fi);
	TAP_EQ_STR(rc ? NULL : fi.fstype, "proc", "/proc/self is on proc");
	TAP_EQ_STR(rc ? NULL : fi.mount_point, "/proc", "  mounted at /proc");
	fs_info_free(&fi);
	s = fs_describe("/proc/self");
	tap_ok(!strncmp(s, "proc (mounted at /proc, ", strlen("proc (mounted at /proc, ")) && strstr(s, " bytes free)"),
	       "describe: type, mount point, free bytes: %s", s);
	free(s);
	s = fs_describe("/nonexistent/rapido");
	tap_ok(strstr(s, "/nonexistent/rapido") && strstr(s, "No such file"),
	       "describe a missing path: says why: %s", s);
	free(s);
	/*
	 * / itself: in a chroot the mount holding it is outside the root,
	 * and the kernel leaves it out of mountinfo (#45: this failed there)
	 */
	if (root_mounted()) {
		rc = fs_info_get("/", &fi);
		tap_ok(rc == 0 && fi.bytes_free > 0, "/ has free bytes (%llu)",
		       (unsigned long long)fi.bytes_free);
		fs_info_free(&fi);
	} else {
		tap_skip("/ is no mount point here (a chroot)", "/ has free bytes");
	}

	unlink(mi);
	rmdir(p);
	*strrchr(p, '/') = '\0';
	rmdir(p);
	rmdir(dir);
	free(p);
	free(mi);
	free(text);
	return tap_done();
}
