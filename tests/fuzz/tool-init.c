// SPDX-License-Identifier: GPL-2.0
/*
 * tool-init.c: fuzz the guest init's reading of the kernel command line
 * (tools/init/setup.c), the words of src/proto/protocol.h that ./vm writes.
 * The input is a command line, and values to write. Properties: whatever
 * the line holds, each field is one ./vm could have given (a tty name of
 * letters and digits, a valid nonce or none, defer|only or none, the
 * ranges ./vm keeps to, rapido.exec='s arguments for rapido-exec words
 * split by single spaces, no comma); and a line made of the input's values with the
 * KP_* macros, as ./vm makes it, reads back exactly those values.
 */
#include "fuzz.h"
#include "init.h"
#include "pct.h"
#include "protocol.h"
#include "status.h"
#include "strv.h"

static const char alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

static void cmdline_free(struct init_cmdline *cl)
{
	for (unsigned int i = 0; i < cl->n_ip; i++)
		free(cl->ip[i]);
	free(cl->serial_tests);
	free(cl->exec);
}

static void check_bounds(const struct init_cmdline *cl)
{
	size_t n = strlen(cl->shell);

	fuzz_assert(cl->vm <= 99999, "vm %u", cl->vm);
	fuzz_assert(cl->shares <= 16, "shares %u", cl->shares);
	fuzz_assert(cl->rerun <= 100, "rerun %u", cl->rerun);
	fuzz_assert(cl->n_ip <= sizeof(cl->ip) / sizeof(cl->ip[0]), "%u addresses", cl->n_ip);
	fuzz_assert(strspn(cl->shell, alnum) == n, "shell tty \"%s\"", cl->shell);
	/* the autorun opens /dev/NAME of it: a tty's name, never a path */
	fuzz_assert(strspn(cl->console, alnum) == strlen(cl->console) &&
			    strlen(cl->console) < sizeof(cl->console),
		    "console tty \"%s\"", cl->console);
	fuzz_assert(!*cl->nonce || status_nonce_valid(cl->nonce), "nonce \"%s\"", cl->nonce);
	fuzz_assert(!*cl->serial || !strcmp(cl->serial, "defer") || !strcmp(cl->serial, "only"),
		    "serial \"%s\"", cl->serial);
	fuzz_assert(cl->batch == 0 || cl->batch == 1, "batch %d", cl->batch);
	fuzz_assert(!cl->exec || !strpbrk(cl->exec, ",\t\n"), "rapido.exec= kept as '%s'", cl->exec);
}

/* the words of k, a space between: a kernel command line */
static char *join(const struct strv *k)
{
	size_t len = 1, at = 0;
	char *s;

	for (size_t i = 0; i < k->n; i++)
		len += strlen(k->v[i]) + 1;
	s = malloc(len);
	if (!s)
		abort();
	for (size_t i = 0; i < k->n; i++)
		at += (size_t)sprintf(s + at, "%s%s", i ? " " : "", k->v[i]);
	s[at] = '\0';
	return s;
}

