// SPDX-License-Identifier: GPL-2.0
/* tool-afalg-sum.c: unit tests for rapido-afalg-sum: options, output, check lines, digest reads. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "algsock.h"
#include "err.h"
#include "hex.h"
#include "io.h"
#include "proccrypto.h"
#include "refhash.h"
#include "../../tools/afalg-sum/afalg.h"
#include "../../tools/afalg-sum/check.h"
#include "../../tools/afalg-sum/feed.h"
#include "../../tools/afalg-sum/fmt.h"
#include "../../tools/afalg-sum/opts.h"
#include "../../tools/afalg-sum/mode.h"

#include <stdarg.h>

#include "../../tools/afalg-sum/sum.h"
#include "tap.h"

#define PLAN 140
#define H64 "50e721e49c013f00c62cf59f2163542a9d8df02464efeb615d31051b0fddc326"

static char tmpdir[] = "/tmp/afsum-unit.XXXXXX";

/* ---- helpers ---------------------------------------------------------- */

struct mem {
	char *buf;
	size_t len;
	FILE *f;
};

static void mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	if (!m->f)
		abort();
}

static const char *mem_str(struct mem *m)
{
	fflush(m->f);
	return m->buf ? m->buf : "";
}

static void mem_close(struct mem *m)
{
	fclose(m->f);
	free(m->buf);
}

static int parse(struct afsum_opts *o, struct mem *out, struct mem *err, ...)
{
	/*
	 * static: afsum_parse_args() leaves o->files pointing into argv, as
	 * main()'s argv outlives it; the checks read o->files after parse()
	 * returns (gcc 14's ASan found the stack-use-after-return).
	 */
	static char *argv[32];
	int argc = 0, rc;
	va_list ap;

	argv[argc++] = (char *)AFSUM_PROG;
	va_start(ap, err);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	mem_open(out);
	mem_open(err);
	rc = afsum_parse_args(o, argc, argv, out->f, err->f);
	fflush(out->f);
	fflush(err->f);
	return rc;
}

static int parse_rc(const char *a, const char *b, const char *c)
{
	struct afsum_opts o;
	struct mem out, err;
	int rc = parse(&o, &out, &err, a, b, c, NULL);

	mem_close(&out);
	mem_close(&err);
	return rc;
}

