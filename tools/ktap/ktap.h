/* SPDX-License-Identifier: GPL-2.0 */
/* ktap.h: rapido-ktap, the guest's TAP/KTAP reader for results.sh (main.c). */
#ifndef RAPIDO_TOOL_KTAP_H
#define RAPIDO_TOOL_KTAP_H

/* rapido-ktap's command (tools/init/main.c runs it by that name) */
int cmd_ktap(int argc, char **argv);

#endif
