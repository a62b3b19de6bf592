// SPDX-License-Identifier: GPL-2.0
/* main.c: entry point of ./vmctl. */
#include "err.h"
#include "vmctl.h"

int main(int argc, char **argv)
{
	err_cmd = argv[0];
	return cmd_vmctl(argc, argv);
}
