#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install.sh: make install DESTDIR=... PREFIX=/usr, then the installed cut and
# vm, run from another directory with no RAPIDO_DIR, find their profiles and
# helpers in PREFIX/lib/rapido, read rapido.conf from $XDG_CONFIG_HOME, write
# the image to $XDG_CACHE_HOME (nothing in the prefix), and boot simple.
. "$(dirname "$0")/lib.sh"

unset RAPIDO_DIR RAPIDO_CONF DRACUT_OUT
export HOME=$T/home XDG_CONFIG_HOME=$T/config XDG_CACHE_HOME=$T/cache
mkdir -p "$HOME" "$XDG_CONFIG_HOME/rapido"
# a key whose effect is visible: the console log lands there
echo "VM_LOG_DIR=$T/logs" > "$XDG_CONFIG_HOME/rapido/rapido.conf"

R=$T/root
make -C "$TOP" --no-print-directory -s install DESTDIR="$R" PREFIX=/usr > "$T/install.log" 2>&1
expect_rc "make install DESTDIR PREFIX=/usr" 0 $?
for f in usr/bin/cut usr/bin/vm usr/bin/vmctl usr/bin/netsetup \
	usr/lib/rapido/autorun/simple.sh usr/lib/rapido/autorun/lib/rapido.sh \
	usr/lib/rapido/dracut.conf.d/00-rapido.conf usr/lib/rapido/build/guest/rapido-init \
	usr/share/man/man1/cut.1 usr/share/man/man5/rapido.conf.5 usr/share/man/man8/netsetup.8 \
	usr/share/bash-completion/completions/cut usr/share/bash-completion/completions/vmctl; do
	check "installed $f" test -s "$R/$f"
done
touch "$T/installed"

cd "$T/home" || exit 1
"$R/usr/bin/cut" --list > "$T/list" 2>&1
expect_rc "installed cut --list" 0 $?
check "cut --list shows the installed profiles" grep -q '^simple' "$T/list"

"$R/usr/bin/cut" simple > "$T/cut.out" 2>&1
expect_rc "installed cut simple" 0 $?
img=$XDG_CACHE_HOME/rapido/initrds/myinitrd
check "image written to \$XDG_CACHE_HOME/rapido/initrds/myinitrd" test -s "$img"
rel=$(sed -n 's/.*kernel \(.*\)$/\1/p' "$T/cut.out")

"$R/usr/bin/vm" --batch --timeout 300 > "$T/console" 2>&1
expect_rc "installed vm --batch boots that image" 0 $?
check "profile ran: kernel release and hostname rapido1" \
	grep -q "rapido: $rel up on rapido1" "$T/console"
check "rapido.conf of \$XDG_CONFIG_HOME read (VM_LOG_DIR)" \
	grep -q "rapido: $rel up on rapido1" "$T/logs/vm1.log"
check "kernel console clean" console_clean "$T/console"
check "nothing written in the installed prefix" test -z "$(find "$R" -newer "$T/installed")"
done_testing
