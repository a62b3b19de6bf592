/* SPDX-License-Identifier: GPL-2.0 */
/* usock.h: connect to a unix stream socket by its path (QMP, the console, "is it running?"). */
#ifndef RAPIDO_USOCK_H
#define RAPIDO_USOCK_H

/*
 * A close-on-exec stream socket connected to path: the fd, or -errno:
 * -ENAMETOOLONG for a path longer than sockaddr_un holds, -ENOENT (no
 * socket) or -ECONNREFUSED (nobody listens) when nothing is there.
 */
int usock_connect(const char *path);

#endif
