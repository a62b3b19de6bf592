/* SPDX-License-Identifier: GPL-2.0 */
/* netsetup.h: ./netsetup, the bridge and TAP devices ./vm --net tap uses. */
#ifndef RAPIDO_NETSETUP_H
#define RAPIDO_NETSETUP_H

#include "strv.h"

struct net_plan {
	const char *netns;	/* NULL: the current namespace */
	char *bridge;
	char *br_addr;		/* a.b.c.d/p, validated */
	struct strv taps;
	char *user;		/* owner of the TAPs */
};

int cmd_netsetup(int argc, char **argv);

#endif
