// SPDX-License-Identifier: GPL-2.0
/* tool-configfs-apply.c: apply, rollback, teardown and dry-run against a temp directory. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tools/configfs/cfs.h"
#include "err.h"
#include "tap.h"

enum mode { APPLY, TEARDOWN, PLAN, PLAN_TEARDOWN };

struct run {
	int status;
	char *trace, *err, *out;	/* with the root replaced by "@R" */
};

static char tmp[] = "/tmp/rapido-cfs-apply-XXXXXX";
static char root[256];
static bool emulate = true;
static int kmsg_fd = -1;	/* handed to the next run */
static void (*hook)(void *, const struct cfs_op *);

/* s with every occurrence of root replaced by "@R"; frees s. */
static char *unroot(char *s)
{
	size_t rl = strlen(root);
	char *out, *o, *p;

	if (!s)
		return xstrdup("");
	out = xmalloc(strlen(s) + 1);
	for (o = out, p = s; *p;) {
		if (!strncmp(p, root, rl)) {
			memcpy(o, "@R", 2);
			o += 2;
			p += rl;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	free(s);
	return out;
}

static void run_free(struct run *r)
{
	free(r->trace);
	free(r->err);
	free(r->out);
	memset(r, 0, sizeof(*r));
}

static void run(const char *text, enum mode m, struct run *r)
{
	struct cfs_parse_opts po = { "/nonexistent", m == TEARDOWN || m == PLAN_TEARDOWN, NULL };
	size_t tl, el, ol;
	struct cfs_spec s;
	struct cfs_ctx c;
	FILE *tf, *ef, *of;
	char *perr = NULL;

	run_free(r);
	spec_init(&s);
	if (spec_parse_string(&s, "t.spec", text, &po, &perr)) {
		r->status = CFS_EXIT_USAGE;
		r->err = unroot(perr);
		r->trace = unroot(NULL);
		r->out = unroot(NULL);
		spec_free(&s);
		return;
	}
	if (cfs_ctx_open(&c, root))
		die_errno("cfs_ctx_open %s", root);
	c.emulate = emulate;
	c.trace = tf = open_memstream(&r->trace, &tl);
	c.err = ef = open_memstream(&r->err, &el);
	of = open_memstream(&r->out, &ol);
	c.kmsg_fd = kmsg_fd;
	kmsg_fd = -1;
	c.on_failure = hook;
	switch (m) {
	case APPLY: r->status = cfs_apply(&c, &s); break;
	case TEARDOWN: r->status = cfs_teardown(&c, &s); break;
	case PLAN: r->status = cfs_plan(&c, &s, false, of); break;
	case PLAN_TEARDOWN: r->status = cfs_plan(&c, &s, true, of); break;
	}
	fclose(tf);
	fclose(ef);
	fclose(of);
	cfs_ctx_close(&c);
	spec_free(&s);
	r->trace = unroot(r->trace);
	r->err = unroot(r->err);
	r->out = unroot(r->out);
}

static void tree_walk(const char *dir, const char *rel, FILE *out)
{
	struct dirent **ents;
	int i, n = scandir(dir, &ents, NULL, alphasort);

	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char path[1024], sub[1024], buf[256];
		struct stat st;
		ssize_t l;
		int fd;

		if (!strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, ".rapido-default-group"))
			goto next;
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", name);
		if (lstat(path, &st))
			goto next;
		if (S_ISDIR(st.st_mode)) {
			fprintf(out, "%s/\n", sub);
			tree_walk(path, sub, out);
		} else if (S_ISLNK(st.st_mode)) {
			l = readlink(path, buf, sizeof(buf) - 1);
			fprintf(out, "%s -> %.*s\n", sub, (int)(l > 0 ? l : 0), buf);
		} else if (S_ISREG(st.st_mode)) {
			fd = open(path, O_RDONLY);
			l = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
			if (fd >= 0)
				close(fd);
			fprintf(out, "%s=%.*s\n", sub, (int)(l > 0 ? l : 0), buf);
		} else {
			fprintf(out, "%s|\n", sub);
		}
next:
		free(ents[i]);
	}
	free(ents);
}

/* Everything under root, sorted: "dir/", "file=content", "link -> target", "fifo|". */
static char *tree(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	tree_walk(root, "", f);
	fclose(f);
	return unroot(buf);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level)
		remove(p);
	return 0;
}

