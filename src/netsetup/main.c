// SPDX-License-Identifier: GPL-2.0
/* main.c: entry point of ./netsetup. */
#include "err.h"
#include "netsetup.h"

int main(int argc, char **argv)
{
	err_cmd = argv[0];
	return cmd_netsetup(argc, argv);
}
