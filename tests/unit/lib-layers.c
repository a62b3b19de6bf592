// SPDX-License-Identifier: GPL-2.0
/*
 * lib-layers.c: a layered image in its three forms. A cached image (head +
 * tail + locator) assembles to the bytes of the standalone one; the size
 * tells the forms apart and a cut-short copy is refused; a missing layer
 * is named; a corrupted one is refused and removed from the cache; a bad
 * rapido/layers line is named. Hostile caches (issue 33): a damaged image
 * record keeps the intact entry it names; a FIFO, a symlink to /dev/zero or
 * a directory in a layer's place is named, never opened so that it blocks
 * (an alarm bails out if it does); an unreadable layer names file and cause.
 * A layer only some boots need: its condition parses back, a bad one is
 * named with its line, a boot whose command line does not ask for it
 * gets head + the other layers + tail, and an image with no condition
 * (cut before them) gets every layer.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpio.h"
#include "err.h"
#include "hash.h"
#include "io.h"
#include "layers.h"
#include "tap.h"
#include "vm.h"

static char dir[] = "/tmp/rapido-layers-XXXXXX";
static const char *keys[2] = {
	"1111111111111111111111111111111111111111111111111111111111111111",
	"2222222222222222222222222222222222222222222222222222222222222222",
};

/* KEY.meta as ./cut writes it: size, checksum and the file's stat signature */
static void write_record(const char *path, uint64_t size, uint64_t xxh)
{
	char *meta = img_layer_meta_path(path), *sig, *text;
	struct stat st;

	if (stat(path, &st) < 0)
		memset(&st, 0, sizeof(st));
	sig = img_stat_sig(&st);
	text = xasprintf("rapido-layer 1\nkind x\nsize %llu\nxxh64 %016llx\nsig %s\ndesc test\n",
			 (unsigned long long)size, (unsigned long long)xxh, sig);
	write_file_atomic(meta, text, strlen(text), 0644);
	free(text);
	free(sig);
	free(meta);
}

/* A read that blocks (a FIFO opened without O_NONBLOCK) is a failure, not a hung test. */
static sigjmp_buf blocked;

static void on_alarm(int sig)
{
	(void)sig;
	siglongjmp(blocked, 1);
}

/* Assemble the image at img into /dev/null: the return code, *err the message. */
static int assemble(const char *img, char **err)
{
	struct img_layers p;
	enum img_form form;
	off_t head;
	int fd = open(img, O_RDONLY), out = open("/dev/null", O_WRONLY), rc;

	*err = NULL;
	rc = img_probe(fd, img, &p, &head, &form, err);
	if (!rc && sigsetjmp(blocked, 1)) {
		*err = xstrdup("blocked for 20s putting the image together");
		rc = -EINTR;
	} else if (!rc) {
		alarm(20);
		rc = img_assemble(fd, img, &p, head, out, err);
		alarm(0);
	}
	img_layers_free(&p);
	close(fd);
	close(out);
	return rc;
}

/* a layer archive in the cache: returns its size, *xxh its checksum */
static uint64_t make_layer(const char *key, const char *file, const char *text, uint64_t *xxh)
{
	static struct cpio_writer w;
	struct xxh64 x;
	char *path = xasprintf("%s/layers/%s.cpio", dir, key);
	char *meta = img_layer_meta_path(path);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	uint64_t size;

	xxh64_init(&x, 0);
	cpio_init(&w, fd);
	w.hash = &x;
	cpio_add_file(&w, file, 0644, text, strlen(text));
	cpio_finish(&w);
	size = (uint64_t)w.off;
	close(fd);
	*xxh = xxh64_digest(&x);
	write_record(path, size, *xxh);
	free(path);
	free(meta);
	return size;
}

