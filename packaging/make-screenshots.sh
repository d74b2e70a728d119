#!/usr/bin/env bash
# Takes the screenshots the AppStream metadata points to (docs/screenshots/training.png and
# attention.png) from the built desktop program under Xvfb, in a fresh home: the quick start trains on
# fortunes (Ctrl+R), then the Attention panel shows the run. About two minutes on two cores.
# Needs xvfb, xdotool and ImageMagick's import. Run again when the panels change much.
# usage: packaging/make-screenshots.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
app=$(cd "${1:-build}" && pwd)/bin/transformer-workbench
out=$(pwd)/docs/screenshots
mkdir -p "$out"
home=$(mktemp -d /tmp/twb-screenshots.XXXXXX)
trap 'rm -rf "$home"' EXIT

env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 APP="$app" OUT="$out" \
  xvfb-run -a -s "-screen 0 1600x1000x24" bash -c '
  "$APP" >"$HOME/gui.log" 2>&1 &
  pid=$!
  trap "kill $pid 2>/dev/null" EXIT
  for ((i = 0; i < 60; i++)); do
    win=$(xdotool search --onlyvisible --name "Transformer Workbench" | head -n 1) && [ -n "$win" ] && break
    sleep 1
  done
  [ -n "$win" ] || { cat "$HOME/gui.log"; exit 1; }
  xdotool windowfocus --sync "$win"
  sleep 2
  xdotool key --window "$win" ctrl+r   # Quick start: prepare fortunes, train the tiny preset
  sleep 100
  import -window "$win" "$OUT/training.png"
  xdotool key --window "$win" alt+3    # Attention: the run just trained
  sleep 15
  import -window "$win" "$OUT/attention.png"'
ls -l "$out"
