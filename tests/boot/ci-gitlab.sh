#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ci-gitlab.sh: .gitlab-ci.yml's pipeline run as separate GitLab runners
# would (tests/boot/lib-ci.inc): stage by stage, each job instance
# (parallel: N gives CI_NODE_INDEX/CI_NODE_TOTAL) in its own checkout with
# its own HOME and caches, its before_script and script lines in one
# `bash -eo pipefail` (as the runner's generated script), the artifacts of
# its needs copied in, its artifacts:paths (when: on_success or always)
# kept, its directory removed when it ends. Every job passes, every shard
# booted the image on a "machine" without the cut job's cache or kernel,
# and the merge has every shard. Then a shard whose VM cannot run (a
# damaged image) fails its job, and the merge without its results fails
# naming it.
# tests/run timeout: 1800s
. "$(dirname "$0")/../tap.sh"
. "$(dirname "$0")/lib-ci.inc"

# CI_YAML: another file in this form (to see the test fail on a broken one)
ci_start "${CI_YAML:-$TOP/.gitlab-ci.yml}"

reserved=" variables stages default workflow include "
jobs=()
for k in $(ykeys); do
	[[ "$reserved" == *" $k "* || $k == .* ]] || jobs+=("$k")
done
ok "jobs: ${jobs[*]}"

# the keys this runner emulation knows: any other would be ignored here
# and acted on by GitLab
bad=
for j in "${jobs[@]}"; do
	for k in $(ykeys "$j"); do
		case $k in
		stage|needs|parallel|script|before_script|artifacts|when|variables|image) ;;
		*) bad="$bad $j.$k" ;;
		esac
	done
	img=$(y "$j.image" || y default.image)
	[ "$img" = debian:12 ] || bad="$bad $j.image=${img:-none}"
done
for k in $(ykeys default); do
	case $k in image|before_script) ;; *) bad="$bad default.$k" ;; esac
done
check "every job on debian:12, only keys this test runs${bad:+ (not:$bad)}" test -z "$bad"

# run_job JOB INDEX TOTAL: one job instance; its status in $W/JOB-INDEX.rc
run_job() {
	local j=$1 i=$2 n=$3 id d need v vars=() when r p
	id=$j${i:+-$i}
	d=$W/$id
	ci_checkout "$d/src" || { echo 1 > "$W/$id.rc"; return; }
	for need in $(ylist "$j.needs"); do
		for v in "$ART/$need" "$ART/$need"-*; do
			[ -d "$v" ] && cp -a "$v/." "$d/src/"
		done
	done
	{
		echo 'cd "$CI_PROJECT_DIR"'
		if ykeys "$j" | grep -qx before_script; then
			ylist "$j.before_script"
		else
			ylist default.before_script
		fi
		ylist "$j.script"
	} > "$d/job.sh"
	while IFS= read -r v; do vars+=("$v=$(y "variables.$v")"); done < <(ykeys variables)
	while IFS= read -r v; do vars+=("$v=$(y "$j.variables.$v")"); done < <(ykeys "$j.variables")
	vars+=(CI_PROJECT_DIR="$d/src" CI_JOB_NAME="$j${i:+ $i/$n}")
	[ -z "$i" ] || vars+=(CI_NODE_INDEX="$i" CI_NODE_TOTAL="$n")
	ci_bash "$W/$id.log" "$d/src" "$d/job.sh" "${vars[@]}"
	r=$?
	echo $r > "$W/$id.rc"
	when=$(y "$j.artifacts.when" || echo on_success)
	if [ "$when" = always ] || { [ "$when" = on_success ] && [ $r = 0 ]; } ||
		{ [ "$when" = on_failure ] && [ $r != 0 ]; }; then
		mkdir -p "$ART/$id"
		while IFS= read -r p; do
			(cd "$d/src" && for f in $p; do [ -e "$f" ] && cp -a --parents "$f" "$ART/$id/"; done)
		done < <(ylist "$j.artifacts.paths")
	fi
	# the runner is gone: nothing of it (cache, HOME, checkout) stays
	rm -rf "$d"
}

# run_stage_job JOB: every instance of JOB, two at a time (the machine has
# two cores; real runners would run them all at once)
run_stage_job() {
	local j=$1 n i
	n=$(y "$j.parallel" || echo)
	if [ -z "$n" ]; then
		run_job "$j" "" ""
		return
	fi
	for i in $(seq 1 "$n"); do
		run_job "$j" "$i" "$n" &
		[ $((i % 2)) = 0 ] && wait
	done
	wait
}

pipeline_failed=0
kernel=
for st in $(ylist stages); do
	for j in "${jobs[@]}"; do
		[ "$(y "$j.stage" || echo test)" = "$st" ] || continue
		when=$(y "$j.when" || echo on_success)
		if [ "$when" != always ] && [ $pipeline_failed = 1 ]; then
			not_ok "job $j: not run (an earlier stage failed)"
			continue
		fi
		s=$(date +%s)
		run_stage_job "$j"
		for rcf in "$W/$j".rc "$W/$j"-*.rc; do
			[ -e "$rcf" ] || continue
			id=$(basename "$rcf" .rc)
			r=$(cat "$rcf")
			expect_rc "job $id ($(( $(date +%s) - s ))s)" 0 "$r"
			[ "$r" = 0 ] || { pipeline_failed=1; show_log "$W/$id.log"; }
		done
		# after the first stage, later runners are other machines: the
		# kernel the image names is not theirs
		if [ -z "$kernel" ] && [ -s "$ART/$j/artifact/image" ]; then
			kernel=$(VM_KERNEL_ENTRY=bzimage "$TOP/vm" --dry-run "$ART/$j/artifact/image" 2> /dev/null |
				sed -n '/^-kernel$/{n;p;q}')
			[ -n "$kernel" ] && ci_mask_kernel "$kernel"
		fi
	done
done

ci_mask_said
n=$(y shard.parallel || echo 0)
# the merge names shards 1..SHARDS: another parallel: would drop some
check "SHARDS ($(y variables.SHARDS)) is the shard job's parallel: ($n)" test "$(y variables.SHARDS)" = "$n"
for i in $(seq 1 "$n"); do
	check "shard $i/$n booted the image: results-$i/console.log says rapido: ... up" \
		grep -aq 'rapido: .* up on rapido' "$ART/shard-$i/results-$i/console.log"
done
check "merged: junit.xml and summary.txt" test -s "$ART/merge/merged/junit.xml" -a \
	-s "$ART/merge/merged/summary.txt"
check "merged summary: each of the $n shards ran, exit status 0" \
	test "$(grep -c ' (exit status 0)$' "$ART/merge/merged/summary.txt" 2> /dev/null)" = "$n"
[ $fails = 0 ] || sed 's/^/#   summary: /' "$ART/merge/merged/summary.txt"

# A shard whose VM does not run (a damaged image): its job fails, and the
# merge, without its results, fails naming it
ci_job() {
	run_job "$1" "${2:-}" "${2:+$n}"
}
# shellcheck disable=SC2046 # shard numbers are words
ci_damaged_shard cut artifact/image shard- $(seq 1 "$n")
done_testing
