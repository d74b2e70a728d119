#!/usr/bin/env bash
# Command 1 of the README: install the Debian packages, build what runs (the two programs and the
# sentencepiece module: not the tests and benches, which command 2 builds), and start the GUI.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
TWB_TARGETS="transformer-workbench twb twb_spm" bash scripts/build.sh
exec ./build/bin/transformer-workbench "$@"
