// SPDX-License-Identifier: GPL-2.0
/*
 * guest.c: tell a rapido guest from any other machine. Guest helpers such
 * as rapido-zram and rapido-configfs reconfigure the kernel they run on;
 * run by mistake on a workstation they would change its own devices. The
 * one mark every guest has is the rapido.vm=N that ./vm always appends to
 * the kernel command line; nothing else puts that word there.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "guest.h"
#include "io.h"
#include "num.h"

int guest_cmdline_vm(const char *path, unsigned int *vm)
{
	static const char blanks[] = " \t\n";
	size_t klen = strlen(GUEST_CMDLINE_KEY);
	char *text, *p;
	int rc, found = 0;

	rc = read_file(path, &text, NULL);
	if (rc)
		return rc;
	/* words are split at blanks; the value is a plain decimal number */
	for (p = text + strspn(text, blanks); *p; p += strspn(p, blanks)) {
		size_t wlen = strcspn(p, blanks);
		size_t digits;

		if (wlen > klen && !strncmp(p, GUEST_CMDLINE_KEY, klen)) {
			char num[10];
			unsigned int n;

			digits = wlen - klen;
			if (digits < sizeof(num)) {
				memcpy(num, p + klen, digits);
				num[digits] = '\0';
				if (!num_parse_uint(num, 0, 999999999, &n, NULL)) {
					if (vm)
						*vm = n;
					found = 1;
				}
			}
		}
		p += wlen;
	}
	free(text);
	return found;
}

int guest_check(const char *path, char **why)
{
	int rc = guest_cmdline_vm(path, NULL);

	*why = NULL;
	if (rc == 1)
		return 0;
	if (rc == 0) {
		*why = xasprintf("this is not a rapido guest (%s has no " GUEST_CMDLINE_KEY "N)", path);
		return -EPERM;
	}
	*why = xasprintf("cannot tell whether this is a rapido guest: %s: %s", path, err_str(rc));
	return rc;
}
