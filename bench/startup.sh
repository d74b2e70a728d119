#!/usr/bin/env bash
# Start-up times, median of N runs: `twb sample` from exec to its first token on stdout (the bench model
# of bench/sample_speed.sh: 6x6x384, block 256, one training step, so its own load time counts), and the
# GUI `transformer-workbench` from exec to its main window's first paint event (TWB_REPORT_FIRST_PAINT=exit,
# ms since exec as the kernel counts it, 10 ms resolution) on an X display, with a fresh HOME so no
# remembered workspace is loaded. Also `twb --version`, the floor any twb process pays (loading libtorch).
# Each is measured twice, alternated: as started from a shell, and with the shell variables the OpenMP
# wait policy's set-up borrows removed (`_`, OLDPWD, SHLVL, PWD), which makes it re-execute the program as
# every start did before (libraries loaded twice): the before/after of that change in one run.
# Usage: DISPLAY=:64 bench/startup.sh [BUILD_DIR] [N]      (start `Xvfb :64 &` first)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
n=${2:-5}
twb="$build/bin/twb"
gui="$build/bin/transformer-workbench"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$here/bench_run.sh"
make_bench_run "$twb" "$work"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$twb" "$gui" "$work" "$n" <<'PY'
import os, re, statistics, subprocess, sys, time
twb, gui, work, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

base = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "TWB_WAIT_POLICY_SET")}
shell_env = dict(base, _="/usr/bin/twb")
reexec_env = {k: v for k, v in base.items() if k not in ("_", "OLDPWD", "SHLVL", "PWD")}

def first_byte(cmd, env=None):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    p.stdout.read(1)
    t = 1000 * (time.perf_counter() - t0)
    p.stdout.read(); err = p.stderr.read().decode(); p.wait()
    if p.returncode:
        sys.exit(f"{cmd} failed: {err}")
    return t, err

def gui_once(base):
    home = os.path.join(work, "home"); os.makedirs(home, exist_ok=True)
    env = dict(base, HOME=home, XDG_CONFIG_HOME=home + "/.config", XDG_DATA_HOME=home + "/.local/share",
               XDG_CACHE_HOME=home + "/.cache", TWB_REPORT_FIRST_PAINT="exit")
    t0 = time.perf_counter()
    p = subprocess.run([gui], capture_output=True, env=env, cwd=home, timeout=120)
    wall = 1000 * (time.perf_counter() - t0)
    m = re.search(r"first paint at (\d+) ms", p.stderr.decode())
    if not m:
        sys.exit("the GUI printed no first paint:\n" + p.stderr.decode())
    return float(m.group(1)), wall

rows = {}
def add(k, v):
    rows.setdefault(k, []).append(v)
for _ in range(n):
    for label, env in (("", shell_env), (", re-exec", reexec_env)):
        add(f"twb --version (exec to output){label}", first_byte([twb, "--version"], env)[0])
        t, err = first_byte([twb, "sample", "-r", work + "/run", "-n", "1", "-t", "0", "--no-history", "--timing"], env)
        add(f"twb sample (exec to first token){label}", t)
        add(f"  model loaded at{label}", float(re.search(r"loaded at (\d+) ms", err).group(1)))
        if os.environ.get("DISPLAY") and os.path.exists(gui):
            paint, wall = gui_once(env)
            add(f"GUI (exec to first paint){label}", paint)
            add(f"GUI (exec to exit after first paint){label}", wall)
print(f"median of {n} runs (ms)   [min - max]")
for k, v in rows.items():
    if v:
        print(f"{k:50s} {statistics.median(v):7.0f}   [{min(v):.0f} - {max(v):.0f}]")
PY
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
