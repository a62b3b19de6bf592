/* SPDX-License-Identifier: GPL-2.0 */
/* ifname.h: network interface names, and TAP_DEVS' list of them. */
#ifndef RAPIDO_IFNAME_H
#define RAPIDO_IFNAME_H

#include "strv.h"

/* What ifname_valid() accepts, for messages. */
#define IFNAME_RULE "1-15 characters, no '/', ',', ':' or blank, not '.' or '..'"

/*
 * 1 if name can be a network interface's: the kernel's dev_valid_name()
 * (shorter than IFNAMSIZ, no '/', ':' or blank, not "." or "..") and no ','
 * (qemu's -netdev tap,ifname=NAME would split there).
 */
int ifname_valid(const char *name);

/*
 * TAP_DEVS' value: shell-like words (VM N uses the Nth), each a valid
 * interface name, none twice (two VMs on one TAP see each other's frames
 * and neither gets its own). ./netsetup creates them and ./vm uses them,
 * with this one rule. 0, or -EINVAL with *err (malloc'd) naming the bad
 * word; out is then empty.
 */
int tap_devs_parse(const char *value, struct strv *out, char **err);

#endif
