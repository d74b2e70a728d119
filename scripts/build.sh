#!/usr/bin/env bash
# Configures and builds into ./build (Release, Ninja, ccache when present) against the libtorch CMake
# finds (the user's Torch_DIR/CMAKE_PREFIX_PATH, else Debian's, else the torch wheel's venv).
# TWB_LIBTORCH=wheel (or --libtorch=wheel) builds against the venv of `scripts/setup.sh --libtorch=wheel`
# ($TWB_TORCH_VENV) into ./build-wheel instead. TWB_TARGETS="a b" builds only those targets (command 1
# builds just the programs and the sentencepiece module; command 2 builds the rest).
set -euo pipefail
cd "$(dirname "$0")/.."
LIBTORCH=${TWB_LIBTORCH:-auto}
for a in "$@"; do
  case "$a" in
    --libtorch=*) LIBTORCH=${a#--libtorch=} ;;
    *) echo "build: error: unknown option $a (expected --libtorch=auto|wheel)" >&2; exit 2 ;;
  esac
done
ARGS=()
if [ "$LIBTORCH" = wheel ]; then
  BUILD_DIR=${BUILD_DIR:-build-wheel}
  ARGS+=(-DTWB_LIBTORCH=wheel -DTWB_TORCH_VENV="${TWB_TORCH_VENV:-$HOME/.local/share/transformer-workbench/torch-wheel}")
else
  BUILD_DIR=${BUILD_DIR:-build}
fi
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} "${ARGS[@]}"
# shellcheck disable=SC2086
cmake --build "$BUILD_DIR" -j"$(nproc)" ${TWB_TARGETS:+--target $TWB_TARGETS}
