#!/usr/bin/env bash
# Issue 39's timings on this machine: the logit lens of a 256-token prompt on a 6x6x384 model (baby-gpt)
# and the all-heads ablation table of the default preset, each model trained 20 steps on tiny shakespeare
# (the timings do not depend on training). Usage: bench/inspection_speed.sh [path/to/tinyshakespeare.txt] [threads]
set -euo pipefail
cd "$(dirname "$0")/.."
TEXT=${1:-../shared/datasets/tinyshakespeare/input.txt}
THREADS=${2:-2}
B=build/bin
[ -x $B/bench_inspection ] || cmake --build build --target twb bench_inspection
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
$B/twb prepare --input "$TEXT" --tokenizer char --out "$W/data" -q >/dev/null
for preset in baby-gpt default; do
  $B/twb train --data "$W/data" --out "$W/$preset" --preset $preset --set max_iters=20 --set eval_interval=20 \
    --set eval_iters=1 --set threads="$THREADS" -q >/dev/null
done
$B/bench_inspection "$W/baby-gpt" "$W/default" "$THREADS"