/* Empty the root for the next test. */
static void wipe(void)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	emulate = true;
	hook = NULL;
}

static void in_root(int (*fn)(const char *, mode_t), const char *rel, mode_t mode)
{
	char p[1024];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	if (fn(p, mode))
		die_errno("%s", p);
}

static int mkfile(const char *p, mode_t mode)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);

	return fd < 0 ? -1 : close(fd);
}

static void check_tree(const char *want, const char *name)
{
	char *t = tree();

	TAP_EQ_STR(t, want, "%s", name);
	free(t);
}

static void has(const char *s, const char *what, const char *name)
{
	if (!tap_ok(strstr(s, what) != NULL, "%s", name))
		printf("#   wanted \"%s\" in:\n#   %s\n", what, s);
}

static const char good_spec[] =
	"mkdir a\n"
	"ensure a/b\n"
	"write a/b/x v undo u\n"
	"write a/en 1\n"
	"link a/b l\n"
	"wait a/dg\n"
	"mkdir a/dg/c\n";

static void test_apply_teardown(void)
{
	struct run r = { 0 };

	run(good_spec, APPLY, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_OK, "apply succeeds");
	TAP_EQ_STR(r.trace,
		   "apply 1 mkdir @R/a\n"
		   "apply 2 mkdir @R/a/b\n"
		   "apply 3 write @R/a/b/x v\n"
		   "apply 4 write @R/a/en 1\n"
		   "apply 5 link @R/l -> @R/a/b\n"
		   "apply 6 wait @R/a/dg\n"
		   "apply 7 mkdir @R/a/dg/c\n", "operations performed in spec order");
	check_tree("a/\na/b/\na/b/x=v\na/dg/\na/dg/c/\na/en=1\nl -> @R/a/b\n",
		   "tree after apply: values without newline, absolute link target");
	TAP_EQ_STR(r.err, "", "no messages");

	run(good_spec, TEARDOWN, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_OK, "teardown succeeds");
	TAP_EQ_STR(r.trace,
		   "teardown 7 rmdir @R/a/dg/c\n"
		   "teardown 5 unlink @R/l -> @R/a/b\n"
		   "teardown 3 write @R/a/b/x u\n"
		   "teardown 2 rmdir @R/a/b\n"
		   "teardown 1 rmdir @R/a\n", "teardown walks the spec in reverse");
	check_tree("", "tree empty after teardown");

	run(good_spec, TEARDOWN, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_OK, "teardown twice is fine");
	TAP_EQ_STR(r.trace,
		   "teardown 7 gone @R/a/dg/c\n"
		   "teardown 5 gone @R/l -> @R/a/b\n"
		   "teardown 3 gone @R/a/b/x\n"
		   "teardown 2 gone @R/a/b\n"
		   "teardown 1 gone @R/a\n", "second teardown finds everything gone");

	run(good_spec, APPLY, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_OK, "apply again after teardown");
	run(good_spec, TEARDOWN, &r);
	run_free(&r);
	wipe();
}

