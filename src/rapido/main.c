// SPDX-License-Identifier: GPL-2.0
/* main.c: entry point of rapido, the one command. */
#include "front.h"

int main(int argc, char **argv)
{
	return cmd_rapido(argc, argv);
}
