/* SPDX-License-Identifier: GPL-2.0 */
/* splatkind.h: the kinds of kernel report ./vm tells apart, and the VM_SPLATS list that picks them. */
#ifndef RAPIDO_SPLATKIND_H
#define RAPIDO_SPLATKIND_H

enum splat_kind {
	SPLAT_OOPS, SPLAT_BUG, SPLAT_KASAN, SPLAT_KFENCE, SPLAT_UBSAN, SPLAT_WARNING,
	SPLAT_LOCKDEP, SPLAT_HUNG_TASK, SPLAT_RCU_STALL, SPLAT_SOFT_LOCKUP, SPLAT_PANIC,
	SPLAT_NKINDS
};
#define SPLAT_ALL ((1u << SPLAT_NKINDS) - 1)

const char *splat_kind_name(enum splat_kind k);

/*
 * Parse a VM_SPLATS (--splats) list: kinds separated by commas or spaces,
 * "all", "-KIND" to leave one out of what came before it ("all,-warning"),
 * and "none", the one way to count no report at all. An empty list, one
 * that starts with -KIND, or one that leaves no kind without saying none
 * is refused: detection is never turned off by a slip. 0, or -EINVAL with
 * *err (malloc'd) naming the word and the kinds there are. Both ./vm and
 * ./cut --check-conf check the value here (confkeys.c).
 */
int splat_mask_parse(const char *list, unsigned int *mask, char **err);
/* splat_mask_parse() for confkeys[]: only whether LIST is valid. */
int splat_mask_check(const char *list, char **err);

#endif
