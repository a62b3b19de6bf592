// SPDX-License-Identifier: GPL-2.0
/*
 * pvh.c: boot an x86 kernel at its PVH entry. A bzImage carries the
 * kernel's own ELF compressed; booted as it is, its decompressor runs in
 * the guest first, and under TCG that is most of a boot (Debian's
 * xz-compressed 6.1: 3 to 4 s of about 6 before /init). qemu boots that
 * ELF directly at the 32-bit entry its Xen note names (CONFIG_PVH), so the
 * ELF is unpacked once on the host (xz, zstd, ... as the payload says:
 * kimage.c), checked (pvhelf.c) and kept in CUT_CACHE_DIR/kernels/KEY.elf,
 * KEY from the bzImage's path and stat (device, inode, size, mtime, ctime):
 * a rebuilt or replaced kernel gets a new one. A kernel without a PVH entry
 * gets an empty KEY.none, so that it is not unpacked again on every boot.
 * The kernels/ directory keeps the PVH_KEEP most recently booted ELFs.
 *
 * This only makes a boot faster: whatever fails (no cache, no xz, a full
 * disk) is warned about and the bzImage boots as before.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "hash.h"
#include "io.h"
#include "kimage.h"
#include "pvhelf.h"
#include "run.h"
#include "tree.h"
#include "vm.h"

/* the unpacked ELFs kept (Debian's 6.1: 63 MiB each) */
#define PVH_KEEP 4
/* a bzImage larger than this is no kernel we know */
#define PVH_MAX_IMAGE (512u << 20)
/* xz unpacks Debian's kernel in under a second; a slow disk may take more */
#define PVH_UNPACK_SECS 300

