#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# autorun-syntax.sh: every profile and guest library parses (bash -n), and
# the libraries only define things: they are sourced into every image, so
# one broken or chatty file would break every profile.
. "$(dirname "$0")/../tap.sh"
TAP_ON_FAIL=show_run
for f in "$TOP"/autorun/*.sh "$TOP"/autorun/lib/*.sh "$TOP"/tests/fixtures/profiles/*.sh; do
	run bash -n "$f"
	check "bash -n ${f#$TOP/}" exits 0
done
for f in "$TOP"/autorun/lib/*.sh; do
	run bash -c 'source "$1"' _ "$f" < /dev/null
	check "sourcing ${f#$TOP/} prints nothing" test -z "$(cat "$T/out" "$T/err")"
done
done_testing
