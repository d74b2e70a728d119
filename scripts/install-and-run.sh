#!/usr/bin/env bash
# Command 1 of the README: install the Debian packages, build, and start the GUI.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
exec ./build/bin/transformer-workbench "$@"
