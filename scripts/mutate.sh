#!/usr/bin/env bash
# Mutation check: plants small, realistic bugs in the engine one at a time (each a literal text
# replacement in one file), rebuilds incrementally, runs every engine-labelled test (the slow ones too)
# and prints which bugs the suite caught, and a score. It cannot lie:
#   - every mutation must still apply (its text found exactly once) before anything runs; a stale one
#     stops the script with exit 2, naming it;
#   - an unmutated baseline runs first: a test that fails there is excluded from every mutation run and
#     named (a failing test would otherwise "catch" everything);
#   - a mutation that does not build is reported apart and never counted as caught.
# The tree is restored after each mutation and on exit, Ctrl-C included; the build is brought back to
# the clean tree at the end.
#
#   bash scripts/mutate.sh              # every mutation (CPU-heavy: one to three minutes each on 2 cores)
#   bash scripts/mutate.sh rotary ppl   # only mutations whose name contains one of the words
#   BUILD_DIR=build-x bash scripts/mutate.sh
#
# Needs a configured, built tree (scripts/build.sh). Exit status: 0 when every mutation was caught,
# 1 when any survived or did not build, 2 for a stale mutation or a broken setup.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
[ -f "$BUILD_DIR/build.ninja" ] || { echo "mutate: error: no build in $BUILD_DIR; run scripts/build.sh first" >&2; exit 2; }

