#!/usr/bin/env bash
# Takes the screenshots of docs/screenshots/ (the README and the AppStream metadata show them) from the
# built programs under Xvfb, in a fresh home. twb does what the Quick start does (prepares Debian's
# fortunes, trains the tiny preset: about a minute on two cores) and a second, BPE run for comparison,
# and names both; then the desktop program opens the first run once per panel
# (transformer-workbench --panel NAME RUN), and each window is shot and reduced to a 256-colour PNG;
# twb-shoot-views (built with `cmake --build build --target twb-shoot-views`) shoots the logit lens, the
# head ablation and the attribution strip.
# Needs xvfb, xdotool and ImageMagick (import, convert). Run again when the panels change much.
# usage: packaging/make-screenshots.sh [BUILD_DIR] [WIDTHxHEIGHT] [OUT_DIR]
#   defaults: build, 1280x720 (a small laptop; the README's pictures), docs/screenshots.
#   e.g. packaging/make-screenshots.sh build 1920x1080 /tmp/shots-1080 to check a large screen.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "${1:-build}" && pwd)/bin
size=${2:-1280x720}
out=${3:-$(pwd)/docs/screenshots}
mkdir -p "$out"
out=$(cd "$out" && pwd)
home=$(mktemp -d /tmp/twb-screenshots.XXXXXX)
trap 'rm -rf "$home"' EXIT

env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 BIN="$bin" OUT="$out" \
  xvfb-run -a -s "-screen 0 ${size}x24" bash -c '
  set -euo pipefail
  ws=$HOME/.local/share/transformer-workbench
  mkdir -p "$ws/runs" "$ws/datasets"
  "$BIN/twb" prepare --preset fortunes --out "$ws/datasets/fortunes" -q >/dev/null
  "$BIN/twb" train --data "$ws/datasets/fortunes" --preset tiny --out "$ws/runs/fortunes-tiny" >/dev/null
  "$BIN/twb" label "$ws/runs/fortunes-tiny" --name "fortunes, tiny (quick start)" \
    --notes "The Quick start: characters, 3 layers." >/dev/null
  "$BIN/twb" prepare --preset fortunes --tokenizer bpe --vocab-size 500 --out "$ws/datasets/fortunes-bpe500" -q >/dev/null
  "$BIN/twb" train --data "$ws/datasets/fortunes-bpe500" --preset tiny --set max_iters=300 \
    --out "$ws/runs/fortunes-bpe" >/dev/null
  "$BIN/twb" label "$ws/runs/fortunes-bpe" --name "fortunes, BPE 500" >/dev/null
  run=$ws/runs/fortunes-tiny
  shoot() {  # shoot PANEL FILE [ARGS...]: open the run on that panel and take the window
    local panel=$1 file=$2
    shift 2
    "$BIN/transformer-workbench" --panel "$panel" "$@" "$run" >>"$HOME/gui.log" 2>&1 &
    local pid=$! win=
    for ((i = 0; i < 60; i++)); do
      win=$(xdotool search --onlyvisible --name "Transformer Workbench" 2>/dev/null | head -n 1) && [ -n "$win" ] && break
      sleep 1
    done
    [ -n "$win" ] || { cat "$HOME/gui.log"; exit 1; }
    sleep 12  # the runtime check, the attention capture and the runs table finish
    import -window "$win" "$HOME/shot.png"
    convert "$HOME/shot.png" -colors 256 "PNG8:$OUT/$file"
    kill $pid
    wait $pid 2>/dev/null || true
  }
  shoot Training training.png
  shoot Attention attention.png
  shoot Sampling sampling.png
  shoot Datasets datasets.png
  shoot Experiments experiments.png
  shoot Runs runs.png
  # The views inside the model, driven through their slots (packaging/shoot_views.cpp).
  "$BIN/twb-shoot-views" "$run" "$HOME" >>"$HOME/gui.log" 2>&1 || { cat "$HOME/gui.log"; exit 1; }
  for f in lens ablation attribution; do convert "$HOME/$f.png" -colors 256 "PNG8:$OUT/$f.png"; done'
ls -l "$out"
