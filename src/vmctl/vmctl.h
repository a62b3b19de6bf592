/* SPDX-License-Identifier: GPL-2.0 */
/* vmctl.h: ./vmctl, which acts on a running VM through its QMP socket. */
#ifndef RAPIDO_VMCTL_H
#define RAPIDO_VMCTL_H

int cmd_vmctl(int argc, char **argv);

#endif
