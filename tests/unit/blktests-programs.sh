#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# blktests-programs.sh: the blktests profile carries every program the real
# suite (../shared/suites' blktests, as tests/suite-tree builds it) calls
# in the groups it runs: each program its tests ask for (_have_program,
# _have_programs) and each program a line of its scripts starts (a command's first word that is a
# program on this host: block/009's hexdump, loop/004's sha256sum) is in
# the profile's "#@ bins" lines, or below with the reason the guest does
# without it. Skips (77) without the suite's tarball.
. "$(dirname "$0")/../tap.sh"

# the suite's scripts as published (tests/suite-tree's tarball, not built:
# the unit tier runs before the suites are built)
suites=${SUITES_DIR:-$TOP/../shared/suites}
tarball=$(ls "$suites"/blktests-*.tar.xz 2> /dev/null | tail -n1)
if [ -z "$tarball" ]; then
	echo "# SKIP no blktests tarball in $suites"
	exit 77
fi
mkdir "$T/src" && tar xJf "$tarball" -C "$T/src" || { echo "Bail out! cannot unpack $tarball"; exit 1; }
SUITE=$(dirname "$(ls -d "$T"/src/*/check "$T"/src/check 2> /dev/null | head -n1)")
[ -x "$SUITE/check" ] || { echo "Bail out! no blktests check script in $tarball"; exit 1; }

# the programs of the groups the profile serves that its image leaves out
declare -A absent=(
	[bash]="the shell the image runs everything with (dracut's)"
	[systemctl]="common/rc's _have_systemctl_unit (nvme's TLS tests, tlshd): no systemd in the guest, those tests skip"
	[su]="common/rc's _run_user, only with NORMAL_USER, which the profile does not set"
	[rdma]="nvme over rdma: the profile runs nvme over tcp (NVMET_TRTYPES=tcp)"
	[tput]="check colours its verdicts only on a terminal, and its output is a pipe here"
	[setpci]="nvme's PCI tests need a real NVMe PCI device, which the guest has not"
	[cryptsetup]="dm-crypt tests only (not a group the profile runs)"
	[mkfs.f2fs]="f2fs on a zoned disk (zbd/009 ... skip without it): f2fs-tools is no dependency of the profile"
	[tlshd]="nvme's TLS tests (tlshd, ktls-utils): no systemd in the guest to start it"
	[ethtool]="nvme/056 only (ddp offload): it needs the kernel's source tree and CONFIG_ULP_DDP, not in Debian's 6.1"
	[python3]="nvme/056 only (ddp offload): see ethtool"
	[mkfs.vfat]="loop/... on vfat: dosfstools is no dependency of the profile"
)

groups="block loop scsi zbd nvme"
files=("$SUITE/check" "$SUITE"/common/*)
for g in $groups; do
	for f in "$SUITE/tests/$g"/[0-9][0-9][0-9] "$SUITE/tests/$g/rc"; do
		[ -f "$f" ] && files+=("$f")
	done
done

# words at a command's position (a line's start, after | ; & ( $( and the
# shell's keywords), neither a shell builtin nor a function of the suite,
# and what xargs, timeout and the like run (block/035's bare "xargs" runs
# the echo program); strings, comments, here-documents and arithmetic
# left out
perl -e '
my (%cmd, %fn, %run);
my %sh = map { $_ => 1 } qw(if then else elif fi for while until do done case
	esac in function select time return local declare export readonly unset
	shift set echo printf read cd pwd test true false exit eval exec source
	trap wait kill let type command builtin break continue mapfile readarray
	shopt getopts hash umask ulimit alias unalias jobs disown pushd popd dirs
	enable help history logout suspend times compgen complete caller typeset fc);
for my $f (@ARGV) {
	open my $h, "<", $f or die "$f: $!\n";
	my $here;
	while (my $l = <$h>) {
		if (defined $here) { undef $here if $l =~ /^\t*\Q$here\E\s*$/; next }
		$here = $1 if $l =~ /<<-?\s*[\x27"]?(\w+)[\x27"]?/;
		$l =~ s/(^|\s)#.*//;
		$fn{$1} = 1 if $l =~ /^\s*(?:function\s+)?([\w.-]+)\s*\(\)/;
		$l =~ s/\x27[^\x27]*\x27/\x27\x27/g;
		$l =~ s/"(?:[^"\$\x60]|\$(?!\())*"/""/g;
		$l =~ s/\$?\(\(.*?\)\)/0/g;
		while ($l =~ /(?:^|[|;&(\x60{]|\$\(|\b(?:then|do|else|if|while|until|!)\s)\s*(?:[A-Za-z_]\w*=\S*\s+)*([A-Za-z_][\w.+-]*)(?=\s|$|;|\)|\|)/g) {
			$cmd{$1} = 1;
		}
		# what a program runs is a program, a builtin name too (xargs echo)
		while ($l =~ /\b(?:xargs|timeout|nice|nohup|stdbuf|taskset)\s+(?:-\S+\s+|[\d.]+\w?\s+)*([A-Za-z_][\w.+-]*)(?=\s|$|;|\)|\|)/g) {
			$run{$1} = 1;
		}
		# xargs without a command runs echo
		$run{echo} = 1 if $l =~ /\bxargs(?:\s+-\S+)*\s*(?:$|[")|;&])/;
	}
}
print "$_\n" for (grep { !$sh{$_} && !$fn{$_} } sort keys %cmd), sort keys %run;
' "${files[@]}" > "$T/words" || exit 1
# only the words that are programs here: the rest are strings and names
while read -r w; do
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin type -P "$w" > /dev/null &&
		echo "$w"
done < "$T/words" > "$T/called"
# what the tests ask for by name, program or not here
grep -hoE '_have_programs? [^;&|)#]*' "${files[@]}" | tr -d '"' | tr ' ' '\n' |
	grep -E '^[A-Za-z_][A-Za-z0-9_.+-]*$' | grep -v '^_have_program' > "$T/asked"
check "the scan found programs block/009, loop/004 and block/035 call (hexdump, sha256sum, echo)" \
	sh -c 'grep -qx hexdump "$0" && grep -qx sha256sum "$0" && grep -qx echo "$0"' "$T/called"
check "the scan found what the tests ask for (fio, blkzone)" \
	sh -c 'grep -qx fio "$0" && grep -qx blkzone "$0"' "$T/asked"

# the profile's bins: every "#@ bins...:" line's words
sed -nE 's/^#@ bins[a-z-]*( [A-Z_]+)?: //p' "$TOP/autorun/blktests.sh" | tr ' ' '\n' |
	sed '/^$/d' | LC_ALL=C sort -u > "$T/bins"
missing=()
for p in $(LC_ALL=C sort -u "$T/called" "$T/asked"); do
	grep -qxF "$p" "$T/bins" || [ -n "${absent[$p]+set}" ] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	ok "every program of blktests' $groups is in the profile's #@ bins or said absent ($(LC_ALL=C sort -u "$T/called" "$T/asked" | wc -l) programs)"
else
	not_ok "programs blktests' tests call that the profile leaves out: ${missing[*]}"
fi
# the list of the absent stays true: none of them crept into the bins
for p in "${!absent[@]}"; do
	grep -qxF "$p" "$T/bins" && not_ok "$p is said absent but is in the profile's bins"
done
done_testing
