// SPDX-License-Identifier: GPL-2.0
/* main.c: entry point of ./bisect. */
#include "bisect.h"

int main(int argc, char **argv)
{
	return cmd_bisect(argc, argv);
}
