#!/usr/bin/env bash
# Installs every Debian package Transformer Workbench needs (Debian 12). Safe to run again.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
PKGS=(
  cmake g++ ninja-build pkg-config ccache git
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libqcustomplot2.1-qt6
  libtorch-dev libopenblas0-openmp
  libsentencepiece-dev sentencepiece
  nlohmann-json3-dev libcli11-dev libicu-dev libssl-dev zlib1g-dev libgloo-dev
  xvfb xauth fortunes clang-format
  # packaging (packaging/, scripts/package.sh, scripts/check-package.sh, ctest -L packaging)
  dpkg-dev help2man librsvg2-bin desktop-file-utils appstream lintian bash-completion man-db xdotool x11-utils
  # tests: plain PyTorch, the independent reference of tst_parity (tests/python/reference.py)
  python3-torch
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
echo "setup: all packages present"
