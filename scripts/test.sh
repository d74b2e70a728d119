#!/usr/bin/env bash
# Command 2 of the README (and what CI runs): install and build where needed, then run every test
# against Debian's libtorch (build/); the engine's and the UI's tests a second time as on the other kind of CPU
# (on an AVX2-only one, dtype=auto in bf16 through TWB_CPU_BF16=1; on one with native bf16, float32 and the
# libraries' AVX2 kernels, scripts/avx2_kernels.sh), so that one machine proves the suite on both kinds
# (TWB_TEST_BF16_SWITCH=0 skips that pass); and everything again against the torch wheel (build-wheel/) when its virtual environment exists (scripts/setup.sh
# --libtorch=wheel makes it; TWB_TEST_WHEEL=0 skips that pass), and a focused subset against the oldest
# supported wheel (torch 2.11) when its venv exists too. Under CI=true a skipped test fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
export QT_QPA_PLATFORM=offscreen

# Fails under CI=true when a test skipped anything: Qt Test's "SKIP :" lines or a packaging check's
# "SKIP:" in ctest's full log of the last run (LastTest.log holds every test's output, passing or not).
no_skips() {
  local log=$1/Testing/Temporary/LastTest.log
  if [ "${CI:-}" = true ] && grep -E '^SKIP *:' "$log" >/dev/null; then
    echo "test: error: under CI=true no test may skip; these did:" >&2
    grep -E '^SKIP *:' "$log" >&2
    return 1
  fi
}

# Label cuda needs a GPU (bench/gpu_check.sh runs it on one); everything else runs here.
ctest --test-dir build --output-on-failure -j"$(nproc)" -LE cuda "$@"
no_skips build

if [ "${TWB_TEST_BF16_SWITCH:-1}" != 0 ]; then
  if grep -qwE 'avx512_bf16|amx_bf16' /proc/cpuinfo; then
    # As on an AVX2-only CPU: float32 for dtype=auto, and libtorch's, OpenBLAS's and glibc's AVX2 kernels.
    . scripts/avx2_kernels.sh
    echo "test: the engine's and the UI's tests again as on an AVX2-only CPU (TWB_CPU_BF16=0 and the libraries' AVX2 kernels: scripts/avx2_kernels.sh)"
    (avx2_kernels_env && ctest --test-dir build --output-on-failure -j"$(nproc)" -L 'engine|ui' -LE cuda "$@")
  else
    echo "test: the engine's and the UI's tests again with TWB_CPU_BF16=1 (dtype=auto as on a CPU with native bf16)"
    TWB_CPU_BF16=1 ctest --test-dir build --output-on-failure -j"$(nproc)" -L 'engine|ui' -LE cuda "$@"
  fi
  no_skips build
fi
VENV=${TWB_TORCH_VENV:-$HOME/.local/share/transformer-workbench/torch-wheel}
if [ "${TWB_TEST_WHEEL:-1}" != 0 ] && compgen -G "$VENV/lib/python3*/site-packages/torch/share/cmake/Torch/TorchConfig.cmake" >/dev/null; then
  echo "test: the torch wheel in $VENV: building build-wheel/ and running the suite against it"
  TWB_LIBTORCH=wheel bash scripts/build.sh
  ctest --test-dir build-wheel --output-on-failure -j"$(nproc)" -LE cuda "$@"
  no_skips build-wheel
else
  echo "test: tested against Debian's libtorch only (scripts/setup.sh --libtorch=wheel installs the torch wheel; the suite then runs against it too)"
fi
# The oldest supported wheel (torch 2.11, what GPU images ship), when its venv exists beside the one
# above: a focused subset (loading, checkpoints with pruning, resume, a short training, generation with
# the fixed-shape step, SDPA, the std:: bindings that crashed under it) in build-gpu/, the folder
# bench/gpu_bundle.sh builds for a GPU machine (TWB_TORCH_VENV_OLDEST names another venv).
OLDEST=${TWB_TORCH_VENV_OLDEST:-$HOME/.local/share/transformer-workbench/torch-2.11}
if [ "${TWB_TEST_WHEEL:-1}" != 0 ] && [ "$OLDEST" != "$VENV" ] &&
  compgen -G "$OLDEST/lib/python3*/site-packages/torch/share/cmake/Torch/TorchConfig.cmake" >/dev/null; then
  echo "test: the oldest supported torch wheel in $OLDEST: build-gpu/ and the focused subset"
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DTWB_LIBTORCH=wheel -DTWB_TORCH_VENV="$OLDEST" \
    -DTWB_BUILD_GUI=OFF >/dev/null
  cmake --build build-gpu -j"$(nproc)" --target twb twb_spm tst_checkpoint tst_trainer tst_train_step tst_sampler \
    tst_attention_sdpa
  ctest --test-dir build-gpu --output-on-failure -j"$(nproc)" \
    -R '^(tst_checkpoint|tst_trainer|tst_train_step|tst_sampler|tst_attention_sdpa|tst_std_bindings_twb|tst_std_bindings_tests)$'
  no_skips build-gpu
fi
# The package check installs into the system: only as root in CI (CI=true) or when asked for with
# TWB_CHECK_PACKAGE=1; TWB_CHECK_PACKAGE=0 skips it.
if [ "$(id -u)" -eq 0 ] && [ "${TWB_CHECK_PACKAGE:-}" != 0 ] &&
  { [ "${CI:-}" = true ] || [ "${TWB_CHECK_PACKAGE:-}" = 1 ]; }; then
  bash scripts/check-package.sh
fi
