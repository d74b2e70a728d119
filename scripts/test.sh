#!/usr/bin/env bash
# Command 2 of the README (and what CI runs): install and build where needed, then run every test
# against Debian's libtorch (build/), and again against the torch wheel (build-wheel/) when its virtual
# environment exists (scripts/setup.sh --libtorch=wheel makes it; TWB_TEST_WHEEL=0 skips that pass).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
export QT_QPA_PLATFORM=offscreen
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
VENV=${TWB_TORCH_VENV:-$HOME/.local/share/transformer-workbench/torch-wheel}
if [ "${TWB_TEST_WHEEL:-1}" != 0 ] && compgen -G "$VENV/lib/python3*/site-packages/torch/share/cmake/Torch/TorchConfig.cmake" >/dev/null; then
  echo "test: the torch wheel in $VENV: building build-wheel/ and running the suite against it"
  TWB_LIBTORCH=wheel bash scripts/build.sh
  ctest --test-dir build-wheel --output-on-failure -j"$(nproc)" "$@"
else
  echo "test: tested against Debian's libtorch only (scripts/setup.sh --libtorch=wheel installs the torch wheel; the suite then runs against it too)"
fi
# The package check installs into the system: only as root in CI (CI=true) or when asked for with
# TWB_CHECK_PACKAGE=1; TWB_CHECK_PACKAGE=0 skips it.
if [ "$(id -u)" -eq 0 ] && [ "${TWB_CHECK_PACKAGE:-}" != 0 ] &&
  { [ "${CI:-}" = true ] || [ "${TWB_CHECK_PACKAGE:-}" = 1 ]; }; then
  bash scripts/check-package.sh
fi
