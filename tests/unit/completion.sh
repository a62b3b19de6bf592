#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# completion.sh: the bash completion offers every long option each program's
# --help lists, the profiles of autorun/, the VM numbers whose QMP socket is
# in the state dir (sockets only) and vmctl's commands, run as bash would:
# _rapido with COMP_WORDS and COMP_CWORD set.
. "$(dirname "$0")/../tap.sh"
comp=$TOP/scripts/completion/rapido.bash
for p in cut vm vmctl netsetup bisect; do
	if [ ! -x "$TOP/$p" ]; then
		echo "SKIP: $TOP/$p is not built (run make)"
		exit 77
	fi
done
export RAPIDO_CONF=$T/rapido.conf VM_STATE_DIR=$T/state
: > "$RAPIDO_CONF"
mkdir "$VM_STATE_DIR"

# complete WORD...: what the completion offers for the last WORD, one a line
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _rapido
		printf "%s\n" "${COMPREPLY[@]}"' complete "$comp" "$@" | sort -u
}
# same WANT GOT: the two sorted lists are equal (their diff shown if not)
same() { same_file <(echo "$1") <(echo "$2"); }

for p in cut vm vmctl netsetup bisect; do
	want=$("$TOP/$p" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
	got=$(complete_words "$TOP/$p" -- | sed 's/=$//' | sort -u)
	if ! grep -qx -- --help <<<"$want"; then
		not_ok "$p --help: no long options found"
		continue
	fi
	missing=$(comm -23 <(echo "$want") <(echo "$got") | tr '\n' ' ')
	if [ -z "$missing" ]; then
		ok "$p --<TAB>: all $(wc -l <<<"$want") long options of --help"
	else
		not_ok "$p --<TAB> lacks: $missing"
	fi
done

check "cut <TAB>: the profiles of autorun/" \
	same "$(cd "$TOP/autorun" && ls *.sh | sed 's/\.sh$//')" "$(complete_words "$TOP/cut" "")"
check "cut -v fstests_l<TAB>: fstests_local" \
	same "$(printf '%s\n' fstests_local)" "$(complete_words "$TOP/cut" -v fstests_l)"
check "cut simple <TAB>: no second profile" same "" "$(complete_words "$TOP/cut" simple "")"

# VM 3 and 12 have a socket; vm5.qmp is a plain file (a stale leftover, not a VM)
# (perl, not python3: perl-base is Essential on Debian, python3 is not there
# on a minimal system)
perl -MSocket -e 'for (@ARGV) {
	socket(my $s, AF_UNIX, SOCK_STREAM, 0) or die "socket: $!\n";
	bind($s, pack_sockaddr_un($_)) or die "bind $_: $!\n" }' \
	"$VM_STATE_DIR/vm3.qmp" "$VM_STATE_DIR/vm12.qmp" || exit 1
: > "$VM_STATE_DIR/vm5.qmp"
check "vmctl <TAB>: VM numbers with a QMP socket" \
	same "$(printf '%s\n' 12 3)" "$(complete_words "$TOP/vmctl" "")"
check "vmctl -t 5 1<TAB>: 12 (option argument skipped)" \
	same "$(printf '%s\n' 12)" "$(complete_words "$TOP/vmctl" -t 5 1)"
check "vmctl 3 <TAB>: the commands of vmctl --help" \
	same "$(printf '%s\n' exec fail paths qmp quit restore shell)" "$(complete_words "$TOP/vmctl" 3 "")"
check "vm --accel <TAB>: auto kvm tcg" same "$(printf '%s\n' auto kvm tcg)" "$(complete_words "$TOP/vm" --accel "")"
check "netsetup <TAB>: up down" same "$(printf '%s\n' down up)" "$(complete_words "$TOP/netsetup" "")"

# bisect: the revisions of KERNEL_SRC, then the profiles
git init -q -b main "$T/linux" && git -C "$T/linux" -c user.email=t@t -c user.name=t \
	commit -q --allow-empty -m c0 && git -C "$T/linux" tag v6.1 || exit 1
export KERNEL_SRC=$T/linux
check "bisect --good <TAB>: the tree's branches and tags" \
	same "$(printf '%s\n' main v6.1)" "$(complete_words "$TOP/bisect" --good "")"
check "bisect --flaky <TAB>: bad skip good" \
	same "$(printf '%s\n' bad good skip)" "$(complete_words "$TOP/bisect" --flaky "")"
check "bisect --good v6.1 --bad main fstests_l<TAB>: the profile" \
	same "$(printf '%s\n' fstests_local)" "$(complete_words "$TOP/bisect" --good v6.1 --bad main fstests_l)"
check "bisect --compare <TAB> <TAB>: two revisions, then profiles" \
	same "$(printf '%s\n' main v6.1)" "$(complete_words "$TOP/bisect" --compare v6.1 "")"
check "bisect --compare v6.1 main fstests_l<TAB>: the profile" \
	same "$(printf '%s\n' fstests_local)" "$(complete_words "$TOP/bisect" --compare v6.1 main fstests_l)"

done_testing
