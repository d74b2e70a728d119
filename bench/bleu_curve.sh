#!/usr/bin/env bash
# BLEU against training minutes of an encoder-decoder run: every checkpoint the run folder holds
# (RUN/checkpoints/step_*) translates SOURCE (greedy, or --beam N) and is scored against REFERENCE with
# `twb bleu` (sacreBLEU's default: detokenized, cased, 13a). The minutes are the training's elapsed time
# at that step, from metrics.csv. A run keeps its last few checkpoints only (keep_checkpoints); hard-link
# them elsewhere while it trains (`cp -al`) and back into RUN/checkpoints afterwards for a longer curve.
# Usage: bench/bleu_curve.sh [BUILD_DIR] RUN SOURCE REFERENCE [BEAM] [FIRST_N]
#   FIRST_N: also print the first N translations of the last checkpoint beside their references.
set -euo pipefail
build=${1:?build dir}
run=${2:?run folder}
src=${3:?source file}
ref=${4:?reference file}
beam=${5:-1}
first=${6:-0}
twb="$build/bin/twb"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "step minutes BLEU chrF2 (beam $beam, $(wc -l < "$src") sentences)"
last=
for dir in "$run"/checkpoints/step_*; do
  [ -d "$dir" ] || continue
  step=$((10#${dir##*step_}))
  "$twb" translate -q --run "$run" --checkpoint "$step" --beam "$beam" --input "$src" > "$work/hyp.$step"
  scores=$("$twb" bleu --ref "$ref" --hyp "$work/hyp.$step")
  bleu=$(sed -n 's/^BLEU[^=]*= *\([0-9.]*\).*/\1/p' <<< "$scores" | head -1)
  chrf=$(sed -n 's/^chrF[^=]*= *\([0-9.]*\).*/\1/p' <<< "$scores" | head -1)
  minutes=$(awk -F, -v s="$step" 'NR == 1 { for (i = 1; i <= NF; ++i) c[$i] = i; next }
    $c["step"] == s && $c["elapsed_s"] != "" { m = $c["elapsed_s"] / 60 } END { if (m != "") printf "%.1f", m; else print "?" }' \
    "$run/metrics.csv")
  echo "$step $minutes $bleu $chrf"
  last=$step
done
if [ "$first" -gt 0 ] && [ -n "$last" ]; then
  echo
  echo "== the first $first translations of step $last (greedy unless a beam was given) beside the references"
  paste -d '\n' <(head -n "$first" "$src" | sed 's/^/src: /') <(head -n "$first" "$work/hyp.$last" | sed 's/^/hyp: /') \
    <(head -n "$first" "$ref" | sed 's/^/ref: /') <(yes '' | head -n "$first")
fi
