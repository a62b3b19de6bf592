// SPDX-License-Identifier: GPL-2.0
/*
 * cut-image.c: rapido's own archives in the image (src/cut/image.c), read
 * back with the cpio reader ./vm and the tests use. The head: vm.conf
 * first, then the layers text. The tail: the env the profile passes
 * (secrets too: the image's mode guards them), the modules to load, the
 * guest library, the profile and each -x/-f extra in order. The helpers
 * layer (src/cut/helpers.c): /init and the helpers, one that make built as
 * a link to another (rapido-ktap to rapido-init) a link in the image, the
 * program once. And the refusals: a -f
 * that is missing or not a regular file, a helper not built, a value with
 * a newline, each naming what is wrong. Which names of dracut's archive
 * are shared libraries (the libs layer's).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch.h"
#include "cpio.h"
#include "cut.h"
#include "err.h"
#include "io.h"
#include "layer.h"
#include "tap.h"

static char dir[] = "/tmp/rapido-cut-image-XXXXXX";

static char *path_in(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void put_file(const char *name, const char *text)
{
	char *path = path_in(name);
	int rc = write_file_atomic(path, text, strlen(text), 0644);

	if (rc)
		die("%s: %s", path, strerror(-rc));
	free(path);
}

/* name: a symbolic link to target */
static void put_link(const char *target, const char *name)
{
	char *path = path_in(name);

	if (symlink(target, path))
		die_errno("symlink %s", path);
	free(path);
}

static void make_dir(const char *name)
{
	char *path = path_in(name);

	if (mkdir(path, 0755))
		die_errno("mkdir %s", path);
	free(path);
}

/* An empty file to write an archive into, opened read-write. */
static int new_image(const char *name)
{
	char *path = path_in(name);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		die_errno("%s", path);
	free(path);
	return fd;
}

/* The data of NAME in the archive at start of fd, "(absent)" or "(error N)"; malloc'd. */
static char *entry(int fd, off_t start, const char *name)
{
	char *data;
	size_t len;
	int rc = cpio_find_at(fd, start, name, 1000, &data, &len);

	if (rc)
		return rc == -ENOENT ? xstrdup("(absent)") : xasprintf("(error %d)", rc);
	return data;
}

/* NAME's data in the archive at start is want */
static void entry_is(int fd, off_t start, const char *name, const char *want, const char *what)
{
	char *s = entry(fd, start, name);

	TAP_EQ_STR(s, want, "%s", what);
	free(s);
}

/* Every entry of the archive(s) from start: "NAME MODE" lines, in archive order. */
static int list_entry(const char *name, mode_t mode, void *arg)
{
	fprintf(arg, "%s %o\n", name, (unsigned int)mode);
	return 0;	/* copied nowhere: the split only walks the entries */
}

static char *entries(int fd, off_t start)
{
	char *s = NULL, *bad;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	int rc;

	if (!f)
		die_errno("open_memstream");
	if (lseek(fd, start, SEEK_SET) < 0)
		die_errno("lseek");
	rc = cpio_split(fd, NULL, list_entry, f, &bad);
	if (rc)
		fprintf(f, "(cpio_split: %s)\n", strerror(-rc));
	free(bad);
	if (fclose(f))
		die_errno("open_memstream");
	return s;
}

/* cut_write_tail into a fresh file: its return value, *err */
static int tail_to(const struct cut_opts *o, const struct cut_plan *p, const char *name, char **err)
{
	int fd = new_image(name), rc = cut_write_tail(o, p, fd, err);

	close(fd);
	return rc;
}

/* cut_write_tail refuses the plan: non-zero, and err says what is wrong */
static void refused(const struct cut_opts *o, const struct cut_plan *p, const char *what,
		    const char *want_err, const char *names)
{
	char *err = NULL;
	int rc = tail_to(o, p, "bad.cpio", &err);

	tap_ok(rc < 0, "%s: fails (%d)", what, rc);
	TAP_EQ_STR(err, want_err, "  naming %s", names);
	free(err);
}

