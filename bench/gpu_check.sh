#!/usr/bin/env bash
# The GPU check: what only a GPU can show, in one run of at most ~8 minutes on one H100 or H200, each
# stage under its own time limit, printing one table at the end (docs/benchmarks/gpu.md, "The GPU check").
# Runs from the folder bench/gpu_bundle.sh makes (twb, the sentencepiece module and the CUDA tests built
# against the GPU machine's torch wheel, the Debian libraries they need, the corpora, and nanoGPT's files
# when bundled), with that machine's python3 and its torch:
#
#   bash gpu-bundle/gpu_check.sh [OUT_DIR]        # logs and the table under OUT_DIR (default: $OUT or ./gpu-check)
#
# Shorter runs (a dry run on a CPU, say): GPU_CHECK_ITERS (5000), GPU_CHECK_NANO_ITERS, GPU_CHECK_SKIP_NANO=1,
# GPU_CHECK_M30K_ITERS (1600), GPU_CHECK_M30K_CUDNN_ITERS (100), GPU_CHECK_SKIP_M30K=1,
# GPU_CHECK_SKIP_CUDNN=1, GPU_CHECK_SKIP_GUI=1, GPU_CHECK_ONLY_GUI=1; PYTHON names the python with the
# torch.
#
# Stages: the environment (nvidia-smi, torch, twb doctor); the std:: binding check of twb; the CUDA tests
# (tst_cuda); the GUI's GPU test (tst_gpu_gui, offscreen, two screenshots); nanoGPT's shakespeare-char
# recipe, eager and --compile=True, against twb's baby-gpt preset with defaults only (dtype auto), 5000
# iterations each: median ms/iter and validation loss at 2000 and 5000, and twb with the host waiting for
# every step (TWB_QUEUED_STEPS=0), without the CUDA graph, with cuDNN's attention, with libtorch's
# LayerNorm (TWB_FUSED_CUDA=0), and a trace of five steps summed by kernel; 1000 greedy tokens from
# "ROMEO:" as a whole `twb sample` process, with twb's CUDA kernels, libtorch's ops as a CUDA graph, and
# eagerly, and a trace of five tokens; the Multi30k preset's 1600 steps on the GPU, translating test2016
# and its BLEU. A stage that fails or runs out of time says so in the table.
set -uo pipefail
bundle=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:-$PWD/gpu-check}}
mkdir -p "$out"
py=${PYTHON:-python3}
torch_lib=$("$py" -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')
site=$(dirname "$(dirname "$torch_lib")")
nv=$(find "$site/nvidia" -maxdepth 2 -type d -name lib 2>/dev/null | tr '\n' ':')
export LD_LIBRARY_PATH="$bundle/lib:$torch_lib:$nv${LD_LIBRARY_PATH:-}"
export TWB_SPM_MODULE="$bundle/bin/libtwb_spm.so"
twb="$bundle/bin/twb"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
declare -A row

stage() {  # stage NAME SECONDS COMMAND...: runs it with a time limit, logs to $out/NAME.log
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  echo "== $name (limit ${limit}s)" | tee -a "$out/summary.log"
  timeout --kill-after=10 "$limit" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  echo "   rc $rc, $((SECONDS - t0)) s" | tee -a "$out/summary.log"
  return $rc
}
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print (NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2); else print "-"}'; }

# 1. The machine.
stage env 60 bash -c "nvidia-smi; $py -c 'import torch; print(\"torch\", torch.__version__, torch.version.cuda, torch.cuda.get_device_name(0))'; $twb doctor --no-speed"
gpu=$(sed -n 's/^GPU *//p' "$out/env.log" | head -1)
torchv=$(sed -n 's/^torch \([^ ]*\).*/\1/p' "$out/env.log" | head -1)
row[precision]=$(sed -n 's/^precision *//p' "$out/env.log" | head -1)

# 2. Bindings and the CUDA tests.
stage bindings 60 bash "$bundle/bin/check_std_bindings.sh" "$bundle/bin/twb-torch" --version && row[bindings]=pass || row[bindings]=FAIL
stage cuda_tests 240 "$bundle/bin/tst_cuda" && row[cuda_tests]="pass ($(grep -c '^PASS' "$out/cuda_tests.log") functions)" ||
  row[cuda_tests]="FAIL: $(grep -m1 -E '^FAIL|^SKIP' "$out/cuda_tests.log")"
