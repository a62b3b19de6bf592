#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# no-circles.sh: the files of each program and guest tool call into each
# other one way only (issue 27). From the built objects: what each one's
# symbol table asks for (nm -u) and what another defines (nm --defined-only)
# make the calls between them, and those never close a circle, of two files
# (A uses a symbol of B and B one of A; both are named, with the symbols)
# or of more (tsort names them). The rooms (src/base ... src/results,
# tools/lib: the libraries) are checked on their own, and as a part of every
# program: a room's file that calls into a program's file closes a circle
# through it (tests/unit/layering.sh checks the rooms' order). A
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

# the rooms: the host's, then the guest's (tools/lib, proto, base)
host_rooms=(src/base src/proto src/conf src/image src/qemu src/results)
guest_rooms=(src/base src/proto tools/lib)
# rooms_re: a file of a room
rooms_re='^(src/(base|proto|conf|image|qemu|results)|tools/lib)/'

# check_group NAME OBJDIR DIR: the files of DIR; a program's or tool's
# calls resolve against the rooms' too, and no room may call back
check_group() {
	local name=$1 objdir=$2 dir=$3 e back two pairs rooms
	if [ "$objdir" = "$TOP/build/guest" ]; then
		rooms=("${guest_rooms[@]}")
	else
		rooms=("${host_rooms[@]}")
	fi
	if [ "$dir" = rooms ]; then
		e=$(calls "$objdir" "${rooms[@]}")
	else
		e=$(calls "$objdir" "$dir" "${rooms[@]}")
	fi
	if grep -q '^STALE' <<<"$e"; then
		not_ok "$name: objects missing or older than their source (run make): $(grep '^STALE' <<<"$e" |
			head -3 | cut -d' ' -f2 | tr '\n' ' ')"
		return
	fi
	if [ "$dir" != rooms ]; then
		# the rooms' own calls are their group's; one into the program closes a circle
		back=$(awk -v re="$rooms_re" '$1 ~ re && $2 !~ re { print $1 " uses " $3 " of " $2 }' <<<"$e")
		if [ -z "$back" ]; then
			ok "$name: no room calls any of its files"
		else
			not_ok "$name: a room calls into it:"
			sed 's/^/#   /' <<<"$back"
		fi
		e=$(awk -v re="$rooms_re" '$1 !~ re' <<<"$e")
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

check_group "the host's rooms" "$TOP/build/$hostdir" rooms
check_group "the guest's rooms" "$TOP/build/guest" rooms
for p in cut vm vmctl netsetup ceph-local rapido bisect; do
	check_group "$p" "$TOP/build/$hostdir" "src/$p"
done
for t in "$TOP"/tools/*/; do
	t=$(basename "$t")
	[ "$t" != lib ] || continue
	check_group "rapido-$t" "$TOP/build/guest" "tools/$t"
done
done_testing
