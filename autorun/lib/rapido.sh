# SPDX-License-Identifier: GPL-2.0
# rapido.sh: shell functions for profile scripts, sourced before the profile.

# _fatal MSG: report and stop the autorun with status 1
_fatal() {
	echo "rapido: FATAL: $*" >&2
	exit 1
}

PS1="rapido${RAPIDO_VM}:\w# "
