#!/usr/bin/env bash
# Prepares, on a Debian 12 build machine, what bench/gpu_check.sh needs on a GPU machine that has no Qt,
# no Debian libraries and no network, only a Python with the same torch wheel (docs/benchmarks/gpu.md,
# "The GPU check"): twb, its sentencepiece module and the CUDA tests built against that wheel (TWB_LIBTORCH=
# wheel, no GUI) into build-gpu/, then copied with the Debian libraries they need (ICU 72, sentencepiece,
# libcrypto 3, ...; about 50 MB) and the corpora the check uses into gpu-bundle/, and that folder as
# gpu-bundle.tar.xz (git ignores all three).
#
#   TWB_TORCH_VENV=~/.local/share/transformer-workbench/torch-2.11 bash bench/gpu_bundle.sh
#   NANOGPT=/path/to/a/nanoGPT/checkout bash bench/gpu_bundle.sh   # also bundles nanoGPT (its files, not ours)
#   GPU_BUNDLE_GUI=0 bash bench/gpu_bundle.sh   # without the GUI's test (tests/ui/tst_gpu_gui.cpp), its Qt
#                                               # libraries, offscreen platform plugin and fonts
#
# The venv must hold the torch version of the GPU machine's Python (`python3 -c 'import torch;
# print(torch.__version__)'` there): `python3 -m venv V && V/bin/pip install torch==2.11.0`.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
venv=${TWB_TORCH_VENV:-$HOME/.local/share/transformer-workbench/torch-wheel}
shared=${TWB_SHARED:-$here/../shared}
out=gpu-bundle
[ -x "$venv/bin/python" ] || { echo "gpu_bundle: error: no venv at $venv (set TWB_TORCH_VENV)" >&2; exit 2; }
version=$("$venv/bin/python" -c 'import torch; print(torch.__version__)')
echo "gpu_bundle: torch $version from $venv"

gui=${GPU_BUNDLE_GUI:-1}
targets=(twb twb-torch twb_spm tst_cuda)
[ "$gui" = 1 ] && targets+=(tst_gpu_gui)
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DTWB_LIBTORCH=wheel -DTWB_TORCH_VENV="$venv" \
  -DTWB_BUILD_GUI="$([ "$gui" = 1 ] && echo ON || echo OFF)" >/dev/null
cmake --build build-gpu -j"$(nproc)" --target "${targets[@]}"

rm -rf "$out.tmp"
mkdir -p "$out.tmp/bin" "$out.tmp/lib" "$out.tmp/data"
cp build-gpu/bin/twb build-gpu/bin/twb-torch build-gpu/bin/libtwb_spm.so build-gpu/bin/tst_cuda "$out.tmp/bin/"
cp tests/engine/check_std_bindings.sh "$out.tmp/bin/"
if [ "$gui" = 1 ]; then
  # The GUI's GPU test runs offscreen there: Qt's offscreen platform plugin and two fonts for fontconfig.
  cp build-gpu/bin/tst_gpu_gui "$out.tmp/bin/"
  plugins=$(qtpaths6 --query QT_INSTALL_PLUGINS)
  mkdir -p "$out.tmp/plugins/platforms" "$out.tmp/fonts"
  cp "$plugins/platforms/libqoffscreen.so" "$out.tmp/plugins/platforms/"
  cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf \
    "$out.tmp/fonts/"
  cat >"$out.tmp/fonts/fonts.conf" <<'CONF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir prefix="relative">.</dir><cachedir>/tmp/twb-gpu-check-fontconfig</cachedir></fontconfig>
CONF
fi
# The Debian libraries outside torch and the system's base (libc, libstdc++, libgcc_s, libm, ...).
for f in "$out.tmp"/bin/twb "$out.tmp"/bin/twb-torch "$out.tmp"/bin/libtwb_spm.so "$out.tmp"/bin/tst_* "$out.tmp"/plugins/*/*.so; do
  if [ -e "$f" ]; then ldd "$f" | awk '/=> \//{print $3}'; fi
done | sort -u | grep -v -E '/(torch|nvidia|cuda)/|/lib(c|m|dl|rt|pthread|stdc\+\+|gcc_s)\.so|ld-linux' |
  while read -r lib; do cp -L "$lib" "$out.tmp/lib/"; done
cp "$shared/datasets/tinyshakespeare/input.txt" "$out.tmp/data/shakespeare.txt"
mkdir -p "$out.tmp/data/multi30k"
for f in train.de train.en val.de val.en test_2016_flickr.de test_2016_flickr.en; do
  cp "$shared/datasets/multi30k/$f" "$out.tmp/data/multi30k/"
done
if [ -n "${NANOGPT:-}" ]; then
  mkdir -p "$out.tmp/nanoGPT"
  cp -r "$NANOGPT"/{model.py,train.py,sample.py,configurator.py,config,data} "$out.tmp/nanoGPT/"
fi
cp bench/gpu_check.sh bench/trace_summary.py "$out.tmp/"
echo "$version" >"$out.tmp/torch-version"
rm -rf "$out" && mv "$out.tmp" "$out"
du -sh "$out"
# The folder is ~110 MB (ICU's data alone 31 MB), over what a device call carries with the working tree
# (64 MiB): xz takes it to ~31 MB, and Python's tarfile, which any GPU machine with torch has, unpacks it.
tar -cf - "$out" | xz -T"$(nproc)" -6 >"$out.tar.xz.tmp"
mv "$out.tar.xz.tmp" "$out.tar.xz"
ls -l "$out.tar.xz"
echo "gpu_bundle: carry $out/ (or $out.tar.xz) to the GPU machine and run there:"
echo "  python3 -c \"import tarfile; tarfile.open('$out.tar.xz').extractall()\"  # the archive only"
echo "  bash $out/gpu_check.sh OUT_DIR"
