// SPDX-License-Identifier: GPL-2.0
/* main.c: entry point of ./cut. */
#include "cut.h"

int main(int argc, char **argv)
{
	return cmd_cut(argc, argv);
}
