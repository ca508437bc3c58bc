#!/usr/bin/env bash
# Runs `make test`'s layers one after another, each as `make LAYER`, and
# prints how long each took, then a table of them all: where the suite's
# time goes. Stops at the first layer that fails, as make would.
# Usage: scripts/layers.sh LAYER...
set -uo pipefail
declare -a names secs
status=0
for layer in "$@"; do
	start=$(date +%s)
	echo "==> make $layer"
	make --no-print-directory "$layer"
	status=$?
	names+=("$layer")
	secs+=($(($(date +%s) - start)))
	echo "==> $layer: ${secs[-1]} s"
	[ "$status" -eq 0 ] || break
done
echo
echo "layer        seconds"
total=0
for k in "${!names[@]}"; do
	printf '%-12s %7d\n' "${names[$k]}" "${secs[$k]}"
	total=$((total + secs[k]))
done
printf '%-12s %7d\n' total "$total"
exit "$status"
