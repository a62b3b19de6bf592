#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# completion.sh: the bash completion offers every long option each program's
# --help lists, the profiles of autorun/ (and of the user's profile dirs),
# the VM numbers whose QMP socket is in the state dir (sockets only) and
# vmctl's commands, run as bash would: _rapido with COMP_WORDS and
# COMP_CWORD set; for rapido, its commands, then each command's words. The
# zsh completion (build/completion/_rapido) offers the same, run with
# words and CURRENT set and compadd printing what it is given.
. "$(dirname "$0")/../tap.sh"
comp=$TOP/scripts/completion/rapido.bash
for p in cut vm vmctl netsetup rapido bisect; do
	if [ ! -x "$TOP/$p" ]; then
		echo "SKIP: $TOP/$p is not built (run make)"
		exit 77
	fi
done
export RAPIDO_CONF=$T/rapido.conf VM_STATE_DIR=$T/state HOME=$T/home
unset XDG_CONFIG_HOME RAPIDO_PROFILE_PATH RAPIDO_DIR
: > "$RAPIDO_CONF"
mkdir "$HOME" && mkdir -m 0700 "$VM_STATE_DIR"

# complete WORD...: what the completion offers for the last WORD, one a line
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _rapido
		printf "%s\n" "${COMPREPLY[@]}"' complete "$comp" "$@" | sort -u
}
# same WANT GOT: the two sorted lists are equal (their diff shown if not)
same() { same_file <(echo "$1") <(echo "$2"); }

for p in cut vm vmctl netsetup bisect "rapido cut" "rapido vm" "rapido vmctl" "rapido list" \
	"rapido bisect" "rapido results" "rapido deps"; do
	read -r -a argv <<< "$p"
	argv[0]=$TOP/${argv[0]}
	[ "$p" = "rapido list" ] && argv[1]=cut
	want=$("${argv[@]}" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
	[ "$p" = "rapido list" ] && argv[1]=list
	got=$(complete_words "${argv[@]}" -- | sed 's/=$//' | sort -u)
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

# upstream Rapido's names ./cut takes (src/conf/profalias.c) complete too
aliases=$("$TOP/cut" --list | awk '/ upstream Rapido.s name for / { print $1 }')
profiles=$( (cd "$TOP/autorun" && ls *.sh | sed 's/\.sh$//'; echo "$aliases") | sort)
check "cut <TAB>: the profiles of autorun/ and upstream Rapido's names" \
	same "$profiles" "$(complete_words "$TOP/cut" "")"
check "cut fstests_x<TAB>: fstests_xfs (Rapido's name)" \
	same fstests_xfs "$(complete_words "$TOP/cut" fstests_x)"
check "cut -v fstests_l<TAB>: fstests_local" \
	same "$(printf '%s\n' fstests_local)" "$(complete_words "$TOP/cut" -v fstests_l)"
check "cut simple <TAB>: no second profile" same "" "$(complete_words "$TOP/cut" simple "")"
check "rapido cut <TAB>: the profiles" same "$profiles" "$(complete_words "$TOP/rapido" cut "")"
check "rapido cut -x CMD simp<TAB>: simple and Rapido's simple_*" same "$(printf '%s\n' simple simple_example simple_network)" "$(complete_words "$TOP/rapido" cut -x true simp)"
check "rapido <TAB>: the commands of rapido --help" \
	same "$(printf '%s\n' bisect boot ceph-local cut deps list netsetup results run vm vmctl)" \
	"$(complete_words "$TOP/rapido" "")"
check "rapido help v<TAB>: vm vmctl" same "$(printf '%s\n' vm vmctl)" "$(complete_words "$TOP/rapido" help v)"
check "rapido --<TAB>: --help --version" same "$(printf '%s\n' --help --version)" \
	"$(complete_words "$TOP/rapido" --)"
check "rapido netsetup <TAB>: up down" same "$(printf '%s\n' down up)" \
	"$(complete_words "$TOP/rapido" netsetup "")"
check "rapido results <TAB>: its verbs" same "$(printf '%s\n' compare known merge)" \
	"$(complete_words "$TOP/rapido" results "")"
check "rapido deps <TAB>: the profiles" same "$profiles" "$(complete_words "$TOP/rapido" deps "")"
check "rapido deps --tests simple fstests_x<TAB>: another, Rapido's names too" same fstests_xfs \
	"$(complete_words "$TOP/rapido" deps --tests simple fstests_x)"
mkdir -p "$T/res/run-a" "$T/res/run-b"
: > "$T/res/known.txt"
check "rapido results compare <TAB>: result dirs" \
	same "$(printf '%s\n' "$T/res/run-a" "$T/res/run-b")" \
	"$(complete_words "$TOP/rapido" results compare "$T/res/run")"
check "rapido results merge --known-failures <TAB>: a file" same "$T/res/known.txt" \
	"$(complete_words "$TOP/rapido" results merge --known-failures "$T/res/kn")"
check "  then the dirs, the file's argument skipped" same "$T/res/run-a" \
	"$(complete_words "$TOP/rapido" results merge --known-failures "$T/res/known.txt" "$T/res/run-a")"
# the user's own profiles: RAPIDO_PROFILE_PATH and ~/.config/rapido/profiles
mkdir -p "$T/mine" "$HOME/.config/rapido/profiles"
printf '#@ description: mine\n' > "$T/mine/my_one.sh"
printf '#@ description: mine too\n' > "$HOME/.config/rapido/profiles/my_two.sh"
check "rapido cut my<TAB>: the user's profiles (RAPIDO_PROFILE_PATH, ~/.config/rapido/profiles)" \
	same "$(printf '%s\n' my_one my_two)" "$(RAPIDO_PROFILE_PATH=$T/mine complete_words "$TOP/rapido" cut my)"

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
# vm's words are its option table's (vm --list-options), which is --help's too
table=$("$TOP/vm" --list-options)
check "vm --list-options: the long and short options of vm --help, no other" \
	same "$("$TOP/vm" --help | sed -nE 's/^ (-[a-zA-Z], |    )(--[a-z][a-z0-9-]*).*/\1 \2/p' |
		tr -s ', ' '\n\n' | grep . | sort -u)" "$(cut -f1 <<<"$table" | sort -u)"
