#!/usr/bin/env bash
# Runs make test's layers and prints where the time went. The arguments
# are layers in lanes separated by "--": the layers of a lane run one
# after another, the lanes side by side (the Go tests beside the browser
# suite, whose runs leave a core idle much of the time). A layer's output
# is kept in build/test-logs/LAYER.log and printed whole when it ends, so
# the lanes' outputs do not interleave; while layers run, a line every
# HEARTBEAT seconds (default 60) names each with its time so far and its
# live log, so a slow machine never looks stuck. A lane stops at its first failing
# layer; the others finish. The exit status is 1 if any layer failed.
# An argument ^LAYER waits until LAYER, in another lane, has ended, and
# stops its own lane if LAYER failed or never ran (the Go tests compile
# the site the build embeds, so they wait for it while the node tests
# run beside it).
# Usage: scripts/layers.sh LAYER... [-- LAYER...]...
set -uo pipefail
logs=build/test-logs
rm -rf "$logs" && mkdir -p "$logs"
lock="$logs/.print"
: >"$lock"

# record appends "layer seconds status" to the times file.
record() {
	echo "$1 $2 $3" >>"$logs/times"
}

# skip records the layers given as not run (waits for other lanes aside).
skip() {
	local layer
	for layer in "$@"; do
		[[ $layer == ^* ]] || record "$layer" 0 -
	done
}

# lane runs its layers in order and records each; after a failure it
# records the layers it did not run as skipped (status -).
lane() {
	local layer start status secs
	while [ $# -gt 0 ]; do
		layer=$1
		shift
		if [[ $layer == ^* ]]; then
			layer=${layer#^}
			until grep -q "^$layer " "$logs/times" 2>/dev/null; do sleep 1; done
			if ! grep -q "^$layer [0-9]* 0$" "$logs/times"; then
				echo "==> $layer did not pass: the rest of this lane is skipped"
				skip "$@"
				return 1
			fi
			continue
		fi
		start=$(date +%s)
		echo "==> $layer: started (live log: $logs/$layer.log)"
		echo "$start" >"$logs/.running.$layer"
		make --no-print-directory "$layer" >"$logs/$layer.log" 2>&1
		status=$?
		rm -f "$logs/.running.$layer"
		secs=$(($(date +%s) - start))
		{
			flock 9
			echo "==> make $layer"
			cat "$logs/$layer.log"
			echo "==> $layer: $secs s, exit $status"
			record "$layer" "$secs" "$status"
		} 9>"$lock"
		if [ "$status" -ne 0 ]; then
			skip "$@"
			return "$status"
		fi
	done
}

# heartbeat prints the running layers every HEARTBEAT seconds.
heartbeat() {
	local f layer now line
	while sleep "${HEARTBEAT:-60}"; do
		now=$(date +%s)
		line=""
		for f in "$logs"/.running.*; do
			[ -e "$f" ] || continue
			layer=${f##*/.running.}
			line+=" $layer $(((now - $(cat "$f" 2>/dev/null || echo "$now")) / 60)) min ($logs/$layer.log, $(wc -l <"$logs/$layer.log" 2>/dev/null || echo 0) lines);"
		done
		[ -n "$line" ] && { flock 9; echo "==> running:${line%;}"; } 9>"$lock"
	done
}

start=$(date +%s)
heartbeat &
beat=$!
trap 'kill "$beat" 2>/dev/null' EXIT
pids=()
current=()
for arg in "$@" --; do
	if [ "$arg" = "--" ]; then
		[ "${#current[@]}" -gt 0 ] && { lane "${current[@]}" & pids+=($!); }
		current=()
	else
		current+=("$arg")
	fi
done
status=0
for pid in "${pids[@]}"; do
	wait "$pid" || { [ "$status" -ne 0 ] || status=1; }
done

echo
echo "layer        seconds  exit"
while read -r layer secs code; do
	printf '%-12s %7d  %4s\n' "$layer" "$secs" "$code"
done <"$logs/times"
printf '%-12s %7d\n' "wall" "$(($(date +%s) - start))"
exit "$status"
