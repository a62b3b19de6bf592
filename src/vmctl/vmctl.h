/* SPDX-License-Identifier: GPL-2.0 */
/* vmctl.h: ./vmctl, which acts on a running VM through its QMP socket. */
#ifndef RAPIDO_VMCTL_H
#define RAPIDO_VMCTL_H

int cmd_vmctl(int argc, char **argv);

/* console.c: the guest's second shell on the virtio console (VM_STATE_DIR/vmN.hvc). */
/*
 * Run CMD there through rapido-exec, copy its stdout and stderr; returns its
 * status, 3 (no VM) or 4 (no whole answer).
 */
int vmctl_exec(const char *sock, unsigned int vm, const char *cmd, unsigned int start_secs);
/* Attach the terminal to it until Ctrl-] or the VM stops. */
int vmctl_shell(const char *sock, unsigned int vm);

#endif
