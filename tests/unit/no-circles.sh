#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# no-circles.sh: the files of each program and guest tool call into each
# other one way only (issue 27). From the built objects: what each one's
# symbol table asks for (nm -u) and what another defines (nm --defined-only)
# make the calls between them, and those never close a circle, of two files
# (A uses a symbol of B and B one of A; both are named, with the symbols)
# or of more (tsort names them). src/lib is checked on its own, and as a
# part of every program: a lib file that calls into a program's file
# closes a circle through it. A
# file that two others both need is a helper of theirs, never a file that
# needs them back. Run after make (tests/run --unit does).
. "$(dirname "$0")/../tap.sh"
hostdir=$(cat "$TOP/build/hostdir" 2>/dev/null || echo host)

for tool in nm tsort; do
	if ! command -v "$tool" > /dev/null; then
		echo "SKIP: $tool is not installed"
		exit 77
	fi
done

# calls OBJDIR DIR...: "A B SYM" for each file A.c of the DIRs using SYM
# defined in B.c; files named as their sources. An object missing or
# older than its source is reported as "STALE path".
calls() {
	local objdir=$1 dir c o objs=()
	shift
	for dir in "$@"; do
		for c in "$TOP/$dir"/*.c; do
			o=$objdir/$dir/$(basename "$c" .c).o
			if [ ! -e "$o" ] || [ "$c" -nt "$o" ]; then
				echo "STALE $o"
				continue
			fi
			objs+=("$o")
		done
	done
	[ ${#objs[@]} -gt 0 ] || return
	# nm -A: "OBJ:VALUE TYPE SYM", or "OBJ:                 U SYM"
	{
		nm -A -g --defined-only "${objs[@]}" | awk '{ print "D", $1, $NF }'
		nm -A -u "${objs[@]}" | awk '{ print "U", $1, $NF }'
	} | awk -v objdir="$objdir/" '
	{ f = substr($2, length(objdir) + 1); sub(/\.o:.*/, ".c", f) }
	$1 == "D" { def[$3] = f; next }
	{ use[++n] = f " " $3 }
	END {
		for (i = 1; i <= n; i++) {
			split(use[i], u, " ")
			if ((u[2] in def) && def[u[2]] != u[1])
				print u[1], def[u[2]], u[2]
		}
	}' | sort -u
}

# check_group NAME OBJDIR DIR: the files of DIR; a program's or tool's
# calls resolve against src/lib's too, and src/lib must not call back
check_group() {
	local name=$1 objdir=$2 dir=$3 e back two pairs
	if [ "$dir" = src/lib ]; then
		e=$(calls "$objdir" src/lib)
	else
		e=$(calls "$objdir" "$dir" src/lib)
	fi
	if grep -q '^STALE' <<<"$e"; then
		not_ok "$name: objects missing or older than their source (run make): $(grep '^STALE' <<<"$e" |
			head -3 | cut -d' ' -f2 | tr '\n' ' ')"
		return
	fi
	if [ "$dir" != src/lib ]; then
		# lib's own calls are the librapido group's; one into the program closes a circle
		back=$(awk '$1 ~ /^src\/lib\// && $2 !~ /^src\/lib\// { print $1 " uses " $3 " of " $2 }' <<<"$e")
		if [ -z "$back" ]; then
			ok "$name: src/lib calls none of its files"
		else
			not_ok "$name: src/lib calls into it:"
			sed 's/^/#   /' <<<"$back"
		fi
		e=$(awk '$1 !~ /^src\/lib\//' <<<"$e")
	fi
	if [ -z "$e" ]; then
		not_ok "$name: no calls between its files found (the test sees nothing)"
		return
	fi
	# each pair once, with every symbol each way
	two=$(awk '{ s[$1 " " $2] = s[$1 " " $2] " " $3 }
		END { for (k in s) { split(k, p, " "); r = p[2] " " p[1]
			if (p[1] < p[2] && (r in s))
				print p[1] " <-> " p[2] ": " p[1] " uses" s[k] "; " p[2] " uses" s[r] } }' <<<"$e" | sort)
	if [ -z "$two" ]; then
		ok "$name: no two files call into each other"
	else
		not_ok "$name: files that call into each other:"
		sed 's/^/#   /' <<<"$two"
	fi
	pairs=$(awk '{ print $1, $2 }' <<<"$e" | sort -u)
	if tsort <<<"$pairs" > /dev/null 2> "$T/tsort.err"; then
		ok "$name: no circle through more files"
	else
		not_ok "$name: a circle through: $(grep -v 'input contains a loop' "$T/tsort.err" |
			sed 's/^tsort: //' | tr '\n' ' ')"
	fi
}

check_group librapido "$TOP/build/$hostdir" src/lib
for p in cut vm vmctl netsetup ceph-local rapido bisect; do
	check_group "$p" "$TOP/build/$hostdir" "src/$p"
done
for t in "$TOP"/tools/*/; do
	t=$(basename "$t")
	check_group "rapido-$t" "$TOP/build/guest" "tools/$t"
done
done_testing
