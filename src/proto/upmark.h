/* SPDX-License-Identifier: GPL-2.0 */
/*
 * upmark.h: the kernel-log line the guest init writes (at the console's
 * level) just before it starts the profile. Everything the kernel printed
 * before it is the boot log: ./vm hides those lines on a terminal (-v
 * shows them) and prints one "up" line instead; the log file keeps them.
 */
#ifndef RAPIDO_PROTO_UPMARK_H
#define RAPIDO_PROTO_UPMARK_H

/* "[SEC.USEC] " + UPMARK + " after N ms; running the profile", on the console itself
 * (tools/init/trace.c: in order with the profile's output, as /dev/kmsg is not) */
#define UPMARK "rapido-init: up"

#endif