static void test_rollback(void)
{
	struct run r = { 0 };

	run("mkdir a\n"
	    "write a/en 1 undo 0\n"
	    "link a l\n"
	    "mkdir a/d\n"
	    "write a/d \"x y\"\n", APPLY, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_FAILED, "write to a directory fails: exit 1");
	TAP_EQ_STR(r.trace,
		   "apply 1 mkdir @R/a\n"
		   "apply 2 write @R/a/en 1\n"
		   "apply 3 link @R/l -> @R/a\n"
		   "apply 4 mkdir @R/a/d\n"
		   "rollback 4 rmdir @R/a/d\n"
		   "rollback 3 unlink @R/l -> @R/a\n"
		   "rollback 2 write @R/a/en 0\n"
		   "rollback 1 rmdir @R/a\n", "rolled back in reverse, undo value written");
	has(r.err, "t.spec:5: write @R/a/d \"x y\": EISDIR: Is a directory\n",
	    "report: file:line, operation, absolute path, value, errno name");
	has(r.err, "  hint: ", "report has a hint");
	has(r.err, "rolled back 4 operations; nothing is left behind", "rollback summary");
	check_tree("", "nothing left after rollback");
	wipe();

	in_root(mkdir, "exists", 0755);
	run("mkdir new\nmkdir exists\n", APPLY, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_FAILED, "mkdir of an existing directory: exit 1");
	has(r.err, "t.spec:2: mkdir @R/exists: EEXIST: File exists", "EEXIST reported");
	has(r.err, "--teardown", "EEXIST hint suggests --teardown");
	check_tree("exists/\n", "only what was there before is left");
	wipe();

	run("mkdir a\nlink a nope/l\n", APPLY, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_FAILED, "link into a missing directory: exit 1");
	has(r.err, "t.spec:2: link @R/nope/l -> @R/a: ENOENT", "link report names both paths");
	has(r.err, "mount -t configfs", "ENOENT hint says configfs or a module is missing");
	check_tree("", "rolled back");
	wipe();

	in_root(mkdir, "shared", 0755);
	run("ensure shared\nmkdir shared/x\nwrite shared/x 1\n", APPLY, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_FAILED, "failure under an existing ensure directory");
	TAP_EQ_STR(r.trace,
		   "apply 1 exists @R/shared\n"
		   "apply 2 mkdir @R/shared/x\n"
		   "rollback 2 rmdir @R/shared/x\n", "rollback leaves a directory it did not make");
	check_tree("shared/\n", "the existing directory stays");
	run_free(&r);
	wipe();
}

/* Something else starts using a directory we made: rollback cannot remove it. */
static void squat(void *arg, const struct cfs_op *op)
{
	(void)arg;
	(void)op;
	in_root(mkfifo, "a/squatter", 0644);
}

static void test_left_behind(void)
{
	struct run r = { 0 };

	hook = squat;
	run("mkdir a\nmkdir a/b\nwrite a/b 1\n", APPLY, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_LEFT_BEHIND, "rollback that cannot finish: exit 3");
	has(r.err, "rollback: t.spec:1: rmdir @R/a: ENOTEMPTY", "failed rollback step reported");
	has(r.err, "rollback incomplete; left behind:\n  @R/a (t.spec:1 rmdir: ENOTEMPTY",
	    "what is left behind is listed");
	check_tree("a/\na/squatter|\n", "only the busy directory is left");
	wipe();

	run("mkdir a\nmkdir a/b\n", APPLY, &r);
	in_root(mkfifo, "a/b/squatter", 0644);
	run("mkdir a\nmkdir a/b\n", TEARDOWN, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_LEFT_BEHIND, "teardown that cannot finish: exit 3");
	has(r.err, "teardown: t.spec:2: rmdir @R/a/b: ENOTEMPTY", "teardown failure reported");
	has(r.err, "left behind:\n  @R/a/b (t.spec:2 rmdir: ENOTEMPTY: Directory not empty)\n"
	    "  @R/a (t.spec:1 rmdir: ENOTEMPTY", "teardown names everything left");
	wipe();

	in_root(mkdir, "shared", 0755);
	in_root(mkdir, "shared/other", 0755);
	run("ensure shared\n", TEARDOWN, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_OK, "teardown keeps an ensure directory still in use");
	TAP_EQ_STR(r.trace, "teardown 1 kept @R/shared\n", "traced as kept");
	run_free(&r);
	wipe();
}

static void test_undo_values(void)
{
	struct run r = { 0 };
	char p[512];
	int fd;

	run("write attr 1 undo 0\n", APPLY, &r);
	check_tree("attr=1\n", "attribute written");
	run("write attr 1 undo 0\n", TEARDOWN, &r);
	TAP_EQ_STR(r.trace, "teardown 1 write @R/attr 0\n", "undo value written");
	run("write attr 1 undo 0\n", TEARDOWN, &r);
	TAP_EQ_STR(r.trace, "teardown 1 unchanged @R/attr 0\n",
		   "undo skipped when the attribute holds it already");
	snprintf(p, sizeof(p), "%s/attr", root);
	fd = open(p, O_WRONLY | O_TRUNC);
	if (fd >= 0) {
		if (write(fd, "\n", 1) != 1)
			perror("write");
		close(fd);
	}
	run("write UDC x undo \"\\n\"\n", TEARDOWN, &r);
	TAP_EQ_STR(r.trace, "teardown 1 gone @R/UDC\n", "no attribute at all: gone");
	run("write attr x undo \"\\n\"\n", TEARDOWN, &r);
	TAP_EQ_STR(r.trace, "teardown 1 unchanged @R/attr \"\\n\"\n",
		   "an unbound UDC (\"\\n\") is not unbound twice");
	run_free(&r);
	wipe();
}