/* head + (layers) + tail (+ locator) into path, as ./cut writes them */
static void make_image(const char *path, struct img_layers *l, int standalone)
{
	static struct cpio_writer w;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644), tfd;
	char *text, tail_path[512];
	off_t tail_len;

	snprintf(tail_path, sizeof(tail_path), "%s/tail", dir);
	tfd = open(tail_path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	cpio_init(&w, tfd);
	cpio_add_file(&w, "rapido/env", 0644, "A=1\n", 4);
	cpio_finish(&w);
	tail_len = w.off;
	l->tail = (uint64_t)tail_len;
	text = img_layers_format(l);
	cpio_init(&w, fd);
	cpio_add_dir(&w, "rapido", 0755);
	cpio_add_file(&w, "rapido/vm.conf", 0644, "KERNEL_IMAGE=/x\n", 16);
	cpio_add_file(&w, IMG_LAYERS_NAME, 0644, text, strlen(text));
	cpio_finish(&w);
	free(text);
	for (size_t i = 0; standalone && i < l->n; i++)
		img_layer_copy(&l->v[i], fd);
	{
		char buf[4096];
		ssize_t n = pread(tfd, buf, sizeof(buf), 0);

		write_all(fd, buf, (size_t)n);
	}
	if (!standalone)
		img_write_locator(fd, dir);
	close(tfd);
	close(fd);
}

static char *slurp(const char *path, size_t *len)
{
	char *t = NULL;

	if (read_file(path, &t, len))
		*len = 0;
	return t;
}

