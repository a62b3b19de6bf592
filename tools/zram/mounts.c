// SPDX-License-Identifier: GPL-2.0
/* mounts.c: find where a zram device is mounted, swapped on or stacked under. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "zram.h"

/* Undo the \ooo escapes the kernel puts in mountinfo and swaps for " \t\n\\". */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/*
 * A mountinfo line (proc(5)):
 *   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw
 *   id parent maj:min root mountpoint options [optional...] - fstype source super
 * The device is matched by maj:min (from /sys/block/zramN/dev), which holds
 * whatever node name was used to mount it, or else by source.
 */
void zram_mounts_parse(const char *mountinfo, const char *majmin, const char *devpath,
		       struct strv *out)
{
	char *text = xstrdup(mountinfo), *line, *save_line = NULL;

	for (line = strtok_r(text, "\n", &save_line); line;
	     line = strtok_r(NULL, "\n", &save_line)) {
		char *f[6], *tok, *save = NULL, *source = NULL;
		int n = 0, dash = 0;

		for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			if (n < 6) {
				f[n++] = tok;
			} else if (!dash) {
				dash = !strcmp(tok, "-");
			} else if (dash == 1) {
				dash++;		/* fstype */
			} else if (dash == 2) {
				source = tok;
				break;
			}
		}
		if (n < 6)
			continue;
		if (source)
			unescape(source);
		if ((majmin && !strcmp(f[2], majmin)) || (source && !strcmp(source, devpath))) {
			unescape(f[4]);
			strv_push(out, f[4]);
		}
	}
	free(text);
}

/*
 * /proc/swaps: a header line, then "Filename Type Size Used Priority" with
 * the filename escaped as in mountinfo.
 */
int zram_swaps_parse(const char *swaps, const char *devpath)
{
	char *text = xstrdup(swaps), *line, *save = NULL;
	int found = 0, first = 1;

	for (line = strtok_r(text, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp = strpbrk(line, " \t");

		if (first) {
			first = 0;
			continue;
		}
		if (sp)
			*sp = '\0';
		unescape(line);
		found = !strcmp(line, devpath);
	}
	free(text);
	return found;
}

int zram_mounts(struct zram_ctx *z, const struct zram_dev *d, int missing_ok,
		struct strv *out)
{
	char *devfile = zram_attr(d, "dev");
	char *node = xasprintf("/dev/%s", d->name);
	char *majmin = NULL, *info = NULL;
	int rc;

	/* No dev attribute (a test tree may leave it out): match by source alone. */
	if (zram_read(z, devfile, &majmin) < 0)
		majmin = NULL;
	rc = zram_read(z, "/proc/self/mountinfo", &info);
	if (rc == -ENOENT && missing_ok) {
		rc = 0;
	} else if (rc < 0) {
		if (rc == -ENOENT)
			zram_seterr(z, "%s (is /proc mounted?)", z->msg);
	} else {
		zram_mounts_parse(info, majmin, node, out);
	}
	free(info);
	free(majmin);
	free(node);
	free(devfile);
	return rc;
}

int zram_is_swap(struct zram_ctx *z, const struct zram_dev *d)
{
	char *node = xasprintf("/dev/%s", d->name);
	char *swaps = NULL;
	int rc;

	/* No /proc/swaps: a kernel without CONFIG_SWAP, so nothing swaps on it. */
	rc = zram_read(z, "/proc/swaps", &swaps);
	if (rc == -ENOENT)
		rc = 0;
	else if (rc == 0)
		rc = zram_swaps_parse(swaps, node);
	free(swaps);
	free(node);
	return rc;
}

int zram_holders(struct zram_ctx *z, const struct zram_dev *d, struct strv *out)
{
	char *path = zram_attr(d, "holders");
	char *real = zram_path(z, path);
	struct dirent *de;
	DIR *dir;
	int rc = 0;

	dir = opendir(real);
	if (!dir) {
		/* A test tree may have no holders/; a real disk always has one. */
		if (errno != ENOENT) {
			rc = -errno;
			zram_seterr(z, "opendir %s: %s", real, strerror(errno));
		}
		goto out;
	}
	while ((errno = 0, de = readdir(dir))) {
		if (de->d_name[0] != '.')
			strv_push(out, de->d_name);
	}
	if (errno) {
		rc = -errno;
		zram_seterr(z, "readdir %s: %s", real, strerror(errno));
	}
	closedir(dir);
out:
	free(real);
	free(path);
	return rc;
}
