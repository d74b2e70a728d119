#!/usr/bin/env bash
# Speed and quality against a PyTorch reference, measured in one run on this machine.
# nanoGPT's CPU recipe on tiny shakespeare (char; 4 layers, 4 heads, 128 dims, block 64, batch 12,
# 2000 iters, lr 1e-3 -> 1e-4 cosine, warmup 100, beta2 0.99, dropout 0, eval_iters 20, 2 threads).
# Usage: bench/train_vs_reference.sh [BUILD_DIR] [ITERS]   (needs python3-torch for the reference)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
iters=${2:-2000}
twb="$build/bin/twb"
corpus="$here/../../shared/datasets/tinyshakespeare/input.txt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$twb" prepare -q --input "$corpus" --tokenizer char --val-fraction 0.1 --out "$work/data" > /dev/null
common=(--data "$work/data" --preset nanogpt-cpu --set max_iters=$iters --set lr_decay_iters=$iters --set threads=2 -q)
echo "== PyTorch reference ($iters iters)"
ref=$(/usr/bin/python3 "$here/reference_gpt.py" --data "$work/data" --iters "$iters" --threads 2)
echo "$ref"
for dtype in float32 bfloat16; do
  echo "== twb train, $dtype"
  "$twb" train "${common[@]}" --out "$work/run-$dtype" --set dtype=$dtype | tail -2
done
python3 - "$ref" "$work" <<'PY'
import csv, json, statistics, sys
ref = json.loads(sys.argv[1]); work = sys.argv[2]
print("\n== summary (ratio = reference ms/iter / twb ms/iter)")
print(f"reference  {ref['median_ms_per_iter']:.1f} ms/iter  val {ref['val_loss']:.4f}")
for d in ("float32", "bfloat16"):
    rows = list(csv.DictReader(open(f"{work}/run-{d}/metrics.csv")))
    ms = statistics.median(float(r["ms_per_step"]) for r in rows if r["kind"] == "train")
    val = [float(r["val_loss"]) for r in rows if r["kind"] == "eval"][-1]
    # model FLOPs per iteration: 6 * params * tokens + attention (12 * L * T^2 * C per sequence, fwd+bwd)
    L, C, T, B, V = 4, 128, 64, 12, 65
    params = 12 * L * C * C + V * C + T * C
    flops = 6 * params * B * T + 12 * L * T * T * C * B
    print(f"twb {d:8s} {ms:.1f} ms/iter  val {val:.4f}  speed-up {ref['median_ms_per_iter']/ms:.2f}x  "
          f"{flops/ms/1e6:.1f} GFLOP/s of model math")
PY
