#!/usr/bin/env bash
# Single-stream generation speed measured as whole `twb sample` processes (load included), the decoder
# variants alternated in the same run so that a busy machine hits them alike.
# The model: nanoGPT's shakespeare_char shape (--preset baby-gpt: 6 layers, 6 heads, 384 wide, block 256,
# rotary, char vocabulary of tiny shakespeare, 10.7M parameters) after ONE training step of batch 1 from
# the seeded initialisation, i.e. practically random weights; every variant reads the same checkpoint.
# Variants: float32 weights (libtorch's ops), the bf16 CPU decoder inside twb-torch (libtorch loaded:
# TWB_TORCH_FREE=0), and the same decoder as `twb sample` runs it by default, without libtorch.
# Per variant: median over ROUNDS of the whole process's tokens/s (TOKENS greedy tokens / wall time from
# exec to exit), of time-to-first-token (exec to the first byte on stdout; the prompt is empty) and of
# the in-process decoding rate twb reports; ratios against float32 (the libtorch path) of the same run.
# Usage: bench/sample_speed.sh [BUILD_DIR] [TOKENS] [ROUNDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
tokens=${2:-1000}
rounds=${3:-5}
twb="$build/bin/twb"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/bench_run.sh"
make_bench_run "$twb" "$work"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$twb" "$work/run" "$tokens" "$rounds" <<'PY'
import os, re, statistics, subprocess, sys, time
twb, run, tokens, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
# name: (decode weights, extra environment)
variants = {"float32": ("float32", {}), "bf16+torch": ("bfloat16", {"TWB_TORCH_FREE": "0"}),
            "bfloat16": ("bfloat16", {})}

def once(v):
    weights, extra = variants[v]
    cmd = [twb, "sample", "-r", run, "-n", str(tokens), "-t", "0", "--no-history", "--timing",
           "--decode-weights", weights]
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, **extra})
    first = p.stdout.read(1)  # the prompt is empty: the first byte on stdout is the first token's
    t1 = time.perf_counter()
    out = first + p.stdout.read()
    err = p.stderr.read().decode()
    p.wait()
    t2 = time.perf_counter()
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{err}")
    inproc = float(re.search(r"\(([\d.]+) tokens/s\)", err).group(1))
    path = re.search(r"decoding with (.*)", err).group(1)
    path += " [" + re.search(r"libtorch (not loaded|loaded)", err).group(0) + "]"
    return {"ttft": 1000 * (t1 - t0), "whole": tokens / (t2 - t0), "inproc": inproc, "path": path, "text": out}

res = {v: [] for v in variants}
for r in range(rounds):
    for v in variants:
        res[v].append(once(v))
    load = open("/proc/loadavg").read().split()[:3]
    print(f"round {r + 1}: " + ", ".join(f"{v} {res[v][-1]['whole']:.0f} tokens/s" for v in variants) +
          f"   (load {' '.join(load)})", flush=True)
print()
med = lambda v, k: statistics.median(x[k] for x in res[v])
base = med("float32", "whole")
print(f"{tokens} greedy tokens, median of {rounds} alternated rounds (whole process = exec to exit)")
print(f"{'variant':10s} {'whole tok/s':>11s} {'ratio':>6s} {'in-process tok/s':>16s} {'first token ms':>14s}  decoder")
for v in variants:
    print(f"{v:10s} {med(v, 'whole'):11.1f} {med(v, 'whole') / base:5.2f}x {med(v, 'inproc'):16.1f} "
          f"{med(v, 'ttft'):14.0f}  {res[v][0]['path']}")
same = res["float32"][0]["text"] == res["bfloat16"][0]["text"]
print(f"greedy text of bfloat16 {'identical to' if same else 'DIFFERENT from'} float32's")
same = res["bf16+torch"][0]["text"] == res["bfloat16"][0]["text"]
print(f"greedy text without libtorch {'identical to' if same else 'DIFFERENT from'} bf16+torch's")
PY
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
