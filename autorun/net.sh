#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# net: a guest with its network up (./vm --net tap|user, --link-listen,
# --link-connect) and the tools to look at it; runs the -x/-f extras.
#@ description: network up (bridge, user-mode or VM-to-VM link) with ip and ping; runs the extras
#@ include: net
#@ bins: ping cat sleep grep
#@ bins-optional: ss nc
#@ cpus: 1
#@ memory: 512M

ip -brief address show | grep -v '^lo ' || rapido_fail "no network interface: boot with ./vm --net or --link-*"
