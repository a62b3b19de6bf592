// SPDX-License-Identifier: GPL-2.0
/* fsinfo.c: name the file system under a path, for "no space left" messages. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>

#include "err.h"
#include "fsinfo.h"
#include "io.h"

/* mountinfo escapes blanks, tabs, newlines and backslashes as \ooo */
static char *unescape(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *o = out;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
			*o++ = (char)((s[i + 1] - '0') << 6 | (s[i + 2] - '0') << 3 | (s[i + 3] - '0'));
			i += 3;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

/* Is mount point M a path prefix of P ("/" of everything, "/a" of "/a/b" not "/ab")? */
static size_t prefix_len(const char *m, const char *p)
{
	size_t n = strlen(m);

	if (!strcmp(m, "/"))
		return 1;
	if (strncmp(m, p, n) || (p[n] != '/' && p[n] != '\0'))
		return 0;
	return n;
}

/* Field I (0-based) of a space-separated line, as [start, start+len). */
static const char *field(const char *line, int i, size_t *len)
{
	const char *s = line;

	for (; i > 0; i--) {
		s = strchr(s, ' ');
		if (!s)
			return NULL;
		s++;
	}
	*len = strcspn(s, " \n");
	return s;
}

/*
 * "36 35 98:0 /root /mnt rw shared:1 - ext4 /dev/sda2 rw": mount point is
 * field 4, then optional fields up to "-", then type and source.
 */
static int parse_line(const char *line, unsigned int *maj, unsigned int *min, char **mnt,
		      char **type, char **src)
{
	const char *dash = strstr(line, " - "), *f;
	size_t n;

	if (!dash || sscanf(line, "%*u %*u %u:%u", maj, min) != 2)
		return -EINVAL;
	f = field(line, 4, &n);
	if (!f || f > dash)
		return -EINVAL;
	*mnt = unescape(f, n);
	f = field(dash + 3, 0, &n);
	*type = unescape(f, n);
	f = field(dash + 3, 1, &n);
	*src = f ? unescape(f, n) : xstrdup("");
	return 0;
}

int fs_info_get_from(const char *path, const char *mountinfo, struct fs_info *fi)
{
	char *real, *text, *line, *next;
	size_t best = 0;
	int best_dev = 0, rc;
	struct statvfs vfs;
	struct stat st;

	memset(fi, 0, sizeof(*fi));
	if (stat(path, &st) < 0 || statvfs(path, &vfs) < 0)
		return -errno;
	real = realpath(path, NULL);
	if (!real)
		return -errno;
	rc = read_file(mountinfo, &text, NULL);
	if (rc) {
		free(real);
		return rc;
	}
	/*
	 * The longest mount point above the path wins, the latest on ties
	 * (a mount stacked on another); one of the path's own device first.
	 */
	for (line = text; line && *line; line = next) {
		unsigned int maj, min;
		char *mnt, *type, *src;
		size_t len;
		int dev;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (parse_line(line, &maj, &min, &mnt, &type, &src))
			continue;
		len = prefix_len(mnt, real);
		dev = maj == major(st.st_dev) && min == minor(st.st_dev);
		if (len && (dev > best_dev || (dev == best_dev && len >= best))) {
			fs_info_free(fi);
			fi->mount_point = mnt;
			fi->fstype = type;
			fi->source = src;
			best = len;
			best_dev = dev;
			continue;
		}
		free(mnt);
		free(type);
		free(src);
	}
	free(text);
	free(real);
	if (!fi->mount_point)
		return -ENOENT;
	fi->bytes_free = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	return 0;
}

int fs_info_get(const char *path, struct fs_info *fi)
{
	return fs_info_get_from(path, "/proc/self/mountinfo", fi);
}

void fs_info_free(struct fs_info *fi)
{
	free(fi->mount_point);
	free(fi->source);
	free(fi->fstype);
	memset(fi, 0, sizeof(*fi));
}

char *fs_describe(const char *path)
{
	struct fs_info fi;
	int rc = fs_info_get(path, &fi);
	char *s;

	if (rc)
		return xasprintf("the file system of %s (%s)", path, strerror(-rc));
	if (!*fi.source || !strcmp(fi.source, fi.fstype) || !strcmp(fi.source, "none"))
		s = xasprintf("%s (mounted at %s, %llu bytes free)", fi.fstype, fi.mount_point,
			      (unsigned long long)fi.bytes_free);
	else
		s = xasprintf("%s %s (mounted at %s, %llu bytes free)", fi.fstype, fi.source,
			      fi.mount_point, (unsigned long long)fi.bytes_free);
	fs_info_free(&fi);
	return s;
}
