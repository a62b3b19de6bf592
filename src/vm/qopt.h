/* SPDX-License-Identifier: GPL-2.0 */
/* qopt.h: a value for a qemu option list. */
#ifndef RAPIDO_VM_QOPT_H
#define RAPIDO_VM_QOPT_H

/* s with ',' doubled (malloc'd): a path must not add options. */
char *qopt(const char *s);

#endif
