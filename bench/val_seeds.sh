#!/usr/bin/env bash
# Validation loss after nanoGPT's CPU recipe (2000 iterations on tiny shakespeare's characters), nanoGPT's
# own train.py against twb's `--preset nanogpt-cpu`, over several seeds each (issue 36: "within 0.02 of
# nanoGPT's"). One run of either is one draw: the initialisation, the batches and the 20 evaluation
# batches all follow the seed, so their spread is the yardstick for the difference of the means.
# Speed does not matter here (a loaded machine gives the same losses, only later).
#
# Usage: NANOGPT=/path/to/nanoGPT bench/val_seeds.sh [BUILD_DIR] [SEEDS...]   (default seeds 1337 1 2 3 4)
#   DTYPE=float32 trains twb in float32 instead of dtype=auto (bf16 on a CPU with AVX512-BF16 or AMX).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
shift || true
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1337 1 2 3 4)
twb="$build/bin/twb"
py=${PYTHON:-/usr/bin/python3}
[ -n "${NANOGPT:-}" ] || { echo "val_seeds: set NANOGPT to a checkout of github.com/karpathy/nanoGPT" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/nanogpt_cpu.sh"
setup_nanogpt "$NANOGPT" "$work"
"$twb" prepare -q --input "$here/../../shared/datasets/tinyshakespeare/input.txt" --tokenizer char \
  --val-fraction 0.1 --out "$work/data" > /dev/null

echo "seed: val loss nanoGPT, twb (dtype=${DTYPE:-auto}); train loss (the same evaluation) nanoGPT, twb" |
  tee "$work/losses"
for seed in "${seeds[@]}"; do
  nano_train "$work" 2000 2000 "$seed" > "$work/nano.log"
  nano=$(sed -n 's/^step 2000: train loss \([0-9.]*\), val loss \([0-9.]*\).*/\2 \1/p' "$work/nano.log")
  rm -rf "$work/twb"
  "$twb" train --data "$work/data" --preset nanogpt-cpu --set seed="$seed" --set threads=2 \
    --set dtype="${DTYPE:-auto}" -q --out "$work/twb" > /dev/null
  ours=$(awk -F, '$2 == "eval" {v = $4; t = $3} END {print v, t}' "$work/twb/metrics.csv")
  read -r nv nt <<< "${nano:-? ?}"
  read -r ov ot <<< "${ours:-? ?}"
  echo "$seed $nv $ov $nt $ot" | tee -a "$work/losses"
done
"$py" - "$work/losses" << 'PY'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:]]
def describe(xs):
    return f"mean {st.mean(xs):.4f}, sd {st.stdev(xs):.4f}, range {min(xs):.4f}-{max(xs):.4f}" if len(xs) > 1 else f"{xs[0]:.4f}"
for what, col in (("val", 1), ("train", 3)):
    nano = [float(r[col]) for r in rows]; ours = [float(r[col + 1]) for r in rows]
    print(f"{what} loss, nanoGPT: {describe(nano)}")
    print(f"{what} loss, twb:     {describe(ours)}")
    d = st.mean(ours) - st.mean(nano)
    se = (st.variance(ours) / len(ours) + st.variance(nano) / len(nano)) ** 0.5 if len(rows) > 1 else float("nan")
    print(f"{what} loss, twb - nanoGPT, means over {len(rows)} seeds: {d:+.4f} (standard error {se:.4f})")
PY
