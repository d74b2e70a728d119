#!/usr/bin/env bash
# Installs every Debian package Transformer Workbench needs (Debian 12). Safe to run again.
# --libtorch=wheel (or TWB_LIBTORCH=wheel) also creates or refreshes a virtual environment holding the
# current torch wheel from PyPI (libtorch 2.x, CUDA-enabled; about 3 GB to download, 5 GB on disk) at
# $TWB_TORCH_VENV, default ~/.local/share/transformer-workbench/torch-wheel: per user, outside the
# clone, so fresh clones (CI) reuse it. scripts/build.sh then builds against it into build-wheel/.
set -euo pipefail
LIBTORCH=${TWB_LIBTORCH:-debian}
for a in "$@"; do
  case "$a" in
    --libtorch=*) LIBTORCH=${a#--libtorch=} ;;
    *) echo "setup: error: unknown option $a (expected --libtorch=debian|wheel)" >&2; exit 2 ;;
  esac
done
case "$LIBTORCH" in
  debian | wheel) ;;
  *) echo "setup: error: --libtorch=$LIBTORCH: expected debian or wheel" >&2; exit 2 ;;
esac
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
PKGS=(
  cmake g++ ninja-build pkg-config ccache git
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libqcustomplot2.1-qt6
  # the interface's translations: lrelease builds resources/translations/*.ts (Qt6LinguistTools), lupdate refreshes them
  qt6-l10n-tools qt6-tools-dev
  libtorch-dev libopenblas0-openmp
  libsentencepiece-dev sentencepiece
  nlohmann-json3-dev libcli11-dev libicu-dev libssl-dev zlib1g-dev libgloo-dev
  # --libtorch=wheel: the virtual environment for PyPI's torch
  python3-venv
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

if [ "$LIBTORCH" = wheel ]; then
  VENV=${TWB_TORCH_VENV:-$HOME/.local/share/transformer-workbench/torch-wheel}
  if [ ! -x "$VENV/bin/python" ]; then
    echo "setup: creating $VENV"
    mkdir -p "$(dirname "$VENV")"
    /usr/bin/python3 -m venv "$VENV"
  fi
  echo "setup: installing or upgrading PyPI's torch in $VENV (about 3 GB the first time)"
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  "$VENV/bin/python" -m pip install --upgrade torch
  "$VENV/bin/python" -c "import torch, torch.utils; print('setup: torch', torch.__version__, \
'C++11 ABI' if torch.compiled_with_cxx11_abi() else 'pre-C++11 ABI (will not link with Qt)', \
torch.utils.cmake_prefix_path)"
  echo "setup: now: TWB_LIBTORCH=wheel bash scripts/build.sh   (builds into build-wheel/)"
fi
