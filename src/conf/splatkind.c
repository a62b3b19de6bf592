// SPDX-License-Identifier: GPL-2.0
/* splatkind.c: kernel report kinds by name, and the one parser of VM_SPLATS lists (splatkind.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "splatkind.h"

static const char *const kind_names[SPLAT_NKINDS] = {
	[SPLAT_OOPS] = "oops", [SPLAT_BUG] = "bug", [SPLAT_KASAN] = "kasan",
	[SPLAT_KFENCE] = "kfence", [SPLAT_UBSAN] = "ubsan", [SPLAT_WARNING] = "warning",
	[SPLAT_LOCKDEP] = "lockdep", [SPLAT_HUNG_TASK] = "hung-task",
	[SPLAT_RCU_STALL] = "rcu-stall", [SPLAT_SOFT_LOCKUP] = "soft-lockup",
	[SPLAT_PANIC] = "panic",
};

#define KINDS "all, none or kinds (-KIND leaves one out) of oops, bug, kasan, kfence, ubsan, " \
	      "warning, lockdep, hung-task, rcu-stall, soft-lockup, panic"

const char *splat_kind_name(enum splat_kind k)
{
	return k < SPLAT_NKINDS ? kind_names[k] : "?";
}

int splat_mask_parse(const char *list, unsigned int *mask, char **err)
{
	char *copy = xstrdup(list), *save = NULL;
	int rc = 0, words = 0, none = 0;

	*mask = 0;
	*err = NULL;
	for (char *w = strtok_r(copy, ", \t", &save); w; w = strtok_r(NULL, ", \t", &save)) {
		int neg = *w == '-';
		const char *name = w + neg;
		unsigned int bits = 0;

		if (!strcmp(name, "all"))
			bits = SPLAT_ALL;
		else if (!strcmp(name, "none") && !neg)
			bits = SPLAT_ALL, neg = 1, none = 1;
		for (int k = 0; k < SPLAT_NKINDS && !bits; k++)
			if (!strcmp(name, kind_names[k]))
				bits = 1u << k;
		if (!bits) {
			*err = xasprintf("unknown kind '%s': expected " KINDS, name);
			rc = -EINVAL;
			goto out;
		}
		/* "-bug" alone counts nothing: it reads as "all but bug" and is not */
		if (neg && !words && !none) {
			*err = xasprintf("'%s' leaves a kind out of nothing: start with all or the "
					 "kinds that count, such as all,%s", list, w);
			rc = -EINVAL;
			goto out;
		}
		words++;
		if (neg)
			*mask &= ~bits;
		else
			*mask |= bits;
	}
	if (!words)
		*err = xasprintf("'%s' names no kind: expected " KINDS "; none turns kernel report "
				 "detection off", list);
	else if (!*mask && !none)
		*err = xasprintf("'%s' leaves no kind that counts: say none to turn kernel report "
				 "detection off", list);
	if (*err)
		rc = -EINVAL;
out:
	free(copy);
	return rc;
}

int splat_mask_check(const char *list, char **err)
{
	unsigned int mask;

	return splat_mask_parse(list, &mask, err);
}
