#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# layering.sh: the rooms keep their order (issue 41, docs/HACKING.md "The
# rooms"). From the sources, each #include of a project header resolved to
# the directory that holds it:
#  - a room includes only rooms below it: src/base < src/proto < src/conf <
#    src/image < src/qemu < src/results < the programs (src/cut, vm, vmctl,
#    netsetup, ceph-local, ldd, bisect, rapido); src/qemu uses base only;
#    src/results nothing of src/vm; a program no other program (src/rapido
#    the five it runs); the guest's code (tools/lib: base, proto; tools/NAME:
#    base, proto, tools/lib; tools/init also the tools it runs, the
#    Makefile's INIT_TOOLS) nothing host-only, nor another tool's;
#  - what the Makefile's -I cannot catch: a path in an include ("../vm/x.h"),
#    a header name that two directories visible from one file both hold;
#  - the Makefile's BELOW_ROOM lists say the same order as this test;
#  - from each guest helper's link map (build/guest/rapido-NAME.map, the
#    Makefile's -Wl,-Map): every object of the project linked into it is
#    its own (tools/NAME) or one of src/base, src/proto, tools/lib, each
#    archive member the same bytes as that room's object, and each of its
#    own objects is in; rapido-init's own are those of tools/init and of
#    INIT_TOOLS (ktap, exec: one program every image holds once), whose
#    build/guest/rapido-NAME is a link to rapido-init, with no map.
# Then the same checks on a copy of the tree broken in each way, which they
# must name. Run after make (tests/run --unit does).
. "$(dirname "$0")/../tap.sh"

