#!/usr/bin/env bash
# GPT-2 import and export against Hugging Face transformers: logits of an imported transformers model,
# logits of an exported twb run loaded by GPT2LMHeadModel.from_pretrained, tokenizer ids (see
# bench/hf_reference.py). Needs python with torch, transformers and safetensors: the venv in $VENV
# (default: the torch wheel's, pip install transformers safetensors into it).
# Usage: bench/hf_reference.sh [corpus.txt]
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-$HOME/.local/share/transformer-workbench/torch-wheel}
TWB=${TWB:-build/bin/twb}
LOGITS=${LOGITS:-build/bin/bench_logits}
CORPUS=${1:-../shared/datasets/tinyshakespeare/input.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$VENV/bin/python" bench/hf_reference.py "$TWB" "$LOGITS" "$CORPUS" "$work"
