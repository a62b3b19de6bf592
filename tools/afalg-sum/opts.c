// SPDX-License-Identifier: GPL-2.0
/* opts.c: parse rapido-afalg-sum's command line with sha256sum's rules. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#include "opts.h"

enum {
	OPT_IGNORE_MISSING = CHAR_MAX + 1,
	OPT_STATUS,
	OPT_QUIET,
	OPT_STRICT,
	OPT_TAG,
	OPT_KEY_FILE,
	OPT_KEY_FD,
	OPT_NO_SPLICE,
	OPT_DEBUG,
	OPT_HELP,
	OPT_VERSION,
};

static const struct option long_options[] = {
	{ "algorithm", required_argument, NULL, 'a' },
	{ "binary", no_argument, NULL, 'b' },
	{ "check", no_argument, NULL, 'c' },
	{ "tag", no_argument, NULL, OPT_TAG },
	{ "text", no_argument, NULL, 't' },
	{ "zero", no_argument, NULL, 'z' },
	{ "key-file", required_argument, NULL, OPT_KEY_FILE },
	{ "key-fd", required_argument, NULL, OPT_KEY_FD },
	{ "no-splice", no_argument, NULL, OPT_NO_SPLICE },
	{ "debug", no_argument, NULL, OPT_DEBUG },
	{ "ignore-missing", no_argument, NULL, OPT_IGNORE_MISSING },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "status", no_argument, NULL, OPT_STATUS },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "warn", no_argument, NULL, 'w' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

void afsum_usage(FILE *out)
{
	fputs("Usage: " AFSUM_PROG " [OPTION]... [FILE]...\n"
	      "Print or check checksums computed by the kernel through AF_ALG.\n"
	      "Regular files and block devices are spliced into the socket; pipes,\n"
	      "terminals and the like are read and sent. Output and --check work like\n"
	      "sha256sum's (coreutils 9.1 to 9.7; --check escapes a name in its status\n"
	      "lines as the sha256sum on PATH does). With no FILE, or when FILE is -,\n"
	      "read standard input.\n"
	      "\n"
	      "  -a, --algorithm=ALG   kernel hash to use (default sha256; see /proc/crypto),\n"
	      "                          e.g. md5, sha1, sha512, sha3-256, hmac(sha256)\n"
	      "  -b, --binary          mark lines with '*' (no difference on Linux)\n"
	      "  -c, --check           read checksums from the FILEs and check them\n"
	      "      --tag             create a BSD-style checksum, e.g. SHA256 (FILE) = HEX\n"
	      "  -t, --text            mark lines with ' ' (the default)\n"
	      "  -z, --zero            end each output line with NUL, not newline,\n"
	      "                          and disable file name escaping\n"
	      "      --key-file=FILE   key for a keyed hash such as hmac(sha256): all the\n"
	      "                          bytes of FILE (a trailing newline is key too)\n"
	      "      --key-fd=N        key for a keyed hash: read file descriptor N to its end\n"
	      "      --no-splice       feed the kernel with read() and send(), never splice()\n"
	      "      --debug           say on stderr how each file reached the kernel\n"
	      "\n"
	      "The following five options are useful only when verifying checksums:\n"
	      "      --ignore-missing  don't fail or report status for missing files\n"
	      "      --quiet           don't print OK for each successfully verified file\n"
	      "      --status          don't output anything, status code shows success\n"
	      "      --strict          exit non-zero for improperly formatted checksum lines\n"
	      "  -w, --warn            warn about improperly formatted checksum lines\n"
	      "\n"
	      "      --help            display this help and exit\n"
	      "      --version         output version information and exit\n"
	      "\n"
	      "Keys are never taken from the command line. Tag names are coreutils' for\n"
	      "md5, sha1, sha224, sha256, sha384 and sha512, else ALG in upper case.\n"
	      "\n"
	      "Exit status:\n"
	      "  0  every file was hashed, or every listed checksum matched\n"
	      "  1  a checksum did not match, a file could not be read, or a check file\n"
	      "       was unreadable or improperly formatted (as sha256sum)\n"
	      "  2  bad usage (sha256sum uses 1)\n"
	      "  3  AF_ALG not available: load af_alg/algif_hash or enable\n"
	      "       CONFIG_CRYPTO_USER_API_HASH\n"
	      "  4  unknown hash algorithm (see /proc/crypto)\n"
	      "  5  key problem: a keyed hash without a key, a key for a hash that takes\n"
	      "       none, or a key that could not be read or was refused\n"
	      "  6  an AF_ALG operation failed or returned a digest of the wrong length;\n"
	      "       no digest is printed from it and nothing more is hashed\n", out);
}

static int usage_error(FILE *err, const char *fmt, const char *arg)
{
	if (fmt) {
		fputs(AFSUM_PROG ": ", err);
		fprintf(err, fmt, arg);
		fputc('\n', err);
	}
	usage_hint(err);
	return AFSUM_EXIT_USAGE;
}

static int parse_fd(const char *s, int *fd)
{
	uint64_t v;

	if (num_parse(s, 0, INT_MAX, &v, NULL))
		return -EINVAL;
	*fd = (int)v;
	return 0;
}

int afsum_parse_args(struct afsum_opts *o, int argc, char **argv, FILE *out, FILE *err)
{
	static char dash[] = "-";
	static char *stdin_only[] = { dash, NULL };
	size_t i;
	int c;

	memset(o, 0, sizeof(*o));
	o->alg = "sha256";
	o->binary = -1;
	o->key_fd = -1;

	optind = 0;	/* glibc: reinitialise, so tests may parse again */
	while ((c = getopt_long(argc, argv, "a:bctwz", long_options, NULL)) != -1) {
		switch (c) {
		case 'a':
			o->alg = optarg;
			break;
		case 'b':
			o->binary = 1;
			break;
		case 'c':
			o->check = true;
			break;
		case 't':
			o->binary = 0;
			break;
		case OPT_TAG:
			o->tag = true;
			o->binary = 1;
			break;
		case 'z':
			o->zero = true;
			break;
		case OPT_STATUS:
			o->status = true;
			o->warn = false;
			o->quiet = false;
			break;
		case 'w':
			o->status = false;
			o->warn = true;
			o->quiet = false;
			break;
		case OPT_QUIET:
			o->status = false;
			o->warn = false;
			o->quiet = true;
			break;
		case OPT_STRICT:
			o->strict = true;
			break;
		case OPT_IGNORE_MISSING:
			o->ignore_missing = true;
			break;
		case OPT_KEY_FILE:
			if (o->key_file || o->key_fd >= 0)
				return usage_error(err, "%s", "give one key: --key-file or --key-fd");
			o->key_file = optarg;
			break;
		case OPT_KEY_FD:
			if (o->key_file || o->key_fd >= 0)
				return usage_error(err, "%s", "give one key: --key-file or --key-fd");
			if (parse_fd(optarg, &o->key_fd) < 0)
				return usage_error(err, "invalid file descriptor '%s' for --key-fd", optarg);
			break;
		case OPT_NO_SPLICE:
			o->no_splice = true;
			break;
		case OPT_DEBUG:
			o->debug = true;
			break;
		case OPT_HELP:
			afsum_usage(out);
			return AFSUM_EXIT_OK;
		case OPT_VERSION:
			fputs(AFSUM_PROG " (rapido)\n", out);
			return AFSUM_EXIT_OK;
		default:	/* getopt_long already said what was wrong */
			return usage_error(err, NULL, NULL);
		}
	}

	if (!*o->alg)
		return usage_error(err, "%s", "empty hash algorithm name");
	if (strlen(o->alg) > AFSUM_MAX_ALG_NAME) {
		fprintf(err,
			AFSUM_PROG ": unknown hash algorithm '%s': names are at most %d bytes; see /proc/crypto\n",
			o->alg, AFSUM_MAX_ALG_NAME);
		return AFSUM_EXIT_UNKNOWN_ALG;
	}

	/* Refused combinations: the same checks, in the same order, as coreutils 9.1. */
	const struct {
		bool refused;
		const char *why;
	} rules[] = {
		{ o->tag && !o->binary,
		  "--tag does not support --text mode" },
		{ o->zero && o->check,
		  "the --zero option is not supported when verifying checksums" },
		{ o->tag && o->check,
		  "the --tag option is meaningless when verifying checksums" },
		{ o->binary >= 0 && o->check,
		  "the --binary and --text options are meaningless when verifying checksums" },
		{ o->ignore_missing && !o->check,
		  "the --ignore-missing option is meaningful only when verifying checksums" },
		{ o->status && !o->check,
		  "the --status option is meaningful only when verifying checksums" },
		{ o->warn && !o->check,
		  "the --warn option is meaningful only when verifying checksums" },
		{ o->quiet && !o->check,
		  "the --quiet option is meaningful only when verifying checksums" },
		{ o->strict && !o->check,
		  "the --strict option is meaningful only when verifying checksums" },
	};
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rules[i].refused)
			return usage_error(err, "%s", rules[i].why);
	if (o->binary < 0)
		o->binary = 0;

	if (optind < argc) {
		o->files = argv + optind;
		o->nfiles = argc - optind;
	} else {
		o->files = stdin_only;
		o->nfiles = 1;
	}
	return -1;
}
