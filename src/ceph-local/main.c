// SPDX-License-Identifier: GPL-2.0
/* main.c: entry point of ./ceph-local. */
#include "err.h"
#include "ceph-local.h"

int main(int argc, char **argv)
{
	err_cmd = argv[0];
	return cmd_ceph_local(argc, argv);
}
