// SPDX-License-Identifier: GPL-2.0
/* main.c: entry point of ./netsetup. */
#include "netsetup.h"

int main(int argc, char **argv)
{
	return cmd_netsetup(argc, argv);
}
