#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dropbear.sh: the dropbear profile without SSH_AUTHORIZED_KEY is refused by
# ./cut, naming the key, before anything boots. With a key made for the
# test, the guest serves SSH through a user-mode port forward on
# 127.0.0.1: the host logs in as root with that key (another key is
# refused), runs a command and gets its output, then creates
# /tmp/rapido-done; the profile stops serving, the -x extra runs and ./vm
# exits 0.
. "$(dirname "$0")/lib.sh"
command -v ssh > /dev/null && command -v ssh-keygen > /dev/null ||
	{ echo "# SKIP needs ssh and ssh-keygen (openssh-client)"; exit 77; }
command -v dropbear > /dev/null || { echo "# SKIP needs dropbear (dropbear-bin)"; exit 77; }

unset SSH_AUTHORIZED_KEY DROPBEAR_SERVE_SECS

# the key must be there before qemu could start: ./cut names it
"$CUT" dropbear > "$T/out" 2>&1
rc=$?
check "cut without SSH_AUTHORIZED_KEY fails" test $rc -ne 0
check "the error names SSH_AUTHORIZED_KEY" grep -q "config key SSH_AUTHORIZED_KEY is not set" "$T/out"
check "no image written" test ! -e "$DRACUT_OUT"
[ $rc -ne 0 ] || sed 's/^/# /' "$T/out"

ssh-keygen -q -t ed25519 -N '' -C rapido-test -f "$T/key" &&
	ssh-keygen -q -t ed25519 -N '' -C rapido-other -f "$T/other"
expect_rc "ssh-keygen" 0 $?

SSH_AUTHORIZED_KEY=$(cat "$T/key.pub") "$CUT" dropbear -x 'echo "DROPBEAR-EXTRA after serving"' > "$T/out" 2>&1
expect_rc "cut dropbear with the test's key" 0 $?
rel=$(sed -n 's/.*kernel \(.*\)$/\1/p' "$T/out")

# a loopback port nothing listens on
free_port 30000

"$VM" --batch --net user --hostfwd "tcp:127.0.0.1:$port-:22" --timeout 400 > "$T/console" 2>&1 &
vm=$!

ssh_opts=(-o BatchMode=yes -o ConnectTimeout=20 -o LogLevel=ERROR -o StrictHostKeyChecking=no
	-o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -p "$port")
# the port forward exists from qemu's start, the server a while later
start=$SECONDS
got=
while [ $((SECONDS - start)) -lt 300 ] && kill -0 $vm 2> /dev/null; do
	got=$(ssh "${ssh_opts[@]}" -i "$T/key" root@127.0.0.1 'uname -r; hostname' 2> "$T/ssh.err") && break
	got=
	sleep 2
done
echo "# logged in after $((SECONDS - start))s"
check "ssh as root with the key ran the command" test -n "$got"
[ -n "$got" ] || sed 's/^/# ssh: /' "$T/ssh.err"
check "its output: the guest's kernel release and hostname" test "$got" = "$rel
rapido1"
ssh "${ssh_opts[@]}" -i "$T/other" root@127.0.0.1 true > "$T/ssh.other" 2>&1
check "another key is refused" grep -q "Permission denied" "$T/ssh.other"
ssh "${ssh_opts[@]}" -i "$T/key" root@127.0.0.1 'touch /tmp/rapido-done'
expect_rc "ssh tells the guest it is done" 0 $?

wait $vm
expect_rc "vm exits 0 once told" 0 $?
check "the console shows the host key fingerprint" guest_says "$T/console" "rapido: dropbear: listening on port 22, host key SHA256:"
check "serving stopped on /tmp/rapido-done" guest_says "$T/console" "/tmp/rapido-done appeared"
check "then the extra ran" guest_matches "$T/console" "^DROPBEAR-EXTRA after serving"
check "kernel console clean" console_clean "$T/console"
[ $fails = 0 ] || tail -n 30 "$T/console" | sed 's/^/# console: /'
done_testing
