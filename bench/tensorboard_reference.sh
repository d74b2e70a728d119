#!/usr/bin/env bash
# RUN/tb/ read by TensorBoard's own reader: trains a small run of each family (a GPT on tiny shakespeare's
# characters, an encoder-decoder on a slice of Tatoeba's English-Bokmål pairs), resumes the first from an
# earlier checkpoint (steps written twice in metrics.csv's history), exports a run trained with
# tensorboard=false (twb export-metrics), and compares every scalar TensorBoard reads (tag, step, value)
# with metrics.csv, and the config text with config.json (bench/tensorboard_reference.py). Needs a venv
# with the `tensorboard` package (PyPI): made in $VENV on first use. Not part of the test suite (it needs
# Python and the network once); tests/engine/tst_tensorboard checks the format without them.
# Usage: bench/tensorboard_reference.sh
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-$HOME/.local/share/transformer-workbench/tb-venv}
TWB=${TWB:-build/bin/twb}
DATA=${DATA:-../shared/datasets}
if [[ ! -x $VENV/bin/python ]] || ! "$VENV/bin/python" -c 'import tensorboard' 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q tensorboard
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tiny=(--set n_layer=2 --set n_head=2 --set n_embd=32 --set block_size=32 --set batch_size=8 --set threads=2
      --set eval_iters=2 --set dtype=float32)

# A GPT, stopped at step 50, its last checkpoint removed (as if it crashed), resumed from step 40.
"$TWB" prepare -q --input "$DATA/tinyshakespeare/input.txt" --tokenizer char --out "$work/chars" > /dev/null
"$TWB" train -q --data "$work/chars" --out "$work/gpt" "${tiny[@]}" --set max_iters=50 --set lr_decay_iters=80 \
  --set warmup_iters=10 --set eval_interval=20 --set log_interval=5 > /dev/null
rm -rf "$work/gpt/checkpoints/step_00000040" "$work/gpt/checkpoints/step_00000050"
"$TWB" train -q --data "$work/chars" --out "$work/gpt" --resume "${tiny[@]}" --set max_iters=80 \
  --set lr_decay_iters=80 --set warmup_iters=10 --set eval_interval=20 --set log_interval=5 > /dev/null

# An encoder-decoder (BLEU, accuracy, epochs), trained without tb/ and exported afterwards.
head -n 3000 "$DATA/tatoeba-eng-nob/nob.txt" > "$work/pairs.tsv"
"$TWB" prepare -q --pairs "$work/pairs.tsv" --tokenizer word --out "$work/pairs" > /dev/null
"$TWB" train -q --data "$work/pairs" --out "$work/s2s" "${tiny[@]}" --set model_kind=encoder_decoder --set max_iters=30 --set eval_interval=10 \
  --set log_interval=2 --set bleu_pairs=20 --set tensorboard=false > /dev/null
test ! -e "$work/s2s/tb"
"$TWB" export-metrics "$work/s2s"
"$VENV/bin/python" bench/tensorboard_reference.py "$work"/gpt "$work"/s2s