# The GUI on the GPU (tests/ui/tst_gpu_gui.cpp, offscreen, when bundled): the device chooser and the status
# bar name the GPU, a short run with the defaults trains on it in bf16 and shows its memory; the window at
# 1280x720 mid-run and at the end as gpu-training.png and gpu-trained.png beside the logs.
# GPU_CHECK_SKIP_GUI=1 skips it, GPU_CHECK_ONLY_GUI=1 runs it alone.
if [ -x "$bundle/bin/tst_gpu_gui" ] && [ "${GPU_CHECK_SKIP_GUI:-0}" != 1 ]; then
  mkdir -p "$work/home"
  stage gui 300 env QT_QPA_PLATFORM=offscreen QT_PLUGIN_PATH="$bundle/plugins" \
    FONTCONFIG_FILE="$bundle/fonts/fonts.conf" HOME="$work/home" TWB_SCREENSHOT_DIR="$out" "$bundle/bin/tst_gpu_gui" &&
    row[gui]=pass || row[gui]="FAIL: $(grep -m1 -E '^FAIL|^SKIP' "$out/gui.log")"
  row[gui]+="; device chooser \"$(sed -n 's/.*device chooser: //p' "$out/gui.log" | head -1)\""
  row[gui]+="; status bar \"$(sed -n 's/.*status bar: //p' "$out/gui.log" | head -1)\""
  row[gui]+="; $(sed -n 's/.*() \(step [0-9]* dtype.*\)/\1/p' "$out/gui.log" | head -1)"
  if [ "${GPU_CHECK_ONLY_GUI:-0}" = 1 ]; then
    echo "| GUI on the GPU | ${row[gui]} |" | tee "$out/table.md"
    exit 0
  fi
fi

# 3. nanoGPT against twb, shakespeare-char, 5000 iterations (validation at 2000 and at 5000). nanoGPT's
#    median over iterations 100-5000 (eager) and 200-300 (--compile, after its compilation); twb's is the
#    run's median ms/step. GPU_CHECK_SKIP_NANO=1 skips nanoGPT (a second call that reruns twb alone).
iters=${GPU_CHECK_ITERS:-5000}
if [ -d "$bundle/nanoGPT" ] && [ "${GPU_CHECK_SKIP_NANO:-0}" != 1 ]; then
  cp -r "$bundle/nanoGPT" "$work/nanoGPT"
  cp "$bundle/data/shakespeare.txt" "$work/nanoGPT/data/shakespeare_char/input.txt"
  (cd "$work/nanoGPT" && "$py" data/shakespeare_char/prepare.py >/dev/null)
  nano() {  # nano LABEL ITERS EVAL_INTERVAL ARGS...
    local label=$1 n=$2 every=$3
    shift 3
    (cd "$work/nanoGPT" && stage "$label" 240 "$py" train.py config/train_shakespeare_char.py --max_iters="$n" \
      --lr_decay_iters=5000 --eval_interval="$every" --eval_iters=100 --log_interval=10 \
      --always_save_checkpoint=False "$@")
  }
  nano nanogpt_eager "${GPU_CHECK_NANO_ITERS:-$iters}" 1000 --compile=False
  row[nano_eager_ms]=$(sed -n 's/^iter \([0-9]*\): .*time \([0-9.]*\)ms.*/\1 \2/p' "$out/nanogpt_eager.log" |
    awk '$1 >= 100 {print $2}' | median)
  row[nano_val2000]=$(sed -n 's/^step 2000: .*val loss \([0-9.]*\).*/\1/p' "$out/nanogpt_eager.log")
  row[nano_val5000]=$(sed -n "s/^step 5000: .*val loss \\([0-9.]*\\).*/\\1/p" "$out/nanogpt_eager.log")
  nano nanogpt_compile 300 300 --compile=True
  row[nano_compile_ms]=$(sed -n 's/^iter \([0-9]*\): .*time \([0-9.]*\)ms.*/\1 \2/p' "$out/nanogpt_compile.log" |
    awk '$1 >= 200 {print $2}' | median)
fi
stage twb_prepare 120 "$twb" prepare --input "$bundle/data/shakespeare.txt" --tokenizer char --val-fraction 0.1 \
  --out "$work/shakespeare"
# Defaults only (dtype auto); nanoGPT's eval_iters and evaluations at every 1000 steps.
stage twb_train 300 "$twb" train --data "$work/shakespeare" --out "$work/baby" --preset baby-gpt \
  --set max_iters="$iters" --set eval_interval=1000 --set eval_iters=100
