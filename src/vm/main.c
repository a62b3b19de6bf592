// SPDX-License-Identifier: GPL-2.0
/* main.c: entry point of ./vm. */
#include "err.h"
#include "vm.h"

int main(int argc, char **argv)
{
	err_cmd = argv[0];
	return cmd_vm(argc, argv);
}
