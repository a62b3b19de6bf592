#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ci-github.sh: .github/workflows/rapido-shards.yml run as separate GitHub
# runners would (tests/boot/lib-ci.inc): jobs in the order their needs
# give, one instance per matrix value, each in its own checkout, HOME and
# caches; a run step as the workflow's shell (bash: `bash --noprofile
# --norc -eo pipefail`) with the workflow's, job's and step's env and
# ${{ matrix.X }} put in; actions/checkout, upload-artifact and
# download-artifact (v4: a directory uploads its contents; a download by
# name lands in path, by pattern in path/NAME) done here; a step after a
# failed one only with if: always(), a job after a failed need only with
# if: always(). Every job passes on Debian 12 (container: debian:12),
# every shard booted the image on a "machine" without the cut job's cache
# or kernel, and the merge has every shard. Then a shard whose VM cannot
# run (a damaged image) fails its job, and the merge without its results
# fails naming it.
# tests/run timeout: 1800s
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/lib-ci.inc"

# CI_YAML: another file in this form (to see the test fail on a broken one)
ci_start "${CI_YAML:-$TOP/.github/workflows/rapido-shards.yml}"

# jobs in an order their needs allow
order=()
pending=$(ykeys jobs)
while [ -n "$pending" ]; do
	next=
	progress=0
	for j in $pending; do
		ready=1
		for need in $(y "jobs.$j.needs" 2> /dev/null; ylist "jobs.$j.needs"); do
			[[ " ${order[*]} " == *" $need "* ]] || ready=0
		done
		if [ $ready = 1 ]; then order+=("$j"); progress=1; else next="$next $j"; fi
	done
	[ $progress = 1 ] || { not_ok "jobs whose needs cannot be met:$next"; done_testing; }
	pending=$next
done
ok "jobs in order: ${order[*]}"

bad=
[ "$(y defaults.run.shell)" = bash ] || bad="$bad defaults.run.shell"
for j in "${order[@]}"; do
	for k in $(ykeys "jobs.$j"); do
		case $k in
		runs-on|container|needs|if|strategy|steps|env) ;;
		*) bad="$bad $j.$k" ;;
		esac
	done
	c=$(y "jobs.$j.container" || y "jobs.$j.container.image")
	[ "$c" = debian:12 ] || bad="$bad $j.container=${c:-none}"
	v=$(y "jobs.$j.if" || echo none)
	[ "$v" = none ] || [ "$v" = "always()" ] || bad="$bad $j.if=$v"
done
check "every job in container debian:12, only keys this test runs${bad:+ (not:$bad)}" test -z "$bad"

