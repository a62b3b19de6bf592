#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# man-pages.sh: the generated man pages cannot drift: every long option each
# program's --help prints is in its page, every key of rapido.conf.example is
# in rapido.conf(5), and every key the programs read (the confkeys registry)
# is documented in rapido.conf.example.
. "$(dirname "$0")/../tap.sh"
if ! command -v "${HELP2MAN:-help2man}" >/dev/null; then
	echo "SKIP: help2man is not installed (host/install-deps installs it)"
	exit 77
fi
for p in rapido cut vm vmctl netsetup ceph-local bisect; do
	if [ ! -x "$TOP/$p" ]; then
		echo "SKIP: $TOP/$p is not built (run make)"
		exit 77
	fi
done
if ! out=$(make -C "$TOP" --no-print-directory -s man 2>&1); then
	not_ok "make man"
	printf '%s\n' "$out" | sed 's/^/#   /'
	done_testing
fi

# The page's text with roff's \- and \f escapes undone.
page_text() {
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$1"
}

for pg in rapido.1 cut.1 vm.1 vmctl.1 bisect.1 netsetup.8 ceph-local.8; do
	p=${pg%.*}
	page=$TOP/build/man/$pg
	if [ ! -s "$page" ]; then
		not_ok "$pg: generated"
		continue
	fi
	opts=$("$TOP/$p" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
	# a parse that found nothing would pass vacuously: --help is always there
	if ! grep -qx -- --help <<<"$opts"; then
		not_ok "$p --help: no long options found in its output"
		continue
	fi
	text=$(page_text "$page")
	missing=
	for o in $opts; do
		grep -qe "$o\b" <<<"$text" || missing="$missing $o"
	done
	if [ -z "$missing" ]; then
		ok "$pg: all $(wc -w <<<"$opts") long options of $p --help"
	else
		not_ok "$pg: lacks$missing"
	fi
done

conf5=$TOP/build/man/rapido.conf.5
keys=$(sed -n 's/^#\{0,1\}\([A-Z][A-Z0-9_]*\)=.*/\1/p' "$TOP/rapido.conf.example" | sort -u)
if [ -z "$keys" ] || [ ! -s "$conf5" ]; then
	not_ok "rapido.conf.5: generated, and keys found in rapido.conf.example"
else
	missing=
	for k in $keys; do
		grep -qF "\\fB$k\\fR" "$conf5" || missing="$missing $k"
	done
	if [ -z "$missing" ]; then
		ok "rapido.conf.5: all $(wc -w <<<"$keys") keys of rapido.conf.example"
	else
		not_ok "rapido.conf.5: lacks$missing"
	fi
fi

# VM#_IP in the registry stands for VM1_IP, VM2_IP, ...: the example shows VM1_IP.
reg=$(sed -n '/^const struct confkey confkeys\[\] = {/,/^};/p' "$TOP/src/conf/confkeys.c" |
	sed -n 's/^\t{ "\([A-Z#][A-Z0-9_#]*\)".*/\1/p' | tr '#' 1 | sort -u)
missing=
for k in $reg; do
	grep -qx "$k" <<<"$keys" || missing="$missing $k"
done
if [ -z "$reg" ]; then
	not_ok "confkeys.c: registry found"
elif [ -z "$missing" ]; then
	ok "rapido.conf.example documents all $(wc -w <<<"$reg") keys of the registry"
else
	not_ok "rapido.conf.example lacks registry keys:$missing"
fi

done_testing
