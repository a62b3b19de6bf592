#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# arm64-afalg.sh: afalg.sh's checks on an arm64 guest (TCG): the cross-built
# rapido-afalg-selftest and rapido-afalg-sum against the sysroot's
# coreutils, on Debian's arm64 kernel with its Crypto Extensions drivers.
ARCH=arm64 exec "$(dirname "$0")/afalg.sh"
