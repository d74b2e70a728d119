#!/usr/bin/env bash
# Mutation check: plants small, realistic bugs in the engine one at a time (each a literal text
# replacement in one file), rebuilds incrementally, runs the engine-labelled tests (not the slow ones)
# and prints which bugs the suite caught. The tree is restored after each mutation and on exit,
# Ctrl-C included; the build is brought back to the clean tree at the end.
#
#   bash scripts/mutate.sh              # every mutation (CPU-heavy: about a minute each on 2 cores)
#   bash scripts/mutate.sh rotary ppl   # only mutations whose name contains one of the words
#   BUILD_DIR=build-x bash scripts/mutate.sh
#
# Needs a configured, built tree (scripts/build.sh). Exit status: the number of survivors.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
[ -f "$BUILD_DIR/build.ninja" ] || { echo "mutate: error: no build in $BUILD_DIR; run scripts/build.sh first" >&2; exit 2; }

# name | file | text | replacement   (the text must occur exactly once in the file)
MUTATIONS=(
  "rotary-sign|engine/nn/attention.cpp|{x1 * c - x2 * s, x1 * s + x2 * c}|{x1 * c + x2 * s, x2 * c - x1 * s}"
  "ppl-formula|engine/core/run/metrics.cpp|m.perplexity = std::exp(loss);|m.perplexity = std::pow(2.0, loss);"
  "accuracy-mean-reduction|engine/nn/evaluator.cpp|correct += flat.argmax(-1).eq(tgt).sum().item<double>();|correct += flat.argmax(-1).eq(tgt).to(torch::kFloat64).mean().item<double>();"
  "accuracy-argmax-dim|engine/nn/evaluator.cpp|correct += flat.argmax(-1).eq(tgt)|correct += flat.argmax(0).eq(tgt)"
  "clip-never-fires|engine/nn/optimizer.cpp|if (max_norm > 0 && norm > max_norm)|if (max_norm < 0 && norm > max_norm)"
  "label-smoothing-strength|engine/nn/trainer.cpp|.label_smoothing(m_cfg.label_smoothing)|.label_smoothing(m_cfg.label_smoothing / 2)"
  "kv-window-start-off-by-one|engine/nn/gpt_source.cpp|return (n - block + half - 1) / half * half;|return (n - block + half) / half * half;"
  "causal-mask-diagonal|engine/nn/model.cpp|.triu(1)|.triu(2)"
  "sinusoid-cos-as-sin|engine/nn/model.cpp|auto cosPart = torch::cos(pos * div)|auto cosPart = torch::sin(pos * div)"
  "layernorm-eps|engine/nn/model.cpp|return torch::layer_norm(x, {n}, weight, bias, 1e-5);|return torch::layer_norm(x, {n}, weight, bias, 1e-3);"
  "gelu-tanh|engine/nn/model.cpp|torch::gelu(linear(c_fc, x))|torch::gelu(linear(c_fc, x), \"tanh\")"
  "attention-scale|engine/nn/attention.cpp|const double scale = 1.0 / std::sqrt(static_cast<double>(D));|const double scale = 1.0 / static_cast<double>(D);"
  "decode-path-unscaled|engine/nn/attention.cpp|.sum(-1).mul_(scale);|.sum(-1);"
  "kv-cache-position|engine/nn/gpt_source.cpp|fo.pos_offset = m_cacheLen;|fo.pos_offset = m_cacheLen > 0 ? m_cacheLen - 1 : 0;"
  "adamw-no-bias-correction|engine/nn/optimizer.cpp|m_params.addcdiv_(m_expAvg, denom, -lr / bc1);|m_params.addcdiv_(m_expAvg, denom, -lr);"
  "decay-embeddings-ignored|engine/nn/optimizer.cpp|if (p.dim() >= 2 && (c.decay_embeddings \|\| !isEmbedding))|if (p.dim() >= 2)"
  "accumulation-not-averaged|engine/nn/trainer.cpp|loss = loss / m_cfg.gradient_accumulation_steps;|loss = loss * 1.0;"
  "bpc-multiplies|engine/core/run/metrics.cpp|loss / std::log(2.0) / std::max(1e-9, chars_per_token)|loss / std::log(2.0) * std::max(1e-9, chars_per_token)"
  "eval-blocks-shifted|engine/nn/evaluator.cpp|file.copy_to(static_cast<uint64_t>((b0 + i) * T)|file.copy_to(static_cast<uint64_t>((b0 + i) * T + 1)"
  "divergence-unchecked|engine/nn/trainer.cpp|if (std::isfinite(loss) && m_opt->grads_finite())|if (true)"
  "prune-drops-best|engine/nn/checkpoint.cpp|if (steps[static_cast<size_t>(i)] == best_step)|if (steps[static_cast<size_t>(i)] == -12345)"
  "checkpoint-now-ignored|engine/nn/trainer.cpp|if (m_ctl && m_ctl->take_checkpoint_request())|if (false \&\& m_ctl \&\& m_ctl->take_checkpoint_request())"
)

