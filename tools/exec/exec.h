/* SPDX-License-Identifier: GPL-2.0 */
/* exec.h: rapido-exec, the guest side of ./vmctl N exec (src/proto/execframe.h). */
#ifndef RAPIDO_TOOL_EXEC_H
#define RAPIDO_TOOL_EXEC_H

#include <stddef.h>

/*
 * The command from its arguments: the base64 parts, joined, decoded and
 * checked against crc (8 hex digits). A malloc'd string, or NULL with
 * *why (static text) saying what is wrong.
 */
char *exec_cmd_decode(char *const *parts, size_t n, const char *crc, const char **why);

/*
 * Run cmd under bash -c, its stdin /dev/null, and write its stdout and
 * stderr as frames to fd 1 until it exits, then its status; returns that
 * status. Frames start at seq (the begin frame is already out).
 */
int exec_run(const char *nonce, unsigned long seq, const char *cmd);

/* Write one frame to fd 1; -errno if the console is gone. */
int exec_frame(const char *nonce, int kind, unsigned long seq, const void *data, size_t len);

/* main.c: rapido-exec's command (tools/init/main.c runs it by that name) */
int cmd_exec(int argc, char **argv);

#endif
