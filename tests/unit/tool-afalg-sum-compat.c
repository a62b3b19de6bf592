// SPDX-License-Identifier: GPL-2.0
/* tool-afalg-sum-compat.c: rapido-afalg-sum's output and status against the host's sha256sum. */
/*
 * The same arguments go to the host's sha256sum and to our parser and
 * run/check code; stdout, stderr and exit status must match byte for
 * byte. Our side's digests come from the host's sha256sum too (the
 * hasher below runs it on each file): this test is about everything but
 * the hashing, which a guest with AF_ALG proves.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algsock.h"
#include "err.h"
#include "io.h"
#include "refhash.h"
#include "run.h"
#include "../../tools/afalg-sum/afalg.h"
#include "../../tools/afalg-sum/check.h"
#include "../../tools/afalg-sum/feed.h"
#include "../../tools/afalg-sum/fmt.h"
#include "../../tools/afalg-sum/opts.h"
#include "../../tools/afalg-sum/mode.h"

#include <sys/wait.h>

#include "../../tools/afalg-sum/sum.h"
#include "tap.h"

#define PLAN 77

static char tmpdir[] = "/tmp/afsum-compat.XXXXXX";

struct res {
	char *out, *err;
	size_t out_len, err_len;
	int status;
};

static void res_free(struct res *r)
{
	free(r->out);
	free(r->err);
}

/* Run argv (in tmpdir, LC_ALL=C) with stdin from in_fd; collect stdout, stderr, status. */
static void run(char *const argv[], int in_fd, struct res *r)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		abort();
	if (pid == 0) {
		int o = open(".stdout", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(".stderr", O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0 ||
		    (in_fd >= 0 && dup2(in_fd, 0) < 0))
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		abort();
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
	if (read_file(".stdout", &r->out, &r->out_len) || read_file(".stderr", &r->err, &r->err_len))
		abort();
}

/* The stand-in for the kernel: the host's sha256sum on the open file. */
static int coreutils_hash(struct afsum_hasher *h, int fd, const char *name, unsigned char *digest,
			  size_t *len)
{
	char *argv[] = { "sha256sum", NULL };
	struct res r;
	size_t i;

	(void)name;
	run(argv, fd, &r);
	if (r.status || r.out_len < 64) {
		res_free(&r);
		return -EIO;
	}
	for (i = 0; i < 32; i++) {
		unsigned int b;

		if (sscanf(r.out + 2 * i, "%2x", &b) != 1)
			abort();
		digest[i] = (unsigned char)b;
	}
	*len = h->digest_len;
	res_free(&r);
	return 0;
}

/* Ours: parse a copy of args (getopt permutes it), run with memory streams. */
static void ours(char *const args[], struct res *r)
{
	struct afsum_hasher h = { .hash = coreutils_hash, .digest_len = 32, .tag = "SHA256" };
	char *argv[64];
	struct afsum_opts o;
	FILE *out, *err;
	int argc = 0, rc;

	argv[argc++] = "sha256sum";
	while (args[argc - 1])
		argv[argc] = args[argc - 1], argc++;
	argv[argc] = NULL;
	r->out = r->err = NULL;
	out = open_memstream(&r->out, &r->out_len);
	err = open_memstream(&r->err, &r->err_len);
	rc = afsum_parse_args(&o, argc, argv, out, err);
	if (rc < 0)
		rc = afsum_run(&o, &h, out, err);
	fclose(out);
	fclose(err);
	r->status = rc;
}

static void show(const char *what, const char *s, size_t n)
{
	size_t i;

	printf("#   %s: \"", what);
	for (i = 0; i < n; i++)
		if (s[i] >= 0x20 && s[i] < 0x7f)
			putchar(s[i]);
		else
			printf("\\%03o", (unsigned char)s[i]);
	printf("\"\n");
}

/* Compare sha256sum ARGS with ours; stdin_file feeds both, if given. */
static void same(const char *desc, const char *stdin_file, char *const args[])
{
	char *argv[64];
	struct res want, got;
	int i, in = -1, ok;

	argv[0] = "sha256sum";
	for (i = 0; args[i]; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	if (stdin_file) {
		in = open(stdin_file, O_RDONLY);
		if (in < 0 || !freopen(stdin_file, "r", stdin))
			abort();
	}
	run(argv, in, &want);
	if (in >= 0)
		close(in);
	ours(args, &got);
	ok = want.status == got.status && want.out_len == got.out_len &&
	     !memcmp(want.out, got.out, got.out_len) && want.err_len == got.err_len &&
	     !memcmp(want.err, got.err, got.err_len);
	tap_ok(ok, "same as sha256sum: %s", desc);
	if (!ok) {
		printf("#   status: sha256sum %d, ours %d\n", want.status, got.status);
		show("sha256sum stdout", want.out, want.out_len);
		show("ours      stdout", got.out, got.out_len);
		show("sha256sum stderr", want.err, want.err_len);
		show("ours      stderr", got.err, got.err_len);
	}
	res_free(&want);
	res_free(&got);
}

static void put(const char *name, const char *content)
{
	if (write_file_atomic(name, content, strlen(content), 0644))
		abort();
}

/* Write sha256sum's own output for args into name. */
static void put_sums(const char *name, char *const args[], const char *extra)
{
	char *argv[64], *all;
	struct res r;
	int i;

	argv[0] = "sha256sum";
	for (i = 0; args[i]; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	run(argv, -1, &r);
	all = xasprintf("%.*s%s", (int)r.out_len, r.out, extra);
	put(name, all);
	free(all);
	res_free(&r);
}

#define HP "50e721e49c013f00c62cf59f2163542a9d8df02464efeb615d31051b0fddc326" /* "w" */
#define HX "0000000000000000000000000000000000000000000000000000000000000000"

static void test_empty_digests(void)
{
	static const char *const algs[] = { "md5", "sha1", "sha224", "sha256", "sha384", "sha512" };
	size_t i;

	for (i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
		char *prog = xasprintf("%ssum", algs[i]);
		char *argv[] = { prog, NULL };
		unsigned char d[REF_MAX_DIGEST];
		char e[2 * REF_MAX_DIGEST + 1] = "";
		size_t n = afsum_alg_empty_digest(algs[i], d);
		struct res r;
		int in = open("/dev/null", O_RDONLY);

		for (size_t j = 0; j < n; j++)
			sprintf(e + 2 * j, "%02x", d[j]);

		run(argv, in, &r);
		close(in);
		tap_ok(r.status == 0 && n && r.out_len > strlen(e) && !strncmp(r.out, e, strlen(e)) &&
		       r.out[strlen(e)] == ' ' && strlen(e) == 2 * afalg_digest_len(algs[i]),
		       "%s of nothing: the table agrees with %s", algs[i], prog);
		res_free(&r);
		free(prog);
	}
}

/*
 * Ours follows the coreutils on PATH (in a guest, the one the image
 * carries): with a 9.1 and then a 9.7 in front of the host's, -c prints
 * each one's escaping, whichever the host has.
 */
static void test_follows_path(void)
{
	static const struct {
		const char *ver, *want;
	} vers[] = {
		{ "9.1", "a\\b: OK\nc\rr: OK\n\\n\\nl: OK\nplain: OK\n" },
		{ "9.7", "\\a\\\\b: OK\n\\c\\rr: OK\n\\n\\nl: OK\nplain: OK\n" },
	};
	char *names[] = { "a\\b", "c\rr", "n\nl", "plain", NULL };
	char *real = find_in_path("sha256sum"), *old = xstrdup(getenv("PATH"));
	size_t i;

	if (!real)
		abort();
	put_sums("names.sum", names, "");
	for (i = 0; i < sizeof(vers) / sizeof(vers[0]); i++) {
		char *dir = xasprintf("%s/v%s", tmpdir, vers[i].ver);
		char *prog = xasprintf("%s/sha256sum", dir);
		char *script = xasprintf("#!/bin/sh\n[ \"$1\" != --version ] || "
					 "{ echo 'sha256sum (GNU coreutils) %s'; exit 0; }\n"
					 "exec %s \"$@\"\n", vers[i].ver, real);
		char *path = xasprintf("%s:%s", dir, old);
		char *args[] = { "-c", "names.sum", NULL };
		struct res r;

		if (mkdir(dir, 0755) || write_file_atomic(prog, script, strlen(script), 0755) ||
		    setenv("PATH", path, 1))
			abort();
		ours(args, &r);
		tap_ok(r.status == 0 && r.out_len == strlen(vers[i].want) &&
		       !memcmp(r.out, vers[i].want, r.out_len),
		       "-c with coreutils %s on PATH: its escaping", vers[i].ver);
		if (r.status || r.out_len != strlen(vers[i].want) || memcmp(r.out, vers[i].want, r.out_len)) {
			show("want", vers[i].want, strlen(vers[i].want));
			show("ours", r.out, r.out_len);
		}
		res_free(&r);
		free(dir);
		free(prog);
		free(script);
		free(path);
	}
	if (setenv("PATH", old, 1))
		abort();
	free(old);
	free(real);
}

int main(void)
{
	char *probe[] = { "sha256sum", "--version", NULL };
	struct res r;
	size_t i, j;

	if (!mkdtemp(tmpdir) || chdir(tmpdir)) {
		perror(tmpdir);
		return 1;
	}
	setenv("LC_ALL", "C", 1);
	run(probe, -1, &r);
	if (r.status || !strstr(r.out, "GNU coreutils")) {
		printf("1..0 # SKIP no GNU sha256sum on this host\n");
		return 77;
	}
	printf("# %.*s", (int)strcspn(r.out, "\n") + 1, r.out);
	res_free(&r);
	err_prog = "sha256sum";
	tap_plan(PLAN);

	put("plain", "w");
	put("empty", "");
	put("a\\b", "x");
	put("n\nl", "y");
	put("c\rr", "z");
	put("b\\s\nl", "y");
	put("sp ace", "s");
	put("a'b", "q");
	put("(p)", "p");
	if (mkdir("d", 0755))
		abort();

	{
		char *all[] = { "plain", "empty", "a\\b", "n\nl", "c\rr", "b\\s\nl", "sp ace", "a'b",
				"(p)", "nosuch", "d", NULL };
		char *tag[] = { "--tag", "plain", "a\\b", "n\nl", "c\rr", "nosuch", NULL };
		char *bin[] = { "-b", "plain", "a\\b", "n\nl", NULL };
		char *zero[] = { "-z", "plain", "a\\b", "n\nl", "c\rr", "d", NULL };
		char *tagzero[] = { "--tag", "-z", "plain", "a\\b", "n\nl", NULL };
		char *text[] = { "-t", "plain", "sp ace", NULL };
		char *dash[] = { "plain", "-", NULL };
		char *none[] = { NULL };

		same("plain and odd names, missing file, directory", NULL, all);
		same("--tag", NULL, tag);
		same("-b", NULL, bin);
		same("-z", NULL, zero);
		same("--tag -z", NULL, tagzero);
		same("-t", NULL, text);
		same("a file and standard input", "plain", dash);
		same("no file: standard input", "a\\b", none);
	}

	{
		char *odd[] = { "plain", "empty", "a\\b", "n\nl", "c\rr", "b\\s\nl", "sp ace", "a'b",
				"(p)", NULL };
		char *oddtag[] = { "--tag", "plain", "a\\b", "n\nl", "c\rr", "b\\s\nl", "(p)", NULL };

		put_sums("good.sum", odd, "");
		put_sums("tag.sum", oddtag, "");
	}
	put("mixed.sum",
	    HP "  plain\n"
	    "SHA256 (plain) = " HP "\n"
	    "garbage\n"
	    HP "  nosuch\n"
	    HX "  plain\n"
	    "# comment\n"
	    "\n"
	    HP "  plain\r\n"
	    "50E721E49C013F00C62CF59F2163542A9D8DF02464EFEB615D31051B0FDDC326 *plain\n"
	    "SHA256(plain)=" HP "\n"
	    "MD5 (plain) = d41d8cd98f00b204e9800998ecf8427e\n"
	    HP "  -\n"
	    HP "  d\n"
	    "  \t" HP "  plain\n"
	    HP "  plain"	/* no final newline */);
	put("rev.sum", HP " plain\n" HP "  plain\n" HP " *plain\n");
	put("std-rev.sum", HP "  plain\n" HP " plain\n");
	put("bad.sum", "garbage\nmore garbage\n");
	put("esc.sum",
	    "\\" HP "  a\\qb\n"
	    "\\" HP "  ab\\\n"
	    "\\2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881  a\\\\b\n"
	    "\\SHA256 (c\\rr) = 594e519ae499312b29433b7dd8a97ff068defcba9755b6d5d00e84c524d67b06\n"
	    "\\" HX "  n\\nl\n");
	put("missing.sum", HP "  nosuch\n" HP "  nosuch2\n");
	put("mismatch.sum", HX "  plain\n" HX "  a\\b\n" HP "  plain\n");
	put("dash.sum", HP "  -\n" HP "  plain\n");

	{
		static const char *const files[] = { "good.sum", "tag.sum", "mixed.sum", "rev.sum",
						     "std-rev.sum", "bad.sum", "esc.sum", "missing.sum",
						     "mismatch.sum" };
		static const char *const optsets[][4] = {
			{ NULL }, { "--quiet" }, { "--status" }, { "-w" }, { "--strict" },
			{ "--ignore-missing" }, { "-w", "--strict", "--ignore-missing" },
		};

		for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			for (j = 0; j < sizeof(optsets) / sizeof(optsets[0]); j++) {
				char *args[8], desc[128];
				int n = 0, k;

				/* all option sets on the files that need them, a few on the rest */
				if (i < 2 && j > 1 && j != 3)
					continue;
				args[n++] = "-c";
				for (k = 0; optsets[j][k]; k++)
					args[n++] = (char *)optsets[j][k];
				args[n++] = (char *)files[i];
				args[n] = NULL;
				snprintf(desc, sizeof(desc), "-c %s%s%s%s", files[i],
					 optsets[j][0] ? " " : "", optsets[j][0] ? optsets[j][0] : "",
					 optsets[j][1] ? " ..." : "");
				same(desc, "plain", args);
			}
		}
	}
	{
		char *two[] = { "-c", "good.sum", "mismatch.sum", NULL };
		char *nofile[] = { "-c", "nofile.sum", "good.sum", NULL };
		char *dir[] = { "-c", "d", NULL };
		char *std[] = { "-c", "-", NULL };
		char *stdw[] = { "-c", "-w", NULL };

		same("-c two check files", NULL, two);
		same("-c a missing check file", NULL, nofile);
		same("-c a directory", NULL, dir);
		same("-c - (mixed, from standard input)", "mixed.sum", std);
		same("-c -w (a line naming '-' read from standard input)", "dash.sum", stdw);
		same("-c - (bad lines only, from standard input)", "bad.sum", std);
	}
	test_empty_digests();
	test_follows_path();

	if (chdir("/") == 0)
		tap_rm_tree(tmpdir);
	return tap_done();
}
