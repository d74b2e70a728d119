#!/usr/bin/env bash
# Loads `twb export --format gguf` files in llama.cpp itself and checks what it makes of them against twb:
# - the same token ids for the same texts (llama.cpp's gpt2 / llama-bpe pre-tokenizer and BPE against
#   twb's bytebpe tokenizer; `llama-tokenize` against `twb tokenize`);
# - the same likelihoods: the mean negative log-likelihood of held-out texts under llama.cpp's gpt2 graph
#   on the GGUF's tensors against `twb eval --text` on the checkpoint (f32 and f16 files);
# - the same greedy continuations, or where they part, a near tie in llama.cpp's logits at that token.
# llama.cpp's side runs bench/llama_score.cpp, a small client of its library with a float32 KV cache
# (its default, f16, rounds K and V); twb decodes in float32 too (`--decode-weights float32`). llama.cpp's
# CPU GELU reads a table of f16 values, and `twb eval` prints the loss to four decimals: the bounds (5e-4
# for the f32 file, 2e-3 for the f16 one) allow for that, and a greedy text may part from twb's only at
# a near tie of llama.cpp's two best logits (a gap under 0.01).
# Two small GPT-2-architecture runs are trained on a bytebpe dataset in a few seconds each: one with
# GPT-2's split pattern and a tied head, one with GPT-4's pattern and a separate head (block 128, so
# that a prompt and its 60 tokens fit the learned positions: llama.cpp does not slide a window).
#
# llama.cpp: built once from the llama.cpp that PyPI's llama-cpp-python source package carries (pip
# download, then cmake of libllama and llama-tokenize: about 15 minutes on two cores) in LLAMA_CPP_HOME
# (default ~/.cache/transformer-workbench/llama.cpp-<version>: src/, build/).
#
# Usage: bench/gguf_llamacpp.sh [corpus.txt]
#   TWB: the twb to test (default build/bin/twb)   PIP: a pip to download with (default python3 -m pip)
#   LLAMA_CPP_PYTHON_VERSION: the source package's version (default 0.3.36; llama_score.cpp is written
#   against its API)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/datasets/tinyshakespeare/input.txt}
twb=${TWB:-build/bin/twb}
version=${LLAMA_CPP_PYTHON_VERSION:-0.3.36}
home=${LLAMA_CPP_HOME:-$HOME/.cache/transformer-workbench/llama.cpp-$version}

if [ ! -x "$home/build/bin/llama-tokenize" ]; then
  mkdir -p "$home"
  if [ ! -d "$home/src" ]; then
    echo "== building llama.cpp from llama-cpp-python $version's source package in $home"
    ${PIP:-python3 -m pip} download --no-deps --no-binary :all: -d "$home" "llama-cpp-python==$version" \
      > "$home/download.log" 2>&1 || { cat "$home/download.log" >&2; exit 1; }
    tar xzf "$home/llama_cpp_python-$version.tar.gz" -C "$home"
    mv "$home/llama_cpp_python-$version/vendor/llama.cpp" "$home/src"
    rm -rf "$home/llama_cpp_python-$version"
  fi
  cmake -S "$home/src" -B "$home/build" -DCMAKE_BUILD_TYPE=Release -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_SERVER=OFF > "$home/configure.log"
  cmake --build "$home/build" -j "$(nproc)" --target llama-tokenize > "$home/build.log"
fi
tokenize=$home/build/bin/llama-tokenize
score=$home/build/bin/llama_score
if [ ! -x "$score" ] || [ bench/llama_score.cpp -nt "$score" ]; then
  g++ -std=c++17 -O2 -Wall -Wextra -I"$home/src/include" -I"$home/src/ggml/include" bench/llama_score.cpp \
    -L"$home/build/bin" -lllama -lggml -lggml-base -Wl,-rpath,"$home/build/bin" -o "$score"
fi

tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
head -c 300000 "$corpus" > "$tmp/corpus.txt"
failures=0
compared=0

# Texts for the tokenizers: plain, contractions, numbers, runs of spaces and newlines, punctuation,
# letters outside ASCII and ones the corpus never had (bytes only), an emoji, a lone combining mark.
texts=("ROMEO: But soft, what light through yonder window breaks?"
  $'First Citizen:\nBefore we proceed any further, hear me speak.\n\nAll:\nSpeak, speak.'
  "I'll say it's 2024, they've 12345 men and we'd   three   spaces."
  $'Ærlig talt, blåbærsyltetøy på brødskiva! Überall: naïve café, 東京, 🙂 and e\u0301.'
  $'  leading spaces,\ttabs\t\tand trailing   \n\n\n'
  "--- ... !!! ??? ''' \"quoted\" (paren) [brack] {brace} #hash @at 100%")

tokens_of_twb() {  # DATA TEXT: twb's ids, comma-separated
  printf '%s' "$2" | "$twb" tokenize -d "$1" | tr -s ' \n' ',' | sed 's/^,//; s/,$//'
}
tokens_of_llama() {  # GGUF TEXT: llama.cpp's ids, comma-separated
  printf '%s' "$2" | "$tokenize" -m "$1" --stdin --ids --no-bos --no-escape --log-disable 2> /dev/null |
    tr -d '[] \n'
}

