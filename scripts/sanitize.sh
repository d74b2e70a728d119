#!/usr/bin/env bash
# The torch-free core and its tests under AddressSanitizer and UndefinedBehaviorSanitizer: tokenizers,
# preparation, configs, run files and the hardening checks. Shares build-fuzz (clang, ASan+UBSan, the
# core only) with scripts/fuzz.sh, so CI builds the core once for both. Any report fails the run.
#   bash scripts/sanitize.sh [ctest args]
set -euo pipefail
cd "$(dirname "$0")/.."
B=build-fuzz
if [ ! -f $B/build.ninja ]; then
    CC=clang CXX=clang++ cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTWB_FUZZ=ON >/dev/null
fi
nice -n 10 ninja -C $B >/dev/null
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export QT_QPA_PLATFORM=offscreen
# tst_engine_boundary reads sources (no code of ours runs in it) and check_format is no runtime check.
ctest --test-dir $B --output-on-failure -j2 -LE format -E tst_engine_boundary "$@"
