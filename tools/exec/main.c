// SPDX-License-Identifier: GPL-2.0
/*
 * main.c: rapido-exec NONCE CRC BASE64..., the guest side of ./vmctl N
 * exec. The console shell runs it with the command vmctl typed, base64 in
 * one or more arguments (so that no tty line grows past the 4095 bytes a
 * canonical-mode tty keeps, and no character of it is one the line
 * discipline or readline acts on) and its CRC-32. It answers in frames
 * (src/proto/execframe.h): begin, the command's stdout and stderr as they
 * come, its exit status; or why it did not run it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "exec.h"
#include "execframe.h"

int cmd_exec(int argc, char **argv)
{
	const char *why;
	char *cmd;
	int status;

	err_prog = "rapido-exec";
	/* without a nonce there is nobody to answer: a person ran it */
	if (argc < 3 || !execframe_nonce_valid(argv[1])) {
		fprintf(stderr, "Usage: rapido-exec NONCE CRC [BASE64...]\n"
			"The guest side of ./vmctl N exec: run on the virtio console by vmctl, not by hand.\n");
		return 2;
	}
	if (exec_frame(argv[1], EXECFRAME_BEGIN, 0, (const unsigned char[]){ EXECFRAME_VERSION }, 1))
		return 1;
	cmd = exec_cmd_decode(argv + 3, (size_t)argc - 3, argv[2], &why);
	if (!cmd) {
		exec_frame(argv[1], EXECFRAME_REFUSED, 1, why, strlen(why));
		return 2;
	}
	status = exec_run(argv[1], 1, cmd);
	free(cmd);
	return status;
}
