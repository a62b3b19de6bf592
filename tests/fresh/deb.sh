#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# deb.sh: the Debian package, installed as a user of Debian 12 would
# (FRESH_SUITE=trixie: of Debian 13, the package built here). make
# deb builds it (lintian finds no error in it; its Depends and Suggests
# are host/install-deps' lists, it has no Recommends, its helpers keep
# their modes); apt installs it with its defaults (Recommends on: no server
# comes with it) into a fresh minimal root (debootstrap, tests/fresh/lib.inc), where no
# file of it is another package's (dpkg refuses to overwrite one, and
# dpkg -S of each says rapido). There, with no checkout around, as an
# unprivileged user: `rapido cut simple -x 'exit 4' && rapido vm --batch`
# exits 4, the image in $XDG_CACHE_HOME/rapido, /etc/rapido/rapido.conf
# read (VM_LOG_DIR); rapido cut --list shows the installed profiles and the
# user's (~/.config/rapido/profiles, RAPIDO_PROFILE_PATH); rapido deps lists
# what fstests_xfs needs (the installed install-deps); man rapido-cut
# renders; bash's and zsh's completion offer the profiles.
#
# Fresh tier (tests/run --fresh), not make check: it downloads qemu,
# dracut and a kernel from Debian's archive (kept in FRESH_CACHE for the
# next run) and builds the package (about 3 minutes).
. "$(dirname "$0")/../tap.sh"
. "$TOP/tests/fresh/lib.inc"

fresh_root_or_skip debootstrap dpkg-buildpackage dh lintian help2man aarch64-linux-gnu-gcc
start=$(date +%s)

# the package builds while debootstrap downloads
make -C "$TOP" --no-print-directory -s deb DEB_DIR="$T/deb" > "$T/make-deb.log" 2>&1 &
deb_pid=$!
fresh_debootstrap
wait $deb_pid
r=$?	# (an expect_rc line's $(date) sets $? too)
expect_rc "make deb ($(( $(date +%s) - start ))s since the start)" 0 $r
deb=$(ls "$T"/deb/rapido_*_amd64.deb 2> /dev/null)
if [ $fails != 0 ] || [ ! -f "$deb" ]; then
	tail -n 30 "$T/make-deb.log" | sed 's/^/# /'
	not_ok "make deb wrote $T/deb/rapido_VERSION_amd64.deb"
	done_testing
fi
ok "make deb wrote $(basename "$deb")"

lintian "$deb" > "$T/lintian.log" 2>&1
expect_rc "lintian: no error" 0 $?
sed 's/^/# /' "$T/lintian.log"
# field_has FIELD PKG...: the package's FIELD lists each PKG
field_has() {
	local f=$1 p v
	shift
	v=", $(dpkg-deb -f "$deb" "$f"), "
	for p in "$@"; do
		[[ $v == *", $p, "* || $v == *", $p ("* ]] || { echo "# $f lacks $p: $v"; return 1; }
	done
}
mapfile -t depends < <("$TOP/host/install-deps" --deb-depends)
mapfile -t suggests < <("$TOP/host/install-deps" --deb-suggests)
check "Depends: host/install-deps --deb-depends, the lean set: ${depends[*]}" field_has Depends "${depends[@]}"
check "Suggests: host/install-deps --deb-suggests (${#suggests[@]})" field_has Suggests "${suggests[@]}"
check "  no Recommends (apt would install the servers by default)" test -z "$(dpkg-deb -f "$deb" Recommends)"
# dh_fixperms made the ksmbd preload 0644 once, and ./cut refuses it so
# helper_modes: of a dpkg-deb -c listing on stdin, the files of
# /usr/lib/rapido/build that are neither 0755 nor links; false when it
# lists none at all (an empty listing, a failed dpkg-deb, proves nothing)
helper_modes() {
	awk '$6 ~ /^\.\/usr\/lib\/rapido\/build\/.*[^/]$/ { n++; if ($1 !~ /^(-rwxr-xr-x|l)/) print $1, $6 }
		END { exit n ? 0 : 1 }'
}
listed=
dpkg-deb -c "$deb" > "$T/listing" && helper_modes < "$T/listing" > "$T/modes" && listed=1
check "  the helpers in /usr/lib/rapido/build are all 0755 (and some are listed)" \
	test -n "$listed" -a ! -s "$T/modes"
sed 's/^/# /' "$T/modes"

