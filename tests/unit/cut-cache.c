// SPDX-License-Identifier: GPL-2.0
/*
 * cut-cache.c: ./cut's layer cache (src/cut/cache.c) as two parallel cuts
 * use it. A stored layer is read-only and found again; a second cut that
 * built the same layer meanwhile gets the first's entry (its own copy
 * removed, the first's size and checksum); a store over an entry that was
 * written to records the new layer's size and checksum, not the old
 * record's; no key lock stays held after a lookup or a store; no
 * temporary is left. Hostile entries (issue 33): a FIFO in a layer's or a
 * record's place, a symlink to /dev/zero or a directory as the layer, and
 * an unreadable layer are named with their real cause, never block the
 * lookup (an alarm ends one that does), and a store replaces them.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conf.h"
#include "err.h"
#include "hash.h"
#include "io.h"
#include "layer.h"
#include "tap.h"

static char dir[] = "/tmp/rapido-cut-cache-XXXXXX";
static const char key[] = "1111111111111111111111111111111111111111111111111111111111111111";
static const char key2[] = "2222222222222222222222222222222222222222222222222222222222222222";

/* What a cut does after building a layer: write it in the cache's tmp/, then store it. */
static int build_and_store(struct cut_cache *c, const char *k, const char *bytes,
			   struct cut_layer *ly, char **tmp_out)
{
	struct xxh64 x;
	char *tmp;
	int fd = cut_cache_tmp(c, &tmp);

	memset(ly, 0, sizeof(*ly));
	ly->kind = "bins";
	memcpy(ly->key, k, 65);
	if (fd < 0 || write_all(fd, bytes, strlen(bytes)) || close(fd) < 0)
		return -EIO;
	xxh64_init(&x, 0);
	xxh64_update(&x, bytes, strlen(bytes));
	ly->size = strlen(bytes);
	ly->xxh = xxh64_digest(&x);
	ly->built = 1;
	ly->path = tmp;		/* as build.c hands it over: the store may replace it */
	*tmp_out = xstrdup(tmp);
	return cut_cache_insert(c, ly, tmp);
}

/* Can another open file description take locks/K now? (no cut holds it) */
static int key_free(const char *k)
{
	char *path = xasprintf("%s/cache/locks/%s", dir, k);
	int fd = open(path, O_RDWR | O_CLOEXEC), ok;

	free(path);
	if (fd < 0)
		return errno == ENOENT;
	ok = flock(fd, LOCK_EX | LOCK_NB) == 0;
	close(fd);
	return ok;
}

static char *file_text(const char *path)
{
	char *text;

	return read_file(path, &text, NULL) ? NULL : text;
}

static sigjmp_buf blocked;

static void on_alarm(int sig)
{
	(void)sig;
	siglongjmp(blocked, 1);
}