row[twb_ms]=$(sed -n 's/.*median \([0-9.]*\) ms\/step.*/\1/p' "$out/twb_train.log" | tail -1)
row[twb_val5000]=$(sed -n 's/.*last val loss \([0-9.]*\).*/\1/p' "$out/twb_train.log" | tail -1)
row[twb_val2000]=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
  $c["step"] == 2000 && $c["val_loss"] != "" {print $c["val_loss"]}' "$work/baby/metrics.csv" | tail -1)
row[twb_dtype]=$(grep -m1 -o -E '(float32|bfloat16) \([^)]*\)' "$out/twb_train.log")
# The same 500 steps with the host waiting for every step (TWB_QUEUED_STEPS=0): what queuing gains.
stage twb_train_waited 120 env TWB_QUEUED_STEPS=0 "$twb" train --data "$work/shakespeare" --out "$work/baby_waited" \
  --preset baby-gpt --set max_iters=500 --set eval_interval=500 --set eval_iters=10
row[twb_waited_ms]=$(sed -n 's/.*median \([0-9.]*\) ms\/step.*/\1/p' "$out/twb_train_waited.log" | tail -1)
# And with each step's operations launched one by one (TWB_CUDA_GRAPHS=0), and with cuDNN's attention.
ab() {  # ab NAME ENV...: 500 steps of the preset under the environment given
  local name=$1
  shift
  stage "$name" 120 env "$@" "$twb" train --data "$work/shakespeare" --out "$work/$name" --preset baby-gpt \
    --set max_iters=500 --set eval_interval=500 --set eval_iters=10 >&2
  sed -n 's/.*median \([0-9.]*\) ms\/step.*/\1/p' "$out/$name.log" | tail -1
}
row[twb_eager_ms]=$(ab twb_train_eager TWB_CUDA_GRAPHS=0)
row[twb_cudnn_ms]=$(ab twb_train_cudnn TWB_SDPA_CUDNN=1)
row[twb_nofused_ms]=$(ab twb_train_nofused TWB_FUSED_CUDA=0)
# Where a step's GPU time goes: steps 100-104 traced with each kernel launched on its own (TWB_TRACE),
# summed by kernel into trace_summary.txt.
stage twb_trace 120 env TWB_CUDA_GRAPHS=0 TWB_TRACE="$out/trace.json" TWB_TRACE_STEPS=100-104 "$twb" train \
  --data "$work/shakespeare" --out "$work/traced" --preset baby-gpt --set max_iters=110 --set eval_interval=1000 \
  --set eval_iters=10
"$py" "$bundle/trace_summary.py" "$out/trace.json" 5 60 >"$out/trace_summary.txt" 2>&1
row[trace]=$(head -1 "$out/trace_summary.txt")
gzip -f "$out/trace.json" 2>/dev/null

