// SPDX-License-Identifier: GPL-2.0
/* tool-afalg-sum-feed.c: tests for feeding a socket (splice, fallbacks) and for error paths. */
/*
 * Unix socket pairs stand in for the AF_ALG op socket: every byte must
 * arrive, in order, by the path the stats claim. The hashing itself is
 * proven in a guest with AF_ALG.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "err.h"
#include "io.h"
#include "../../tools/afalg-sum/afalg.h"
#include "../../tools/afalg-sum/check.h"
#include "../../tools/afalg-sum/feed.h"
#include "../../tools/afalg-sum/fmt.h"
#include "../../tools/afalg-sum/opts.h"
#include "../../tools/afalg-sum/mode.h"

#include <signal.h>
#include <sys/wait.h>

#include "../../tools/afalg-sum/sum.h"
#include "tap.h"

#define PLAN 62
#define BIG 300000

static char tmpdir[] = "/tmp/afsum-feed.XXXXXX";

static char *path(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static char *pattern(size_t n)
{
	char *buf = xmalloc(n ? n : 1);
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = (char)(i * 131 + i / 4099);
	return buf;
}

static char *make_file(const char *name, size_t n)
{
	char *p = path(name), *buf = pattern(n);

	if (write_file_atomic(p, buf, n, 0644))
		abort();
	free(buf);
	return p;
}

/* ---- test seams: misbehaving splice/send/read ---------------------------- */

enum mode {
	M_NONE,
	M_REFUSE_OUT,		/* pipe -> socket: EINVAL from the start */
	M_EPERM_OUT,		/* pipe -> socket: EPERM from the start */
	M_REFUSE_OUT_LATER,	/* pipe -> socket: EINVAL after two good splices */
	M_REFUSE_IN,		/* file -> pipe: EINVAL from the start */
	M_EIO_IN,		/* file -> pipe: EIO on the second call */
	M_SHORT_EINTR,		/* short splices, EINTR now and then */
	M_SHORT_SEND,		/* short sends and reads, EINTR now and then */
	M_ENOKEY_SEND,		/* send: ENOKEY */
};

static enum mode mode;
static int hook_sock, calls_in, calls_out, calls_send, calls_read, no_more;

static void hooks_reset(enum mode m, int sock)
{
	mode = m;
	hook_sock = sock;
	calls_in = calls_out = calls_send = calls_read = no_more = 0;
}

static ssize_t hook_splice(int fd_in, loff_t *off_in, int fd_out, loff_t *off_out, size_t len,
			   unsigned int flags)
{
	if (fd_out == hook_sock) {
		calls_out++;
		if (!(flags & SPLICE_F_MORE))
			no_more++;
		if (mode == M_REFUSE_OUT || (mode == M_REFUSE_OUT_LATER && calls_out > 2) ||
		    mode == M_EPERM_OUT) {
			errno = mode == M_EPERM_OUT ? EPERM : EINVAL;
			return -1;
		}
		if (mode == M_SHORT_EINTR) {
			if (calls_out % 2) {
				errno = EINTR;
				return -1;
			}
			if (len > 1000)
				len = 1000;
		}
	} else {
		calls_in++;
		if (mode == M_REFUSE_IN || (mode == M_EIO_IN && calls_in > 1)) {
			errno = mode == M_EIO_IN ? EIO : EINVAL;
			return -1;
		}
		if (mode == M_SHORT_EINTR) {
			if (calls_in % 3 == 1) {
				errno = EINTR;
				return -1;
			}
			if (len > 777)
				len = 777;
		}
	}
	return splice(fd_in, off_in, fd_out, off_out, len, flags);
}

static ssize_t hook_send(int fd, const void *buf, size_t len, int flags)
{
	calls_send++;
	if (!(flags & MSG_MORE))
		no_more++;
	if (mode == M_ENOKEY_SEND) {
		errno = ENOKEY;
		return -1;
	}
	if (mode == M_SHORT_SEND) {
		if (calls_send % 2) {
			errno = EINTR;
			return -1;
		}
		if (len > 999)
			len = 999;
	}
	return send(fd, buf, len, flags);
}

static ssize_t hook_read(int fd, void *buf, size_t len)
{
	calls_read++;
	if (mode == M_SHORT_SEND) {
		if (calls_read % 2) {
			errno = EINTR;
			return -1;
		}
		if (len > 1234)
			len = 1234;
	}
	return read(fd, buf, len);
}

