#!/usr/bin/env python3
"""Validation loss against step for a few runs, as a small PNG, drawn with ImageMagick's `convert`
(no Python packages needed). For the figures in README/docs; not part of the build.

    scripts/plot-val-loss.py OUT.png "LABEL=RUN/metrics.csv" ["LABEL=RUN/metrics.csv" ...]
"""
import csv
import shutil
import subprocess
import sys

W, H = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 60, 20, 20, 50
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]


def read(path):
    points = []
    try:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if row.get("kind") == "eval" and row.get("val_loss"):
                    points.append((int(row["step"]), float(row["val_loss"])))
    except (OSError, ValueError) as e:
        sys.exit(f"plot-val-loss: {path}: {e}")
    if not points:
        sys.exit(f"plot-val-loss: {path}: no evaluation rows (kind=eval with a val_loss); is it a run's metrics.csv?")
    return sorted(set(points))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, runs = sys.argv[1], []
    for arg in sys.argv[2:]:
        label, _, path = arg.partition("=")
        runs.append((label, read(path)))
    steps = [s for _, pts in runs for s, _ in pts]
    losses = [v for _, pts in runs for _, v in pts]
    x1 = max(steps) or 1
    y0, y1 = min(losses), max(losses)
    pad = (y1 - y0) * 0.05 or 0.1
    y0, y1 = y0 - pad, y1 + pad

    def px(step, loss):
        return (LEFT + (W - LEFT - RIGHT) * step / x1, TOP + (H - TOP - BOTTOM) * (y1 - loss) / (y1 - y0))

    draw = ["-stroke", "black", "-fill", "none",
            "-draw", f"rectangle {LEFT},{TOP} {W - RIGHT},{H - BOTTOM}"]
    for i in range(5):  # y ticks
        v = y0 + (y1 - y0) * i / 4
        _, y = px(0, v)
        draw += ["-stroke", "#dddddd", "-draw", f"line {LEFT + 1},{y:.1f} {W - RIGHT - 1},{y:.1f}",
                 "-stroke", "none", "-fill", "black", "-draw", f"text 8,{y + 4:.1f} '{v:.2f}'", "-fill", "none"]
    for i in range(5):  # x ticks
        s = round(x1 * i / 4)
        x, _ = px(s, y0)
        draw += ["-stroke", "none", "-fill", "black", "-draw", f"text {x - 10:.1f},{H - BOTTOM + 16} '{s}'",
                 "-fill", "none"]
    draw += ["-stroke", "none", "-fill", "black",
             "-draw", f"text {W / 2 - 60:.0f},{H - 12} 'step (validation loss, nats/token)'", "-fill", "none"]
    for k, (label, pts) in enumerate(runs):
        colour = COLOURS[k % len(COLOURS)]
        line = " ".join(f"{x:.1f},{y:.1f}" for x, y in (px(s, v) for s, v in pts))
        draw += ["-stroke", colour, "-strokewidth", "2", "-draw", f"polyline {line}", "-strokewidth", "1"]
        ly = TOP + 18 + 18 * k
        draw += ["-draw", f"line {W - RIGHT - 230},{ly - 4} {W - RIGHT - 205},{ly - 4}",
                 "-stroke", "none", "-fill", colour, "-draw", f"text {W - RIGHT - 198},{ly} '{label}'",
                 "-fill", "none"]
    need = "plot-val-loss: this script draws with ImageMagick's convert; install it (sudo apt-get install imagemagick)"
    if shutil.which("convert") is None:
        sys.exit(need)
    try:
        subprocess.run(["convert", "-size", f"{W}x{H}", "xc:white", "-pointsize", "13", *draw, out], check=True)
    except subprocess.CalledProcessError as e:
        sys.exit(f"plot-val-loss: convert failed (exit {e.returncode}); {need.split('; ')[1]}")


if __name__ == "__main__":
    main()
