#!/usr/bin/env bash
# Builds the Debian package (transformer-workbench_VERSION-REVISION_ARCH.deb) from the source tree:
# configures and builds a Release build in $BUILD_DIR (default build/, reused when it exists), then runs
# CPack with packaging/CMakeLists.txt's configuration. The last line printed is the path of the .deb.
# Install it with: sudo apt-get install ./build/package/transformer-workbench_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
for tool in help2man rsvg-convert dpkg-shlibdeps gzip; do
  command -v "$tool" >/dev/null || { echo "package: $tool is missing; run bash scripts/setup.sh" >&2; exit 1; }
done
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTWB_BUILD_GUI=ON
cmake --build "$BUILD_DIR" -j"$(nproc)" --target all twb_cli_docs
out=$(cd "$BUILD_DIR" && pwd)/package
rm -f "$out"/transformer-workbench_*.deb
(cd "$BUILD_DIR" && cpack -G DEB -B "$out")
deb=$(ls "$out"/transformer-workbench_*.deb)
echo "package: $(du -h "$deb" | cut -f1) $(dpkg-deb -f "$deb" Package Version Architecture | tr '\n' ' ')"
echo "$deb"