static void test_plan(void)
{
	struct run r = { 0 };

	run(good_spec, PLAN, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_OK, "dry-run of a good spec");
	has(r.out, "# apply plan for t.spec under @R\n", "plan header");
	has(r.out, "t.spec:3: write @R/a/b/x v undo u\nt.spec:4: write @R/a/en 1\n"
	    "t.spec:5: link @R/l -> @R/a/b\n", "plan lists absolute paths in order");
	check_tree("", "dry-run changes nothing");

	run(good_spec, PLAN_TEARDOWN, &r);
	has(r.out, "t.spec:7: rmdir @R/a/dg/c\nt.spec:5: unlink @R/l\nt.spec:3: write @R/a/b/x u\n"
	    "t.spec:2: rmdir-if-unused @R/a/b\nt.spec:1: rmdir @R/a\n", "teardown plan, reversed");

	run("mkdir a\nmkdir a/b/c\n", PLAN, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_USAGE, "missing parent: exit 2");
	has(r.err, "t.spec:2: mkdir @R/a/b/c: parent @R/a/b is not made earlier",
	    "missing parent named with its line");
	check_tree("", "still nothing changed");

	run("mkdir a\nlink zz a/l\nmkdir a\n", PLAN, &r);
	has(r.err, "t.spec:2: link @R/a/l: link target @R/zz is not made", "missing link target");
	has(r.err, "t.spec:3: mkdir @R/a: already made at line 1", "mkdir twice");

	in_root(mkdir, "x", 0755);
	run("mkdir x\n", PLAN, &r);
	has(r.err, "t.spec:1: mkdir @R/x: exists already", "mkdir of an existing directory");

	run("wait t/core\nmkdir t/core/x\nensure t/y\nwrite t/core/x/attr 1\n", PLAN, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_OK, "wait tells the plan a path (and its parents) will exist");
	wipe();

	emulate = false;
	in_root(mkdir, "dev", 0755);
	in_root(mkfile, "dev/enable", 0644);
	run("write dev/enable 1\n", PLAN, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_OK, "existing attribute of an existing directory");
	run("write dev/enabel 1\n", PLAN, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_USAGE, "misspelt attribute: exit 2");
	has(r.err, "t.spec:1: write @R/dev/enabel: no such attribute", "misspelt attribute named");
	run_free(&r);
	wipe();
}

static void test_writes(void)
{
	struct run r = { 0 };
	struct rlimit old, lim;
	char *text, *v = xmalloc(CFS_VALUE_MAX + 1);
	char p[512];
	struct stat st;

	memset(v, 'z', CFS_VALUE_MAX);
	v[CFS_VALUE_MAX] = '\0';
	text = xasprintf("write big %s\n", v);
	run(text, APPLY, &r);
	snprintf(p, sizeof(p), "%s/big", root);
	tap_ok(r.status == 0 && !stat(p, &st) && st.st_size == CFS_VALUE_MAX,
	       "a 4095-byte value is written whole");
	free(text);
	free(v);

	/* A real short write: RLIMIT_FSIZE lets only 10 bytes into the file. */
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 10;
	setrlimit(RLIMIT_FSIZE, &lim);
	run("write f 01234567890123456789\n", APPLY, &r);
	setrlimit(RLIMIT_FSIZE, &old);
	TAP_EQ_INT(r.status, CFS_EXIT_FAILED, "short write is an error");
	has(r.err, "t.spec:1: write @R/f 01234567890123456789: short write: 10 of 20 bytes",
	    "short write reported with counts");
	wipe();

	emulate = false;
	in_root(mkdir, "here", 0755);
	run("wait here 0.1\n", APPLY, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_OK, "wait for a path that exists");
	run("wait nothere 0.1\n", APPLY, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_FAILED, "wait times out: exit 1");
	has(r.err, "t.spec:1: wait @R/nothere: ENOENT: No such file or directory (waited 0.100s)",
	    "wait timeout reported");
	run("write here/nope 1\n", APPLY, &r);
	has(r.err, "t.spec:1: write @R/here/nope 1: ENOENT", "no O_CREAT outside --emulate");
	run_free(&r);
	wipe();
}

