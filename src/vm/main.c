// SPDX-License-Identifier: GPL-2.0
/* main.c: entry point of ./vm. */
#include "vm.h"

int main(int argc, char **argv)
{
	return cmd_vm(argc, argv);
}
