#!/usr/bin/env bash
# Multi-process training on this machine: one rank with 2 threads against 2 ranks with 1 thread each,
# the same global batch (nanoGPT's CPU recipe on tiny shakespeare), ms per step and the all-reduce share;
# then what a cluster run would move per step for each preset against a 10 Gb/s link.
# Usage: bench/distributed.sh [iters] [shared-datasets-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
ITERS=${1:-200}
DATA=${2:-../shared/datasets}
TWB=${TWB:-build/bin/twb}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$TWB" prepare --input "$DATA/tinyshakespeare/input.txt" --tokenizer char --out "$tmp/shk" --quiet >/dev/null
common=(--data "$tmp/shk" --preset nanogpt-cpu --set max_iters="$ITERS" --set eval_interval=100000)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in 1 2; do
  "$TWB" train "${common[@]}" --out "$tmp/one$round" --set threads=2 -q | grep -o 'median [0-9.]* ms/step' |
    sed "s/^/1 rank  x 2 threads, batch 12:   /"
  "$TWB" train "${common[@]}" --out "$tmp/two$round" --set batch_size=6 --set threads=1 --set log_interval=50 \
    --nproc 2 2>/dev/null | grep -E 'median|all-reduce' | tail -2 |
    sed -e 's/.*\(median [0-9.]* ms\/step\).*/\1/' -e "s/^/2 ranks x 1 thread,  batch 6+6:  /"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "gradient bytes all-reduced per step (float32) and the ring all-reduce time on a 10 Gb/s link:"
printf '%-12s %12s %10s %14s %14s\n' preset parameters "MB/step" "2 ranks (ms)" "8 ranks (ms)"
for p in tiny default nanogpt-cpu baby-gpt; do
  n=$("$TWB" train --data "$tmp/shk" --out "$tmp/count-$p" --preset "$p" --set max_iters=0 --set eval_iters=1 2>/dev/null |
      sed -n 's/.*: \([0-9.]*\)M parameters.*/\1/p')
  python3 - "$p" "$n" <<'PY'
import sys
name, m = sys.argv[1], float(sys.argv[2])
b = m * 1e6 * 4                     # float32 gradient bytes
link = 10e9 / 8                     # 10 Gb/s in bytes/s
ring = lambda n: 2 * (n - 1) / n * b / link * 1000   # each rank sends and receives 2(n-1)/n of the buffer
print(f"{name:<12} {m*1e6:12,.0f} {b/1e6:10.1f} {ring(2):14.1f} {ring(8):14.1f}")
PY
done