static const struct afsum_feed_ctl hooked = {
	.splice = hook_splice, .send = hook_send, .read = hook_read
};
static const struct afsum_feed_ctl hooked_no_splice = {
	.no_splice = true, .splice = hook_splice, .send = hook_send, .read = hook_read
};

/*
 * Feed in into one end of a stream socket pair; a child copies what comes
 * out of the other end into a file. Returns afsum_feed()'s result; *got
 * and *got_len are what arrived.
 */
static int feed_collect(int in, enum mode m, const struct afsum_feed_ctl *ctl,
			struct afsum_feed_stats *st, char **got, size_t *got_len)
{
	char *out = path("collected");
	int sv[2], rc, status;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		abort();
	pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		char buf[65536];
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		ssize_t n;

		close(sv[0]);
		while ((n = read(sv[1], buf, sizeof(buf))) > 0)
			if (write_all(fd, buf, (size_t)n))
				_exit(1);
		_exit(n < 0 || close(fd) ? 1 : 0);
	}
	close(sv[1]);
	hooks_reset(m, sv[0]);
	rc = afsum_feed(sv[0], in, ctl, st);
	close(sv[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		abort();
	if (read_file(out, got, got_len))
		abort();
	free(out);
	return rc;
}

/* Feed the file at p (from offset off) and compare what arrived with the pattern. */
static void feed_file(const char *what, const char *p, size_t n, off_t off, enum mode m,
		      const struct afsum_feed_ctl *ctl, enum afsum_feed_how how, int fallback_err)
{
	struct afsum_feed_stats st;
	char *got, *want = pattern(n);
	size_t got_len;
	int fd = open(p, O_RDONLY), rc;

	if (fd < 0 || lseek(fd, off, SEEK_SET) != off)
		abort();
	rc = feed_collect(fd, m, ctl, &st, &got, &got_len);
	close(fd);
	TAP_EQ_INT(rc, 0, "%s: fed", what);
	tap_ok(got_len == n - (size_t)off && !memcmp(got, want + off, got_len),
	       "%s: every byte arrived in order (%zu of %zu)", what, got_len, n - (size_t)off);
	tap_ok(st.bytes == got_len && st.how == how && st.fallback_err == fallback_err,
	       "%s: stats say %s (%s, %llu bytes, %llu spliced, err %d)", what,
	       afsum_feed_how_name(how), afsum_feed_how_name(st.how),
	       (unsigned long long)st.bytes, (unsigned long long)st.spliced, st.fallback_err);
	TAP_EQ_INT(no_more, 0, "%s: every chunk flagged more", what);
	free(got);
	free(want);
}

static void test_feed(void)
{
	char *big = make_file("big", BIG), *empty = make_file("empty", 0);
	struct afsum_feed_stats st;
	char *got, *want;
	size_t got_len;
	int fds[2], fd, rc;

	feed_file("regular file", big, BIG, 0, M_NONE, &hooked, AFSUM_FEED_SPLICE, 0);
	tap_ok(calls_out > 0 && calls_send == 0, "regular file: spliced, never sent");
	feed_file("regular file from offset 1000", big, BIG, 1000, M_NONE, &hooked,
		  AFSUM_FEED_SPLICE, 0);
	feed_file("--no-splice", big, BIG, 0, M_NONE, &hooked_no_splice, AFSUM_FEED_FORCED, 0);
	tap_ok(calls_out == 0 && calls_in == 0, "--no-splice: splice never called");
	feed_file("empty file", empty, 0, 0, M_NONE, &hooked, AFSUM_FEED_SPLICE, 0);
	feed_file("socket refuses splice", big, BIG, 0, M_REFUSE_OUT, &hooked, AFSUM_FEED_FALLBACK,
		  EINVAL);
	tap_ok(calls_in == 1 && calls_out == 1 && calls_send > 0,
	       "socket refuses splice: the pipe was drained, then read+send (%d, %d)",
	       calls_in, calls_out);
	feed_file("socket splice EPERM", big, BIG, 0, M_EPERM_OUT, &hooked, AFSUM_FEED_FALLBACK,
		  EPERM);
	feed_file("file refuses splice", big, BIG, 0, M_REFUSE_IN, &hooked, AFSUM_FEED_FALLBACK,
		  EINVAL);
	feed_file("short splices and EINTR", big, BIG, 0, M_SHORT_EINTR, &hooked,
		  AFSUM_FEED_SPLICE, 0);
	tap_ok(calls_out > BIG / 1000, "short splices and EINTR: retried (%d calls)", calls_out);
	feed_file("short sends and reads, EINTR", big, BIG, 0, M_SHORT_SEND, &hooked_no_splice,
		  AFSUM_FEED_FORCED, 0);
	tap_ok(calls_send > BIG / 999, "short sends: retried (%d calls)", calls_send);
	feed_file("real splice and send", big, BIG, 0, M_NONE, NULL, AFSUM_FEED_SPLICE, 0);

	/* a pipe is read and sent */
	want = pattern(50000);
	if (pipe(fds) || write_all(fds[1], want, 50000))
		abort();
	close(fds[1]);
	rc = feed_collect(fds[0], M_NONE, &hooked, &st, &got, &got_len);
	close(fds[0]);
	tap_ok(rc == 0 && got_len == 50000 && !memcmp(got, want, 50000) &&
	       st.how == AFSUM_FEED_NOT_FILE && st.spliced == 0 && !no_more,
	       "pipe: read and sent, every byte (%zu)", got_len);
	free(got);
	free(want);

	/* refused after bytes went in: an error, not a silent switch */
	fd = open(big, O_RDONLY);
	rc = feed_collect(fd, M_REFUSE_OUT_LATER, &hooked, &st, &got, &got_len);
	close(fd);
	tap_ok(rc == -EINVAL && !st.input_failed && st.how == AFSUM_FEED_SPLICE,
	       "socket refuses splice midway: socket error (%d)", rc);
	free(got);

	fd = open(big, O_RDONLY);
	rc = feed_collect(fd, M_EIO_IN, &hooked, &st, &got, &got_len);
	close(fd);
	tap_ok(rc == -EIO && st.input_failed, "file fails midway: input error (%d)", rc);
	free(got);

	fd = open(big, O_RDONLY);
	rc = feed_collect(fd, M_ENOKEY_SEND, &hooked_no_splice, &st, &got, &got_len);
	close(fd);
	tap_ok(rc == -ENOKEY && !st.input_failed, "send ENOKEY: socket error (%d)", rc);
	free(got);

	fd = open(tmpdir, O_RDONLY | O_DIRECTORY);
	rc = feed_collect(fd, M_NONE, &hooked, &st, &got, &got_len);
	close(fd);
	tap_ok(rc == -EISDIR && st.input_failed && st.how == AFSUM_FEED_NOT_FILE,
	       "directory: input error EISDIR (%d)", rc);
	free(got);

	/* st_size is 0, yet there is content: read to end of file, not to st_size */
	fd = open("/proc/self/status", O_RDONLY);
	rc = feed_collect(fd, M_NONE, NULL, &st, &got, &got_len);
	close(fd);
	tap_ok(rc == 0 && got_len > 100 && st.bytes == got_len && !strncmp(got, "Name:", 5),
	       "/proc/self/status (st_size 0): %zu bytes by %s", got_len, afsum_feed_how_name(st.how));
	free(got);

	free(big);
	free(empty);
}

/* ---- afsum_hash_op: feed, then one read of the reply, length checked ---- */

static void test_hash_op(void)
{
	char *small = make_file("small", 1000);
	unsigned char reply[600], d[AFSUM_MAX_DIGEST];
	struct afsum_feed_stats st;
	char buf[4096];
	size_t len = 0, i;
	int sv[2], fd, rc;
	ssize_t n, total;

	for (i = 0; i < sizeof(reply); i++)
		reply[i] = (unsigned char)(255 - i);

	for (i = 0; i < 3; i++) {
		static const size_t sizes[] = { 32, 32, 600 };
		static const size_t wants[] = { 32, 20, 32 };
		static const int rcs[] = { 0, -EBADMSG, -EMSGSIZE };

		if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
			abort();
		if (send(sv[1], reply, sizes[i], 0) != (ssize_t)sizes[i])
			abort();
		fd = open(small, O_RDONLY);
		len = 0;
		rc = afsum_hash_op(sv[0], fd, NULL, wants[i], d, &len, &st);
		close(fd);
		close(sv[0]);
		total = 0;
		while ((n = recv(sv[1], buf, sizeof(buf), MSG_DONTWAIT)) > 0)
			total += n;
		close(sv[1]);
		tap_ok(rc == rcs[i] && !st.input_failed && total == 1000,
		       "hash_op: %zu-byte reply, %zu wanted: %d (%d), %zd bytes fed", sizes[i],
		       wants[i], rcs[i], rc, total);
		if (i == 0)
			tap_ok(len == 32 && !memcmp(d, reply, 32), "hash_op: the reply is the digest");
		if (i == 1)
			TAP_EQ_INT(len, 32, "hash_op: wrong length reported");
	}
	free(small);
}

/* ---- run and check loops: errors that involve no digest ------------------ */

static int stub_rc, stub_calls;

static int stub_hash(struct afsum_hasher *h, int fd, const char *name, unsigned char *digest,
		     size_t *len)
{
	(void)h;
	(void)fd;
	(void)name;
	(void)digest;
	(void)len;
	stub_calls++;
	return stub_rc;
}

static void test_loops(void)
{
	struct afsum_hasher h = { .hash = stub_hash, .digest_len = 32, .tag = "SHA256" };
	char *a = make_file("a", 10), *b = make_file("b", 10), *nosuch = path("nosuch");
	char *files[] = { a, nosuch, tmpdir, b };
	struct afsum_opts o = { .alg = "sha256", .files = files, .nfiles = 4, .key_fd = -1 };
	char *outb = NULL, *errb = NULL, *want;
	size_t outl = 0, errl = 0;
	FILE *out = open_memstream(&outb, &outl), *err = open_memstream(&errb, &errl), *in;
	int rc;
	char line[200];

	err_prog = "prog";
	stub_rc = -EIO;
	rc = afsum_sum_files(&o, &h, out, err);
	fflush(out);
	fflush(err);
	want = xasprintf("prog: %s: Input/output error\nprog: %s: No such file or directory\n"
			 "prog: %s: Is a directory\nprog: %s: Input/output error\n", a, nosuch, tmpdir, b);
	tap_ok(rc == AFSUM_EXIT_FAIL && outl == 0 && stub_calls == 2,
	       "sum: errors reported, run goes on, status 1");
	TAP_EQ_STR(errb, want, "sum: coreutils-style messages");
	free(want);

	stub_rc = AFSUM_EXIT_KERNEL;
	stub_calls = 0;
	rc = afsum_sum_files(&o, &h, out, err);
	tap_ok(rc == AFSUM_EXIT_KERNEL && stub_calls == 1, "sum: a fatal hasher error stops the run");

	/* check: a fatal error stops, a read error is "FAILED open or read" */
	snprintf(line, sizeof(line), "%064d  %s\n%064d  %s\n", 0, a, 0, b);
	stub_calls = 0;
	in = fmemopen(line, strlen(line), "r");
	o.check = true;
	rc = afsum_check_stream(&o, &h, in, "list", out, err);
	fclose(in);
	tap_ok(rc == AFSUM_EXIT_KERNEL && stub_calls == 1, "check: a fatal hasher error stops");

	fflush(out);
	fflush(err);
	fseeko(out, 0, SEEK_SET);
	fseeko(err, 0, SEEK_SET);
	stub_rc = -EIO;
	in = fmemopen(line, strlen(line), "r");
	rc = afsum_check_stream(&o, &h, in, "list", out, err);
	fclose(in);
	fflush(out);
	fflush(err);
	want = xasprintf("%s: FAILED open or read\n%s: FAILED open or read\n", a, b);
	tap_ok(rc == AFSUM_EXIT_FAIL && outl == strlen(want) && !memcmp(outb, want, outl),
	       "check: read errors are FAILED open or read");
	free(want);
	want = xasprintf("prog: %s: Input/output error\nprog: %s: Input/output error\n"
			 "prog: WARNING: 2 listed files could not be read\n", a, b);
	tap_ok(errl == strlen(want) && !memcmp(errb, want, errl), "check: messages and summary");
	if (errl != strlen(want) || memcmp(errb, want, errl))
		printf("# saw: %.*s\n", (int)errl, errb);
	free(want);

	fclose(out);
	fclose(err);
	free(outb);
	free(errb);
	free(a);
	free(b);
	free(nosuch);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	tap_plan(PLAN);
	test_feed();
	test_hash_op();
	test_loops();
	tap_rm_tree(tmpdir);
	return tap_done();
}
