#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# conf-raw-reads.sh: every program reads rapido.conf through the key table
# (src/conf/confget.c: conf_uint, conf_size, conf_enum, conf_str, ...), so a
# default, a range or an allowed word lives once, in confkeys[]. A raw
# conf_get() anywhere else would bring back a second copy of one of them.
. "$(dirname "$0")/../tap.sh"

# conf.c defines it, conf.h declares it, confget.c is the resolver built on it
raw=$(cd "$TOP" && grep -rnE '(^|[^a-z_])conf_get[[:space:]]*\(' --include='*.c' --include='*.h' \
	src tools | grep -v -e '^src/conf/conf\.[ch]:' -e '^src/conf/confget\.c:')
# the scan must look where the reads are: confget.c is one of them
if ! (cd "$TOP" && grep -q 'conf_get(c, key)' src/conf/confget.c); then
	not_ok "the scan finds conf_get() in src/conf/confget.c"
elif [ -z "$raw" ]; then
	ok "no conf_get() outside src/conf/conf.c and the resolver src/conf/confget.c"
else
	not_ok "raw conf_get() reads outside the resolver (use confget.h)"
	printf '%s\n' "$raw" | sed 's/^/#   /'
fi
done_testing