# name | file | text | replacement   (the text must occur exactly once in the file; in the texts \| is a
# bar, \& an ampersand, \" a quote and \n a line break)
MUTATIONS=(
  "rotary-sign|engine/nn/models/attention.cpp|{x1 * c - x2 * s, x1 * s + x2 * c}|{x1 * c + x2 * s, x2 * c - x1 * s}"
  "ppl-formula|engine/core/run/metrics.cpp|m.perplexity = std::exp(loss);|m.perplexity = std::pow(2.0, loss);"
  "accuracy-counts-padding|engine/nn/training/evaluator.cpp|.sum().item<int64_t>(), real.sum().item<int64_t>()};|.sum().item<int64_t>(), targets.numel()};"
  "accuracy-argmin|engine/nn/training/evaluator.cpp|return {logits.argmax(-1).eq(targets)|return {logits.argmin(-1).eq(targets)"
  "clip-never-fires|engine/nn/training/optimizer.cpp|if (max_norm > 0 \&\& norm > max_norm)|if (max_norm < 0 \&\& norm > max_norm)"
  "label-smoothing-strength|engine/nn/training/evaluator.cpp|.label_smoothing(label_smoothing));|.label_smoothing(label_smoothing / 2));"
  "kv-window-start-off-by-one|engine/nn/decoding/gpt_source.cpp|return (n - block + half - 1) / half * half;|return (n - block + half) / half * half;"
  "causal-mask-diagonal|engine/nn/models/position_tables.cpp|.triu(1)|.triu(2)"
  "sinusoid-cos-as-sin|engine/nn/models/position_tables.cpp|auto cosPart = torch::cos(pos * div)|auto cosPart = torch::sin(pos * div)"
  "layernorm-eps|engine/nn/models/model.cpp|torch::layer_norm(x.to(torch::kFloat32), {n}, weight, bias, eps);|torch::layer_norm(x.to(torch::kFloat32), {n}, weight, bias, eps * 100);"
  "gelu-tanh|engine/nn/models/model.cpp|    return torch::gelu(x);|    return torch::gelu(x, \"tanh\");"
  "attention-scale|engine/nn/models/attention.cpp|const double scale = 1.0 / std::sqrt(static_cast<double>(D));|const double scale = 1.0 / static_cast<double>(D);"
  "decode-path-unscaled|engine/nn/models/attention.cpp|.sum(-1).mul_(scale);|.sum(-1);"
  "kv-cache-position|engine/nn/decoding/gpt_source.cpp|fo.pos_offset = m_cacheLen;|fo.pos_offset = m_cacheLen > 0 ? m_cacheLen - 1 : 0;"
  "adamw-no-bias-correction|engine/nn/training/optimizer.cpp|m_params.addcdiv_(m_expAvg, denom, -lr / bc1);|m_params.addcdiv_(m_expAvg, denom, -lr);"
  "decay-embeddings-ignored|engine/nn/training/optimizer.cpp|if (p.requires_grad() \&\& p.dim() >= 2 \&\& (c.decay_embeddings \|\| !isEmbedding))|if (p.requires_grad() \&\& p.dim() >= 2)"
  "label-smoothing-off|engine/nn/training/training_run.cpp|torch::kMean, m_cfg.label_smoothing);|torch::kMean, 0.0);"
  "accumulation-not-averaged|engine/nn/training/training_run.cpp|loss = loss / accumulation;|loss = loss * 1.0;"
  "bpc-multiplies|engine/core/run/metrics.cpp|loss / std::log(2.0) / std::max(1e-9, chars_per_token)|loss / std::log(2.0) * std::max(1e-9, chars_per_token)"
  "text-bpc-counts-bytes|engine/nn/session.cpp|    for (unsigned char c : decode(ids))\n        chars += (c \& 0xC0) != 0x80;|    for (unsigned char c : decode(ids))\n        chars += 1;"
  "eval-blocks-shifted|engine/nn/training/evaluator.cpp|file.copy_to(static_cast<uint64_t>((b0 + i) * T)|file.copy_to(static_cast<uint64_t>((b0 + i) * T + 1)"
  "eval-keeps-dropout|engine/nn/training/evaluator.cpp|was(model->is_training()) { m->eval(); }|was(model->is_training()) { m->train(); }"
  "divergence-unchecked|engine/nn/training/training_run.cpp|if (std::isfinite(loss) \&\& m_opt->grads_finite())|if (true)"
  "prune-drops-best|engine/nn/interchange/checkpoint.cpp|if (steps[static_cast<size_t>(i)] == best_step)|if (steps[static_cast<size_t>(i)] == -12345)"
  "checkpoint-now-ignored|engine/nn/training/training_run.cpp|if (m_ctl \&\& m_ctl->take_checkpoint_request())|if (false \&\& m_ctl \&\& m_ctl->take_checkpoint_request())"
  "temperature-multiplies|engine/nn/decoding/decoding.cpp|row.div_(opt.temperature);|row.mul_(opt.temperature);"
  "beam-expands-one-per-hypothesis|engine/nn/decoding/decoding.cpp|auto [vals, idx] = lp.topk(std::min<int64_t>(2 * W, V));|auto [vals, idx] = lp.topk(std::min<int64_t>(1, V));"
  "noam-warmup-exponent|engine/nn/training/schedule.cpp|std::min(std::pow(s, -0.5), s * std::pow(w, -1.5));|std::min(std::pow(s, -0.5), s * std::pow(w, -1.0));"
  "scoring-follows-run-dtype|engine/nn/session.cpp|    DType scoring = DType::Float32;|    DType scoring = DType::Auto;"
  "eval-follows-run-dtype|engine/include_nn/twb/session.h|    DType precision = DType::Float32;|    DType precision = DType::Auto;"
  "bf16-switch-ignored|engine/core/util/precision.cpp|    if (switch_value == \"1\")\n        return \"TWB_CPU_BF16=1\";|    if (false)\n        return \"TWB_CPU_BF16=1\";"
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

# apply [--check] FILE TEXT REPLACEMENT: replaces the text exactly once (literal, python); --check only
# counts. Fails, saying so, when the text is not there exactly once.
apply() {
  python3 -c '
import sys
args = sys.argv[1:]
check = args[0] == "--check"
path, old, new = args[1:] if check else args
def unescape(t):
    return t.replace("\\n", "\n").replace("\\|", "|").replace("\\&", "&").replace("\\\"", "\"")
old, new = unescape(old), unescape(new)
s = open(path, encoding="utf-8").read()
if s.count(old) != 1:
    sys.exit("found %d times in %s: %s" % (s.count(old), path, old))
if not check:
    open(path, "w", encoding="utf-8").write(s.replace(old, new))
' "$@"
}

split_mutation() {  # sets name, file, from, to from "name|file|from|to" (split on unescaped bars)
  IFS=$'\x1f' read -r name file from to <<<"$(printf '%s' "$1" | sed 's/\([^\\]\)|/\1\x1f/g')"
}

wanted() {  # wanted NAME [WORD...]: no words, or NAME contains one of them
  local n=$1 w
  shift
  [ $# -eq 0 ] && return 0
  for w in "$@"; do [[ "$n" == *"$w"* ]] && return 0; done
  return 1
}

# 1. Every mutation must still apply: a stale list is an error, not a pass.
stale=()
for m in "${MUTATIONS[@]}"; do
  split_mutation "$m"
  wanted "$name" "$@" || continue
  if [ ! -f "$file" ]; then
    stale+=("$name: $file is gone")
  elif ! err=$(apply --check "$file" "$from" "$to" 2>&1); then
    stale+=("$name: $err")
  fi
done
if [ ${#stale[@]} -gt 0 ]; then
  echo "mutate: error: ${#stale[@]} mutation(s) no longer apply to the code (refresh them in scripts/mutate.sh):" >&2
  printf '  %s\n' "${stale[@]}" >&2
  exit 2
fi

# 2. The engine tests and the targets that build them, then the unmutated baseline.
TESTS=$(cd "$BUILD_DIR" && ctest -N -L engine | sed -n 's/^ *Test *#[0-9]*: *//p')
[ -n "$TESTS" ] || { echo "mutate: error: ctest lists no engine tests in $BUILD_DIR" >&2; exit 2; }
echo "mutate: tests per mutation: $(echo $TESTS)"
# The build targets among them (a test may be a script over a program, e.g. tst_std_bindings_*).
ALL_TARGETS=$(ninja -C "$BUILD_DIR" -t targets all | sed 's/:.*//')
TARGETS=$(for t in $TESTS; do grep -qx "$t" <<<"$ALL_TARGETS" && echo "$t"; done)
TARGETS="$TARGETS twb"
if ! cmake --build "$BUILD_DIR" -j2 --target $TARGETS >"$BACKUP/build.log" 2>&1; then
  echo "mutate: error: the unmutated tree does not build:" >&2
  tail -20 "$BACKUP/build.log" >&2
  exit 2
fi
failed_tests() {  # the names of the tests a ctest log says failed
  sed -n 's/^.*Test *#[0-9]*: *\([A-Za-z_0-9]*\) .*\*\*\*\(Failed\|Exception\|Timeout\).*/\1/p' "$1" | sort -u
}
start=$(date +%s)
(cd "$BUILD_DIR" && QT_QPA_PLATFORM=offscreen ctest -L engine -j2 >"$BACKUP/baseline.log" 2>&1)
failing=$(failed_tests "$BACKUP/baseline.log")
EXCLUDE=()
if [ -n "$failing" ]; then
  echo "mutate: baseline: these tests fail without any mutation and are left out: $(echo $failing)"
  EXCLUDE=(-E "^($(echo $failing | tr ' ' '|'))\$")
fi
echo "mutate: baseline ran in $(($(date +%s) - start)) s"

# 3. One mutation at a time.
caught=()
survived=()
unbuilt=()
for m in "${MUTATIONS[@]}"; do
  split_mutation "$m"
  wanted "$name" "$@" || continue
  cp -p "$file" "$BACKUP/file"
  CURRENT="$file"
  apply "$file" "$from" "$to" || { echo "mutate: error: $name stopped applying" >&2; exit 2; }
  printf 'mutate: %-36s ' "$name"
  start=$(date +%s)
  if ! cmake --build "$BUILD_DIR" -j2 --target $TARGETS >"$BACKUP/build.log" 2>&1; then
    echo "DOES NOT BUILD (not counted as caught; make the mutation compile)"
    unbuilt+=("$name")
  elif (cd "$BUILD_DIR" && QT_QPA_PLATFORM=offscreen ctest -L engine "${EXCLUDE[@]}" -j2 --stop-on-failure \
    >"$BACKUP/test.log" 2>&1); then
    echo "SURVIVED ($(($(date +%s) - start)) s)"
    survived+=("$name")
  else
    by=$(failed_tests "$BACKUP/test.log" | head -3 | tr '\n' ' ')
    echo "caught by ${by:-a failing test} ($(($(date +%s) - start)) s)"
    caught+=("$name")
  fi
  restore
done

echo "mutate: rebuilding the clean tree"
cmake --build "$BUILD_DIR" -j2 --target $TARGETS >/dev/null 2>&1 || echo "mutate: warning: the clean rebuild failed"
total=$((${#caught[@]} + ${#survived[@]}))
score=n/a
[ $total -gt 0 ] && score="$((100 * ${#caught[@]} / total))%"
echo "mutate: score $score: ${#caught[@]} of $total caught" \
  "${survived:+; survived: ${survived[*]}}${unbuilt:+; ${#unbuilt[@]} did not build (not counted): ${unbuilt[*]}}" \
  "${failing:+; left out (failing unmutated): $(echo $failing)}"
[ ${#survived[@]} -eq 0 ] && [ ${#unbuilt[@]} -eq 0 ]