/* up to max bytes of p[0..n) that are letters or digits, into out */
static void word_of(char *out, size_t max, const uint8_t *p, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k < max; i++)
		if ((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
		    (p[i] >= '0' && p[i] <= '9'))
			out[k++] = (char)p[i];
	out[k] = '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	struct init_cmdline cl;
	struct strv k = STRV_INIT;
	char *text = fuzz_cstr(data, size), *line, *test, shell[16], port[64], nonce[33], shard[24];
	char want_exec[64];
	unsigned int vm, shares, rerun, flags, serial;
	const uint8_t *p = data;

	init_cmdline_parse(text, &cl);
	check_bounds(&cl);
	cmdline_free(&cl);
	free(text);
	if (size < 16)
		return 0;

	/* the values ./vm may write, from the input */
	vm = ((unsigned int)p[0] << 8 | p[1]) % 100000;
	shares = p[2] % 17;
	rerun = p[3] % 101;
	flags = p[4];
	serial = p[5] % 3;
	snprintf(shard, sizeof(shard), "%u/%u", p[6] % 9 + 1, p[7] % 9 + 1);
	for (int i = 0; i < 32; i++)
		nonce[i] = hex[p[8 + i % 8] >> (i & 1 ? 4 : 0) & 15];
	nonce[32] = '\0';
	word_of(shell, 15, data + 16, size - 16);
	word_of(port, 63, data + 16, size - 16);
	test = fuzz_cstr(data + 16, size - 16);

	strv_push(&k, "console=ttyS0");
	strv_pushf(&k, KP_VM "%u", vm);
	strv_pushf(&k, KP_NONCE "%s", nonce);
	if (flags & 1)
		strv_push(&k, KP_BATCH "1");
	if (flags & 2)
		strv_push(&k, KP_HVC "1");
	if (flags & 4)
		strv_push(&k, KP_RESULTS "1");
	if (*shell)
		strv_pushf(&k, KP_SHELL "%s", shell);
	if (*port)
		strv_pushf(&k, KP_STATUS "%s", port);
	strv_pushf(&k, KP_SHARES "%u", shares);
	strv_pushf(&k, KP_RERUN "%u", rerun);
	strv_pushf(&k, KP_SHARD "%s", shard);
	if (serial)
		strv_push(&k, serial == 1 ? KP_SERIAL "defer" : KP_SERIAL "only");
	if (*test) {
		char *f = pct_field(test);

		strv_pushf(&k, KP_SERIAL_TEST "%s", f);
		free(f);
	}
	strv_pushf(&k, KP_IP "eth%u,10.0.%u.%u/24", p[4] % 4, p[5], p[6]);
	strv_pushf(&k, KP_EXEC "%s,%02x%02x,%s", nonce, p[6], p[7], *shell ? shell : "eA==");
	line = join(&k);

	init_cmdline_parse(line, &cl);
	check_bounds(&cl);
	fuzz_assert(cl.vm == vm, "vm %u read as %u", vm, cl.vm);
	fuzz_assert(!strcmp(cl.nonce, nonce), "nonce %s read as %s", nonce, cl.nonce);
	fuzz_assert(cl.batch == !!(flags & 1) && cl.hvc == !!(flags & 2) &&
		    cl.results == !!(flags & 4), "flags %u read as %d %d %d", flags & 7, cl.batch,
		    cl.hvc, cl.results);
	fuzz_assert(!strcmp(cl.shell, shell), "shell %s read as %s", shell, cl.shell);
	fuzz_assert(!strcmp(cl.status_port, port), "status port %s read as %s", port, cl.status_port);
	fuzz_assert(cl.shares == shares && cl.rerun == rerun, "shares %u rerun %u read as %u %u",
		    shares, rerun, cl.shares, cl.rerun);
	fuzz_assert(!strcmp(cl.shard, shard), "shard %s read as %s", shard, cl.shard);
	fuzz_assert(!strcmp(cl.serial, serial == 0 ? "" : serial == 1 ? "defer" : "only"),
		    "serial %u read as \"%s\"", serial, cl.serial);
	fuzz_assert(*test ? cl.serial_tests && !strcmp(cl.serial_tests, test) : !cl.serial_tests,
		    "serial test \"%s\" read as \"%s\"", test, cl.serial_tests ? cl.serial_tests : "(none)");
	fuzz_assert(cl.n_ip == 1, "%u addresses", cl.n_ip);
	snprintf(want_exec, sizeof(want_exec), "%s %02x%02x %s", nonce, p[6], p[7],
		 *shell ? shell : "eA==");
	fuzz_assert(cl.exec && !strcmp(cl.exec, want_exec), "rapido.exec= read as '%s', not '%s'",
		    cl.exec ? cl.exec : "(none)", want_exec);
	cmdline_free(&cl);
	free(line);
	free(test);
	strv_free(&k);
	return 0;
}
