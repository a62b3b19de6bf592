#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# secret-cache.sh: what a profile marks `#@ secret:` (a value, or a file
# named by one: cephfs' CEPH_KEYRING) never goes into the layer cache,
# which may be shared (CUT_CACHE_DIR): it stays in the image's own part,
# and the image is its owner's only. Checked as the owner (no file of the
# cache holds a secret's bytes) and as a second, unprivileged user (nobody):
# nothing it can read anywhere this test's cuts and boot wrote (cache,
# image, state dir, console log, results) holds them. A boot shows that the
# secrets still reach the guest (their SHA-256 there, never themselves).
# A key the registry knows is secret (CIFS_PASS) is one in a user's
# profile that does not say so; a run's results are 0600 in a results dir
# that existed at 0755 with an earlier run's 0644 files.
. "$(dirname "$0")/lib.sh"

installed_kernel_or_skip
if [ "$(id -u)" != 0 ] || ! command -v setpriv > /dev/null || ! id nobody > /dev/null 2>&1; then
	echo "SKIP: needs root, setpriv and the user nobody (to look as a second user)"
	exit 77
fi
# as_nobody COMMAND...: run as the unprivileged user, no groups
as_nobody() { setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"; }
# readable_holding TOKEN...: the files the second user can read under $T
# whose bytes hold one of the TOKENs
readable_holding() {
	local a=() t
	for t in "$@"; do a+=(-e "$t"); done
	as_nobody find "$T" -type f -readable -exec grep -laF "${a[@]}" {} + 2> /dev/null
}
# cache_holding TOKEN...: the cache's files that hold one (read as root)
cache_holding() {
	local a=() t
	for t in "$@"; do a+=(-e "$t"); done
	grep -rlaF "${a[@]}" "$CUT_CACHE_DIR" 2> /dev/null
}

# the second user may walk this test's directory, as it could a shared
# cache; the secrets' own sources are private (0700), as a user keeps them
chmod 0755 "$T"
chmod 0600 "$RAPIDO_CONF"
mkdir -m 0700 "$T/secret"
key=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')
word=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')
printf '[client.admin]\n\tkey = %s\n' "$key" > "$T/secret/keyring"
printf '[global]\n\tmon host = 192.168.155.1\n' > "$T/secret/ceph.conf"

# cephfs, as the issue found it: its keyring went into a cached tree layer
cat > "$RAPIDO_CONF" <<EOF
CEPH_CONF=$T/secret/ceph.conf
CEPH_KEYRING=$T/secret/keyring
EOF
run "$CUT" -v cephfs
expect_rc "cut cephfs (CEPH_KEYRING a file marked secret)" 0 "$rc"
[ "$rc" = 0 ] || show_run
check "  the keyring is in the image" grep -qaF "$key" "$DRACUT_OUT"
check "  the image is its owner's only (0600)" test "$(stat -c %a "$DRACUT_OUT")" = 600
check "  cut -v: the keyring is in the image's own part" contains "$T/out" "secret   image  $T/secret/keyring -> /etc/ceph/keyring"
check "  no cache file holds the keyring" test -z "$(cache_holding "$key")"
check "  cut --cache-info does not list it" eval "! '$CUT' --cache-info | grep -q /etc/ceph/keyring"
got=$(readable_holding "$key")
check "  nobody can read the keyring anywhere${got:+ (readable: $got)}" test -z "$got"
# a re-cut finds every layer in the cache, and the image still holds the key
run "$CUT" -v cephfs
check "  re-cut: every layer cached, the keyring still in the image" \
	eval "! grep -q ' built ' '$T/out' && grep -qaF '$key' '$DRACUT_OUT'"
cp "$T/out" "$T/recut.out"

# a user's profile that passes CIFS_PASS without `#@ secret:`: the key
# registry knows it is a secret, so it is one in every profile
mkdir "$T/profiles"
cat > "$T/profiles/mycifs.sh" <<'EOF'
#!/bin/bash
#@ description: a user's profile that forgets to mark CIFS_PASS secret
#@ conf: CIFS_PASS
echo "mycifs: up"
EOF
printf 'CIFS_PASS=%s\n' "$word" > "$RAPIDO_CONF"
RAPIDO_PROFILE_PATH=$T/profiles run "$CUT" mycifs
expect_rc "cut a user's profile passing CIFS_PASS, no #@ secret:" 0 "$rc"
[ "$rc" = 0 ] || show_run
check "  the password is in the image" grep -qaF "$word" "$DRACUT_OUT"
check "  the image is its owner's only (0600)" test "$(stat -c %a "$DRACUT_OUT")" = 600
check "  no cache file holds it" test -z "$(cache_holding "$word")"
got=$(readable_holding "$word")
check "  nobody can read it anywhere${got:+ (readable: $got)}" test -z "$got"

# a secret file and a secret value, booted: both reach the guest
cat > "$RAPIDO_CONF" <<EOF
RAPIDO_TEST_SECRET_FILE=$T/secret/keyring
RAPIDO_TEST_SECRET_WORD=$word
EOF
run "$CUT" secret-files
expect_rc "cut secret-files (a secret file and a secret value)" 0 "$rc"
[ "$rc" = 0 ] || show_run
check "  no cache file holds either secret" test -z "$(cache_holding "$key" "$word")"
mkdir -m 0755 "$T/results"
"$VM" --batch --timeout 300 --results "$T/results/r" > "$T/console" 2>&1
expect_rc "boot the cached image" 0 $?
want_f=$(sha256sum < "$T/secret/keyring")
want_w=$(printf %s "$word" | sha256sum)
check "  the guest has the secret file" guest_says "$T/console" "secret file sha256: $want_f"
check "  the guest has the secret value" guest_says "$T/console" "secret word sha256: $want_w"
diag
got=$(readable_holding "$key" "$word")
check "nobody can read either secret in the cache, image, state dir, logs or results${got:+ (readable: $got)}" \
	test -z "$got"
got=$(find "$T/results/r" -type d -perm /077 -printf '%P %m ')
check "the results dir ./vm made, and its files/, are not world-listable (0700)${got:+ (not: $got)}" \
	test -z "$got"
got=$(grep -rlaF -e "$key" -e "$word" "$VM_STATE_DIR" "$T/results" "$T/console" 2> /dev/null)
check "no log, state file or result holds a secret${got:+ ($got)}" test -z "$got"
# a guest that prints its secret (xfstests prints cephfs' MOUNT_OPTIONS,
# secret= included): what ./vm writes of a private image is private too
run "$CUT" secret-files -x 'echo "the word: $RAPIDO_TEST_SECRET_WORD"'
expect_rc "cut secret-files with an extra that prints the secret value" 0 "$rc"
# into a results dir that already exists, world-readable, with the files
# of an earlier run that held no secret (0644): each file is made anew
mkdir -m 0755 "$T/results/p"
for f in junit.xml results.tap results.txt run.json console.log; do
	echo old > "$T/results/p/$f"
	chmod 0644 "$T/results/p/$f"
done
"$VM" --batch --timeout 300 --results "$T/results/p" > "$T/secret/console.p" 2>&1
expect_rc "boot it" 0 $?
check "  the guest printed it" guest_says "$T/secret/console.p" "the word: $word"
check "  it is in the console log and the results" \
	test -n "$(grep -rlaF -e "$word" "$VM_STATE_DIR" "$T/results/p")"
got=$(readable_holding "$word")
check "  nobody can read it in the state dir, console log or results${got:+ (readable: $got)}" \
	test -z "$got"
got=$(find "$T/results/p" -type f -perm /077 -printf '%P %m ')
check "  every file of the results is 0600${got:+ (not: $got)}" test -z "$got"
check "no temporary of cut's left next to the image" \
	test -z "$(find "$(dirname "$DRACUT_OUT")" -maxdepth 1 -name "$(basename "$DRACUT_OUT").cut-*")"
done_testing
