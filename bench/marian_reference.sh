#!/usr/bin/env bash
# Marian import and export against Hugging Face transformers: a random MarianMTModel saved by transformers
# with sentencepiece models trained on Tatoeba's English-Bokmål pairs, imported with twb import; token ids,
# logits and greedy translations compared, then exported back and loaded by MarianMTModel.from_pretrained
# (see bench/marian_reference.py). Needs python with torch, transformers, safetensors and sentencepiece:
# the venv in $VENV (python3 -m venv; pip install torch transformers safetensors sentencepiece).
# Usage: bench/marian_reference.sh [pairs.tsv]
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-$HOME/.local/share/transformer-workbench/hf-venv}
TWB=${TWB:-build/bin/twb}
LOGITS=${LOGITS:-build/bin/bench_seq2seq_logits}
PAIRS=${1:-../shared/datasets/tatoeba-eng-nob/nob.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$VENV/bin/python" bench/marian_reference.py "$TWB" "$LOGITS" "$PAIRS" "$work"
