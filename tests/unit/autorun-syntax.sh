#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# autorun-syntax.sh: every profile and guest library parses (bash -n), and
# the libraries only define things: they are sourced into every image, so
# one broken or chatty file would break every profile.
top=$(cd "$(dirname "$0")/../.." && pwd)
n=0 fails=0
for f in "$top"/autorun/*.sh "$top"/autorun/lib/*.sh "$top"/tests/fixtures/profiles/*.sh; do
	n=$((n + 1))
	if bash -n "$f" 2> /tmp/autorun-syntax.$$; then
		echo "ok $n - bash -n ${f#$top/}"
	else
		fails=$((fails + 1))
		echo "not ok $n - bash -n ${f#$top/}"
		sed 's/^/# /' /tmp/autorun-syntax.$$
	fi
done
for f in "$top"/autorun/lib/*.sh; do
	n=$((n + 1))
	out=$(bash -c 'source "$1"' _ "$f" 2>&1 < /dev/null)
	if [ -z "$out" ]; then
		echo "ok $n - sourcing ${f#$top/} prints nothing"
	else
		fails=$((fails + 1))
		echo "not ok $n - sourcing ${f#$top/} prints: $out"
	fi
done
rm -f /tmp/autorun-syntax.$$
echo "1..$n"
[ $fails -eq 0 ]