BACKUP=$(mktemp -d)
CURRENT=""
restore() {
  if [ -n "$CURRENT" ] && [ -f "$BACKUP/file" ]; then
    cp -p "$BACKUP/file" "$CURRENT" && touch "$CURRENT"
    CURRENT=""
  fi
}
on_exit() {
  restore
  rm -rf "$BACKUP"
}
trap on_exit EXIT
trap 'echo; echo "mutate: interrupted; the tree is restored"; exit 130' INT TERM

# Replaces the text exactly once (python: literal, no regex quoting); fails when it is not there once.
apply() {
  python3 - "$1" "$2" "$3" <<'EOF'
import sys
path, old, new = sys.argv[1], sys.argv[2].replace("\\|", "|").replace("\\&", "&"), sys.argv[3].replace("\\|", "|").replace("\\&", "&")
s = open(path, encoding="utf-8").read()
if s.count(old) != 1:
    sys.exit(f"found {s.count(old)} times in {path}: {old}")
open(path, "w", encoding="utf-8").write(s.replace(old, new))
EOF
}

# The engine tests that are not slow, and the targets that build them.
TESTS=$(cd "$BUILD_DIR" && ctest -N -L engine -LE slow | sed -n 's/^ *Test *#[0-9]*: *//p')
[ -n "$TESTS" ] || { echo "mutate: error: ctest lists no engine tests in $BUILD_DIR" >&2; exit 2; }
echo "mutate: tests per mutation: $(echo $TESTS)"

caught=()
survived=()
broken=()
for m in "${MUTATIONS[@]}"; do
  # split on unescaped |
  IFS=$'\x1f' read -r name file from to <<<"$(printf '%s' "$m" | sed 's/\([^\\]\)|/\1\x1f/g')"
  if [ $# -gt 0 ]; then
    want=0
    for w in "$@"; do [[ "$name" == *"$w"* ]] && want=1; done
    [ $want -eq 1 ] || continue
  fi
  cp -p "$file" "$BACKUP/file"
  CURRENT="$file"
  if ! err=$(apply "$file" "$from" "$to" 2>&1); then
    echo "mutate: $name: cannot apply ($err)"
    broken+=("$name")
    restore
    continue
  fi
  printf 'mutate: %-28s ' "$name"
  start=$(date +%s)
  if ! cmake --build "$BUILD_DIR" -j2 --target $TESTS >"$BACKUP/build.log" 2>&1; then
    echo "caught (does not build)"
    caught+=("$name")
  elif (cd "$BUILD_DIR" && QT_QPA_PLATFORM=offscreen ctest -L engine -LE slow --stop-on-failure >"$BACKUP/test.log" 2>&1); then
    echo "SURVIVED ($(($(date +%s) - start)) s)"
    survived+=("$name")
  else
    by=$(sed -n 's/^.*Test *#[0-9]*: *\([a-z_]*\) .*\*\*\*Failed.*/\1/p' "$BACKUP/test.log" | head -3 | tr '\n' ' ')
    echo "caught by ${by:-a failing test} ($(($(date +%s) - start)) s)"
    caught+=("$name")
  fi
  restore
done

echo "mutate: rebuilding the clean tree"
cmake --build "$BUILD_DIR" -j2 --target $TESTS >/dev/null 2>&1 || echo "mutate: warning: the clean rebuild failed"
echo "mutate: ${#caught[@]} caught, ${#survived[@]} survived${survived:+: ${survived[*]}}${broken:+; ${#broken[@]} could not be applied: ${broken[*]}}"
exit ${#survived[@]}
