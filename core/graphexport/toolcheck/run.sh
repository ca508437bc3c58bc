#!/bin/sh
# run.sh: exports a graph in every format and runs check.py, the tools'
# own readers where they run here (make check-exports; never part of make
# test). Usage (from the repository root):
#   DGL=path/to/dgl GRAPHSTORM=path/to/graphstorm core/graphexport/toolcheck/run.sh
# Environment: DATA (default ../shared/datasets/cora), SEED (default 0),
# PYTHON (default /usr/bin/python3, Debian's, where python3-torch installs),
# DGL and GRAPHSTORM (checkouts; the parts that need one are skipped
# without it).
set -eu
DATA=${DATA:-../shared/datasets/cora}
SEED=${SEED:-0}
PYTHON=${PYTHON:-/usr/bin/python3}
"$PYTHON" -c 'import numpy, pandas, pydantic, torch' || { echo "check-exports: needs apt-get install python3-numpy python3-pandas python3-pydantic python3-torch" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/ilpgnn" ./core/cmd/ilpgnn
for f in "dgl both" "dgl once" "gconstruct once" "pyg both"; do
	set -- $f
	extra=""
	[ "$1" != gconstruct ] && extra="--directions $2"
	"$tmp/ilpgnn" export-graph --format "$1" $extra --data "$DATA" --seed "$SEED" --out "$tmp/$1-$2" >/dev/null
done
"$PYTHON" core/graphexport/toolcheck/check.py --dgl-export "$tmp/dgl-both" "$tmp/dgl-once" \
	--gconstruct-export "$tmp/gconstruct-once" --pyg-export "$tmp/pyg-both" \
	${DGL:+--dgl "$DGL"} ${GRAPHSTORM:+--graphstorm "$GRAPHSTORM"}