check_run() {  # NAME PATTERN TIED
  local name=$1 data=$tmp/$1-data run=$tmp/$1-run
  echo "== $name: bytebpe, split pattern $2, tie_embeddings=$3"
  "$twb" prepare -i "$tmp/corpus.txt" -o "$data" --tokenizer bytebpe --vocab-size 512 --split-pattern "$2" -q
  "$twb" train -d "$data" -o "$run" --preset tiny --set position=learned --set activation=gelu_tanh \
    --set bias=true --set tie_embeddings="$3" --set block_size=128 --set max_iters=300 --set eval_interval=300 --set threads=2 \
    -q > /dev/null
  "$twb" export --run "$run" --format gguf --out "$tmp/$name.gguf" > /dev/null
  "$twb" export --run "$run" --format gguf --outtype f16 --out "$tmp/$name-f16.gguf" > /dev/null

  local i=0 ours theirs
  for text in "${texts[@]}"; do
    i=$((i + 1))
    ours=$(tokens_of_twb "$data" "$text")
    theirs=$(tokens_of_llama "$tmp/$name.gguf" "$text")
    compared=$((compared + 1))
    if [ "$ours" = "$theirs" ]; then
      echo "  tokens, text $i: same ($(tr ',' '\n' <<< "$ours" | wc -l) ids)"
    else
      echo "  tokens, text $i: DIFFER"
      echo "    twb:       [$ours]"
      echo "    llama.cpp: [$theirs]"
      failures=$((failures + 1))
    fi
  done

  # Held-out text: three pieces of the corpus past what the run trained on, each under the block.
  local piece file ours_nll theirs_nll diff
  for piece in 0 1 2; do
    dd if="$corpus" iflag=skip_bytes skip=$((300000 + piece * 4000)) bs=200 count=1 status=none > "$tmp/piece.txt"
    ours_nll=$("$twb" eval --run "$run" --text "$tmp/piece.txt" | sed -n 's/^loss *\([0-9.]*\).*/\1/p' | head -n 1)
    for file in "$name.gguf" "$name-f16.gguf"; do
      theirs_nll=$("$twb" tokenize -d "$data" < "$tmp/piece.txt" | "$score" "$tmp/$file" score |
        sed -n 's/^mean_nll //p')
      diff=$(echo "$ours_nll - $theirs_nll" | bc -l | tr -d -)
      compared=$((compared + 1))
      # f32: llama.cpp's f16 GELU table; f16: the weights rounded to f16 as well.
      local bound=0.0005
      [ "$file" = "$name-f16.gguf" ] && bound=0.002
      if [ "$(echo "$diff <= $bound" | bc -l)" = 1 ]; then
        echo "  held-out text $((piece + 1)), $file: mean NLL twb $ours_nll, llama.cpp $theirs_nll (|diff| ${diff} <= $bound)"
      else
        echo "  held-out text $((piece + 1)), $file: mean NLL twb $ours_nll, llama.cpp $theirs_nll: DIFFER (> $bound)"
        failures=$((failures + 1))
      fi
    done
  done

  local prompt twb_text llama_ids llama_text step gap
  for prompt in "ROMEO:" "KING HENRY VI:" $'First Citizen:\n'; do
    twb_text=$("$twb" sample --run "$run" --greedy -n 60 --decode-weights float32 --prompt "$prompt" --no-history 2> /dev/null)
    llama_ids=$(printf '%s' "$prompt" | "$twb" tokenize -d "$data" | "$score" "$tmp/$name.gguf" greedy 60)
    llama_text=$prompt$(cut -d' ' -f1 <<< "$llama_ids" | tr '\n' ' ' | "$twb" tokenize -d "$data" --decode)
    compared=$((compared + 1))
    if [ "$twb_text" = "$llama_text" ]; then
      echo "  greedy 60 tokens, prompt ${prompt@Q}: the same text ($(printf '%s' "$twb_text" | wc -c) bytes)"
      continue
    fi
    # Where they part: the first of llama.cpp's tokens whose text twb's does not continue.
    step=0
    while IFS=' ' read -r id gap; do
      step=$((step + 1))
      local upto
      upto=$prompt$(head -n "$step" <<< "$llama_ids" | cut -d' ' -f1 | tr '\n' ' ' | "$twb" tokenize -d "$data" --decode)
      [ "${twb_text#"$upto"}" != "$twb_text" ] || break
    done <<< "$llama_ids"
    if [ "$(echo "$gap < 0.01" | bc -l)" = 1 ]; then
      echo "  greedy 60 tokens, prompt ${prompt@Q}: the same for $((step - 1)) tokens, then a near tie in" \
        "llama.cpp's logits (best - second $gap)"
    else
      echo "  greedy 60 tokens, prompt ${prompt@Q}: DIFFER at token $step (llama.cpp's best - second $gap)"
      echo "    twb:       ${twb_text@Q}"
      echo "    llama.cpp: ${llama_text@Q}"
      failures=$((failures + 1))
    fi
  done
}

echo "== llama.cpp: $("$tokenize" --version 2>&1 | grep -m1 -i version || true) ($home)"
check_run gpt2-tied gpt2 true
check_run gpt4-untied gpt4 false
echo "== $((compared - failures)) of $compared comparisons agree"
[ "$failures" -eq 0 ]
