// SPDX-License-Identifier: GPL-2.0
/* main.c: entry point of ./cut. */
#include "err.h"
#include "cut.h"

int main(int argc, char **argv)
{
	err_cmd = argv[0];
	return cmd_cut(argc, argv);
}
