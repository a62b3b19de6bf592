// SPDX-License-Identifier: GPL-2.0
/* ifname.c: network interface names, and TAP_DEVS' list of them. */
#include <errno.h>
#include <string.h>

#include "err.h"
#include "ifname.h"
#include "shwords.h"

int ifname_valid(const char *name)
{
	size_t len = strlen(name);

	if (!len || len >= 16 || !strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	return strcspn(name, "/,: \t\n\v\f\r") == len;
}

int tap_devs_parse(const char *value, struct strv *out, char **err)
{
	*err = NULL;
	if (shwords_split(value, out, err))
		goto fail;
	for (size_t i = 0; i < out->n; i++) {
		if (!ifname_valid(out->v[i])) {
			*err = xasprintf("'%s' is not a valid interface name (" IFNAME_RULE ")",
					 out->v[i]);
			goto fail;
		}
		/* a handful of names: a quadratic look is fine */
		for (size_t j = 0; j < i; j++)
			if (!strcmp(out->v[i], out->v[j])) {
				*err = xasprintf("'%s' is listed twice (each VM needs its own TAP device)",
						 out->v[i]);
				goto fail;
			}
	}
	return 0;
fail:
	strv_free(out);
	return -EINVAL;
}
