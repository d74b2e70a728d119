#!/usr/bin/env python3
"""Where a traced run's GPU time goes: the kernels of a TWB_TRACE file (docs/gpu-and-distributed.md),
summed by name, per traced step.

    python3 bench/trace_summary.py TRACE.json [STEPS] [TOP]

STEPS (default 5) divides the totals; TOP (default 40) kernels are listed, longest total first."""
import collections
import json
import sys


def main():
    path = sys.argv[1]
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    gpu = [e for e in events if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset") and "dur" in e]
    if not gpu:
        print("no GPU kernels in the trace (a CPU run, or the profiler saw no CUDA activity)")
        return
    total = sum(e["dur"] for e in gpu)
    span = max(e["ts"] + e["dur"] for e in gpu) - min(e["ts"] for e in gpu)
    print(f"{len(gpu) / steps:.0f} kernels a step, {total / steps / 1000:.3f} ms of kernel time a step, "
          f"{span / steps / 1000:.3f} ms from the first kernel to the last (a step); busy {100 * total / span:.0f}%")
    by = collections.defaultdict(lambda: [0.0, 0])
    for e in gpu:
        name = e["name"]
        by[name][0] += e["dur"]
        by[name][1] += 1
    print(f"{'ms/step':>8} {'%':>5} {'n/step':>7} {'us each':>8}  kernel")
    for name, (dur, n) in sorted(by.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"{dur / steps / 1000:8.3f} {100 * dur / total:5.1f} {n / steps:7.1f} {dur / n:8.1f}  {name[:150]}")


if __name__ == "__main__":
    main()
