#!/usr/bin/env bash
# Command 2 of the README (and what CI runs): install and build where needed, then run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
export QT_QPA_PLATFORM=offscreen
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
# The package check installs into the system: only as root in CI (CI=true) or when asked for with
# TWB_CHECK_PACKAGE=1; TWB_CHECK_PACKAGE=0 skips it.
if [ "$(id -u)" -eq 0 ] && [ "${TWB_CHECK_PACKAGE:-}" != 0 ] &&
  { [ "${CI:-}" = true ] || [ "${TWB_CHECK_PACKAGE:-}" = 1 ]; }; then
  bash scripts/check-package.sh
fi