check "vm -<TAB>: exactly the names of vm --list-options" \
	same "$(cut -f1 <<<"$table" | sort -u)" "$(complete_words "$TOP/vm" - | sed 's/=$//' | sort -u)"
check "vm --results <TAB>: directories (the row's completion)" \
	same "$(cd "$TOP" && compgen -d -- d)" "$(cd "$TOP" && complete_words "$TOP/vm" --results d)"
check "vm --cpus 2 --splats-allow F IM<TAB>: the image, option arguments skipped" \
	same "$(printf '%s\n' "$T/IMG")" "$(: > "$T/IMG"; complete_words "$TOP/vm" --cpus 2 \
		--splats-allow F "$T/IM")"
# a row added to the table is completed with no edit of rapido.bash: a vm
# whose table has one more row
mkdir -p "$T/fake"
printf '#!/bin/sh\n[ "$1" = --list-options ] || exit 1\ncat "%s"\n' "$T/fake/table" > "$T/fake/vm"
chmod +x "$T/fake/vm"
{ printf '%s\n' "$table"; printf -- '--frobnicate\trequired\twords:gently hard\n'; } > "$T/fake/table"
check "a new row: vm --fro<TAB> offers it" same --frobnicate "$(complete_words "$T/fake/vm" --fro)"
check "  and vm --frobnicate <TAB> its words" same "$(printf '%s\n' gently hard)" \
	"$(complete_words "$T/fake/vm" --frobnicate "")"
check "  and vm --frobnicate X IM<TAB> skips its argument" same "$(printf '%s\n' "$T/IMG")" \
	"$(complete_words "$T/fake/vm" --frobnicate X "$T/IM")"
check "netsetup <TAB>: up down" same "$(printf '%s\n' down up)" "$(complete_words "$TOP/netsetup" "")"