# 4. Generation: 1000 greedy tokens from "ROMEO:" as a whole process.
# sample_variant NAME [ENV...]: 1000 greedy tokens from "ROMEO:" as a whole process, under the environment given.
sample_variant() {
  local name=$1
  shift
  stage "$name" 120 env "$@" "$twb" sample -r "$work/baby" --prompt "ROMEO:" -n 1000 -t 0 --no-history --timing
}
t0=$(date +%s.%N)
sample_variant twb_sample
t1=$(date +%s.%N)
row[sample_s]=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}')
# The same with libtorch's operations recorded as a CUDA graph (TWB_CUDA_DECODER=0: FixedStep), and
# eagerly with the growing cache (TWB_FIXED_STEP=0 too: one launch per operation).
sample_variant twb_sample_graph TWB_CUDA_DECODER=0
sample_variant twb_sample_eager TWB_CUDA_DECODER=0 TWB_FIXED_STEP=0
# twb's kernels without Hopper's programmatic dependent launches, without the step launched ahead, with the
# attention in one block a head, with the linear layers' norms in shared memory (TWB_CUDA_WARP_NORM=0), and
# with the norms' weights loaded before the kernel's wait (TWB_CUDA_NORM_AHEAD=1), with the embedding and the
# greedy pick fused into the first and last linear layers (TWB_CUDA_FUSE_ENDS=1), and both (not yet defaults).
sample_variant twb_sample_nopdl TWB_CUDA_PDL=0
sample_variant twb_sample_noahead TWB_CUDA_AHEAD=0
sample_variant twb_sample_nosplit TWB_CUDA_ATTEND_SPLIT=0
sample_variant twb_sample_blocknorm TWB_CUDA_WARP_NORM=0
sample_variant twb_sample_normahead TWB_CUDA_NORM_AHEAD=1
sample_variant twb_sample_fuseends TWB_CUDA_FUSE_ENDS=1
sample_variant twb_sample_bothnew TWB_CUDA_NORM_AHEAD=1 TWB_CUDA_FUSE_ENDS=1
# The default once more, after the variants: how far two runs of the same binary part.
sample_variant twb_sample_again
per_token() { sed -n 's/.*then \([0-9.]*\) ms\/token.*/\1 ms\/token/p' "$out/$1.log" | tail -1; }
tps() { grep -o -E '\(([0-9.]+) tokens/s\)' "$out/$1.log" | tail -1; }
speed() { echo "$(per_token "$1") $(tps "$1")"; }
row[sample_ms]="$(speed twb_sample); again after the variants: $(per_token twb_sample_again)"
row[sample_graph_ms]="$(speed twb_sample_graph)"
row[sample_eager_ms]="$(speed twb_sample_eager)"
row[sample_nopdl_ms]="$(speed twb_sample_nopdl)"
row[sample_noahead_ms]="$(speed twb_sample_noahead)"
row[sample_nosplit_ms]="$(speed twb_sample_nosplit)"
row[sample_blocknorm_ms]="$(speed twb_sample_blocknorm)"
row[sample_normahead_ms]="$(speed twb_sample_normahead)"
row[sample_fuseends_ms]="$(speed twb_sample_fuseends)"
row[sample_bothnew_ms]="$(speed twb_sample_bothnew)"
# Each variant's text against the default's: "same", or the byte where it parts. Without dependent launches
# or the step ahead the kernels and their sums are the same, so any difference there is a fault; the split
# attention, libtorch's graph and its eager ops add in other orders, and a near tie of the two most likely
# tokens may then go the other way (late in the text: rounding; early: look at it).
agree() {
  local n
  n=$(cmp <(grep -v -E 'tokens/s|loaded at|decoding with' "$out/$1.log" 2>/dev/null) \
    <(grep -v -E 'tokens/s|loaded at|decoding with' "$out/$2.log" 2>/dev/null) 2>/dev/null | sed -n 's/.* byte \([0-9]*\).*/\1/p')
  if ! grep -q 'ms/token' "$out/$2.log" 2>/dev/null; then echo "NO TEXT (see $2.log)"
  elif [ -z "$n" ]; then echo same; else echo "PARTS AT BYTE $n"; fi
}
row[sample_same]="text against the default: no PDL $(agree twb_sample twb_sample_nopdl), no step ahead"
row[sample_same]+=" $(agree twb_sample twb_sample_noahead), no split $(agree twb_sample twb_sample_nosplit), norms in"
row[sample_same]+=" shared memory $(agree twb_sample twb_sample_blocknorm), norm weights before the wait"
row[sample_same]+=" $(agree twb_sample twb_sample_normahead), ends fused $(agree twb_sample twb_sample_fuseends),"
row[sample_same]+=" both $(agree twb_sample twb_sample_bothnew), libtorch's"
row[sample_same]+=" graph $(agree twb_sample twb_sample_graph), eager $(agree twb_sample twb_sample_eager)"
# Where a token's GPU time goes with twb's kernels: tokens 100-104 traced, each kernel launched on its own.
stage twb_decode_trace 60 env TWB_CUDA_GRAPHS=0 TWB_TRACE_DECODE="$out/decode_trace.json" TWB_TRACE_TOKENS=100-104 \
  "$twb" sample -r "$work/baby" --prompt "ROMEO:" -n 200 -t 0 --no-history
"$py" "$bundle/trace_summary.py" "$out/decode_trace.json" 5 20 >"$out/decode_trace_summary.txt" 2>&1
row[decode_trace]=$(head -1 "$out/decode_trace_summary.txt")
gzip -f "$out/decode_trace.json" 2>/dev/null

# 5. The Multi30k preset on the GPU: 1600 steps, test2016 greedy BLEU (GPU_CHECK_SKIP_M30K=1 skips it).
m=$bundle/data/multi30k
[ "${GPU_CHECK_SKIP_M30K:-0}" = 1 ] && m=/nonexistent
stage m30k_prepare 180 "$twb" prepare --source "$m/train.de" --target "$m/train.en" --val-source "$m/val.de" \
  --val-target "$m/val.en" --test-source "$m/test_2016_flickr.de" --test-target "$m/test_2016_flickr.en" \
  --source-lang de --target-lang en --tokenizer bpe --vocab-size 8000 --out "$work/m30k"
