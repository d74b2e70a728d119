#!/usr/bin/env bash
# kill -9 soak: trains a tiny model with a checkpoint every 1-2 steps, SIGKILLs it at random moments,
# resumes, and after every kill asserts: every checkpoint loads (twb sample from each), metrics.csv has
# no torn line and no duplicated row, no unfinished checkpoint folder survives a resume, and at the
# end the run's losses equal those of an uninterrupted run exactly.
#   bash scripts/soak.sh [ITERATIONS] [TWB]     (default 200 kills; CI's ctest runs 3)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200}
TWB=${2:-build/bin/twb}
W=$(mktemp -d "${TMPDIR:-/tmp}/twb-soak.XXXXXX")
trap 'rm -rf "$W"' EXIT
fail() { echo "soak: FAIL: $*" >&2; exit 1; }

python3 - "$W/corpus.txt" <<'PY'
import random, sys
r = random.Random(7)
words = "the quick brown fox jumps over lazy dog and runs away from a small cat that sleeps".split()
with open(sys.argv[1], "w") as f:
    for _ in range(3000):
        f.write(" ".join(r.choice(words) for _ in range(r.randint(4, 11))) + ".\n")
PY
"$TWB" prepare --input "$W/corpus.txt" --out "$W/data" --quiet >/dev/null
MAX=$((N * 60 + 300))  # enough steps that the run outlasts the kills (a step takes ~20 ms)
COMMON=(--preset tiny --quiet --set n_layer=1 --set n_embd=32 --set n_head=2 --set block_size=32 --set threads=1
        --set eval_iters=1 --set eval_interval=2 --set keep_checkpoints=2 --set max_iters=$MAX --set log_interval=1)
t0=$(date +%s.%N)
"$TWB" train --data "$W/data" --out "$W/ref" "${COMMON[@]}" >/dev/null
# How long a whole run takes here: the kills land within 10-60% of it (at most 2.5 s), so that a fast
# machine cannot finish the run inside the first sleep.
REF_SECONDS=$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$t0" "$(date +%s.%N)")

check_run() {
    local run=$1
    for ck in "$run"/checkpoints/step_*; do
        [ -e "$ck" ] || continue
        "$TWB" sample --run "$ck" -n 1 --no-history >/dev/null 2>"$W/err" || fail "$ck does not load: $(cat "$W/err")"
    done
    if [ -f "$run/metrics.csv" ]; then
        python3 - "$run/metrics.csv" <<'PY' || fail "metrics.csv is torn or has duplicated rows"
import sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "", "last line not terminated"
head, rows = lines[0], [l for l in lines[1:] if l]
keys = [tuple(l.split(",")[:2]) for l in rows]
assert all(len(l.split(",")) == len(head.split(",")) for l in rows), "torn row"
assert len(keys) == len(set(keys)), "duplicated rows"
PY
    fi
}

kills=0
started=0
while [ $kills -lt "$N" ]; do
    if [ $started -eq 0 ]; then
        "$TWB" train --data "$W/data" --out "$W/run" "${COMMON[@]}" >/dev/null 2>&1 &
        started=1
    else
        "$TWB" train --out "$W/run" --resume --quiet >/dev/null 2>"$W/resume.err" &
    fi
    pid=$!
    sleep "$(python3 -c 'import random, sys; t = float(sys.argv[1]); print(round(random.uniform(min(0.6, 0.1 * t), min(2.5, 0.6 * t)), 2))' "$REF_SECONDS")"
    if kill -9 $pid 2>/dev/null; then
        kills=$((kills + 1))
        wait $pid 2>/dev/null || true
    else
        # It ended by itself before the kill: the run is complete (then stop killing: a resume of a
        # finished run returns at once, so no kill could land), or it failed, which a resume never may.
        status=0
        wait $pid 2>/dev/null || status=$?
        [ $status -eq 0 ] || fail "twb train ended with status $status before it was killed: $(cat "$W/resume.err")"
        check_run "$W/run"
        break
    fi
    if ! ls "$W/run/checkpoints"/step_* >/dev/null 2>&1; then
        rm -rf "$W/run"  # killed before the first checkpoint: start again
        started=0
        continue
    fi
    check_run "$W/run"
done
# Finish the run (from scratch when the last kill came before its first checkpoint), then compare with
# the uninterrupted one.
if [ $started -eq 0 ]; then
    "$TWB" train --data "$W/data" --out "$W/run" "${COMMON[@]}" >/dev/null 2>"$W/resume.err" || fail "final run: $(cat "$W/resume.err")"
else
    "$TWB" train --out "$W/run" --resume --quiet >/dev/null 2>"$W/resume.err" || fail "final resume: $(cat "$W/resume.err")"
fi
check_run "$W/run"
[ $kills -gt 0 ] || fail "the run finished before any kill: nothing was tested (raise max_iters)"
ls -a "$W/run/checkpoints" | grep -q '\.tmp' && fail "an unfinished checkpoint folder survived the resume"
python3 - "$W/ref/metrics.csv" "$W/run/metrics.csv" <<'PY' || fail "losses differ from the uninterrupted run"
import sys
def evals(p):
    rows = [l.split(",") for l in open(p).read().split("\n")[1:] if l]
    return {(r[0], r[1]): r[2:4] for r in rows}
a, b = evals(sys.argv[1]), evals(sys.argv[2])
assert a.keys() == b.keys(), "different rows"
assert all(a[k] == b[k] for k in a), [k for k in a if a[k] != b[k]][:5]
PY
echo "soak: $kills kills, every checkpoint loaded, metrics intact, losses equal to the uninterrupted run"