int main(void)
{
	struct img_layers l = { 0 }, p;
	char *cached, *alone, *assembled, *err, *a, *b, *sub;
	enum img_form form;
	off_t head;
	uint64_t size, xxh;
	size_t la, lb;
	int fd, out, rc;

	tap_plan(38);
	signal(SIGALRM, on_alarm);
	if (!mkdtemp(dir))
		return 1;
	sub = xasprintf("%s/layers", dir);
	mkdir(sub, 0755);
	for (int i = 0; i < 2; i++) {
		char *path = xasprintf("%s/layers/%s.cpio", dir, keys[i]);

		size = make_layer(keys[i], i ? "usr/bin/tool" : "lib/modules/m.ko", i ? "tool" : "module",
				  &xxh);
		img_layers_add(&l, i ? "bins" : "modules", size, xxh, keys[i], path);
		free(path);
	}
	cached = xasprintf("%s/cached.img", dir);
	alone = xasprintf("%s/alone.img", dir);
	assembled = xasprintf("%s/assembled.img", dir);
	make_image(cached, &l, 0);
	make_image(alone, &l, 1);

	fd = open(cached, O_RDONLY);
	rc = img_probe(fd, cached, &p, &head, &form, &err);
	tap_ok(rc == 0 && form == IMG_CACHED && p.n == 2, "cached image: head + tail + locator");
	tap_ok(rc == 0 && p.n == 2 && p.v[1].path && strstr(p.v[1].path, keys[1]) &&
	       !strncmp(p.v[1].path, dir, strlen(dir)), "layer paths from the locator");
	out = open(assembled, O_RDWR | O_CREAT | O_TRUNC, 0644);
	TAP_EQ_INT(img_assemble(fd, cached, &p, head, out, &err), 0, "assembled");
	close(out);
	a = slurp(assembled, &la);
	b = slurp(alone, &lb);
	tap_ok(la && la == lb && !memcmp(a, b, la), "assembled bytes = standalone image (%zu bytes)", la);
	free(a);

	/* records that vouch for the layers: the kernel copies them, same bytes */
	for (size_t i = 0; i < l.n; i++)
		write_record(l.v[i].path, l.v[i].size, l.v[i].xxh);
	out = open(assembled, O_RDWR | O_CREAT | O_TRUNC, 0644);
	rc = img_assemble(fd, cached, &p, head, out, &err);
	close(out);
	a = slurp(assembled, &la);
	tap_ok(rc == 0 && la == lb && !memcmp(a, b, la), "assembled through the records' signatures: same bytes");
	free(a);

	/* a boot that does not need layer 1 (the launcher marked it): head, layer 0, tail */
	p.v[1].skip = 1;
	out = open(assembled, O_RDWR | O_CREAT | O_TRUNC, 0644);
	rc = img_assemble(fd, cached, &p, head, out, &err);
	close(out);
	a = slurp(assembled, &la);
	{
		size_t cut = (size_t)head + l.v[0].size, gone = l.v[1].size;

		tap_ok(rc == 0 && la == lb - gone && !memcmp(a, b, cut) &&
		       !memcmp(a + cut, b + cut + gone, la - cut),
		       "a layer left out: head, the other layer and the tail (%zu bytes of %zu)", la, lb);
	}
	free(a);
	free(b);
	img_layers_free(&p);
	close(fd);

	/* a condition: kernel parameters, one of which has a boot need the layer */
	{
		struct img_layers c = { 0 }, q;
		const char *share[] = { "console=ttyS0", "rapido.shares=1" };
		const char *other[] = { "console=ttyS0", "rapido.sharesx=1", "rapido.ip" };
		char *text;

		img_layers_add_when(&c, "ondemand", 10, 1, keys[0], NULL, "rapido.shares=,rapido.ip=");
		img_layers_add(&c, "bins", 20, 2, keys[1], NULL);
		c.tail = 5;
		text = img_layers_format(&c);
		rc = img_layers_parse(text, &q, &err);
		tap_ok(rc == 0 && q.n == 2 && q.v[0].when && !strcmp(q.v[0].when, "rapido.shares=,rapido.ip=") &&
		       !q.v[1].when, "a layer's condition formats and parses back");
		tap_ok(!rc && img_layer_wanted(&q.v[0], share, 2) && !img_layer_wanted(&q.v[0], other, 3) &&
		       !img_layer_wanted(&q.v[0], NULL, 0),
		       "  a boot needs it with rapido.shares=1, not with rapido.sharesx=1 nor a bare rapido.ip");
		tap_ok(!rc && img_layer_wanted(&q.v[1], other, 3) && img_layer_wanted(&q.v[1], NULL, 0),
		       "  a layer without one: every boot (an image cut before conditions)");
		if (!rc)
			img_layers_free(&q);
		img_layers_free(&c);
		free(text);
		for (const char *bad = "rapido.shares\0rapido.shares=,\0=\0rapido.shares=,,rapido.ip=\0"
				       "rapido shares=\0"; *bad; bad += strlen(bad) + 1) {
			text = xasprintf("# x\nlayer bins 12 0000000000000001 %s when %s\ntail 5\n", keys[1], bad);
			rc = img_layers_parse(text, &q, &err);
			tap_ok(rc == -EINVAL && err && strstr(err, IMG_LAYERS_NAME " line 2: when:") &&
			       strstr(err, bad) && !q.n, "a bad condition '%s': named with its line: %s", bad,
			       err ? err : "");
			free(err);
			free(text);
		}
	}

	fd = open(alone, O_RDONLY);
	rc = img_probe(fd, alone, &p, &head, &form, &err);
	tap_ok(rc == 0 && form == IMG_STANDALONE, "standalone image recognised");
	img_layers_free(&p);
	close(fd);

	/* a copy cut short */
	if (truncate(alone, (off_t)lb - 512) < 0)
		return 1;
	fd = open(alone, O_RDONLY);
	rc = img_probe(fd, alone, &p, &head, &form, &err);
	tap_ok(rc == -EINVAL && err && strstr(err, "truncated or damaged"), "cut-short copy refused: %s",
	       err ? err : "");
	free(err);
	close(fd);

	{
		char *plain = xasprintf("%s/plain.img", dir);
		static struct cpio_writer w;
		int pfd = open(plain, O_RDWR | O_CREAT | O_TRUNC, 0644);

		cpio_init(&w, pfd);
		cpio_add_file(&w, "rapido/vm.conf", 0644, "KERNEL_IMAGE=/x\n", 16);
		cpio_finish(&w);
		rc = img_probe(pfd, plain, &p, &head, &form, &err);
		tap_ok(rc == 0 && form == IMG_PLAIN, "an image without rapido/layers is plain");
		close(pfd);
		unlink(plain);
		free(plain);
	}

	/* a corrupted layer: same size, one byte flipped */
	fd = open(l.v[1].path, O_RDWR);
	if (pwrite(fd, "X", 1, 120) != 1)
		return 1;
	close(fd);
	fd = open(cached, O_RDONLY);
	img_probe(fd, cached, &p, &head, &form, &err);
	out = open(assembled, O_RDWR | O_TRUNC);
	rc = img_assemble(fd, cached, &p, head, out, &err);
	TAP_EQ_INT(rc, -EBADMSG, "corrupted layer refused");
	tap_ok(err && strstr(err, "corrupted") && strstr(err, "removed it"), "message: %s", err ? err : "");
	tap_ok(access(l.v[1].path, F_OK) < 0, "corrupted layer removed from the cache");
	{
		char *meta = img_layer_meta_path(l.v[1].path);

		tap_ok(access(meta, F_OK) < 0, "and its record");
		free(meta);
	}
	free(err);

	/* now it is missing */
	rc = img_assemble(fd, cached, &p, head, out, &err);
	TAP_EQ_INT(rc, -ENOENT, "missing layer");
	tap_ok(err && strstr(err, "is gone") && strstr(err, "--standalone") && strstr(err, keys[1]),
	       "message names the layer and the way out: %s", err ? err : "");
	free(err);
	img_layers_free(&p);
	close(out);
	close(fd);

	rc = img_layers_parse("layer bins 12 00000000000000zz 1234\ntail 5\n", &p, &err);
	tap_ok(rc == -EINVAL && err && strstr(err, "line 1"), "bad rapido/layers line named: %s",
	       err ? err : "");
	free(err);

	/* a damaged image: one hex digit of a layer's checksum changed; the entry is intact */
	{
		char *damaged = xasprintf("%s/damaged.img", dir), *meta = img_layer_meta_path(l.v[0].path);

		l.v[0].xxh ^= 0x10;
		make_image(damaged, &l, 0);
		l.v[0].xxh ^= 0x10;
		/* a new ctime (a chmod, a restored copy): its record no longer vouches, it is hashed */
		if (chmod(l.v[0].path, 0644) < 0)
			return 1;
		rc = assemble(damaged, &err);
		TAP_EQ_INT(rc, -EBADMSG, "an image whose record of a layer is damaged is refused");
		tap_ok(err && strstr(err, "image is damaged") && strstr(err, "entry is kept"),
		       "  the image is blamed: %s", err ? err : "");
		tap_ok(access(l.v[0].path, F_OK) == 0 && access(meta, F_OK) == 0,
		       "  and the intact cache entry (layer and record) is kept");
		free(err);
		unlink(damaged);
		free(damaged);
		free(meta);
		if (access(l.v[0].path, F_OK) < 0)	/* the same bytes again, for what follows */
			make_layer(keys[0], "lib/modules/m.ko", "module", &xxh);
	}

	/* what is no file the cache made, in layer 1's place (its record rewritten) */
	if (mkfifo(l.v[1].path, 0644) < 0)
		return 1;
	write_record(l.v[1].path, l.v[1].size, l.v[1].xxh);
	rc = assemble(cached, &err);
	tap_ok(rc < 0, "a FIFO in a layer's place: refused without blocking");
	tap_ok(err && strstr(err, "not a regular file but a FIFO") && strstr(err, keys[1]),
	       "  named as one: %s", err ? err : "");
	free(err);
	unlink(l.v[1].path);
	if (symlink("/dev/zero", l.v[1].path) < 0)
		return 1;
	rc = assemble(cached, &err);
	tap_ok(rc < 0, "a symlink to /dev/zero in a layer's place: refused, not read");
	tap_ok(err && strstr(err, "symbolic link"), "  named: %s", err ? err : "");
	free(err);
	unlink(l.v[1].path);
	if (mkdir(l.v[1].path, 0755) < 0)
		return 1;
	rc = assemble(cached, &err);
	tap_ok(rc < 0, "a directory in a layer's place: refused");
	tap_ok(err && strstr(err, "not a regular file but a directory") && strstr(err, "./cut again"),
	       "  named, with the way out: %s", err ? err : "");
	free(err);
	rmdir(l.v[1].path);

	/* an unreadable layer: as nobody when root (root reads anything) */
	{
		char msg[4096] = "";
		int pfd[2], wst = 0;
		pid_t pid;

		size = make_layer(keys[1], "usr/bin/tool", "tool", &xxh);
		if (chmod(l.v[1].path, 0400) < 0 || chmod(dir, 0755) < 0 || pipe(pfd) < 0)
			return 1;
		if (geteuid() != 0 && chmod(l.v[1].path, 0) < 0)
			return 1;
		pid = fork();
		if (pid == 0) {
			close(pfd[0]);
			if (geteuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
				_exit(3);
			rc = assemble(cached, &err);
			if (err && write(pfd[1], err, strlen(err)) < 0)
				_exit(4);
			_exit(rc == -EACCES ? 0 : 1);
		}
		close(pfd[1]);
		if (read(pfd[0], msg, sizeof(msg) - 1) < 0)
			msg[0] = '\0';
		close(pfd[0]);
		waitpid(pid, &wst, 0);
		tap_ok(WIFEXITED(wst) && WEXITSTATUS(wst) == 0, "an unreadable layer: -EACCES (status %d)",
		       WIFEXITED(wst) ? WEXITSTATUS(wst) : -1);
		tap_ok(strstr(msg, keys[1]) && strstr(msg, "cannot read") &&
		       strstr(msg, "Permission denied"), "  the file and the cause named: %s", msg);
		tap_ok(access(l.v[1].path, F_OK) == 0, "  and the entry kept (it is not corrupted)");
		chmod(l.v[1].path, 0644);
	}

	/* an image that is a FIFO: ./vm's reads never block on it */
	{
		char *fifo = xasprintf("%s/fifo.img", dir), *e2 = NULL;
		struct vm_initrd ird;
		struct vm_image im;

		if (mkfifo(fifo, 0644) < 0)
			return 1;
		if (sigsetjmp(blocked, 1)) {
			rc = -EINTR;
			e2 = xstrdup("blocked for 20s");
		} else {
			alarm(20);
			rc = vm_image_read(fifo, &im, &e2);
			alarm(0);
		}
		tap_ok(rc < 0 && e2 && strstr(e2, "not a regular file but a FIFO"),
		       "an image that is a FIFO: ./vm names it: %s", e2 ? e2 : "");
		free(e2);
		if (sigsetjmp(blocked, 1)) {
			rc = -EINTR;
			e2 = xstrdup("blocked for 20s");
		} else {
			alarm(20);
			rc = vm_initrd_prepare(fifo, 0, NULL, &ird, &e2);
			alarm(0);
		}
		tap_ok(rc < 0 && e2 && strstr(e2, "not a regular file but a FIFO"),
		       "  and so does putting it together: %s", e2 ? e2 : "");
		free(e2);
		unlink(fifo);
		free(fifo);
	}

	for (const char *f = "cached.img\0alone.img\0assembled.img\0tail\0"; *f; f += strlen(f) + 1) {
		char *x = xasprintf("%s/%s", dir, f);

		unlink(x);
		free(x);
	}
	img_layer_discard(l.v[0].path);
	img_layer_discard(l.v[1].path);
	rmdir(sub);
	rmdir(dir);
	free(sub);
	free(cached);
	free(alone);
	free(assembled);
	img_layers_free(&l);
	return tap_done();
}
