#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# no-circles.sh: the files of a program call into each other one way only
# (issue 27): among the objects of one directory, what each one's symbol
# table asks for (nm -u) and what another defines make the calls between
# them, and those never close a circle, of two files or of more. A file
# that two others both need is a helper of theirs, never a file that needs
# them back. Directories join the list once their circles are gone.
. "$(dirname "$0")/../tap.sh"
DIRS="src/cut src/vm"

for tool in nm tsort "${CC:-cc}"; do
	if ! command -v "$tool" > /dev/null; then
		echo "SKIP: $tool is not installed"
		exit 77
	fi
done

# edges DIR: "A B" per file A.c calling a function or using data of B.c
edges() {
	local dir=$1 obj=$T/obj/$1 c o s
	local -A owner=()
	mkdir -p "$obj"
	for c in "$TOP/$dir"/*.c; do
		o=$obj/$(basename "$c" .c).o
		"${CC:-cc}" -std=gnu11 -D_GNU_SOURCE -I"$TOP/src/lib" -I"$TOP/$dir" -I"$TOP/tests" \
			-c -o "$o" "$c" 2> "$T/cc.err" || { echo "ERROR $c: $(head -3 "$T/cc.err")"; return; }
	done
	for o in "$obj"/*.o; do
		for s in $(nm --defined-only -g "$o" | awk '{print $3}'); do
			owner[$s]=$(basename "$o" .o)
		done
	done
	for o in "$obj"/*.o; do
		for s in $(nm -u "$o" | awk '{print $2}'); do
			[ -n "${owner[$s]:-}" ] && [ "${owner[$s]}" != "$(basename "$o" .o)" ] &&
				echo "$(basename "$o" .o) ${owner[$s]} $s"
		done
	done | sort -u
}

for dir in $DIRS; do
	e=$(edges "$dir")
	if grep -q '^ERROR' <<<"$e"; then
		not_ok "$dir: compiled for its symbol tables: $(grep '^ERROR' <<<"$e")"
		continue
	fi
	if [ -z "$e" ]; then
		not_ok "$dir: calls between its files found (none: the test sees nothing)"
		continue
	fi
	pairs=$(awk '{print $1, $2}' <<<"$e" | sort -u)
	# two files calling each other, named with a symbol each way
	two=$(awk '{e[$1" "$2]=$3} END {for (k in e) {split(k, a, " ");
		if (a[1] < a[2] && ((a[2]" "a[1]) in e))
			print a[1] ".c -> " a[2] ".c (" e[k] "), " a[2] ".c -> " a[1] ".c (" e[a[2]" "a[1]] ")"}}' <<<"$e")
	if [ -z "$two" ]; then
		ok "$dir: no two files call into each other ($(wc -l <<<"$pairs") calls between files)"
	else
		not_ok "$dir: files that call into each other:"
		sed 's/^/#   /' <<<"$two"
	fi
	# a longer circle: tsort names its files
	if tsort <<<"$pairs" > /dev/null 2> "$T/tsort.err"; then
		ok "$dir: no circle through more files"
	else
		not_ok "$dir: a circle: $(grep -v 'input contains a loop' "$T/tsort.err" |
			sed 's/^tsort: //' | tr '\n' ' ')"
	fi
done
done_testing
