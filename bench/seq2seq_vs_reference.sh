#!/usr/bin/env bash
# Issue 13's speed figures against a PyTorch reference of the same encoder-decoder and loop
# (bench/reference_seq2seq.py, Debian's python3-torch: same BLAS, same threads), measured in one run.
#   training: median ms/step and target tokens/s of `twb train --preset multi30k` against the reference
#             on the same token-budget batches of Multi30k;
#   translation: sentences/s, greedy (batched) and beam 5, of `twb translate` against the reference
#             loading the same checkpoint's weights (so both translate the same sentences to about the
#             same lengths). twb's figure excludes process start and model loading: it is the time of
#             N sentences minus the time of 1, over N - 1.
# Usage: bench/seq2seq_vs_reference.sh [BUILD_DIR] [DATA] [RUN_OR_CHECKPOINT] [STEPS] [SENTENCES]
#   DATA: a prepared Multi30k dataset (made here when not given: about a minute);
#   RUN_OR_CHECKPOINT: a trained multi30k run for the translation figures (skipped when not given).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
data=${2:-}
run=${3:-}
steps=${4:-30}
sentences=${5:-100}
twb="$build/bin/twb"
m30k="$here/../../shared/datasets/multi30k"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "$data" ]; then
  data="$work/data"
  "$twb" prepare -q --source "$m30k/train.de" --target "$m30k/train.en" --val-source "$m30k/val.de" \
    --val-target "$m30k/val.en" --tokenizer bpe --vocab-size 8000 --out "$data" > /dev/null
fi

echo "== PyTorch reference: $steps training steps, 2 threads"
args=(--data "$data" --steps "$steps" --threads 2 --sentences "$sentences")
ckpt=""
if [ -n "$run" ]; then
  # the checkpoint twb translate --run RUN would load: best.json's step, or RUN itself when it is one
  if [ -f "$run/model.safetensors" ]; then
    ckpt=$run
  else
    ckpt="$run/checkpoints/$(python3 -c "import json,sys; print('step_%08d' % json.load(open(sys.argv[1]))['step'])" "$run/checkpoints/best.json")"
  fi
  args+=(--weights "$ckpt/model.safetensors")
fi
ref=$(/usr/bin/python3 "$here/reference_seq2seq.py" "${args[@]}")
echo "$ref"

echo "== twb train --preset multi30k: $steps steps, 2 threads"
"$twb" train -q --data "$data" --preset multi30k --set max_epochs=0 --set max_iters=$((steps + 3)) --set threads=2 \
  --set eval_interval=100000 --set eval_iters=1 --set bleu_pairs=1 --set log_interval=1 --set dtype=float32 \
  --out "$work/run" > /dev/null

tw_greedy=""
tw_beam=""
if [ -n "$ckpt" ]; then
  head -n "$sentences" "$m30k/val.de" > "$work/src.txt"
  head -n 1 "$m30k/val.de" > "$work/one.txt"
  secs() {
    local t0 t1
    t0=$(date +%s.%N)
    "$@" > /dev/null
    t1=$(date +%s.%N)
    python3 -c "print(round($t1 - $t0, 3))"
  }
  for beam in 1 5; do
    one=$(secs "$twb" translate -q --run "$ckpt" --beam $beam --input "$work/one.txt")
    all=$(secs "$twb" translate -q --run "$ckpt" --beam $beam --input "$work/src.txt")
    rate=$(python3 -c "print(round(($sentences - 1) / ($all - $one), 2))")
    echo "twb translate --beam $beam: $sentences sentences in $all s, 1 in $one s -> $rate sentences/s"
    if [ $beam = 1 ]; then tw_greedy=$rate; else tw_beam=$rate; fi
  done
fi

python3 - "$ref" "$work/run/metrics.csv" "$tw_greedy" "$tw_beam" <<'PY'
import csv, json, statistics, sys
ref = json.loads(sys.argv[1])
rows = [r for r in csv.DictReader(open(sys.argv[2])) if r["kind"] == "train" and int(r["step"]) > 3]
ms = statistics.median(float(r["ms_per_step"]) for r in rows)
tps = statistics.median(float(r["tokens_per_s"]) for r in rows)
rt = ref["train"]
print("\n== summary (ratio = twb / reference; > 1 means twb is faster)")
print(f"training   reference {rt['median_ms_per_step']:.0f} ms/step, {rt['target_tokens_per_s']:.0f} target tokens/s;"
      f" twb {ms:.0f} ms/step, {tps:.0f} target tokens/s -> {rt['median_ms_per_step'] / ms:.2f}x")
if sys.argv[3]:
    tr = ref["translate"]
    g, b = float(sys.argv[3]), float(sys.argv[4])
    print(f"greedy     reference {tr['greedy_sentences_per_s']:.1f} sentences/s; twb {g:.1f} -> {g / tr['greedy_sentences_per_s']:.2f}x")
    print(f"beam 5     reference {tr['beam5_sentences_per_s']:.1f} sentences/s; twb {b:.1f} -> {b / tr['beam5_sentences_per_s']:.2f}x")
PY