/* the cache file's name for this kernel file as it is now: KEY.elf or KEY.none */
static char *pvh_key(const char *path, const struct stat *st)
{
	struct sha256 h;
	char hex[65], *id;

	id = xasprintf("pvh1 %s %llu %llu %lld %lld.%09ld %lld.%09ld", path,
		       (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
		       (long long)st->st_size, (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
		       (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
	sha256_init(&h);
	sha256_update(&h, id, strlen(id));
	sha256_hex(&h, hex);
	free(id);
	hex[32] = '\0';
	return xstrdup(hex);
}

/* Keep the PVH_KEEP newest KEY.elf files (by mtime: a boot touches its own). */
static void pvh_prune(const char *dir)
{
	struct { char *name; struct timespec t; } old[64];
	size_t n = 0;
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) && n < sizeof(old) / sizeof(old[0])) {
		size_t l = strlen(de->d_name);
		struct stat st;

		if (l < 5 || strcmp(de->d_name + l - 4, ".elf") ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		old[n].name = xstrdup(de->d_name);
		old[n++].t = st.st_mtim;
	}
	while (n > PVH_KEEP) {
		size_t o = 0;

		for (size_t i = 1; i < n; i++)
			if (old[i].t.tv_sec < old[o].t.tv_sec ||
			    (old[i].t.tv_sec == old[o].t.tv_sec && old[i].t.tv_nsec < old[o].t.tv_nsec))
				o = i;
		if (unlinkat(dirfd(d), old[o].name, 0) < 0 && errno != ENOENT)
			warn_errno("%s/%s: removing an old unpacked kernel", dir, old[o].name);
		free(old[o].name);
		old[o] = old[--n];
	}
	for (size_t i = 0; i < n; i++)
		free(old[i].name);
	closedir(d);
}

/*
 * pvh_elf_check on the first size bytes of the file fd (mapped: only the
 * pages of its headers and notes are read); 0, or 1 with *why.
 */
static int pvh_check_fd(int fd, size_t size, size_t *end, const char **why)
{
	void *map;
	int rc;

	if (!size) {
		*why = "empty";
		return 1;
	}
	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		*why = strerror(errno);
		return 1;
	}
	rc = pvh_elf_check(map, size, end, why);
	munmap(map, size);
	return rc;
}

/*
 * A cached ELF checked as when it was written (a few pages of it read):
 * 0 fine, -1 none, 1 damaged (warned; unpacked again).
 */
static int pvh_cached_ok(const char *elf)
{
	const char *why;
	struct stat st;
	size_t end;
	/* not a link planted in the cache: only what pvh_unpack wrote */
	int fd = open_regular(elf, O_NOFOLLOW, &st), rc;

	if (fd == -ENOENT)
		return -1;
	if (fd < 0) {
		warn("%s: %s: unpacking the kernel again", elf, file_strerror(fd, &st));
		return 1;
	}
	rc = pvh_check_fd(fd, (size_t)st.st_size, &end, &why);
	close(fd);
	if (rc)
		warn("cached kernel %s is damaged (%s): unpacking it again", elf, why);
	return rc;
}

/* An empty KEY.none: this kernel boots as a bzImage, without trying again. */
static void pvh_mark_none(const char *none)
{
	int fd = open(none, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);

	if (fd < 0)
		warn_errno("%s", none);
	else
		close(fd);
}

/*
 * Unpack the payload of the bzImage (buf, len) into elf through a
 * temporary in dir; 0 done, 1 no PVH entry (mark none), -1 failed (warned).
 */
static int pvh_unpack(const char *kernel, const unsigned char *buf, size_t len, const char *dir,
		      const char *elf)
{
	const char *why, *const *argv;
	size_t off, plen, size, end;
	enum kimage_comp comp;
	char *tool = NULL, *tmp = NULL;
	int in = -1, out = -1, rc = -1, status, timed_out;
	struct stat st;

	if (kimage_payload(buf, len, &off, &plen, &size, &comp, &why))
		return 1;
	argv = kimage_unpack_argv(comp);
	tool = find_in_path(argv[0]);
	if (!tool) {
		warn("no %s on this machine to unpack kernel %s for its PVH entry (install it: "
		     "apt-get install %s): it boots as a bzImage, its decompressor slow under TCG",
		     argv[0], kernel, !strcmp(argv[0], "xz") ? "xz-utils" : argv[0]);
		return -1;
	}
	in = memfd_create("rapido-kernel-payload", MFD_CLOEXEC);
	if (in < 0 || write_all(in, buf + off, plen) < 0 || lseek(in, 0, SEEK_SET) < 0) {
		warn_errno("memfd for the payload of %s", kernel);
		goto out;
	}
	tmp = xasprintf("%s/.unpack.XXXXXX", dir);
	out = mkostemp(tmp, O_CLOEXEC);
	if (out < 0) {
		warn_errno("%s: unpacking kernel %s", tmp, kernel);
		goto out;
	}
	{
		/* the one find_in_path found (it looks beyond PATH, in /usr/bin and /bin too) */
		const char *run[5] = { tool };

		for (size_t i = 1; argv[i] && i < 4; i++)
			run[i] = argv[i];
		status = run_wait_io((char *const *)run, in, out, -1, PVH_UNPACK_SECS, &timed_out);
	}
	if (status < 0 || timed_out || !WIFEXITED(status) || WEXITSTATUS(status)) {
		warn("%s -dc could not unpack the payload of kernel %s (%s): it boots as a bzImage",
		     argv[0], kernel, status < 0 ? strerror(-status) :
		     timed_out ? "timed out" : "it failed");
		goto out;
	}
	if (fstat(out, &st) < 0) {
		warn_errno("%s", tmp);
		goto out;
	}
	/* the build wrote the uncompressed size after the stream: all of it or nothing */
	if ((size_t)st.st_size != size) {
		warn("kernel %s: its payload unpacked to %lld bytes, its trailer says %zu: it boots "
		     "as a bzImage", kernel, (long long)st.st_size, size);
		goto out;
	}
	if (pvh_check_fd(out, size, &end, &why)) {
		/* a kernel built without CONFIG_PVH is not wrong: it just boots the old way */
		if (strstr(why, "PVH"))
			rc = 1;
		else
			warn("kernel %s: what its payload unpacked to is %s: it boots as a bzImage",
			     kernel, why);
		goto out;
	}
	/* without the relocations the build appends to the ELF */
	if (ftruncate(out, (off_t)end) < 0 || fchmod(out, 0644) < 0 || fsync(out) < 0) {
		warn_errno("%s", tmp);
		goto out;
	}
	if (rename(tmp, elf) < 0) {
		warn_errno("rename %s to %s", tmp, elf);
		goto out;
	}
	free(tmp);
	tmp = NULL;
	rc = 0;
out:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	if (tmp && unlink(tmp) < 0)
		warn_errno("%s", tmp);
	free(tmp);
	free(tool);
	return rc;
}

char *vm_pvh_kernel(const struct vm_settings *s)
{
	const char *kernel = s->im.kernel;
	char *key, *dir, *elf = NULL, *none, *failed = NULL, *buf = NULL;
	struct stat st, st2;
	size_t len;
	int fd, rc;

	if (!s->kernel_pvh || strcmp(s->im.arch->kbuild, "x86") || !s->cache_dir)
		return NULL;
	fd = open_regular(kernel, 0, &st);
	if (fd < 0) {
		warn("kernel %s: %s", kernel, file_strerror(fd, &st));
		return NULL;
	}
	key = pvh_key(kernel, &st);
	dir = xasprintf("%s/kernels", s->cache_dir);
	elf = xasprintf("%s/%s.elf", dir, key);
	none = xasprintf("%s/%s.none", dir, key);
	rc = pvh_cached_ok(elf);
	if (rc == 0) {
		/* the order pvh_prune keeps: a read-only cache only loses that */
		(void)utimensat(AT_FDCWD, elf, NULL, 0);
		goto done;
	}
	if (rc > 0 && unlink(elf) < 0)
		warn_errno("%s", elf);
	if (access(none, F_OK) == 0)
		goto fallback;
	rc = mkdir_p(dir, &failed);
	if (rc) {
		warn("cannot create %s: %s: kernel %s boots as a bzImage", failed ? failed : dir,
		     strerror(-rc), kernel);
		goto fallback;
	}
	if ((unsigned long long)st.st_size > PVH_MAX_IMAGE)
		goto fallback;
	len = (size_t)st.st_size;
	buf = xmalloc(len ? len : 1);
	if (pread_full(fd, buf, len, 0) != (ssize_t)len) {
		warn_errno("kernel %s: read", kernel);
		goto fallback;
	}
	/* rewritten meanwhile (a kernel build installing it): the key would be wrong */
	if (fstat(fd, &st2) < 0 || st2.st_size != st.st_size ||
	    st2.st_mtim.tv_sec != st.st_mtim.tv_sec || st2.st_mtim.tv_nsec != st.st_mtim.tv_nsec ||
	    st2.st_ctim.tv_sec != st.st_ctim.tv_sec || st2.st_ctim.tv_nsec != st.st_ctim.tv_nsec)
		goto fallback;
	rc = pvh_unpack(kernel, (const unsigned char *)buf, len, dir, elf);
	if (rc == 1)
		pvh_mark_none(none);
	if (rc)
		goto fallback;
	pvh_prune(dir);
	goto done;
fallback:
	free(elf);
	elf = NULL;
done:
	close(fd);
	free(buf);
	free(failed);
	free(none);
	free(dir);
	free(key);
	return elf;
}
