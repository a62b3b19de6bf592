// SPDX-License-Identifier: GPL-2.0
/* main.c: rapido-afalg-selftest, known-answer tests of the kernel's AF_ALG interfaces. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "err.h"
#include "hex.h"
#include "io.h"
#include "plan.h"
#include "run.h"

#define EXIT_SKIP 77
#define PROC_CRYPTO "/proc/crypto"

struct options {
	bool list;
	bool dump;
	const char *ref_sum;	/* algorithm for --ref-sum */
	const char *only;
	const char *proc_crypto;
};

enum {
	OPT_ONLY = CHAR_MAX + 1,
	OPT_PROC_CRYPTO,
	OPT_DUMP_VECTORS,
	OPT_REF_SUM,
};

static void usage(void)
{
	printf("Usage: %s [options]\n"
	       "       %s --ref-sum ALG FILE...\n"
	       "\n"
	       "Check the kernel's AF_ALG hash, HMAC, skcipher and AEAD interfaces with\n"
	       "known-answer vectors, on every implementation /proc/crypto lists and\n"
	       "through every input path (one send, MSG_MORE pieces, splice, accept()\n"
	       "clones). Prints TAP.\n"
	       "\n"
	       "Options:\n"
	       "  -l, --list               print the implementations and tests; run nothing\n"
	       "      --only PATTERN       run the tests whose description contains PATTERN\n"
	       "                           (a shell glob if it has * ? or [)\n"
	       "      --proc-crypto FILE   read FILE instead of " PROC_CRYPTO "\n"
	       "      --dump-vectors       print every vector with its expected value\n"
	       "      --ref-sum ALG        print the built-in reference digest of each FILE\n"
	       "                           (md5 sha1 sha224 sha256 sha384 sha512), as sha256sum\n"
	       "  -h, --help               display this help\n"
	       "\n"
	       "Exit status: 0 all passed or skipped, 1 a test failed (or bad usage),\n"
	       "77 AF_ALG is not available (CONFIG_CRYPTO_USER_API_HASH).\n",
	       err_prog, err_prog);
}

static void parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "proc-crypto", required_argument, NULL, OPT_PROC_CRYPTO },
		{ "dump-vectors", no_argument, NULL, OPT_DUMP_VECTORS },
		{ "ref-sum", required_argument, NULL, OPT_REF_SUM },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "lh", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			o->list = true;
			break;
		case OPT_ONLY:
			o->only = optarg;
			break;
		case OPT_PROC_CRYPTO:
			o->proc_crypto = optarg;
			break;
		case OPT_DUMP_VECTORS:
			o->dump = true;
			break;
		case OPT_REF_SUM:
			o->ref_sum = optarg;
			break;
		case 'h':
			usage();
			close_stdout();
			exit(0);
		default:
			usage_die(1, NULL);
		}
	}
	if (o->ref_sum ? optind >= argc : optind < argc) {
		usage_die(1, "%s", o->ref_sum ? "--ref-sum needs files" : "unexpected argument");
	}
	if (o->ref_sum && ref_alg_by_name(o->ref_sum) < 0)
		die("--ref-sum: unknown algorithm '%s'", o->ref_sum);
}

/* --ref-sum: "HEX  FILE" lines, the coreutils *sum format the host test compares. */
static int cmd_ref_sum(const char *alg, char **files, int n)
{
	enum ref_alg a = (enum ref_alg)ref_alg_by_name(alg);
	int status = 0;

	for (int i = 0; i < n; i++) {
		uint8_t md[REF_MAX_DIGEST];
		char hex[2 * REF_MAX_DIGEST + 1], *buf;
		size_t len;
		int rc = read_file(files[i], &buf, &len);

		if (rc) {
			warn_err(rc, "%s", files[i]);
			status = 1;
			continue;
		}
		ref_digest(a, buf, len, md);
		free(buf);
		hex_encode(md, ref_digest_len(a), hex);
		printf("%s  %s\n", hex, files[i]);
	}
	return status;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct pc_list pc = { 0 };
	struct plan plan;
	struct utsname uts;
	int rc;

	err_prog = "rapido-afalg-selftest";
	parse_args(argc, argv, &o);
	if (o.dump) {
		vectors_dump(stdout);
		close_stdout();
		return 0;
	}
	if (o.ref_sum) {
		rc = cmd_ref_sum(o.ref_sum, argv + optind, argc - optind);
		close_stdout();
		return rc;
	}

	/* Read once, before any bind: instantiating hmac(x) adds entries. */
	rc = pc_load(o.proc_crypto ? o.proc_crypto : PROC_CRYPTO, &pc);
	if (rc && o.proc_crypto)
		die_err(rc, "%s", o.proc_crypto);
	if (rc)
		warn_err(rc, "%s (testing generic names only)", PROC_CRYPTO);
	plan_build(&plan, &pc, o.only);
	if (!plan.ntests)
		die("no test matches '%s'", o.only);
	if (o.list) {
		plan_print(stdout, &plan);
		rc = 0;
		goto done;
	}

	rc = afalg_probe();
	if (rc == -EAFNOSUPPORT) {
		printf("1..0 # SKIP AF_ALG not available\n# socket(AF_ALG): %s: %s\n",
		       strerror(-rc), afalg_advice(rc, "socket", ""));
		rc = EXIT_SKIP;
		goto done;
	}
	if (rc) {
		printf("Bail out! socket(AF_ALG): %s\n", strerror(-rc));
		rc = 1;
		goto done;
	}
	if (uname(&uts))
		die_errno("uname");
	printf("# rapido-afalg-selftest: kernel %s %s, %zu entries in %s\n", uts.release,
	       uts.machine, pc.n, o.proc_crypto ? o.proc_crypto : PROC_CRYPTO);
	run_info();
	rc = run_plan(&plan);
done:
	plan_free(&plan);
	pc_free(&pc);
	close_stdout();
	return rc;
}
