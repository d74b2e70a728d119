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
echo "== twb train, tuned defaults (--preset default: rotary, lr 3e-3), bfloat16"
"$twb" train --data "$work/data" --preset default --set max_iters=$iters --set lr_decay_iters=$iters --set threads=2 -q \
  --out "$work/run-tuned" --set dtype=bfloat16 | tail -2
echo "== sgemm peak, 1024x1024 fp32, 2 threads (PyTorch, same BLAS)"
peak=$(/usr/bin/python3 -c "
import torch,time; torch.set_num_threads(2); a=torch.randn(1024,1024); b=torch.randn(1024,1024)
for _ in range(5): a@b
t=time.perf_counter(); n=40
for _ in range(n): a@b
print(2*1024**3*n/(time.perf_counter()-t)/1e9)")
echo "$peak GFLOP/s"
python3 - "$ref" "$work" "$peak" <<'PY'
import csv, json, statistics, sys
ref = json.loads(sys.argv[1]); work = sys.argv[2]; peak = float(sys.argv[3])
print("\n== summary (ratio = reference ms/iter / twb ms/iter)")
print(f"reference  {ref['median_ms_per_iter']:.1f} ms/iter  val {ref['val_loss']:.4f}")
for d in ("float32", "bfloat16", "tuned"):
    rows = list(csv.DictReader(open(f"{work}/run-{d}/metrics.csv")))
    ms = statistics.median(float(r["ms_per_step"]) for r in rows if r["kind"] == "train")
    val = [float(r["val_loss"]) for r in rows if r["kind"] == "eval"][-1]
    # model FLOPs per iteration: 6 * params * tokens + attention (12 * L * T^2 * C per sequence, fwd+bwd)
    L, C, T, B, V = 4, 128, 64, 12, 65
    params = 12 * L * C * C + V * C + T * C
    flops = 6 * params * B * T + 12 * L * T * T * C * B
    print(f"twb {d:8s} {ms:.1f} ms/iter  val {val:.4f}  speed-up {ref['median_ms_per_iter']/ms:.2f}x  "
          f"{flops/ms/1e6:.1f} GFLOP/s of model math = {100*flops/ms/1e6/peak:.0f}% of the fp32 sgemm peak")
print(f"reference: {flops/ref['median_ms_per_iter']/1e6:.1f} GFLOP/s = {100*flops/ref['median_ms_per_iter']/1e6/peak:.0f}% of the peak")
PY