static void test_kmsg(void)
{
	struct run r = { 0 };
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/kmsg", tmp);
	f = fopen(path, "w");
	fputs("6,1,100,-;old line\n", f);
	fclose(f);
	kmsg_fd = kmsg_open(path);
	tap_ok(kmsg_fd >= 0, "kmsg_open on a file");
	f = fopen(path, "a");
	fputs("3,2,1234567,-;boom: thing failed\n SUBSYSTEM=x\n", f);
	fclose(f);
	run("mkdir a\nwrite a \"x\"\n", APPLY, &r);
	has(r.err, "  kernel log since start:\n    [    1.234567] boom: thing failed\n",
	    "new kernel log lines quoted in the report");
	tap_ok(!strstr(r.err, "old line") && !strstr(r.err, "SUBSYSTEM"),
	       "old records and continuation lines are not");
	unlink(path);
	run_free(&r);
	wipe();
}

static void hint_has(const char *path, const char *target, enum cfs_op_type t,
		     const char *action, int err, const char *what)
{
	struct cfs_op op = { .type = t, .path = (char *)path, .target = (char *)target };
	char *h = cfs_hint(&op, action, err);

	if (!tap_ok(h && strstr(h, what), "hint for %s %s %s mentions '%s'", errno_name(err),
		    action, path, what))
		printf("#   hint: %s\n", h ? h : "(none)");
	free(h);
}

static void test_hints(void)
{
	TAP_EQ_STR(errno_name(EBUSY), "EBUSY", "errno_name");
	hint_has("target/iscsi/iqn.x/tpgt_1/lun/lun_0/d", "target/core/iblock_0/d", OP_LINK,
		 "link", ENODEV, "backstore not enabled");
	hint_has("nvmet/ports/1/addr_traddr", NULL, OP_WRITE, "write", EACCES,
		 "port already enabled");
	hint_has("usb_gadget/g1/UDC", NULL, OP_WRITE, "write", EBUSY, "already bound or enabled");
	hint_has("usb_gadget/g1/UDC", NULL, OP_WRITE, "write", ENODEV, "dummy_hcd");
	hint_has("target/core/iblock_0/d", NULL, OP_MKDIR, "mkdir", ENOENT, "target_core_iblock");
	hint_has("target/core/iblock_0/d", NULL, OP_MKDIR, "mkdir", ENOENT, "mount -t configfs");
	hint_has("usb_gadget/g1/functions/mass_storage.0", NULL, OP_MKDIR, "mkdir", ENOENT,
		 "usb_f_mass_storage");
	hint_has("nvmet/ports/1/subsystems/n", "nvmet/subsystems/n", OP_LINK, "link", EINVAL,
		 "nvmet-tcp");
}

static void test_no_root(void)
{
	struct run r = { 0 };
	char saved[sizeof(root)];

	memcpy(saved, root, sizeof(root));
	snprintf(root, sizeof(root), "%s/missing", tmp);
	run("mkdir a\n", APPLY, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_FAILED, "apply without a root: exit 1");
	has(r.err, "mount -t configfs", "apply without a root says how to mount");
	run("mkdir a\n", TEARDOWN, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_OK, "teardown without a root: nothing to do");
	run("mkdir a\n", PLAN, &r);
	TAP_EQ_INT(r.status, CFS_EXIT_USAGE, "dry-run without a root: exit 2");
	memcpy(root, saved, sizeof(root));
	run_free(&r);
}

int main(void)
{
	tap_plan(79);
	if (!mkdtemp(tmp))
		die_errno("mkdtemp");
	snprintf(root, sizeof(root), "%s/root", tmp);
	if (mkdir(root, 0755))
		die_errno("mkdir %s", root);
	test_apply_teardown();
	test_rollback();
	test_left_behind();
	test_undo_values();
	test_plan();
	test_writes();
	test_kmsg();
	test_hints();
	test_no_root();
	wipe();
	rmdir(root);
	rmdir(tmp);
	return tap_done();
}
