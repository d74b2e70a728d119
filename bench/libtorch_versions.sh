#!/usr/bin/env bash
# Debian's libtorch 1.13 (build/) against PyPI's torch wheel 2.x (build-wheel/), interleaved in one run
# so that a busy shared machine slows both alike: training speed (nanoGPT's CPU recipe on tiny
# shakespeare, float32, 2 threads) and greedy generation speed with the KV cache and libtorch's float32
# decoding path, same model, same prompt. The wheel runs twice: with its default attention
# (scaled_dot_product_attention) and with TWB_ATTENTION=explicit (the 1.13 code path), which separates
# the kernel from the rest of libtorch.
# Usage: bench/libtorch_versions.sh [ROUNDS] [ITERS] [TOKENS]
#   DTYPE=auto trains in the CPU's own choice (bf16 where the CPU has AVX512-BF16) instead of float32;
#   WHEEL_BUILD=build-gpu reads the wheel's twb from another build folder (bench/gpu_bundle.sh's).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-3}
iters=${2:-300}
tokens=${3:-500}
corpus="$here/../../shared/datasets/tinyshakespeare/input.txt"
deb="$here/../build/bin/twb"
whl="$here/../${WHEEL_BUILD:-build-wheel}/bin/twb"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$deb" prepare -q --input "$corpus" --tokenizer char --val-fraction 0.1 --out "$work/data" > /dev/null
common=(--data "$work/data" --preset nanogpt-cpu --set max_iters=$iters --set lr_decay_iters=$iters
  --set eval_interval=$iters --set threads=2 --set dtype="${DTYPE:-float32}" -q)
# One model for generation, trained once by Debian's build; both builds read the same checkpoint.
"$deb" train "${common[@]}" --out "$work/model" > /dev/null
median_ms() {
  python3 -c "
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['kind'] == 'train']
print(f\"{statistics.median(float(r['ms_per_step']) for r in rows[5:]):.1f}\")" "$1/metrics.csv"
}
tokens_per_s() {  # twb sample prints "twb: N tokens in S s (R tokens/s)" on stderr
  # float32 weights: libtorch's decoding path (the bf16 fast decoder is the workbench's own code).
  "$@" --run "$work/model" -n "$tokens" -t 0 --prompt "ROMEO:" --decode-weights float32 2>&1 > /dev/null |
    sed -n 's/.*(\([0-9.]*\) tokens\/s).*/\1/p'
}
variants=(deb whl-sdpa whl-explicit)
declare -A bin=([deb]="$deb" [whl-sdpa]="$whl" [whl-explicit]="$whl")
declare -A att=([deb]="" [whl-sdpa]="" [whl-explicit]=explicit)
echo "round variant train_ms_per_step gen_tokens_per_s"
for r in $(seq 1 "$rounds"); do
  for v in "${variants[@]}"; do
    TWB_ATTENTION=${att[$v]} "${bin[$v]}" train "${common[@]}" --out "$work/run-$v-$r" > /dev/null
    g=$(TWB_ATTENTION=${att[$v]} tokens_per_s "${bin[$v]}" sample)
    echo "$r $v $(median_ms "$work/run-$v-$r") $g"
  done
done | tee "$work/table"
python3 - "$work/table" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l[0].isdigit()]
by = {}
for r, v, ms, g in rows:
    by.setdefault(v, []).append((float(ms), float(g)))
print("\n== per round, ratio against Debian's 1.13 of the same round (> 1: faster than 1.13)")
rounds = sorted({int(r) for r, *_ in rows})
for v in ("whl-sdpa", "whl-explicit"):
    tr = [by["deb"][i][0] / by[v][i][0] for i in range(len(rounds))]
    ge = [by[v][i][1] / by["deb"][i][1] for i in range(len(rounds))]
    print(f"{v:13s} training {' '.join(f'{x:.2f}x' for x in tr)} (median {statistics.median(tr):.2f}x); "
          f"generation {' '.join(f'{x:.2f}x' for x in ge)} (median {statistics.median(ge):.2f}x)")
for v in ("deb", "whl-sdpa", "whl-explicit"):
    print(f"{v:13s} median {statistics.median(m for m, _ in by[v]):.1f} ms/step, "
          f"{statistics.median(g for _, g in by[v]):.1f} tokens/s")
PY