# bisect: the revisions of KERNEL_SRC, then the profiles
git init -q -b main "$T/linux" && git -C "$T/linux" -c user.email=t@t -c user.name=t \
	commit -q --allow-empty -m c0 && git -C "$T/linux" tag v6.1 || exit 1
export KERNEL_SRC=$T/linux
check "bisect --good <TAB>: the tree's branches and tags" \
	same "$(printf '%s\n' main v6.1)" "$(complete_words "$TOP/bisect" --good "")"
check "bisect --flaky <TAB>: fail skip pass (the old bad and good are not offered)" \
	same "$(printf '%s\n' fail pass skip)" "$(complete_words "$TOP/bisect" --flaky "")"
check "bisect --good v6.1 --bad main fstests_l<TAB>: the profile" \
	same "$(printf '%s\n' fstests_local)" "$(complete_words "$TOP/bisect" --good v6.1 --bad main fstests_l)"
check "bisect --compare v6.1 <TAB>: a second revision" \
	same "$(printf '%s\n' main v6.1)" "$(complete_words "$TOP/bisect" --compare v6.1 "")"
check "bisect --compare v6.1 main fstests_l<TAB>: the profile" \
	same "$(printf '%s\n' fstests_local)" "$(complete_words "$TOP/bisect" --compare v6.1 main fstests_l)"
check "rapido bisect --good v6.1 --bad main fstests_l<TAB>: the profile, from rapido cut" \
	same "$(printf '%s\n' fstests_local)" \
	"$(complete_words "$TOP/rapido" bisect --good v6.1 --bad main fstests_l)"
unset KERNEL_SRC
check "rapido vmctl <TAB>: VM numbers" same "$(printf '%s\n' 12 3)" "$(complete_words "$TOP/rapido" vmctl "")"
check "rapido vmctl 3 <TAB>: the commands" \
	same "$(printf '%s\n' exec fail paths qmp quit restore shell)" "$(complete_words "$TOP/rapido" vmctl 3 "")"

# zsh: _rapido as zsh autoloads it (tests/zcomplete.zsh)
zcomp=$TOP/build/completion/_rapido
if ! command -v zsh > /dev/null; then
	skip "zsh completion" "zsh is not installed"
	done_testing
fi
check "build/completion/_rapido is built (make)" test -s "$zcomp"
# zcomplete WORD...: what zsh's _rapido offers for the last WORD
zcomplete() { ZCOMP=$zcomp zsh -f "$TOP/tests/zcomplete.zsh" "$@" 2> "$T/zsh.err" | sort -u; }
check "zsh: rapido <TAB>: the commands" \
	same "$(printf '%s\n' bisect boot ceph-local cut deps list netsetup results run vm vmctl)" "$(zcomplete "$TOP/rapido" "")"
check "zsh: rapido results <TAB>: its verbs" \
	same "$(printf '%s\n' compare known merge)" "$(zcomplete "$TOP/rapido" results "")"
check "zsh: rapido cut <TAB>: the profiles (and ~/.config/rapido/profiles')" \
	same "$(printf '%s\n' $profiles my_two | sort)" "$(zcomplete "$TOP/rapido" cut "")"
check "zsh: rapido cut my<TAB>: the user's profiles" \
	same "$(printf '%s\n' my_one my_two)" "$(RAPIDO_PROFILE_PATH=$T/mine zcomplete "$TOP/rapido" cut my)"
check "zsh: rapido cut --st<TAB>: --standalone" same --standalone "$(zcomplete "$TOP/rapido" cut --st)"
check "zsh: rapido vmctl <TAB>: VM numbers" same "$(printf '%s\n' 12 3)" "$(zcomplete "$TOP/rapido" vmctl "")"
# rapido-vm as make install names it: its option table (--list-options) gives the words
mkdir -p "$T/bin" && ln -s "$TOP/vm" "$T/bin/rapido-vm"
check "zsh: rapido-vm --accel <TAB>" same "$(printf '%s\n' auto kvm tcg)" \
	"$(PATH=$T/bin:$PATH zcomplete rapido-vm --accel "")"
check "  and nothing on stderr" test ! -s "$T/zsh.err"

done_testing
