// SPDX-License-Identifier: GPL-2.0
/*
 * tool-init.c: fuzz the guest init's kernel command line parser (the
 * rapido.* words ./vm writes). Properties: what it keeps fits what reads
 * it: a shell's tty is letters and digits, a nonce is valid or empty, at
 * most 16 shares and 8 interfaces, rapido.exec='s arguments (rapido run's
 * command for rapido-exec) are words split by single spaces, no comma.
 */
#include "fuzz.h"
#include "../../tools/init/init.h"

static const char alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct init_cmdline cl;
	char *text = fuzz_cstr(data, size);

	init_cmdline_parse(text, &cl);
	fuzz_assert(cl.shares <= 16, "rapido.shares=%u kept", cl.shares);
	fuzz_assert(cl.n_ip <= 8, "%u interfaces kept", cl.n_ip);
	fuzz_assert(strspn(cl.shell, alnum) == strlen(cl.shell), "shell tty '%s'", cl.shell);
	fuzz_assert(!*cl.nonce || status_nonce_valid(cl.nonce), "nonce '%s'", cl.nonce);
	fuzz_assert(!cl.exec || !strpbrk(cl.exec, ",\t\n"), "rapido.exec= kept as '%s'", cl.exec);
	for (unsigned int i = 0; i < cl.n_ip; i++)
		free(cl.ip[i]);
	free(cl.serial_tests);
	free(cl.exec);
	free(text);
	return 0;
}
