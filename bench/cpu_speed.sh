#!/usr/bin/env bash
# CPU speed idle and busy in one run (issue 36): training against nanoGPT's own train.py on the same
# machine and torch threads, and generation as whole `twb sample` processes, each measured with the
# machine idle and with one core taken by a busy shell loop, all alternated round by round so that a
# drifting machine hits every variant alike. Prints the CPU's flags and one table of medians and ratios.
#
# Training: nanoGPT's CPU recipe on tiny shakespeare (char; 4 layers, 4 heads, 128 wide, block 64,
# batch 12, dropout 0, 2 threads), ITERS iterations, median ms per iteration (nanoGPT: its per-iteration
# log; twb: metrics.csv's ms_per_step, means over 10 steps). twb runs dtype=float32 and dtype=auto
# (bfloat16 where the CPU has AVX512-BF16 or AMX, float32 elsewhere: then only one row).
# Generation: 1000 greedy tokens of the 6x6x384 block-256 model (bench_run.sh), exec to exit, with its
# split from `twb sample --timing`: when the model was loaded (libtorch's start included) and ms per token.
# The machine's own bound: two shell loops of fixed work that never wait for each other, idle and busy (on
# two cores with one taken, each of three busy threads gets two thirds of a core: 1.5x at best).
# With FULL=1 it also trains both for 2000 iterations once, idle, and compares the validation loss (twb in
# float32, and in bf16 too where auto chooses it).
#
# With CPU_AS=avx2 on a CPU with AVX-512 it runs everything (nanoGPT too) on the kernels an AVX2-only CPU
# takes (scripts/avx2_kernels.sh: float32 for dtype=auto, libtorch's AVX2 ops, OpenBLAS's Haswell
# kernels, glibc without AVX-512): the other kind's instruction set, though not its cores.
#
# Usage: NANOGPT=/path/to/nanoGPT [CPU_AS=avx2] bench/cpu_speed.sh [BUILD_DIR] [ITERS] [ROUNDS]
#   NANOGPT: a checkout of github.com/karpathy/nanoGPT (train.py, model.py, configurator.py); python3
#   with torch (Debian's python3-torch) runs it. Without NANOGPT the training rows have no reference.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
iters=${2:-300}
rounds=${3:-2}
twb="$build/bin/twb"
py=${PYTHON:-/usr/bin/python3}
work=$(mktemp -d)
busy_pid=
cleanup() {
  [ -n "$busy_pid" ] && kill "$busy_pid" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "== CPU"
grep -m1 'model name' /proc/cpuinfo | sed 's/.*: /model: /'
echo "family $(grep -m1 'cpu family' /proc/cpuinfo | sed 's/.*: //') model $(grep -m1 '^model\s' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores"
echo "flags: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|fma|avx512f|avx512_bf16|amx_bf16|amx_tile)$' | tr '\n' ' ')"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
case "${CPU_AS:-}" in
  "") ;;
  avx2)
    . "$here/../scripts/avx2_kernels.sh"
    avx2_kernels_env
    echo "CPU_AS=avx2: the kernels of an AVX2-only CPU on this one (TWB_CPU_BF16=$TWB_CPU_BF16" \
      "ATEN_CPU_CAPABILITY=$ATEN_CPU_CAPABILITY OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE GLIBC_TUNABLES=$GLIBC_TUNABLES)"
    ;;
  *) echo "cpu_speed: CPU_AS=$CPU_AS: expected avx2 (or unset)" >&2; exit 2 ;;
esac

. "$here/bench_run.sh"
make_bench_run "$twb" "$work"

. "$here/nanogpt_cpu.sh"
[ -n "${NANOGPT:-}" ] && setup_nanogpt "$NANOGPT" "$work"
nano() { nano_train "$work" "$@"; }  # ITERS [eval_interval]: prints the log
twb_train() {  # ITERS DTYPE OUT
  rm -rf "$3"
  "$twb" train --data "$work/data" --preset nanogpt-cpu --set max_iters="$1" --set lr_decay_iters=2000 \
    --set threads=2 --set dtype="$2" -q --out "$3" > /dev/null
}
sample() {  # MODE: prints the whole process's tokens/s; adds its --timing split to the results
  local t0 t1 timing
  t0=$(date +%s.%N)
  timing=$("$twb" sample -r "$work/run" -n 1000 -t 0 --no-history --timing 2>&1 > /dev/null | tail -1)
  t1=$(date +%s.%N)
  printf 'split\tmodel loaded at, ms since exec\t%s\t%s\n' "$1" \
    "$(sed -n 's/.*loaded at \([0-9]*\) ms.*/\1/p' <<< "$timing")" >> "$results"
  printf 'split\tms per token after the first\t%s\t%s\n' "$1" \
    "$(sed -n 's/.*then \([0-9.]*\) ms\/token.*/\1/p' <<< "$timing")" >> "$results"
  echo "1000 / ($t1 - $t0)" | bc -l
}
ideal() {  # the machine's own bound: two shell loops of fixed work, no shared data, exec to exit, in seconds
  local t0 t1
  t0=$(date +%s.%N)
  for _ in 1 2; do bash -c 'for ((i = 0; i < 2000000; i++)); do :; done' & done
  wait  # this command substitution's own children: the busy loop is its parent's
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}
busy() {
  if [ "$1" = busy ]; then
    bash -c 'while :; do :; done' &
    busy_pid=$!
    sleep 0.5
  elif [ -n "$busy_pid" ]; then
    kill "$busy_pid"
    wait "$busy_pid" 2> /dev/null || true
    busy_pid=
  fi
}

