#!/usr/bin/env bash
# check_simple.sh TWB TWB_SIMPLE: trains a tiny run with twb, then runs the example on it and checks that
# it loaded the checkpoint, generated the tokens it asked for and printed a finite score (ctest example).
set -euo pipefail
TWB=$1
SIMPLE=$2
W=$(mktemp -d "${TMPDIR:-/tmp}/twb-example.XXXXXX")
trap 'rm -rf "$W"' EXIT
for i in $(seq 400); do echo "the cat sat on the mat and the dog ran to the cat $i."; done >"$W/corpus.txt"
"$TWB" prepare --input "$W/corpus.txt" --out "$W/data" --quiet >/dev/null
"$TWB" train --data "$W/data" --out "$W/run" --preset tiny --quiet --set n_layer=1 --set n_embd=32 \
  --set n_head=2 --set block_size=32 --set threads=1 --set eval_iters=1 --set max_iters=20 >/dev/null
out=$("$SIMPLE" "$W/run" "the cat" "the dog sat on the mat.")
echo "$out"
grep -q "checkpoints/step" <<<"$out" || { echo "example: FAIL: no checkpoint named" >&2; exit 1; }
grep -Eq '^\[100 tokens, [0-9.]+ tokens/s\]$' <<<"$out" || { echo "example: FAIL: not 100 tokens generated" >&2; exit 1; }
grep -Eq 'nats/token, perplexity [0-9]+\.[0-9]+' <<<"$out" || { echo "example: FAIL: no finite score" >&2; exit 1; }
# Bad input is an error message, not a crash.
if "$SIMPLE" "$W/no-such-run" "x" 2>"$W/err"; then echo "example: FAIL: a missing run succeeded" >&2; exit 1; fi
grep -q "^error: " "$W/err" || { echo "example: FAIL: no error message for a missing run" >&2; exit 1; }
echo "example: ok"
