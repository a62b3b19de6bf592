#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# completion.sh: the bash completion offers every long option each program's
# --help lists, the profiles of autorun/, the VM numbers whose QMP socket is
# in the state dir (sockets only) and vmctl's commands, run as bash would:
# _rapido with COMP_WORDS and COMP_CWORD set.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
comp=$top/scripts/completion/rapido.bash
for p in cut vm vmctl netsetup; do
	if [ ! -x "$top/$p" ]; then
		echo "SKIP: $top/$p is not built (run make)"
		exit 77
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rapido-completion.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export RAPIDO_CONF=$tmp/rapido.conf VM_STATE_DIR=$tmp/state
: > "$RAPIDO_CONF"
mkdir "$VM_STATE_DIR"

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }

# complete WORD...: what the completion offers for the last WORD, one a line
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _rapido
		printf "%s\n" "${COMPREPLY[@]}"' complete "$comp" "$@" | sort -u
}
# same WANT GOT NAME: the two sorted lists are equal
same() {
	if [ "$1" = "$2" ]; then
		ok "$3"
	else
		notok "$3"
		diff <(echo "$1") <(echo "$2") | sed 's/^/#   /'
	fi
}

for p in cut vm vmctl netsetup; do
	want=$("$top/$p" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
	got=$(complete_words "$top/$p" -- | sed 's/=$//' | sort -u)
	if ! grep -qx -- --help <<<"$want"; then
		notok "$p --help: no long options found"
		continue
	fi
	missing=$(comm -23 <(echo "$want") <(echo "$got") | tr '\n' ' ')
	if [ -z "$missing" ]; then
		ok "$p --<TAB>: all $(wc -l <<<"$want") long options of --help"
	else
		notok "$p --<TAB> lacks: $missing"
	fi
done

same "$(cd "$top/autorun" && ls *.sh | sed 's/\.sh$//')" "$(complete_words "$top/cut" "")" \
	"cut <TAB>: the profiles of autorun/"
same "$(printf '%s\n' fstests_local)" "$(complete_words "$top/cut" -v fstests_l)" \
	"cut -v fstests_l<TAB>: fstests_local"
same "" "$(complete_words "$top/cut" simple "")" "cut simple <TAB>: no second profile"

# VM 3 and 12 have a socket; vm5.qmp is a plain file (a stale leftover, not a VM)
python3 -c 'import socket, sys
for p in sys.argv[1:]:
	socket.socket(socket.AF_UNIX).bind(p)' "$VM_STATE_DIR/vm3.qmp" "$VM_STATE_DIR/vm12.qmp"
: > "$VM_STATE_DIR/vm5.qmp"
same "$(printf '%s\n' 12 3)" "$(complete_words "$top/vmctl" "")" "vmctl <TAB>: VM numbers with a QMP socket"
same "$(printf '%s\n' 12)" "$(complete_words "$top/vmctl" -t 5 1)" "vmctl -t 5 1<TAB>: 12 (option argument skipped)"
same "$(printf '%s\n' exec fail paths qmp quit restore shell)" "$(complete_words "$top/vmctl" 3 "")" \
	"vmctl 3 <TAB>: the commands of vmctl --help"
same "$(printf '%s\n' auto kvm tcg)" "$(complete_words "$top/vm" --accel "")" "vm --accel <TAB>: auto kvm tcg"
same "$(printf '%s\n' down up)" "$(complete_words "$top/netsetup" "")" "netsetup <TAB>: up down"

echo "1..$n"
[ $failed -eq 0 ]