programs="cut vm vmctl netsetup ceph-local ldd bisect rapido"
# the tools linked into rapido-init (tools/init/main.c runs each by its name)
init_tools=$(sed -n 's/^INIT_TOOLS := //p' "$TOP/Makefile")
[ -n "$init_tools" ] || { echo "Bail out! Makefile: no INIT_TOOLS line"; exit 1; }
# below DIR: the directories a file of DIR may include besides its own
below() {
	case $1 in
	src/base) echo "" ;;
	src/proto) echo "src/base" ;;
	src/conf) echo "src/base src/proto" ;;
	src/image) echo "src/base src/proto src/conf" ;;
	src/qemu) echo "src/base" ;;
	src/results) echo "src/base src/proto src/conf src/image src/qemu" ;;
	src/rapido) echo "src/base src/proto src/conf src/image src/qemu src/results" \
		"src/cut src/vm src/vmctl src/netsetup src/ceph-local" ;;
	tools/lib) echo "src/base src/proto" ;;
	tools/init) echo "src/base src/proto tools/lib" $(printf ' tools/%s' $init_tools) ;;
	tools/*) echo "src/base src/proto tools/lib" ;;
	src/*)
		if [[ " $programs " == *" ${1#src/} "* ]]; then
			echo "src/base src/proto src/conf src/image src/qemu src/results"
		else
			echo "UNKNOWN"
		fi
		;;
	esac
}

# layering ROOT: each problem of ROOT's sources, a line each
layering() {
	local root=$1 d f h inc name to v n line
	local -A holds=() seen=()
	local dirs=()

	for d in "$root"/src/*/ "$root"/tools/*/; do
		d=${d%/}
		d=${d#"$root"/}
		dirs+=("$d")
		if [ "$(below "$d")" = UNKNOWN ]; then
			echo "$d: a directory in no room: add it to the order (tests/unit/layering.sh, docs/HACKING.md)"
			continue
		fi
		for h in "$root/$d"/*.h; do
			[ -e "$h" ] || continue
			name=${h##*/}
			holds[$name]+=" $d"
		done
	done

	# a header name in two rooms, or in two directories a file sees besides
	# its own: -I's order would pick one silently (its own directory's
	# comes first, as the compiler takes it)
	for name in "${!holds[@]}"; do
		set -- ${holds[$name]}
		[ $# -gt 1 ] || continue
		n=0
		for v in src/base src/proto src/conf src/image src/qemu src/results tools/lib; do
			[[ " ${holds[$name]} " != *" $v "* ]] || n=$((n + 1))
		done
		if [ $n -gt 1 ]; then
			echo "$name: in${holds[$name]}: two rooms, one name"
			continue
		fi
		for d in "${dirs[@]}"; do
			n=0
			for v in $(below "$d"); do
				[[ " ${holds[$name]} " != *" $v "* ]] || n=$((n + 1))
			done
			if [ $n -gt 1 ]; then
				echo "$name: in${holds[$name]}, which $d sees both: one name, one header"
				break
			fi
		done
	done

	# "FILE:LINE:NAME" for each include of a file of src/ or tools/
	while IFS= read -r line; do
		f=${line%%:*}
		line=${line#*:}
		n=${line%%:*}
		inc=${line#*:}
		d=${f%/*}
		d=${d#"$root"/}
		if [[ $inc == */* ]]; then
			# quoted only (angle ones with a path are the system's)
			[ "${inc:0:1}" = '"' ] || continue
			inc=${inc:1}
			to=$(realpath -m "$root/$d/$inc")
			to=${to%/*}
			to=${to#"$(realpath "$root")"/}
			echo "$d/${f##*/}:$n: #include \"$inc\": a path in an include (${to}): name the header only, the room's -I finds it"
			[[ " $(below "$d") " == *" $to "* ]] || [ "$to" = "$d" ] ||
				echo "$d/${f##*/}:$n: #include \"$inc\": $d may not use $to"
			continue
		fi
		inc=${inc:1}
		# a header of the file's own directory first, as the compiler does
		[ ! -e "$root/$d/$inc" ] || continue
		[ -n "${holds[$inc]:-}" ] || continue
		to=
		for v in $(below "$d"); do
			[[ " ${holds[$inc]} " != *" $v "* ]] || to=$v
		done
		[ -z "$to" ] || continue
		set -- ${holds[$inc]}
		if [ "$d" = src/results ] && [[ " ${holds[$inc]} " == *" src/vm "* ]]; then
			echo "$d/${f##*/}:$n: #include \"$inc\": src/results includes src/vm's header: the results library has no launcher in it"
		elif [[ $d == tools/* && $1 == tools/* ]]; then
			echo "$d/${f##*/}:$n: #include \"$inc\": the guest's code includes another tool's ($1): it may use $(below "$d")"
		elif [[ $d == tools/* ]]; then
			echo "$d/${f##*/}:$n: #include \"$inc\": the guest's code includes $1's (host-only): it may use $(below "$d")"
		else
			echo "$d/${f##*/}:$n: #include \"$inc\": $d may not use $1 (it may use: $(below "$d"))"
		fi
	done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<][^">]+[">]' \
			"$root"/src/*/*.[ch] "$root"/tools/*/*.[ch] |
		sed -E 's/^([^:]*:[0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*(["<][^">]+)[">].*/\1:\2/')

	# the Makefile's order is this one
	while IFS= read -r line; do
		v=${line%% :=*}
		v=${v#BELOW_}
		d=src/$v
		[ "$v" != tools ] || d=tools/lib
		want=$(below "$d")
		got=$(for to in ${line#*:=}; do [ "$to" = tools ] && echo tools/lib || echo "src/$to"; done | sort)
		want=$(for to in $want; do echo "$to"; done | sort)
		[ "$got" = "$want" ] ||
			echo "Makefile: BELOW_$v is '$(echo ${line#*:=})', the order says: '$(echo $want)'"
	done < <(grep -E '^BELOW_[a-z]+ :=' "$root/Makefile")
}

# maps ROOT: each problem of the guest helpers' link maps under ROOT/build/guest
maps() {
	local root=$1 t map obj ar mem dir src own
	local -A loaded
	for t in "$root"/tools/*/; do
		t=${t%/}
		t=${t##*/}
		[ "$t" != lib ] || continue
		if [[ " $init_tools " == *" $t "* ]]; then
			[ "$(readlink "$root/build/guest/rapido-$t")" = rapido-init ] ||
				echo "rapido-$t: not a link to rapido-init (the Makefile's INIT_TOOLS)"
			continue
		fi
		own="tools/$t"
		[ "$t" != init ] || own="$own$(printf ' tools/%s' $init_tools)"
		map=$root/build/guest/rapido-$t.map
		if [ ! -e "$map" ] || [ -n "$(for dir in $own; do
			find "$root/build/guest/$dir" -name '*.o' -newer "$map"; done)" ]; then
			echo "$map: missing or older than rapido-$t's objects: run make"
			continue
		fi
		loaded=()
		# the objects given to the linker and the archive members it took
		while read -r obj; do
			case $obj in
			/*) continue ;;
			*'('*')')
				ar=${obj%%(*}
				mem=${obj#*(}
				mem=${mem%)}
				case $ar in
				build/guest/libbase.a) dir=src/base ;;
				build/guest/libproto.a) dir=src/proto ;;
				build/guest/libtools.a) dir=tools/lib ;;
				*)
					echo "rapido-$t: $obj: not a room of the guest's (src/base, src/proto, tools/lib)"
					continue
					;;
				esac
				src=$dir/${mem%.o}.c
				if [ ! -e "$root/$src" ] ||
					! ar p "$root/$ar" "$mem" | cmp -s - "$root/build/guest/${src%.c}.o"; then
					echo "rapido-$t: $obj is no object of $dir"
				fi
				;;
			*.o)
				dir=${obj#build/guest/}
				dir=${dir%/*}
				loaded[$obj]=1
				if [[ " $own src/base src/proto tools/lib " != *" $dir "* ]]; then
					echo "rapido-$t: $obj: not its own ($own), nor of src/base, src/proto, tools/lib"
				fi
				;;
			esac
		done < <(sed -nE 's/^LOAD ([^ ]+\.o)$/\1/p; s/^([^ ]+\.a\([^ )]+\.o\)).*/\1/p' "$map")
		# and each of its own objects is in (rapido-init: ktap's and exec's too)
		for dir in $own; do
			for src in "$root/$dir"/*.c; do
				obj=build/guest/$dir/${src##*/}
				obj=${obj%.c}.o
				[ -n "${loaded[$obj]:-}" ] || echo "rapido-$t: $obj: its own, not linked in"
			done
		done
	done
}

layering "$TOP" > "$T/real"
check "every include goes down the rooms' order, none by a path, no name in two rooms" test ! -s "$T/real"
[ ! -s "$T/real" ] || sed 's/^/# /' "$T/real"

if [ -e "$TOP/build/guest/rapido-init" ]; then
	maps "$TOP" > "$T/maps"
	check "the guest helpers link only base, proto, tools/lib and their own objects, each of them (rapido-init: $init_tools's too, whose names are links to it)" \
		test ! -s "$T/maps"
	[ ! -s "$T/maps" ] || sed 's/^/# /' "$T/maps"
	grep -q 'libproto.a(status.o)' "$TOP/build/guest/rapido-init.map"
	check "  rapido-init's map lists its archive members (status.o of libproto.a)" test $? = 0
	# every byte of /init is unpacked on every boot (#44): the rooms' functions
	# that the init never calls are discarded (-ffunction-sections, --gc-sections)
	n=$(awk '/^Discarded input sections/ { d = 1 } /^Memory Configuration/ { d = 0 }
		d && /^ \.text\./ { t = 1; if ($0 ~ /lib(base|proto|tools)\.a\(/) { n++; t = 0 }; next }
		d && t && /lib(base|proto|tools)\.a\(/ { n++ } { t = 0 } END { print n + 0 }' \
		"$TOP/build/guest/rapido-init.map")
	check "  rapido-init's link discards the rooms' functions it never calls ($n)" test "$n" -gt 0
else
	skip "the guest helpers' link maps" "build/guest/rapido-init is not built: run make"
fi

# the same on a copy broken in each way
b=$T/broken
mkdir -p "$b"
(cd "$TOP" && tar cf - Makefile src/*/*.[ch] tools/*/*.[ch]) | tar xf - -C "$b"
sed -i '0,/#include "err.h"/s//#include "err.h"\n#include "..\/vm\/vm.h"/' "$b/src/results/verdict.c"
sed -i '0,/#include "err.h"/s//#include "err.h"\n#include "vm.h"/' "$b/src/results/junit.c"
sed -i '0,/#include "err.h"/s//#include "err.h"\n#include "conf.h"/' "$b/tools/init/setup.c"
sed -i '0,/#include "err.h"/s//#include "err.h"\n#include "exec.h"/' "$b/tools/ktap/main.c"
sed -i '0,/#include "err.h"/s//#include "err.h"\n#include "qmp.h"/' "$b/src/image/cpio.c"
sed -i '0,/#include "err.h"/s//#include "err.h"\n#include "conf.h"/' "$b/src/qemu/qmp.c"
cp "$b/src/vm/lookup.h" "$b/src/conf/lookup.h"
mkdir "$b/src/newroom"
sed -i 's/^BELOW_qemu := base$/BELOW_qemu := conf base/' "$b/Makefile"
layering "$b" > "$T/broken.out"
check "a relative include into a higher room is named" \
	contains "$T/broken.out" '#include "../vm/vm.h": src/results may not use src/vm'
check "  and any path in an include" contains "$T/broken.out" '"../vm/vm.h": a path in an include'
check "src/results including src/vm is named" contains "$T/broken.out" \
	'src/results/junit.c'
check "  as the results library's" contains "$T/broken.out" 'has no launcher in it'
check "the guest init including host-only code is named" contains "$T/broken.out" \
	'tools/init/setup.c'
check "  as the guest's" contains "$T/broken.out" "the guest's code includes src/conf's (host-only)"
check "a lower room including a higher one is named" contains "$T/broken.out" \
	'#include "qmp.h": src/image may not use src/qemu'
check "src/qemu including anything but base is named" contains "$T/broken.out" \
	'#include "conf.h": src/qemu may not use src/conf'
check "a tool including another tool's header is named (only the init runs them)" \
	grep -qE '^tools/ktap/main\.c:[0-9]+: #include "exec\.h": the guest.s code includes another tool.s \(tools/exec\)' "$T/broken.out"
check "a header name in two rooms one file sees is named" contains "$T/broken.out" 'lookup.h: in'
check "a directory in no room is named" contains "$T/broken.out" 'src/newroom: a directory in no room'
check "a Makefile order that differs is named" contains "$T/broken.out" "Makefile: BELOW_qemu is 'conf base'"
[ $fails = 0 ] || sed 's/^/# /' "$T/broken.out"

if [ -e "$TOP/build/guest/rapido-init.map" ]; then
	mkdir -p "$b/build/guest"
	# (-P: rapido-ktap and rapido-exec stay links)
	cp -Pp "$TOP"/build/guest/rapido-* "$TOP"/build/guest/lib*.a "$b/build/guest/"
	cp -rp "$TOP/build/guest/src" "$TOP/build/guest/tools" "$b/build/guest/"
	# a host room's member, a host object, an archive member with no source in its room
	sed -i '0,/^build\/guest\/libproto.a(status.o)/s//build\/guest\/libconf.a(conf.o)\n&/' \
		"$b/build/guest/rapido-init.map"
	sed -i '0,/^LOAD build\/guest\/tools\/init\/main.o/s//LOAD build\/host\/src\/vm\/qemu.o\n&/' \
		"$b/build/guest/rapido-init.map"
	sed -i '0,/^build\/guest\/libbase.a(err.o)/s//build\/guest\/libbase.a(results.o)\n&/' \
		"$b/build/guest/rapido-init.map"
	# exec's main linked in no more; ktap a program of its own
	sed -i '/^LOAD build\/guest\/tools\/exec\/main.o$/d' "$b/build/guest/rapido-init.map"
	rm "$b/build/guest/rapido-ktap" && cp "$TOP/build/guest/rapido-init" "$b/build/guest/rapido-ktap"
	touch "$b"/build/guest/*.map
	maps "$b" > "$T/maps.out"
	check "a host room's archive in rapido-init is named" contains "$T/maps.out" \
		"rapido-init: build/guest/libconf.a(conf.o): not a room of the guest's"
	check "a host object in rapido-init is named" contains "$T/maps.out" \
		"rapido-init: build/host/src/vm/qemu.o: not its own"
	check "an archive member from outside its room is named" contains "$T/maps.out" \
		"rapido-init: build/guest/libbase.a(results.o) is no object of src/base"
	check "an INIT_TOOLS object missing from rapido-init is named" contains "$T/maps.out" \
		"rapido-init: build/guest/tools/exec/main.o: its own, not linked in"
	check "an INIT_TOOLS name that is no link to rapido-init is named" contains "$T/maps.out" \
		"rapido-ktap: not a link to rapido-init (the Makefile's INIT_TOOLS)"
	[ $fails = 0 ] || sed 's/^/# /' "$T/maps.out"
fi
done_testing