static char *path(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static void write_pattern(const char *p, size_t n)
{
	char *buf = xmalloc(n ? n : 1);
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = (char)(i * 131 + i / 4099);
	if (write_file_atomic(p, buf, n, 0644))
		abort();
	free(buf);
}

/* ---- options ---------------------------------------------------------- */

static void test_options(void)
{
	struct afsum_opts o;
	struct mem out, err;
	char long_name[AFSUM_MAX_ALG_NAME + 2];
	int rc;

	rc = parse(&o, &out, &err, NULL);
	tap_ok(rc == -1 && o.nfiles == 1 && !strcmp(o.files[0], "-") && !strcmp(o.alg, "sha256") &&
	       o.binary == 0 && !o.tag && !o.check && o.key_fd == -1 && !o.key_file,
	       "no arguments: sha256 of standard input");
	mem_close(&out);
	mem_close(&err);

	rc = parse(&o, &out, &err, "-a", "sha1", "-b", "f1", "--", "-a", NULL);
	tap_ok(rc == -1 && !strcmp(o.alg, "sha1") && o.binary == 1 && o.nfiles == 2 &&
	       !strcmp(o.files[0], "f1") && !strcmp(o.files[1], "-a"), "-a sha1 -b f1 -- -a");
	mem_close(&out);
	mem_close(&err);

	rc = parse(&o, &out, &err, "--algorithm=hmac(sha256)", "--key-fd", "7", "--no-splice",
		   "--debug", "--tag", NULL);
	tap_ok(rc == -1 && !strcmp(o.alg, "hmac(sha256)") && o.key_fd == 7 && o.no_splice &&
	       o.debug && o.tag && o.binary == 1, "long options, --tag sets binary");
	mem_close(&out);
	mem_close(&err);

	rc = parse(&o, &out, &err, "-c", "--status", "-w", "--strict", "--ignore-missing", "x", NULL);
	tap_ok(rc == -1 && o.check && o.warn && !o.status && o.strict && o.ignore_missing,
	       "check options: the last of --status/--warn/--quiet wins");
	mem_close(&out);
	mem_close(&err);

	rc = parse(&o, &out, &err, "--help", NULL);
	tap_ok(rc == 0 && strstr(mem_str(&out), "Usage: rapido-afalg-sum [OPTION]... [FILE]...") &&
	       strstr(mem_str(&out), "  3  AF_ALG not available") &&
	       strstr(mem_str(&out), "  6  an AF_ALG operation failed") && !*mem_str(&err),
	       "--help: usage and exit codes on stdout, status 0");
	mem_close(&out);
	mem_close(&err);

	rc = parse(&o, &out, &err, "--bogus", NULL);
	TAP_EQ_INT(rc, AFSUM_EXIT_USAGE, "unknown option: usage status");
	tap_ok(strstr(mem_str(&err), "Try 'rapido-afalg-sum --help' for more information.\n") != NULL,
	       "unknown option: Try line");
	mem_close(&out);
	mem_close(&err);

	rc = parse(&o, &out, &err, "--tag", "-t", NULL);
	tap_ok(rc == AFSUM_EXIT_USAGE &&
	       !strcmp(mem_str(&err), "rapido-afalg-sum: --tag does not support --text mode\n"
		       "Try 'rapido-afalg-sum --help' for more information.\n"),
	       "--tag -t refused as coreutils does");
	mem_close(&out);
	mem_close(&err);

	TAP_EQ_INT(parse_rc("-t", "--tag", NULL), -1, "-t --tag accepted (--tag sets binary)");
	TAP_EQ_INT(parse_rc("-c", "-z", NULL), AFSUM_EXIT_USAGE, "-c -z refused");
	TAP_EQ_INT(parse_rc("-c", "--tag", NULL), AFSUM_EXIT_USAGE, "-c --tag refused");
	TAP_EQ_INT(parse_rc("-c", "-b", NULL), AFSUM_EXIT_USAGE, "-c -b refused");
	TAP_EQ_INT(parse_rc("--status", NULL, NULL), AFSUM_EXIT_USAGE, "--status without -c refused");
	TAP_EQ_INT(parse_rc("--quiet", NULL, NULL), AFSUM_EXIT_USAGE, "--quiet without -c refused");
	TAP_EQ_INT(parse_rc("-w", NULL, NULL), AFSUM_EXIT_USAGE, "--warn without -c refused");
	TAP_EQ_INT(parse_rc("--strict", NULL, NULL), AFSUM_EXIT_USAGE, "--strict without -c refused");
	TAP_EQ_INT(parse_rc("--ignore-missing", NULL, NULL), AFSUM_EXIT_USAGE,
		   "--ignore-missing without -c refused");
	TAP_EQ_INT(parse_rc("--key-fd", "-1", NULL), AFSUM_EXIT_USAGE, "--key-fd -1 refused");
	TAP_EQ_INT(parse_rc("--key-fd", "3x", NULL), AFSUM_EXIT_USAGE, "--key-fd 3x refused");
	TAP_EQ_INT(parse_rc("--key-file=k", "--key-fd=3", NULL), AFSUM_EXIT_USAGE, "two keys refused");
	TAP_EQ_INT(parse_rc("-a", "", NULL), AFSUM_EXIT_USAGE, "empty algorithm refused");
	TAP_EQ_INT(parse_rc("-a", NULL, NULL), AFSUM_EXIT_USAGE, "-a without argument refused");
	TAP_EQ_INT(parse_rc("--version", NULL, NULL), 0, "--version");

	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	TAP_EQ_INT(parse_rc("-a", long_name, NULL), AFSUM_EXIT_UNKNOWN_ALG,
		   "a name longer than salg_name holds is an unknown algorithm");
	long_name[AFSUM_MAX_ALG_NAME] = '\0';
	TAP_EQ_INT(parse_rc("-a", long_name, NULL), -1, "a %d-byte name is accepted",
		   AFSUM_MAX_ALG_NAME);
}

/* ---- output ----------------------------------------------------------- */

static void sum_line(const char *name, bool tagged, bool binary, bool zero, const char *want,
		     size_t want_len)
{
	unsigned char d[32];
	struct mem m;
	size_t i;

	for (i = 0; i < sizeof(d); i++)
		d[i] = (unsigned char)(i * 17);
	mem_open(&m);
	afsum_print_sum(m.f, "SHA256", d, sizeof(d), name, tagged, binary, zero);
	fflush(m.f);
	tap_ok(m.len == want_len && !memcmp(m.buf, want, want_len), "line for %s%s%s%s",
	       name[0] == '\n' ? "(newline)" : "name", tagged ? " --tag" : "", binary ? " -b" : "",
	       zero ? " -z" : "");
	if (m.len != want_len || memcmp(m.buf, want, want_len))
		printf("#   saw \"%.*s\"\n", (int)m.len, m.buf);
	mem_close(&m);
}

#define HEX17 "00112233445566778899aabbccddeeff102132435465768798a9bacbdcedfe0f"
#define LINE(s) s, sizeof(s) - 1

static void quote_is(const char *name, const char *want)
{
	struct mem m;

	mem_open(&m);
	afsum_quote(m.f, name);
	TAP_EQ_STR(mem_str(&m), want, "quote of a name -> %s", want);
	mem_close(&m);
}

static void test_output(void)
{
	char buf[80], hex[9];
	unsigned char d[4] = { 0xde, 0xad, 0x0b, 0x01 };

	TAP_EQ_STR(afsum_tag_name("sha256", buf, sizeof(buf)), "SHA256", "tag sha256");
	TAP_EQ_STR(afsum_tag_name("md5", buf, sizeof(buf)), "MD5", "tag md5");
	TAP_EQ_STR(afsum_tag_name("sha3-256", buf, sizeof(buf)), "SHA3-256", "tag sha3-256");
	TAP_EQ_STR(afsum_tag_name("hmac(sha256)", buf, sizeof(buf)), "HMAC(SHA256)", "tag hmac");

	hex_encode(d, 4, hex);
	TAP_EQ_STR(hex, "dead0b01", "hex");
	tap_ok(afsum_hex_equal("DEAD0b01", 8, d, 4), "hex compare ignores case");
	tap_ok(!afsum_hex_equal("dead0b0", 7, d, 4) && !afsum_hex_equal("dead0b02", 8, d, 4) &&
	       !afsum_hex_equal("dead0bg1", 8, d, 4), "hex compare: length, value, digits");

	/* What sha256sum 9.1 prints (checked on the host; tool-afalg-sum-compat checks it live) */
	sum_line("plain", false, false, false, LINE(HEX17 "  plain\n"));
	sum_line("plain", false, true, false, LINE(HEX17 " *plain\n"));
	sum_line("plain", true, true, false, LINE("SHA256 (plain) = " HEX17 "\n"));
	sum_line("a\\b", false, false, false, LINE("\\" HEX17 "  a\\\\b\n"));
	sum_line("\nl", false, false, false, LINE("\\" HEX17 "  \\nl\n"));
	sum_line("c\rr", false, false, false, LINE("\\" HEX17 "  c\\rr\n"));
	sum_line("a\\b", true, true, false, LINE("\\SHA256 (a\\\\b) = " HEX17 "\n"));
	sum_line("a\\b", false, false, true, LINE(HEX17 "  a\\b\0"));
	sum_line("\nl", true, true, true, LINE("SHA256 (\nl) = " HEX17 "\0"));
	sum_line("sp ace", false, false, false, LINE(HEX17 "  sp ace\n"));

	/* -c's status lines: coreutils 9.3 and earlier escape only newlines, 9.4 and later as above */
	tap_ok(afsum_check_name_needs_escape("a\nb", AFSUM_CHECK_ESC_NEWLINE) &&
	       !afsum_check_name_needs_escape("a\\b", AFSUM_CHECK_ESC_NEWLINE) &&
	       !afsum_check_name_needs_escape("a\rb", AFSUM_CHECK_ESC_NEWLINE),
	       "check output, coreutils 9.1's rule: only newlines");
	tap_ok(afsum_check_name_needs_escape("a\nb", AFSUM_CHECK_ESC_ALL) &&
	       afsum_check_name_needs_escape("a\\b", AFSUM_CHECK_ESC_ALL) &&
	       afsum_check_name_needs_escape("a\rb", AFSUM_CHECK_ESC_ALL) &&
	       !afsum_check_name_needs_escape("a b", AFSUM_CHECK_ESC_ALL),
	       "check output, coreutils 9.7's rule: backslash, newline, carriage return");
	tap_ok(afsum_check_rules_differ("a\\b") && afsum_check_rules_differ("a\rb") &&
	       !afsum_check_rules_differ("a\nb") && !afsum_check_rules_differ("a\n\\b") &&
	       !afsum_check_rules_differ("plain"), "the rules differ only without a newline");
	{
		static const struct {
			const char *line;
			enum afsum_check_escape rule;
		} vers[] = {
			{ "sha256sum (GNU coreutils) 9.1", AFSUM_CHECK_ESC_NEWLINE },
			{ "sha256sum (GNU coreutils) 9.3", AFSUM_CHECK_ESC_NEWLINE },
			{ "md5sum (GNU coreutils) 8.32", AFSUM_CHECK_ESC_NEWLINE },
			{ "sha256sum (GNU coreutils) 9.4", AFSUM_CHECK_ESC_ALL },
			{ "sha256sum (GNU coreutils) 9.7", AFSUM_CHECK_ESC_ALL },
			{ "sha256sum (GNU coreutils) 9.10", AFSUM_CHECK_ESC_ALL },
			{ "sha256sum (GNU coreutils) 10.0", AFSUM_CHECK_ESC_ALL },
			{ "sha256sum (uutils coreutils) 0.1.0", AFSUM_CHECK_ESC_ALL },
			{ "BusyBox v1.36.1 (Debian 1:1.36.1-9) multi-call binary.", AFSUM_CHECK_ESC_ALL },
			{ "sha256sum (GNU coreutils) ", AFSUM_CHECK_ESC_ALL },
			{ NULL, AFSUM_CHECK_ESC_ALL },
		};

		for (size_t i = 0; i < sizeof(vers) / sizeof(vers[0]); i++)
			tap_ok(afsum_check_escape_of(vers[i].line) == vers[i].rule,
			       "-c escaping of '%s': %s", vers[i].line ? vers[i].line : "(nothing)",
			       vers[i].rule == AFSUM_CHECK_ESC_NEWLINE ? "newlines only" : "as when generating");
	}

	/* sha256sum 9.1, LC_ALL=C, "sha256sum: NAME: No such file or directory" */
	quote_is("plain", "plain");
	quote_is("a b", "'a b'");
	quote_is("a'b", "\"a'b\"");
	quote_is("a'b c", "\"a'b c\"");
	quote_is("x\\y", "'x\\y'");
	quote_is("a\nb", "'a'$'\\n''b'");
	quote_is("a\tb", "'a'$'\\t''b'");
	quote_is("~x", "'~x'");
	quote_is("x~", "x~");
	quote_is("#x", "'#x'");
	quote_is("x#", "x#");
	quote_is("a=b", "'a=b'");
	quote_is("a@b", "a@b");
	quote_is("a?b", "'a?b'");
	quote_is("a:b", "'a:b'");
	quote_is("caf\303\251", "'caf'$'\\303\\251'");
	quote_is("a{b", "a{b");
	quote_is("{", "'{'");
	quote_is("a]b", "a]b");
	quote_is("a!b", "'a!b'");
	quote_is("a%b+c,d", "a%b+c,d");
	quote_is("", "''");
	quote_is("\177", "''$'\\177'");
	quote_is("a'\001b", "'a'\\'''$'\\001''b'");
	quote_is("\"", "'\"'");
	quote_is("standard input", "'standard input'");
}

/* ---- check lines ------------------------------------------------------ */

static bool parse_line(struct afsum_check_parser *p, const char *line, struct afsum_check_line *e,
		       char *buf, size_t bufsz)
{
	size_t n = strlen(line);

	if (n >= bufsz)
		abort();
	memcpy(buf, line, n + 1);
	return afsum_check_parse(p, buf, n, e);
}

static int n_good;

static void good(const char *line, const char *name, bool binary)
{
	struct afsum_check_parser p;
	struct afsum_check_line e;
	char buf[512];
	bool ok;

	afsum_check_parser_init(&p, "SHA256", 64);
	ok = parse_line(&p, line, &e, buf, sizeof(buf));
	tap_ok(ok && !strcmp(e.name, name) && e.binary == binary &&
	       !strcasecmp(e.digest, H64), "good line %d%s", ++n_good, binary ? " (binary)" : "");
}

static void bad(const char *line, const char *why)
{
	struct afsum_check_parser p;
	struct afsum_check_line e;
	char buf[512];

	afsum_check_parser_init(&p, "SHA256", 64);
	tap_ok(!parse_line(&p, line, &e, buf, sizeof(buf)), "improperly formatted: %s", why);
}

static void test_check_lines(void)
{
	struct afsum_check_parser p;
	struct afsum_check_line e;
	char buf[512], s[16];

	good(H64 "  plain", "plain", false);
	good(H64 " *plain", "plain", true);
	good("  \t" H64 "  plain", "plain", false);
	good(H64 "\t plain", "plain", false);
	good("50E721E49C013F00C62CF59F2163542A9D8DF02464EFEB615D31051B0FDDC326  plain", "plain", false);
	good(H64 "  two  spaces ", "two  spaces ", false);
	good("SHA256 (plain) = " H64, "plain", false);
	good("SHA256(plain)=" H64, "plain", false);
	good("SHA256 (a)b) = " H64, "a)b", false);
	good("SHA256 (x) \t=\t " H64, "x", false);
	good("\\" H64 "  a\\\\b", "a\\b", false);
	good("\\" H64 "  \\nl", "\nl", false);
	good("\\" H64 "  c\\rr", "c\rr", false);
	good("\\SHA256 (a\\\\b) = " H64, "a\\b", false);
	good("\\SHA256 (n\\nl) = " H64, "n\nl", false);
	good(H64 "  a\\b", "a\\b", false);	/* no leading backslash: taken as it is */

	bad("garbage", "garbage");
	bad(H64 " ", "no name");
	good(H64 "  ", " ", false);	/* as coreutils: BSD reversed, the name is a blank */
	bad(H64, "digest only");
	bad("0" H64 "  plain", "65 digits");
	bad("50e721e49c013f00c62cf59f2163542a9d8df02464efeb615d31051b0fddc32  plain", "63 digits");
	bad("g0e721e49c013f00c62cf59f2163542a9d8df02464efeb615d31051b0fddc326  plain", "not hex");
	bad("SHA256 (plain) = 0" H64, "tagged, 65 digits");
	bad("SHA256 (plain) = " H64 " ", "tagged, trailing blank");
	bad("SHA256 plain = " H64, "tagged, no parenthesis");
	bad("SHA256 (plain = " H64, "tagged, no closing parenthesis");
	bad("SHA256 (plain) " H64, "tagged, no '='");
	bad("MD5 (plain) = " H64, "another algorithm's tag");
	bad("\\" H64 "  a\\qb", "unknown escape");
	bad("\\" H64 "  ab\\", "trailing backslash");
	bad("\\SHA256 (a\\b) = " H64, "tagged, unknown escape");

	/* BSD reversed "HEX NAME": decided by the first line, for the whole file */
	afsum_check_parser_init(&p, "SHA256", 64);
	tap_ok(parse_line(&p, H64 " plain", &e, buf, sizeof(buf)) && !strcmp(e.name, "plain"),
	       "reversed: first line sets the format");
	tap_ok(parse_line(&p, H64 "  plain", &e, buf, sizeof(buf)) && !strcmp(e.name, " plain"),
	       "reversed: a second space belongs to the name");
	afsum_check_parser_init(&p, "SHA256", 64);
	tap_ok(parse_line(&p, H64 "  plain", &e, buf, sizeof(buf)) &&
	       !parse_line(&p, H64 " plain", &e, buf, sizeof(buf)),
	       "standard then reversed: the reversed line is refused");

	/* another digest length, other tag */
	afsum_check_parser_init(&p, "MD5", 32);
	tap_ok(parse_line(&p, "MD5 (x) = d41d8cd98f00b204e9800998ecf8427e", &e, buf, sizeof(buf)) &&
	       !strcmp(e.name, "x"), "md5 tagged line");
	tap_ok(!parse_line(&p, H64 "  plain", &e, buf, sizeof(buf)), "sha256 line refused for md5");

	strcpy(s, "a\\\\b\\nc\\r");
	tap_ok(afsum_unescape(s, strlen(s)) && !strcmp(s, "a\\b\nc\r"), "unescape");
	strcpy(s, "a\\tb");
	tap_ok(!afsum_unescape(s, strlen(s)), "unescape refuses \\t");
	memcpy(s, "a\0b", 4);
	tap_ok(!afsum_unescape(s, 3), "unescape refuses NUL");
}

/* ---- algorithm table, keys, /proc/crypto ------------------------------ */

static void test_alg_table(void)
{
	char *p = path("crypto");
	const char *crypto = "name         : sha256\n"
			     "driver       : sha256-generic\n"
			     "type         : shash\n\n"
			     "name         : hmac(sha1)\n"
			     "driver       : hmac(sha1-generic)\n"
			     "type         : shash\n";
	unsigned char *key, d[REF_MAX_DIGEST];
	size_t len;
	int fds[2], rc;

	TAP_EQ_INT(afalg_digest_len("sha256"), 32, "sha256 is 32 bytes");
	TAP_EQ_INT(afalg_digest_len("sha384"), 48, "sha384 is 48 bytes");
	TAP_EQ_INT(afalg_digest_len("hmac(sha512)"), 64, "hmac(sha512) is 64 bytes");
	TAP_EQ_INT(afalg_digest_len("hmac(foo)"), 0, "hmac(foo) unknown");
	TAP_EQ_INT(afalg_digest_len("hmac()"), 0, "hmac() unknown");
	TAP_EQ_INT(afalg_digest_len("hmac(sha256"), 0, "hmac(sha256 unknown");
	TAP_EQ_INT(afalg_digest_len("foo"), 0, "foo unknown");
	tap_ok(afsum_alg_empty_digest("sha1", d) && !afsum_alg_empty_digest("sha3-256", d) &&
	       !afsum_alg_empty_digest("hmac(sha256)", d), "empty digests only for md5/sha1/sha2");
	tap_ok(afsum_alg_needs_key("hmac(sha256)") && afsum_alg_needs_key("cmac(aes)") &&
	       afsum_alg_needs_key("ghash") && !afsum_alg_needs_key("sha256") &&
	       !afsum_alg_needs_key("crc32c") && !afsum_alg_needs_key("hmac"),
	       "keyed hashes known by name");

	if (write_file_atomic(p, crypto, strlen(crypto), 0644))
		abort();
	tap_ok(pc_file_has(p, "sha256") && pc_file_has(p, "hmac(sha1)") &&
	       !pc_file_has(p, "sha256-generic") && !pc_file_has(p, "sha"),
	       "/proc/crypto names");
	tap_ok(!pc_file_has("/nonexistent/crypto", "sha256"), "no /proc/crypto file");
	free(p);

	if (pipe(fds))
		abort();
	if (write(fds[1], "secret\n", 7) != 7)
		abort();
	close(fds[1]);
	rc = afsum_read_key(fds[0], &key, &len);
	tap_ok(rc == 0 && len == 7 && !memcmp(key, "secret\n", 7), "key read to its end, newline kept");
	if (!rc)
		free(key);
	close(fds[0]);

	p = path("bigkey");
	write_pattern(p, AFSUM_MAX_KEY + 1);
	fds[0] = open(p, O_RDONLY);
	TAP_EQ_INT(afsum_read_key(fds[0], &key, &len), -EFBIG, "key above %d bytes refused",
		   AFSUM_MAX_KEY);
	close(fds[0]);
	free(p);
}

/* ---- reading digests back: a SOCK_SEQPACKET pair stands in for the op socket ---- */

static ssize_t reply_and_read(size_t reply_len, unsigned char *out, size_t outsz)
{
	unsigned char reply[700];
	ssize_t n;
	int sv[2];
	size_t i;

	for (i = 0; i < sizeof(reply); i++)
		reply[i] = (unsigned char)i;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
		abort();
	if (send(sv[1], reply, reply_len, 0) != (ssize_t)reply_len)
		abort();
	n = afsum_read_digest(sv[0], out, outsz);
	if (n > 0 && memcmp(out, reply, (size_t)n))
		n = -12345;
	close(sv[0]);
	close(sv[1]);
	return n;
}

static void test_read_digest(void)
{
	unsigned char d[AFSUM_MAX_DIGEST];

	TAP_EQ_INT(reply_and_read(32, d, sizeof(d)), 32, "a 32-byte reply is read whole");
	TAP_EQ_INT(reply_and_read(64, d, sizeof(d)), 64, "a 64-byte reply is read whole");
	TAP_EQ_INT(reply_and_read(600, d, sizeof(d)), -EMSGSIZE, "a reply past the buffer: MSG_TRUNC");
	TAP_EQ_INT(reply_and_read(200, d, sizeof(d)), -EMSGSIZE, "a reply past the digest buffer");
	TAP_EQ_INT(reply_and_read(0, d, sizeof(d)), -ENODATA, "an empty reply is an error");
}

int main(void)
{
	err_prog = AFSUM_PROG;	/* as main() does: the usage hint names it */
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	tap_plan(PLAN);
	test_options();
	test_output();
	test_check_lines();
	test_alg_table();
	test_read_digest();
	tap_rm_tree(tmpdir);
	return tap_done();
}
