// SPDX-License-Identifier: GPL-2.0
/* main.c: entry point of ./vmctl. */
#include "vmctl.h"

int main(int argc, char **argv)
{
	return cmd_vmctl(argc, argv);
}
