#!/usr/bin/env bash
# Runs make test's layers and prints where the time went. The arguments
# are layers in lanes separated by "--": the layers of a lane run one
# after another, the lanes side by side (the Go tests beside the browser
# suite, whose runs leave a core idle much of the time). A layer's output
# is kept in build/test-logs/LAYER.log and printed whole when it ends, so
# the lanes' outputs do not interleave. A lane stops at its first failing
# layer; the others finish. The exit status is that of the first failure.
# Usage: scripts/layers.sh LAYER... [-- LAYER...]...
set -uo pipefail
logs=build/test-logs
rm -rf "$logs" && mkdir -p "$logs"
lock="$logs/.print"
: >"$lock"

# lane runs its layers in order and records "layer seconds status".
lane() {
	for layer in "$@"; do
		local start status secs
		start=$(date +%s)
		echo "==> $layer: started"
		make --no-print-directory "$layer" >"$logs/$layer.log" 2>&1
		status=$?
		secs=$(($(date +%s) - start))
		{
			flock 9
			echo "==> make $layer"
			cat "$logs/$layer.log"
			echo "==> $layer: $secs s, exit $status"
			echo "$layer $secs $status" >>"$logs/times"
		} 9>"$lock"
		[ "$status" -eq 0 ] || return "$status"
	done
}

start=$(date +%s)
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
	printf '%-12s %7d  %4d\n' "$layer" "$secs" "$code"
done <"$logs/times"
printf '%-12s %7d\n' "wall" "$(($(date +%s) - start))"
exit "$status"
