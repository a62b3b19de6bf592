#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# protocol-words.sh: src/proto/protocol.h is the one list of the words host
# and guest say to each other (issue 41): the rapido.* kernel parameters, the
# record keywords, the ports. The C side uses its macros; the guest's shell
# library cannot include it, so this test holds the two together:
#  - every record keyword ("R1 KIND", _rapido_res_emit/_rapido_res_end KIND,
#    rec=VERSION) and every rapido.NAME= parameter in autorun/*.sh and
#    autorun/lib/*.sh is one of protocol.h's, marked "[sh]" there;
#  - every "[sh]" word of protocol.h is used by the shell, every other one
#    by the C code (its macro), so no word is listed and dead;
#  - no C file of src/ or tools/ but protocol.h spells a rapido.NAME=
#    parameter or an "R1 " record in a string: it uses the macro.
# Then the same checks on a copy with a word misspelled on each side, which
# they must name.
. "$(dirname "$0")/../tap.sh"

# drift ROOT: each problem of ROOT's tree, a line each; none: no output
drift() {
	local root=$1 h=$1/src/proto/protocol.h
	local -A def=() sh=() macro=()
	local name val rest w f line
	local shells=("$root"/autorun/*.sh "$root"/autorun/lib/*.sh)

	if [ ! -r "$h" ]; then
		echo "$h: cannot read"
		return
	fi
	# '#define NAME "value"  /* [sh] ... */', one a line (see its head comment)
	while IFS=$'\t' read -r name val rest; do
		def[$val]=$name
		macro[$name]=$val
		[[ $rest != *'[sh]'* ]] || sh[$name]=1
	done < <(sed -nE 's/^#define[ \t]+((KP|REC|PORT)_[A-Z0-9_]+)[ \t]+"([^"]*)"(.*)$/\1\t\3\t\4/p' "$h")
	if [ ${#def[@]} -lt 20 ]; then
		echo "$h: only ${#def[@]} words read: not the layout this test reads"
		return
	fi

	# the shell's words, "FILE:LINE WORD" each
	local -A used_sh=()
	while IFS= read -r line; do
		f=${line%% *}
		w=${line#* }
		if [ -z "${def[$w]:-}" ]; then
			echo "$f: '$w' is no word of src/proto/protocol.h (a record keyword or rapido.* parameter the host does not know)"
			continue
		fi
		used_sh[${def[$w]}]=1
		[ -n "${sh[${def[$w]}]:-}" ] ||
			echo "$f: '$w' ($h: ${def[$w]}) is used by the shell but not marked [sh]"
	done < <(
		grep -noE '_rapido_res_(emit|end)[ \t]+[a-z]+' "${shells[@]}" |
			sed -E 's/^([^:]*:[0-9]+):_rapido_res_[a-z]+[ \t]+/\1 /'
		grep -noE '(^|[^=[:alnum:]_])R1 [a-z]+' "${shells[@]}" |
			sed -E 's/^([^:]*:[0-9]+):[^R]?R1 /\1 /'
		grep -noE '\brec=[A-Z][0-9]+' "${shells[@]}" | sed -E 's/^([^:]*:[0-9]+):rec=/\1 /'
		grep -noE '\brapido\.[a-z][a-z0-9-]*=' "${shells[@]}" | sed -E 's/^([^:]*:[0-9]+):/\1 /'
	)

	# every word used where protocol.h says
	for name in "${!macro[@]}"; do
		if [ -n "${sh[$name]:-}" ]; then
			[ -n "${used_sh[$name]:-}" ] ||
				echo "$h: $name '${macro[$name]}' is marked [sh] but no autorun/*.sh or autorun/lib/*.sh uses it"
		elif ! grep -rqw --include='*.[ch]' --exclude=protocol.h "$name" "$root/src" "$root/tools"; then
			echo "$h: $name '${macro[$name]}' is used by no C file of src/ or tools/ (and not marked [sh])"
		fi
	done

	# the C side spells none of them itself (comments aside)
	grep -rnE --include='*.[ch]' --exclude=protocol.h '"([^"]*rapido\.[a-z][a-z0-9-]*=|R1 [a-z])' \
		"$root/src" "$root/tools" | grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/?\*|//)' |
		sed -E 's#[[:space:]]/\*.*$##' | grep -E '"([^"]*rapido\.[a-z][a-z0-9-]*=|R1 [a-z])' |
		sed -E 's/^([^:]*:[0-9]+):.*/\1: a rapido.* parameter or record spelled out: use its macro of src\/proto\/protocol.h/'
}

drift "$TOP" > "$T/real"
check "the shell's and the C code's words are protocol.h's, and all of them are used" \
	test ! -s "$T/real"
[ ! -s "$T/real" ] || sed 's/^/# /' "$T/real"

# a copy with one misspelled word on each side and a dead one in the header
b=$T/broken
mkdir -p "$b"
(cd "$TOP" && tar cf - src tools autorun) | tar xf - -C "$b"
sed -i 's/_rapido_res_emit plan /_rapido_res_emit plann /' "$b/autorun/lib/results.sh"
sed -i 's/rapido\.ip=\*)/rapido.ipp=*)/' "$b/autorun/lib/net.sh"
sed -i 's/^#define KP_HVC "rapido.hvc="/#define KP_HVC "rapido.hvc="\n#define KP_DEAD "rapido.dead="/' \
	"$b/src/proto/protocol.h"
sed -i 's/KP_SHELL "%s"/"rapido.shell=%s"/' "$b/src/vm/console.c"
drift "$b" > "$T/broken.out"
check "a misspelled record keyword in the shell is named" contains "$T/broken.out" "'plann' is no word"
check "a misspelled kernel parameter in the shell is named" contains "$T/broken.out" "'rapido.ipp=' is no word"
check "a [sh] word the shell no longer uses is named" \
	contains "$T/broken.out" "REC_PLAN 'plan' is marked [sh] but no autorun"
check "a word of protocol.h nothing uses is named" contains "$T/broken.out" "KP_DEAD 'rapido.dead='"
check "a parameter a C file spells itself is named" \
	contains "$T/broken.out" "src/vm/console.c:"
[ $fails = 0 ] || sed 's/^/# /' "$T/broken.out"
done_testing
