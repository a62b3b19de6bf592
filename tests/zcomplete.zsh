# SPDX-License-Identifier: GPL-2.0
# zcomplete.zsh: run a zsh completion function file as zsh's completion
# system would for WORD... (the last is being completed), with compadd
# printing the words it is given that start with it, one a line, as zsh
# would offer them (tests/unit/completion.sh, tests/fresh/deb.sh).
#   ZCOMP=FILE zsh -f tests/zcomplete.zsh WORD...
compadd() {
	local -a w
	while [[ $# -gt 0 ]]; do
		case $1 in
		-) shift; w+=("$@"); break ;;
		-a) w+=("${(@P)2}"); shift 2 ;;
		-[SPpsJVXxWMFrRqQ]) shift 2 ;;
		-*) shift ;;
		*) w+=("$1"); shift ;;
		esac
	done
	w=(${(M)w:#${PREFIX}*})
	(( $#w )) && print -l -- "${w[@]}"
	return 0
}
compset() { return 1; }
compdef() { :; }
words=("$@")
CURRENT=$#
PREFIX=${words[CURRENT]}
source "$ZCOMP"