int main(void)
{
	struct cut_extra extras[] = {
		{ .is_file = 0, .arg = "echo hi" },
		{ .is_file = 1, .arg = NULL },	/* DIR/extra.sh */
		{ .is_file = 0, .arg = "echo 'two words'" },
	};
	static const struct {
		const char *name, *why, *what;
	} bad_f[] = {
		{ "gone.sh", "No such file or directory", "a missing -f file" },
		{ "adir", "not a regular file but a directory", "a -f directory" },
	};
	struct cut_opts o = { .profile = "simple", .extras = extras, .n_extras = 3 };
	struct cut_plan p = { 0 };
	char *err = NULL, *s, *want, *prof_path, *extra_path, *missing;
	off_t tail_start = 0;
	int fd, rc;

	err_prog = "cut";
	tap_plan(35);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	make_dir("autorun");
	make_dir("autorun/lib");
	make_dir("helpers");
	make_dir("adir");
	put_file("autorun/simple.sh",
		 "#!/bin/bash\n"
		 "#@ description: a test profile\n"
		 "#@ conf: FOO PASS\n"
		 "#@ conf-optional: OPT UNSET\n"
		 "#@ secret: PASS\n"
		 "#@ modules: zram\n"
		 "echo profile\n");
	put_file("autorun/lib/b.sh", "b() { :; }\n");
	put_file("autorun/lib/a.sh", "a() { :; }\n");
	/* c.sh and z.sh an interactive shell's too; file.sh picked (the -f extra's word) */
	put_file("autorun/lib/c.sh", "c() { :; }\n");
	put_file("autorun/lib/file.sh", "file() { :; }\n");
	put_file("autorun/lib/z.sh", "z() { :; }\n");
	put_file("autorun/lib/notes.txt", "not a guest library file\n");
	put_file("helpers/rapido-init", "INIT BINARY");
	put_file("helpers/rapido-tool", "TOOL BINARY");
	/* make's links to the init's program (INIT_TOOLS), and one that is no helper's name */
	put_link("rapido-init", "helpers/rapido-ktap");
	put_link("rapido-tool", "helpers/rapido-alias");
	{
		char *abs = path_in("helpers/rapido-tool");

		put_link(abs, "helpers/rapido-far");
		free(abs);
	}
	put_file("extra.sh", "echo from a file\n");
	extra_path = path_in("extra.sh");
	extras[1].arg = extra_path;
	prof_path = path_in("autorun/simple.sh");

	/* the plan check.c would make, by hand */
	rc = profile_load(&p.prof, "simple", prof_path, &err);
	if (rc)
		die("%s", err);
	p.rapido_dir = xstrdup(dir);
	p.arch = arch_find("amd64");
	p.kern.release = xstrdup("6.1.0-t");
	p.kern.image = xstrdup("/boot/vmlinuz 6.1.0-t");
	p.prof.cpus = 2;
	p.prof.memory = 512ULL << 20;
	p.prof.test_timeout = 90;
	p.prof.results = 1;
	conf_set(&p.conf, "FOO", "a b=c");
	conf_set(&p.conf, "PASS", "s3cret");
	conf_set(&p.conf, "OPT", "o");
	conf_set(&p.conf, "UNRELATED", "not the profile's");
	strv_push(&p.modules, "zram");
	strv_push(&p.modules, "virtio_net");
	strv_push(&p.extra_modules, "9p");
	strv_pushf(&p.helpers, "%s/helpers/rapido-init", dir);
	strv_pushf(&p.helpers, "%s/helpers/rapido-tool", dir);
	strv_pushf(&p.helpers, "%s/helpers/rapido-ktap", dir);
	strv_pushf(&p.helpers, "%s/helpers/rapido-alias", dir);
	strv_pushf(&p.helpers, "%s/helpers/rapido-far", dir);

	/* 1. head, then tail, in one image as build.c writes them (the layers between) */
	fd = new_image("image.cpio");
	rc = cut_write_head(&p, "layer one\nlayer two\n", fd, &err);
	TAP_EQ_INT(rc, 0, "cut_write_head succeeds");
	TAP_EQ_STR(err, NULL, "  no error text");
	free(err);
	s = entries(fd, 0);
	TAP_EQ_STR(s, "rapido 40755\nrapido/vm.conf 100644\nrapido/layers 100644\n",
		   "head: rapido/vm.conf first (./vm reads no further), then rapido/layers");
	free(s);
	entry_is(fd, 0, "rapido/vm.conf",
		 "# written by ./cut for ./vm\nPROFILE=simple\nARCH=amd64\n"
		 "KERNEL_IMAGE='/boot/vmlinuz 6.1.0-t'\nKERNEL_RELEASE=6.1.0-t\nCPUS=2\nMEMORY=512M\n"
		 "TEST_TIMEOUT=90\nRESULTS=yes\n",
		 "vm.conf: profile, arch, kernel (quoted where needed), cpus, memory, test-timeout, "
		 "results");
	entry_is(fd, 0, "rapido/layers", "layer one\nlayer two\n", "rapido/layers: the text given");
	if (cpio_archive_end(fd, 0, 1000, &tail_start))
		tail_start = 0;
	tap_ok(tail_start > 0 && tail_start % 512 == 0 && lseek(fd, 0, SEEK_END) == tail_start,
	       "the head ends on a 512-byte boundary (%lld)", (long long)tail_start);

	if (lseek(fd, 0, SEEK_END) < 0)
		die_errno("lseek");
	rc = cut_write_tail(&o, &p, fd, &err);
	TAP_EQ_INT(rc, 0, "cut_write_tail succeeds after the head");
	TAP_EQ_STR(err, NULL, "  no error text");
	free(err);
	s = entries(fd, tail_start);
	TAP_EQ_STR(s, "rapido 40755\nrapido/env 100644\nrapido/modules 100644\n"
		   "rapido/lib 40755\nrapido/lib/a.sh 100755\nrapido/lib/b.sh 100755\n"
		   "rapido/lib/c.sh 100755\nrapido/lib/file.sh 100755\nrapido/lib/z.sh 100755\n"
		   "rapido/autorun 40755\nrapido/autorun/00-simple.sh 100755\n"
		   "rapido/autorun/01-cmd.sh 100755\nrapido/autorun/02-file.sh 100755\n"
		   "rapido/autorun/03-cmd.sh 100755\nrapido/autorun.sh 100644\n",
		   "tail: env, modules, guest library (*.sh only), autorun in order");
	free(s);
	entry_is(fd, tail_start, "rapido/env",
		 "RAPIDO_PROFILE=simple\nRAPIDO_KERNEL_RELEASE=6.1.0-t\nFOO=a b=c\nPASS=s3cret\nOPT=o\n",
		 "rapido/env: profile, release, the conf keys then the set conf-optional ones; "
		 "the secret too; no key the profile does not name");
	entry_is(fd, tail_start, "rapido/modules", "zram\nvirtio_net\n",
		 "rapido/modules: one per line, extra modules not loaded");
	entry_is(fd, tail_start, "rapido/autorun.sh",
		 "# written by ./cut: guest library, profile simple, then the extras in order\n"
		 "source /rapido/lib/a.sh\n"
		 "if [ \"${RAPIDO_BATCH:-0}\" != 1 ]; then source /rapido/lib/b.sh\n"
		 "source /rapido/lib/c.sh; fi\n"
		 "source /rapido/lib/file.sh\n"
		 "if [ \"${RAPIDO_BATCH:-0}\" != 1 ]; then source /rapido/lib/z.sh; fi\n"
		 "_rapido_autorun_begin\n"
		 "_rapido_part autorun/00-simple.sh\nsource /rapido/autorun/00-simple.sh\n_rapido_part_done $?\n"
		 "_rapido_part autorun/01-cmd.sh\nsource /rapido/autorun/01-cmd.sh\n_rapido_part_done $?\n"
		 "_rapido_part autorun/02-file.sh\nsource /rapido/autorun/02-file.sh\n_rapido_part_done $?\n"
		 "_rapido_part autorun/03-cmd.sh\nsource /rapido/autorun/03-cmd.sh\n_rapido_part_done $?\n"
		 "_rapido_autorun_end\n",
		 "autorun.sh: the library, a file a line (a.sh in every run: the profile has the word "
		 "'a'; file.sh too, the -f extra's word; b.sh, c.sh and z.sh for an interactive shell "
		 "only, one test for each run of them), the profile, then each extra, in order, each "
		 "part's status kept");
	{
		char *text;

		if (read_file(prof_path, &text, NULL))
			die("%s", prof_path);
		entry_is(fd, tail_start, "rapido/autorun/00-simple.sh", text,
			 "00-simple.sh: the profile script");
		free(text);
	}
	entry_is(fd, tail_start, "rapido/autorun/01-cmd.sh", "echo hi\n",
		 "01-cmd.sh: the first -x, a line");
	entry_is(fd, tail_start, "rapido/autorun/02-file.sh", "echo from a file\n",
		 "02-file.sh: the -f file's bytes");
	entry_is(fd, tail_start, "rapido/autorun/03-cmd.sh", "echo 'two words'\n",
		 "03-cmd.sh: the second -x, as given");
	entry_is(fd, tail_start, "rapido/vm.conf", "(absent)", "the tail holds no vm.conf (the head's)");
	close(fd);

	/* 2. a -f that went missing since the checks, or that is not a file */
	for (size_t i = 0; i < sizeof(bad_f) / sizeof(bad_f[0]); i++) {
		missing = path_in(bad_f[i].name);
		extras[1].arg = missing;
		want = xasprintf("-f %s: %s", missing, bad_f[i].why);
		refused(&o, &p, bad_f[i].what, want, "the path and why");
		free(want);
		free(missing);
	}
	extras[1].arg = extra_path;

	/* 3. the helpers layer, written without a cache into a work directory */
	{
		struct cut_cache none = { .dir = NULL, .lock_fd = -1 };
		struct cut_work w;
		struct cut_layer ly = { 0 };
		char *image = path_in("image.cpio");

		if (cut_work_create(&w, image))
			die("cannot create a work directory next to %s", image);
		rc = cut_helpers_layer(&none, &p, &w, &ly, &err);
		TAP_EQ_INT(rc, 0, "cut_helpers_layer succeeds without a cache");
		TAP_EQ_STR(err, NULL, "  no error text");
		fd = open(ly.path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die_errno("%s", ly.path);
		s = entries(fd, 0);
		TAP_EQ_STR(s, "usr 40755\nusr/bin 40755\ninit 100755\nusr/bin/rapido-tool 100755\n"
			   "usr/bin/rapido-ktap 120777\nusr/bin/rapido-alias 120777\n"
			   "usr/bin/rapido-far 100755\n",
			   "helpers layer: /init (rapido-init), then each helper in /usr/bin; a link "
			   "to another helper a link, the program once");
		free(s);
		entry_is(fd, 0, "init", "INIT BINARY", "/init is rapido-init's bytes");
		entry_is(fd, 0, "usr/bin/rapido-tool", "TOOL BINARY",
			 "/usr/bin/rapido-tool is the helper's bytes");
		entry_is(fd, 0, "usr/bin/rapido-ktap", "../../init",
			 "rapido-ktap, a link to rapido-init: a link to /init, relative");
		entry_is(fd, 0, "usr/bin/rapido-alias", "rapido-tool",
			 "a link to another /usr/bin helper: a link to its name");
		entry_is(fd, 0, "usr/bin/rapido-far", "TOOL BINARY",
			 "a link by a path, not to a helper's name beside it: the bytes it reaches");
		close(fd);
		cut_layer_free(&ly);

		missing = path_in("helpers/rapido-gone");
		strv_push(&p.helpers, missing);
		want = xasprintf("helper %s: No such file or directory (run make)", missing);
		memset(&ly, 0, sizeof(ly));
		rc = cut_helpers_layer(&none, &p, &w, &ly, &err);
		tap_ok(rc < 0, "a helper not built: fails (%d)", rc);
		TAP_EQ_STR(err, want, "  naming the helper and the fix");
		free(err);
		err = NULL;
		free(want);
		free(missing);
		free(p.helpers.v[--p.helpers.n]);
		p.helpers.v[p.helpers.n] = NULL;
		cut_layer_free(&ly);
		cut_work_remove(&w);
		free(image);
	}

	/* 4. a value the guest's env file cannot carry */
	conf_set(&p.conf, "OPT", "line one\nline two");
	refused(&o, &p, "a newline in a passed value",
		"config key OPT: a newline in the value cannot be passed to the guest", "the key");

	/* 5. what goes from dracut's archive to the libs layer, not the bins layer (build.c) */
	tap_ok(cut_is_shared_lib("usr/lib/x86_64-linux-gnu/libc.so.6") &&
	       cut_is_shared_lib("usr/lib64/ld-linux-x86-64.so.2") &&
	       cut_is_shared_lib("lib/ld-linux-aarch64.so.1") &&
	       cut_is_shared_lib("usr/lib/x86_64-linux-gnu/libc.so") &&
	       cut_is_shared_lib("lib/libtinfo.so.6.4"),
	       "shared libraries: the loader, libc.so.6, its linker script, a versioned name");
	tap_ok(!cut_is_shared_lib("usr/bin/bash") && !cut_is_shared_lib("usr/lib/x.sock") &&
	       !cut_is_shared_lib("usr/lib/dracut/modules.txt") && !cut_is_shared_lib("etc/ld.so.cache") &&
	       !cut_is_shared_lib("usr/share/foo.so.6") && !cut_is_shared_lib("etc/ld.so.conf") &&
	       !cut_is_shared_lib("usr/lib/libfoo.sox") && !cut_is_shared_lib("usr/lib/libfoo.so.x"),
	       "not: a program, a socket's name, ld.so.cache, .so outside the library dirs, ld.so.conf");

	free(extra_path);
	free(prof_path);
	cut_plan_free(&p);
	tap_rm_tree(dir);
	return tap_done();
}
