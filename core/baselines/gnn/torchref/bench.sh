#!/bin/sh
# bench.sh: Go's BenchmarkGAEEpoch against gae_epoch.py (PyTorch), one
# thread each, alternating for ROUNDS rounds (default 3) so that both see
# the same load; prints each round, then the medians and their ratios, of
# wall time and of CPU time per epoch (on a shared machine CPU time is the
# steadier of the two).
# Usage (from the repository root): core/baselines/gnn/torchref/bench.sh
# Environment: ROUNDS, EPOCHS (timed epochs per round, default 30), GNN_DATA (the dataset)
# (default ../shared/datasets/cora), GAE_TEST_BIN (a prebuilt gnn test
# binary, e.g. of another commit; default: built here), PYTHON (default
# /usr/bin/python3, Debian's, where python3-torch installs).
set -eu
ROUNDS=${ROUNDS:-3}
EPOCHS=${EPOCHS:-30}
DATA=$(cd "${GNN_DATA:-../shared/datasets/cora}" && pwd)
PYTHON=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${GAE_TEST_BIN:-}
if [ -z "$bin" ]; then
	bin=$tmp/gnn.test
	go test -c -o "$bin" ./core/baselines/gnn
fi
"$PYTHON" -c 'import torch' || { echo "bench-torch: needs PyTorch: apt-get install python3-torch" >&2; exit 1; }
for r in $(seq "$ROUNDS"); do
	(cd core/baselines/gnn && GOMAXPROCS=1 "$bin" -test.run='^$' \
		-test.bench='^BenchmarkGAEEpoch$' -test.benchtime="${EPOCHS}x" -data "$DATA") >"$tmp/go.out"
	go_ms=$(awk '{ for (i = 1; i < NF; i++) if ($(i+1) == "ms/epoch") print $i }' "$tmp/go.out")
	go_cpu=$(awk '{ for (i = 1; i < NF; i++) if ($(i+1) == "cpu-ms/epoch") print $i }' "$tmp/go.out")
	[ -n "$go_ms" ] && [ -n "$go_cpu" ] || { cat "$tmp/go.out" >&2; exit 1; }
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
		"$PYTHON" core/baselines/gnn/torchref/gae_epoch.py --data "$DATA" --epochs "$EPOCHS" >"$tmp/torch.out"
	torch_ms=$(awk '{ print $2 }' "$tmp/torch.out")
	torch_cpu=$(awk '{ print $4 }' "$tmp/torch.out")
	echo "round $r: go $go_ms ms/epoch ($go_cpu CPU), torch $torch_ms ms/epoch ($torch_cpu CPU)"
	echo "$go_ms" >>"$tmp/go"
	echo "$go_cpu" >>"$tmp/gocpu"
	echo "$torch_ms" >>"$tmp/torch"
	echo "$torch_cpu" >>"$tmp/torchcpu"
done
median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
g=$(median "$tmp/go") gc=$(median "$tmp/gocpu")
t=$(median "$tmp/torch") tc=$(median "$tmp/torchcpu")
echo "median of $ROUNDS rounds x $EPOCHS epochs, one thread: wall go $g ms, torch $t ms, go/torch $(ratio "$g" "$t"); CPU go $gc ms, torch $tc ms, go/torch $(ratio "$gc" "$tc")"
