// SPDX-License-Identifier: GPL-2.0
/* main.c: entry point of ./ceph-local. */
#include "ceph-local.h"

int main(int argc, char **argv)
{
	return cmd_ceph_local(argc, argv);
}
