// SPDX-License-Identifier: GPL-2.0
/*
 * main.c: the one program every image holds, run by the name it was
 * started under: /init (pid1.c), and its links /usr/bin/rapido-ktap
 * (tools/ktap) and /usr/bin/rapido-exec (tools/exec). One static C
 * library, not one a helper: the kernel unpacks every byte of the
 * initramfs on every boot, and a dynamic helper would pull libc.so.6 and
 * its loader into images that have no other use for them.
 */
#include <string.h>

#include "exec.h"
#include "init.h"
#include "ktap.h"

int main(int argc, char **argv)
{
	const char *name = argc > 0 && argv[0] ? argv[0] : "";
	const char *slash = strrchr(name, '/');

	if (slash)
		name = slash + 1;
	if (!strcmp(name, "rapido-ktap"))
		return cmd_ktap(argc, argv);
	if (!strcmp(name, "rapido-exec"))
		return cmd_exec(argc, argv);
	/* the kernel's /init, or any other name: the init, which refuses unless PID 1 */
	return cmd_init(argc, argv);
}