results="$work/results.tsv"
: > "$results"
for r in $(seq "$rounds"); do
  for mode in idle busy; do
    busy "$mode"
    if [ -n "${NANOGPT:-}" ]; then
      ms=$(nano "$iters" | sed -n 's/^iter \([0-9]*\): .*time \([0-9.]*\)ms.*/\1 \2/p' | awk '$1 >= 5 {print $2}' |
        sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
      printf 'train\tnanoGPT\t%s\t%s\n' "$mode" "$ms" >> "$results"
    fi
    for dtype in float32 auto; do
      twb_train "$iters" "$dtype" "$work/run-$dtype"
      "$py" - "$work/run-$dtype" "$mode" "$dtype" >> "$results" <<'PY'
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1] + "/metrics.csv")) if r["kind"] == "train"]
ms = statistics.median(float(r["ms_per_step"]) for r in rows)
print(f"train\ttwb dtype={sys.argv[3]} ({rows[-1]['dtype']})\t{sys.argv[2]}\t{ms}")
PY
    done
    printf 'sample\ttwb sample 1000 tokens\t%s\t%s\n' "$mode" "$(sample "$mode")" >> "$results"
    printf 'ideal\ttwo independent shell loops, s\t%s\t%s\n' "$mode" "$(ideal)" >> "$results"
    busy idle
    echo "round $r $mode done (load $(cut -d' ' -f1 /proc/loadavg))"
  done
done

"$py" - "$results" <<'PY'
import collections, statistics, sys
res = collections.defaultdict(list)
for line in open(sys.argv[1]):
    kind, what, mode, value = line.rstrip("\n").split("\t")
    res[(kind, what, mode)].append(float(value))
med = {k: statistics.median(v) for k, v in res.items()}
nano = med.get(("train", "nanoGPT", "idle"))
print("\n== training, median ms/iteration (speed-up = nanoGPT idle ms / this ms)")
print(f"{'':34s} {'idle ms':>8s} {'speed-up':>9s} {'busy ms':>8s} {'busy/idle':>9s} {'busy vs nanoGPT idle':>21s}")
seen = set()
for (kind, what, mode) in sorted(med):
    if kind != "train" or what in seen:
        continue
    seen.add(what)
    if "dtype=auto (float32)" in what:
        continue  # auto is float32 on this CPU: the float32 row says it
    idle, busy = med[(kind, what, "idle")], med.get((kind, what, "busy"), float("nan"))
    up = f"{nano / idle:8.2f}x" if nano else "        -"
    vs = f"{busy / nano:20.2f}x" if nano else "                    -"
    print(f"{what:34s} {idle:8.1f} {up} {busy:8.1f} {busy / idle:8.2f}x {vs}")
print("\n== generation, whole process tokens/s")
for (kind, what, mode) in sorted(med):
    if kind == "sample" and mode == "idle":
        idle, busy = med[(kind, what, "idle")], med[(kind, what, "busy")]
        print(f"{what:34s} idle {idle:7.1f}   busy {busy:7.1f}   busy/idle {busy / idle:4.2f}")
for (kind, what, mode) in sorted(med):
    if kind == "split" and mode == "idle":
        print(f"  {what:32s} idle {med[(kind, what, 'idle')]:7.2f}   busy {med[(kind, what, 'busy')]:7.2f}")
ideal = [k for k in med if k[0] == "ideal" and k[2] == "idle"]
for (kind, what, mode) in ideal:
    idle, busy = med[(kind, what, "idle")], med[(kind, what, "busy")]
    print("\n== the machine's bound: two threads of fixed work that never wait for each other")
    print(f"{what:34s} idle {idle:7.2f}   busy {busy:7.2f}   busy/idle {busy / idle:4.2f}")
PY

if [ "${FULL:-0}" = 1 ]; then
  echo
  echo "== 2000 iterations, idle: validation loss"
  [ -n "${NANOGPT:-}" ] && echo "nanoGPT: $(nano 2000 2000 | grep '^step 2000' )"
  # float32, and auto where it is bf16 (a CPU with AVX512-BF16 or AMX): the default's own quality.
  for dtype in float32 auto; do
    twb_train 2000 "$dtype" "$work/full-$dtype"
    resolved=$(awk -F, '$2 == "train" {d = $13} END {print d}' "$work/full-$dtype/metrics.csv")
    [ "$dtype" = auto ] && [ "$resolved" = float32 ] && continue
    echo "twb dtype=$dtype ($resolved): val loss $(awk -F, '$2 == "eval" {v = $4} END {print v}' "$work/full-$dtype/metrics.csv")"
  done
fi
