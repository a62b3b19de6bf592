/* SPDX-License-Identifier: GPL-2.0 */
/* qopt.h: a value for a qemu option list. */
#ifndef RAPIDO_VM_QOPT_H
#define RAPIDO_VM_QOPT_H

/* s with ',' doubled (malloc'd): a path must not add options. */
char *qopt(const char *s);
/*
 * -fsdev's value for a 9p export of path with id: a mapped security model
 * (the guest can make no setuid, device or FIFO file, no symbolic link, on
 * the host), files and dirs with the modes the umask gives (malloc'd).
 */
char *qopt_fsdev(const char *id, const char *path);

#endif