fresh_machine
cp "$deb" "$R/tmp/" && cp "$TOP/tests/zcomplete.zsh" "$R/tmp/"
s=$(date +%s)
# the package as apt installs it by default (Recommends on), then the rest
in_root "apt-get update -q && apt-get install -y -q /tmp/$(basename "$deb") &&
	apt-get install -y -q --no-install-recommends linux-image-amd64 man-db bash-completion zsh" \
	> "$T/apt.log" 2>&1
r=$?
expect_rc "apt-get install the package (apt's defaults), then a kernel, man, bash-completion, zsh ($(( $(date +%s) - s ))s)" 0 $r
# installed PKG...: those of the PKGs installed in the root (dpkg-query -W
# alone also lists a package dpkg merely knows of)
installed() {
	in_root "dpkg-query -W -f='\${db:Status-Abbrev} \${Package}\n' $*" 2> /dev/null | grep '^ii'
}
# no_server: of installed's lines on stdin, the servers; false unless rapido
# itself is among them (a query that answered nothing proves nothing)
no_server() {
	awk '$2 == "rapido" { seen = 1; next } { print } END { exit seen ? 0 : 1 }'
}
listed=
installed rapido samba nfs-kernel-server ceph-mon > "$T/installed"
no_server < "$T/installed" > "$T/servers" && listed=1
check "  with apt's defaults it brings no server (samba, nfs-kernel-server, ceph; rapido itself seen)" \
	test -n "$listed" -a ! -s "$T/servers"
sed 's/^/# /' "$T/servers"
check "  ./cut finds the ksmbd preload executable" \
	test -x "$R/usr/lib/rapido/build/guest/rapido-ksmbd-ipc.so"
[ $fails = 0 ] || { tail -n 30 "$T/apt.log" | sed 's/^/# /'; done_testing; }
check "  no file of another package overwritten (dpkg's own check: install refused if one is)" \
	eval '! grep -q "trying to overwrite" "$T/apt.log"'
in_root 'dpkg -L rapido | while IFS= read -r f; do
	[ -d "$f" ] && continue
	dpkg-query -S "$f" | awk -F": " -v f="$f" "\$2 == f && \$1 != \"rapido\" { print f \" (\" \$1 \")\" }"
done' > "$T/owned" 2>&1
check "  dpkg -S of each of its files: rapido's alone" test ! -s "$T/owned"
sed 's/^/# /' "$T/owned"
check "  /usr/bin/rapido is its one program" test "$(in_root 'dpkg -L rapido | grep "^/usr/s\{0,1\}bin/."')" = /usr/bin/rapido

# an unprivileged user, in their home: no checkout anywhere
in_root 'useradd -m -s /bin/bash tester && mkdir -p /etc/rapido /var/tmp/rapido-logs &&
	chown tester: /var/tmp/rapido-logs && echo VM_LOG_DIR=/var/tmp/rapido-logs > /etc/rapido/rapido.conf &&
	mkdir -p /home/tester/.config/rapido/profiles /home/tester/p &&
	printf "#@ description: mine\n" > /home/tester/.config/rapido/profiles/mine.sh &&
	printf "#@ description: theirs\n" > /home/tester/p/theirs.sh && chown -R tester: /home/tester'
expect_rc "a user tester, /etc/rapido/rapido.conf, the user's profiles" 0 $?
as_user() {
	chroot --userspec=tester:tester "$R" /usr/bin/env -i HOME=/home/tester USER=tester \
		LOGNAME=tester TERM=dumb LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin \
		XDG_CACHE_HOME=/home/tester/xdg-cache QEMU_ACCEL=tcg /bin/bash -c 'cd && eval "$1"' as_user "$1" \
		< /dev/null
}
s=$(date +%s)
as_user "rapido cut simple -x 'exit 4' && rapido vm --batch --timeout 600" > "$T/boot.log" 2>&1
r=$?
expect_rc "as tester: rapido cut simple -x 'exit 4' && rapido vm --batch ($(( $(date +%s) - s ))s)" 4 $r
[ $fails = 0 ] || tail -n 40 "$T/boot.log" | sed 's/^/# /'
check "  the image in \$XDG_CACHE_HOME/rapido/initrds/myinitrd" test -s "$R/home/tester/xdg-cache/rapido/initrds/myinitrd"
check "  the profile ran (rapido: REL up on rapido1)" grep -q "rapido: .* up on rapido1" "$T/boot.log"
check "  /etc/rapido/rapido.conf read: VM_LOG_DIR's vm1.log" grep -q "up on rapido1" "$R/var/tmp/rapido-logs/vm1.log"