stage m30k_train 300 "$twb" train --data "$work/m30k" --out "$work/m30k_run" --preset multi30k \
  --set max_iters="${GPU_CHECK_M30K_ITERS:-1600}"
row[m30k_ms]=$(sed -n 's/.*median \([0-9.]*\) ms\/step.*/\1/p' "$out/m30k_train.log" | tail -1)
row[m30k_s]=$(sed -n 's/.* ms\/step, \([0-9.]*\) s$/\1/p' "$out/m30k_train.log" | tail -1)
t0=$(date +%s.%N)
stage m30k_translate 120 bash -c "'$twb' translate --run '$work/m30k_run' --input '$m/test_2016_flickr.de' >'$work/hyp.en'"
t1=$(date +%s.%N)
row[translate_s]=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}')
# The first 100 steps again with cuDNN's attention, which plans every new shape anew (GPU_CHECK_SKIP_CUDNN=1
# skips it: about a minute).
[ "${GPU_CHECK_SKIP_CUDNN:-0}" = 1 ] || stage m30k_cudnn 180 env TWB_SDPA_CUDNN=1 "$twb" train --data "$work/m30k" --out "$work/m30k_cudnn" --preset multi30k \
  --set max_iters="${GPU_CHECK_M30K_CUDNN_ITERS:-100}" --set eval_interval=1000
row[m30k_cudnn]=$(sed -n 's/.*median \([0-9.]*\) ms\/step, \([0-9.]*\) s$/\1 ms\/step, \2 s/p' "$out/m30k_cudnn.log" | tail -1)
stage m30k_bleu 60 "$twb" bleu --ref "$m/test_2016_flickr.en" --hyp "$work/hyp.en"
row[bleu]=$(grep -m1 -o -E 'BLEU[^,]*' "$out/m30k_bleu.log")

{
  echo
  echo "| GPU check | $(date -u +%F) | ${gpu:-no GPU seen} | torch ${torchv:-?} |"
  echo "|---|---|---|---|"
  echo "| dtype=auto | ${row[precision]:-?} | | |"
  echo "| std:: bindings of twb | ${row[bindings]:-?} | | |"
  echo "| CUDA tests | ${row[cuda_tests]:-?} | | |"
  echo "| GUI on the GPU | ${row[gui]:-not bundled} | | |"
  echo "| shakespeare-char 6x6x384: median ms/iter | nanoGPT eager ${row[nano_eager_ms]:--} | nanoGPT compile ${row[nano_compile_ms]:--} | twb ${row[twb_ms]:--} (${row[twb_dtype]:-?}); host waiting each step ${row[twb_waited_ms]:--}; no CUDA graph ${row[twb_eager_ms]:--}; cuDNN attention ${row[twb_cudnn_ms]:--}; libtorch's LayerNorm ${row[twb_nofused_ms]:--} |"
  echo "| val loss at 2000 / $iters | nanoGPT ${row[nano_val2000]:--} / ${row[nano_val5000]:--} | | twb ${row[twb_val2000]:--} / ${row[twb_val5000]:--} |"
  echo "| 1000 greedy tokens, whole twb sample process | ${row[sample_s]:-?} s | after the first token: twb's CUDA kernels ${row[sample_ms]:-?} | libtorch's ops as a CUDA graph ${row[sample_graph_ms]:-?}; eagerly ${row[sample_eager_ms]:-?}; ${row[sample_same]:-?} |"
  echo "| twb's kernels, 1000 greedy tokens | without dependent launches ${row[sample_nopdl_ms]:-?} | without the step launched ahead ${row[sample_noahead_ms]:-?} | attention in one block a head ${row[sample_nosplit_ms]:-?}; norms in shared memory ${row[sample_blocknorm_ms]:-?}; norm weights loaded before the wait ${row[sample_normahead_ms]:-?}; the embedding and the pick fused ${row[sample_fuseends_ms]:-?}; both ${row[sample_bothnew_ms]:-?} |"
  echo "| a traced step (no CUDA graph) | ${row[trace]:-?} | | |"
  echo "| a traced token (twb's kernels, no CUDA graph) | ${row[decode_trace]:-?} | | |"
  echo "| Multi30k preset (1600 steps) | ${row[m30k_ms]:--} ms/step | ${row[m30k_s]:--} s of training | test2016 ${row[bleu]:--} |"
  echo "| translate 1000 test2016 lines, whole process | ${row[translate_s]:-?} s | | |"
  echo "| Multi30k, first 100 steps with cuDNN's attention | ${row[m30k_cudnn]:--} | | |"
} | tee "$out/table.md"