/* cut_cache_lookup(k) with what it says on stderr in *msg; -1 if it blocked for 20s */
static int lookup_said(struct cut_cache *c, const char *k, char **msg)
{
	char *log = xasprintf("%s/stderr", dir);
	int fd = open(log, O_RDWR | O_CREAT | O_TRUNC, 0644), saved = dup(2), hit;
	static struct cut_layer ly;

	memset(&ly, 0, sizeof(ly));
	ly.kind = "bins";
	memcpy(ly.key, k, 65);
	fflush(stderr);
	dup2(fd, 2);
	if (sigsetjmp(blocked, 1)) {
		hit = -1;
	} else {
		alarm(20);
		hit = cut_cache_lookup(c, &ly);
		alarm(0);
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	*msg = file_text(log);
	if (!*msg)
		*msg = xstrdup("");
	(*msg)[strcspn(*msg, "\n")] = '\0';	/* one line, for TAP */
	unlink(log);
	free(log);
	ly.kind = NULL;
	cut_layer_free(&ly);
	return hit;
}

/* A store of k over whatever is there leaves a regular layer that a lookup finds. */
static int store_replaces(struct cut_cache *c, const char *k)
{
	struct cut_layer ly;
	char *tmp, *final = xasprintf("%s/cache/layers/%s.cpio", dir, k), *msg;
	struct stat st;
	int ok;

	memset(&ly, 0, sizeof(ly));
	tmp = NULL;
	if (sigsetjmp(blocked, 1)) {
		ok = 0;
	} else {
		alarm(20);
		ok = build_and_store(c, k, "the layer again", &ly, &tmp) == 0;
		alarm(0);
	}
	ok = ok && lstat(final, &st) == 0 && S_ISREG(st.st_mode);

	ly.kind = NULL;
	cut_layer_free(&ly);
	free(tmp);
	free(final);
	ok = ok && lookup_said(c, k, &msg) == 1;
	free(msg);
	return ok;
}

/* Case n's own key (a lookup that blocked keeps its key locked: no other case waits on it). */
static char *case_key(int n, char **layer, char **meta)
{
	char *k = xmalloc(65);

	memset(k, '3' + n, 64);
	k[64] = '\0';
	*layer = xasprintf("%s/cache/layers/%s.cpio", dir, k);
	*meta = xasprintf("%s/cache/layers/%s.meta", dir, k);
	return k;
}

static void case_free(char *k, char *layer, char *meta)
{
	free(k);
	free(layer);
	free(meta);
}

static void hostile_entries(struct cut_cache *c)
{
	char *k, *layer, *meta, *msg, *inner;
	int hit;

	signal(SIGALRM, on_alarm);

	k = case_key(0, &layer, &meta);
	tap_ok(store_replaces(c, k), "an entry to spoil");
	unlink(layer);
	mkfifo(layer, 0644);
	hit = lookup_said(c, k, &msg);
	tap_ok(hit == 0, "a FIFO as the layer: a miss, without blocking (%d)", hit);
	tap_ok(strstr(msg, layer) && strstr(msg, "not a regular file but a FIFO"), "  named: %s", msg);
	free(msg);
	tap_ok(store_replaces(c, k), "  and a store replaces it");
	case_free(k, layer, meta);

	k = case_key(1, &layer, &meta);
	store_replaces(c, k);
	unlink(meta);
	mkfifo(meta, 0644);
	hit = lookup_said(c, k, &msg);
	tap_ok(hit == 0, "a FIFO as the record: a miss, without blocking (%d)", hit);
	tap_ok(strstr(msg, meta) && strstr(msg, "not a regular file but a FIFO"), "  named: %s", msg);
	free(msg);
	tap_ok(store_replaces(c, k), "  and a store replaces it");
	case_free(k, layer, meta);

	k = case_key(2, &layer, &meta);
	store_replaces(c, k);
	unlink(layer);
	symlink("/dev/zero", layer);
	hit = lookup_said(c, k, &msg);
	tap_ok(hit == 0, "a symlink to /dev/zero as the layer: a miss, not read (%d)", hit);
	tap_ok(strstr(msg, "not a regular file but a symbolic link"), "  named: %s", msg);
	free(msg);
	tap_ok(store_replaces(c, k), "  and a store replaces it");
	case_free(k, layer, meta);

	k = case_key(3, &layer, &meta);
	store_replaces(c, k);
	unlink(layer);
	mkdir(layer, 0755);
	inner = xasprintf("%s/x", layer);
	write_file_atomic(inner, "x", 1, 0644);
	hit = lookup_said(c, k, &msg);
	tap_ok(hit == 0 && strstr(msg, "not a regular file but a directory") && !strstr(msg, "checksum"),
	       "a directory as the layer: named as one, no checksum blamed: %s", msg);
	free(msg);
	tap_ok(store_replaces(c, k), "  and a store replaces it");
	unlink(layer);
	unlink(meta);
	mkdir(layer, 0755);
	write_file_atomic(inner, "x", 1, 0644);
	tap_ok(store_replaces(c, k), "a directory as the layer, without a record: a store replaces it");
	free(inner);
	case_free(k, layer, meta);

	/* unreadable: as nobody when root, since root reads anything */
	k = case_key(4, &layer, &meta);
	store_replaces(c, k);
	{
		int pfd[2], wst = 0;
		char buf[4096] = "";
		pid_t pid;

		if (chmod(dir, 0755) < 0 || pipe(pfd) < 0)
			return;
		pid = fork();
		if (pid == 0) {
			execlp("chmod", "chmod", "-R", "a+rwX", dir, (char *)NULL);
			_exit(127);
		}
		waitpid(pid, NULL, 0);
		chmod(layer, geteuid() == 0 ? 0400 : 0);
		pid = fork();
		if (pid == 0) {
			close(pfd[0]);
			if (geteuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
				_exit(3);
			hit = lookup_said(c, k, &msg);
			if (write(pfd[1], msg, strlen(msg)) < 0)
				_exit(4);
			_exit(hit == 0 ? 0 : 1);
		}
		close(pfd[1]);
		if (read(pfd[0], buf, sizeof(buf) - 1) < 0)
			buf[0] = '\0';
		close(pfd[0]);
		waitpid(pid, &wst, 0);
		tap_ok(WIFEXITED(wst) && WEXITSTATUS(wst) == 0, "an unreadable layer: a miss (status %d)",
		       WIFEXITED(wst) ? WEXITSTATUS(wst) : -1);
		tap_ok(strstr(buf, layer) && strstr(buf, "Permission denied") && !strstr(buf, "checksum"),
		       "  the file and the cause named, no checksum blamed: %s", buf);
		chmod(layer, 0444);
	}
	case_free(k, layer, meta);
}

int main(void)
{
	struct cut_cache c;
	struct cut_layer a, b, look, d, e;
	struct conf conf = { 0 };
	char *cache, *tmp_a, *tmp_b, *tmp_d, *tmp_e, *final, *text, *tmpdir;
	struct stat st;
	uint64_t xxh_a;

	err_prog = "cut";
	tap_plan(37);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	cache = xasprintf("%s/cache", dir);
	conf_set(&conf, "CUT_CACHE_DIR", cache);
	cut_cache_open(&c, &conf, 0);
	TAP_EQ_STR(c.dir, cache, "the cache opens in CUT_CACHE_DIR");

	/* 1. the first cut stores its layer */
	TAP_EQ_INT(build_and_store(&c, key, "layer of cut A", &a, &tmp_a), 0, "cut A stores its layer");
	final = xasprintf("%s/layers/%s.cpio", cache, key);
	TAP_EQ_STR(a.path, final, "  under layers/KEY.cpio");
	tap_ok(a.cached, "  and uses the cache's file");
	if (stat(final, &st) < 0)
		st.st_mode = 0;
	tap_ok((st.st_mode & 07777) == 0444, "  read-only (mode %o)", (unsigned int)(st.st_mode & 07777));
	tap_ok(access(tmp_a, F_OK) < 0, "  its temporary renamed away");
	tap_ok(key_free(key), "  the key's lock is free again");
	xxh_a = a.xxh;

	/* 2. found again */
	memset(&look, 0, sizeof(look));
	look.kind = "bins";
	memcpy(look.key, key, 65);
	tap_ok(cut_cache_lookup(&c, &look) == 1, "a lookup finds it");
	tap_ok(look.size == a.size && look.xxh == xxh_a, "  with its size and checksum");
	tap_ok(key_free(key), "  and leaves the key's lock free");

	cut_layer_free(&look);

	/* 3. a parallel cut built the same layer and stores it second */
	TAP_EQ_INT(build_and_store(&c, key, "layer of cut B, longer", &b, &tmp_b), 0,
		   "cut B, which built the same layer meanwhile, stores it too");
	TAP_EQ_STR(b.path, final, "  and gets A's entry");
	tap_ok(b.cached && b.size == a.size && b.xxh == xxh_a, "  with A's size and checksum");
	tap_ok(access(tmp_b, F_OK) < 0, "  its own copy removed");
	text = file_text(final);
	TAP_EQ_STR(text, "layer of cut A", "  A's bytes stay in the cache");
	free(text);

	/* 4. an entry written to behind the cache's back, then a new build stored over it */
	TAP_EQ_INT(build_and_store(&c, key2, "old layer", &d, &tmp_d), 0, "another entry stored");
	{
		char *p2 = xasprintf("%s/layers/%s.cpio", cache, key2);
		int fd;

		/* same size, other bytes, in place */
		tap_ok(!chmod(p2, 0644) && (fd = open(p2, O_WRONLY | O_CLOEXEC)) >= 0 &&
		       !write_all(fd, "OLD LAYER", 9) && !close(fd), "  and then written to");
		free(p2);
	}
	TAP_EQ_INT(build_and_store(&c, key2, "the rebuilt layer", &e, &tmp_e), 0,
		   "a rebuild stored over an entry that was written to");
	tap_ok(e.size == strlen("the rebuilt layer"), "  records the new layer's size (%llu)",
	       (unsigned long long)e.size);
	memset(&look, 0, sizeof(look));
	look.kind = "bins";
	memcpy(look.key, key2, 65);
	tap_ok(cut_cache_lookup(&c, &look) == 1 && look.size == e.size && look.xxh == e.xxh,
	       "  and a lookup finds the new one");
	text = file_text(look.path);
	TAP_EQ_STR(text, "the rebuilt layer", "  with its bytes");
	free(text);

	hostile_entries(&c);

	/* 5. nothing left behind */
	cut_tmp_cleanup();
	tmpdir = xasprintf("%s/tmp", cache);
	{
		struct strv names = STRV_INIT;
		size_t left = 0;

		strv_list_dir(&names, tmpdir, "");
		for (size_t i = 0; i < names.n; i++)
			left += strcmp(names.v[i], ".") && strcmp(names.v[i], "..");
		TAP_EQ_INT(left, 0, "no temporary left in the cache's tmp/");
		strv_free(&names);
	}
	free(tmpdir);

	cut_layer_free(&a);
	cut_layer_free(&b);
	cut_layer_free(&look);
	cut_layer_free(&d);
	cut_layer_free(&e);
	free(tmp_a);
	free(tmp_b);
	free(tmp_d);
	free(tmp_e);
	free(final);
	cut_cache_close(&c);
	conf_free(&conf);
	free(cache);
	tap_rm_tree(dir);
	return tap_done();
}