# gh_expr TEXT: TEXT with ${{ matrix.KEY }} put in ($mkey=$mval); any other
# expression fails (it would mean something here that it does not on GitHub)
gh_expr() {
	local s=$1
	s=${s//"\${{ matrix.$mkey }}"/$mval}
	if [[ "$s" == *'${{'* ]]; then
		echo "unsupported expression in: $s" >&2
		return 1
	fi
	printf '%s' "$s"
}

# step_run J I N: step N of job J's instance I; its status
step_run() {
	local j=$1 id=$2 s=$3 d=$W/$2 uses v name path pat a k vars=()
	uses=$(y "jobs.$j.steps.$s.uses" || echo)
	case $uses in
	actions/checkout@v4)
		ci_checkout "$d/ws" ;;
	actions/upload-artifact@v4)
		name=$(gh_expr "$(y "jobs.$j.steps.$s.with.name")") || return 1
		path=$(gh_expr "$(y "jobs.$j.steps.$s.with.path")") || return 1
		[ ! -e "$ART/$name" ] || { echo "upload: artifact $name exists"; return 1; }
		if [ -d "$d/ws/$path" ]; then
			mkdir -p "$ART/$name" && cp -a "$d/ws/$path/." "$ART/$name/"
		elif [ -e "$d/ws/$path" ]; then
			mkdir -p "$ART/$name" && cp -a "$d/ws/$path" "$ART/$name/"
		else
			echo "upload: warning: no files at $path (if-no-files-found: warn)"
		fi ;;
	actions/download-artifact@v4)
		name=$(gh_expr "$(y "jobs.$j.steps.$s.with.name" || echo)") || return 1
		pat=$(gh_expr "$(y "jobs.$j.steps.$s.with.pattern" || echo)") || return 1
		path=$(gh_expr "$(y "jobs.$j.steps.$s.with.path" || echo .)") || return 1
		if [ -n "$name" ]; then
			[ -d "$ART/$name" ] || { echo "download: no artifact $name"; return 1; }
			mkdir -p "$d/ws/$path" && cp -a "$ART/$name/." "$d/ws/$path/"
		else
			for a in "$ART"/*; do
				[ -d "$a" ] || continue
				# shellcheck disable=SC2053
				[ -z "$pat" ] || [[ $(basename "$a") == $pat ]] || continue
				mkdir -p "$d/ws/$path/$(basename "$a")" &&
					cp -a "$a/." "$d/ws/$path/$(basename "$a")/"
			done
		fi ;;
	mikepenz/action-junit-report@v4)
		# a report for the web page; the verdict is the merge's status
		;;
	"")
		for k in $(ykeys env); do vars+=("$k=$(gh_expr "$(y "env.$k")")") || return 1; done
		for k in $(ykeys "jobs.$j.env"); do vars+=("$k=$(gh_expr "$(y "jobs.$j.env.$k")")") || return 1; done
		for k in $(ykeys "jobs.$j.steps.$s.env"); do
			vars+=("$k=$(gh_expr "$(y "jobs.$j.steps.$s.env.$k")")") || return 1
		done
		gh_expr "$(y "jobs.$j.steps.$s.run")" > "$d/step$s.sh" || return 1
		echo >> "$d/step$s.sh"
		ci_bash "$d/step$s.log" "$d/ws" "$d/step$s.sh" "${vars[@]}" \
			GITHUB_WORKSPACE="$d/ws" GITHUB_ACTIONS=true GITHUB_JOB="$j" RUNNER_TEMP="$d/home/tmp"
		v=$?
		cat "$d/step$s.log"
		return $v ;;
	*)
		echo "unsupported action $uses"
		return 1 ;;
	esac
}

# run_job J [MATRIX-VALUE]: one instance; its status in $W/ID.rc, its log in $W/ID.log
run_job() {
	local j=$1 id s failed=0 r cond
	mval=${2:-}
	id=$j${mval:+-$mval}
	mkdir -p "$W/$id/ws"
	: > "$W/$id.log"
	for s in $(ykeys "jobs.$j.steps"); do
		cond=$(y "jobs.$j.steps.$s.if" || echo)
		if [ $failed = 1 ] && [ "$cond" != "always()" ]; then
			echo "step $s: skipped (an earlier step failed)" >> "$W/$id.log"
			continue
		fi
		if [ -n "$cond" ] && [ "$cond" != "always()" ]; then
			echo "step $s: unsupported if: $cond" >> "$W/$id.log"
			failed=1
			continue
		fi
		step_run "$j" "$id" "$s" >> "$W/$id.log" 2>&1
		r=$?
		echo "step $s: exit $r" >> "$W/$id.log"
		[ $r = 0 ] || failed=1
	done
	echo $failed > "$W/$id.rc"
	# the runner is gone: nothing of it (cache, HOME, checkout) stays
	rm -rf "${W:?}/$id"
}

declare -A job_failed
kernel=
for j in "${order[@]}"; do
	skipped=0
	for need in $(y "jobs.$j.needs" 2> /dev/null; ylist "jobs.$j.needs"); do
		[ "${job_failed[$need]:-0}" = 0 ] || skipped=1
	done
	if [ $skipped = 1 ] && [ "$(y "jobs.$j.if" || echo)" != "always()" ]; then
		not_ok "job $j: skipped (a job it needs failed)"
		job_failed[$j]=1
		continue
	fi
	mkey=$(ykeys "jobs.$j.strategy.matrix")
	[ "$(echo "$mkey" | grep -c .)" -le 1 ] || { not_ok "job $j: a matrix of more than one key"; continue; }
	s=$(date +%s)
	if [ -n "$mkey" ]; then
		k=0
		for mv in $(ylist "jobs.$j.strategy.matrix.$mkey"); do
			run_job "$j" "$mv" &
			k=$((k + 1))
			[ $((k % 2)) = 0 ] && wait
		done
		wait
	else
		run_job "$j"
	fi
	job_failed[$j]=0
	for rcf in "$W/$j".rc "$W/$j"-*.rc; do
		[ -e "$rcf" ] || continue
		id=$(basename "$rcf" .rc)
		r=$(cat "$rcf")
		check "job $id ($(( $(date +%s) - s ))s)" test "$r" = 0
		[ "$r" = 0 ] || { job_failed[$j]=1; show_log "$W/$id.log"; }
	done
	# after the first job, runners are other machines: the kernel the
	# image names is not theirs
	if [ -z "$kernel" ] && [ -s "$ART/image/image" ]; then
		kernel=$(VM_KERNEL_ENTRY=bzimage "$TOP/vm" --dry-run "$ART/image/image" 2> /dev/null | sed -n '/^-kernel$/{n;p;q}')
		[ -n "$kernel" ] && ci_mask_kernel "$kernel"
	fi
done

ci_mask_said
n=$(ylist jobs.shard.strategy.matrix.shard | grep -c .)
# the merge names shards 1..SHARDS: a matrix of another size would drop some
check "SHARDS ($(y env.SHARDS)) is the shard matrix's size ($n)" test "$(y env.SHARDS)" = "$n"
for i in $(ylist jobs.shard.strategy.matrix.shard); do
	check "shard $i/$n booted the image: artifact results-$i/console.log says rapido: ... up" \
		grep -aq 'rapido: .* up on rapido' "$ART/results-$i/console.log"
done
check "merged: junit.xml and summary.txt" test -s "$ART/merged/junit.xml" -a -s "$ART/merged/summary.txt"
check "merged summary: each of the $n shards ran, exit status 0" \
	test "$(grep -c ' (exit status 0)$' "$ART/merged/summary.txt" 2> /dev/null)" = "$n"

# A shard whose VM does not run (a damaged image): its job fails, and the
# merge, without its results, fails naming it
ci_job() {
	mkey=${2:+shard}
	run_job "$1" "${2:-}"
}
# shellcheck disable=SC2046 # the matrix values are words
ci_damaged_shard image image results- $(ylist jobs.shard.strategy.matrix.shard)
done_testing