as_user 'RAPIDO_PROFILE_PATH=$HOME/p rapido cut --list' > "$T/list" 2>&1
expect_rc "rapido cut --list" 0 $?
check "  the installed profiles (simple)" grep -q '^simple ' "$T/list"
check "  the user's own: ~/.config/rapido/profiles/mine.sh" grep -q '^mine  *mine (/home/tester/.config/rapido/profiles)' "$T/list"
check "  and RAPIDO_PROFILE_PATH's theirs.sh" grep -q '^theirs  *theirs (/home/tester/p)' "$T/list"
# rapido deps: the installed install-deps, with the installed table and profiles
as_user 'rapido deps fstests_xfs mine' > "$T/deps" 2> "$T/deps.err"
expect_rc "as tester: rapido deps fstests_xfs mine (upstream Rapido's name, the user's own)" 0 $?
check "  fstests_local's packages: xfsprogs, fio, bc" \
	eval 'grep -qx xfsprogs "$T/deps" && grep -qx fio "$T/deps" && grep -qx bc "$T/deps"'
check "  those not installed, and how: rapido deps --install" \
	grep -q "^rapido deps: install them, no service started: rapido deps --install fstests_xfs mine" "$T/deps.err"
sed 's/^/# /' "$T/deps.err"
as_user 'rapido deps fstest_xfs' > /dev/null 2> "$T/deps.err"
check "  a wrong name: the nearest (fstests_xfs)" grep -qF "(did you mean fstests_xfs?)" "$T/deps.err"
as_user 'rapido --version' > "$T/version" 2>&1
check "rapido --version: rapido (rapido) $(cat "$T/deb/rapido/.version"), dracut's, qemu's" \
	eval 'grep -qx "rapido (rapido) $(cat "$T/deb/rapido/.version")" "$T/version" &&
		grep -qE "^dracut [0-9]+[^ ]* \(/usr/bin/dracut\)$" "$T/version" &&
		grep -q "^qemu [0-9].* (/usr/bin/qemu-system-x86_64)$" "$T/version"'
sed 's/^/# /' "$T/version"

as_user 'man rapido-cut' > "$T/man" 2> "$T/man.err"
expect_rc "man rapido-cut renders" 0 $?
check "  RAPIDO-CUT(1), the command rapido cut" \
	eval 'grep -q "^RAPIDO-CUT(1)" "$T/man" && grep -qE "^ +rapido cut \[options\] PROFILE" "$T/man"'
as_user 'man -w rapido rapido-vm rapido-vmctl rapido.conf rapido-netsetup rapido-ceph-local' > "$T/manw" 2>&1
check "  man finds rapido(1), rapido-vm(1), ..., rapido.conf(5), rapido-netsetup(8)" \
	test "$(wc -l < "$T/manw")" = 6

# completion: bash's as bash-completion loads it on first use, zsh's from its vendor directory
as_user 'export RAPIDO_PROFILE_PATH=$HOME/p; . /usr/share/bash-completion/bash_completion &&
	_completion_loader rapido; COMP_WORDS=(rapido cut ""); COMP_CWORD=2; _rapido &&
	printf "%s\n" "${COMPREPLY[@]}"' > "$T/bash-comp" 2>&1
check "bash: rapido cut <TAB> offers the profiles: simple, mine, theirs" \
	eval 'grep -qx simple "$T/bash-comp" && grep -qx mine "$T/bash-comp" && grep -qx theirs "$T/bash-comp"'
as_user 'zsh -f -c "autoload -Uz compinit && compinit -u -d /tmp/zcompdump && print -r -- \$_comps[rapido]"' \
	> "$T/zsh-comps" 2>&1
check "zsh: compinit finds _rapido for rapido" grep -qx _rapido "$T/zsh-comps"
as_user 'ZCOMP=/usr/share/zsh/vendor-completions/_rapido zsh -f /tmp/zcomplete.zsh rapido cut ""' \
	> "$T/zsh-comp" 2>&1
check "zsh: rapido cut <TAB> offers the profiles: simple, mine" \
	eval 'grep -qx simple "$T/zsh-comp" && grep -qx mine "$T/zsh-comp"'
[ $fails = 0 ] || for f in bash-comp zsh-comps zsh-comp; do sed "s/^/# $f: /" "$T/$f" | head -5; done

echo "# deb.sh: $(( $(date +%s) - start ))s wall"
done_testing
