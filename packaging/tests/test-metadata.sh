#!/usr/bin/env bash
# ctest pkg_desktop_entry: the desktop entry and the AppStream metadata pass their validators.
# usage: test-metadata.sh DESKTOP_FILE METAINFO_FILE
set -euo pipefail
desktop=$1 metainfo=$2
for tool in desktop-file-validate appstreamcli; do
  command -v $tool >/dev/null || { echo "SKIP: $tool is not installed (bash scripts/setup.sh)"; exit "$([ "${CI:-}" = true ] && echo 1 || echo 77)"; }  # CI=true: a skip fails
done
fail=0
if out=$(desktop-file-validate "$desktop" 2>&1) && [ -z "$out" ]; then
  echo "ok: desktop-file-validate $(basename "$desktop")"
else
  echo "FAIL: desktop-file-validate $(basename "$desktop"):"; printf '%s\n' "$out"; fail=1
fi
if out=$(appstreamcli validate --no-net "$metainfo" 2>&1); then
  echo "ok: appstreamcli validate --no-net $(basename "$metainfo")"; printf '%s\n' "$out"
else
  echo "FAIL: appstreamcli validate --no-net $(basename "$metainfo"):"; printf '%s\n' "$out"; fail=1
fi
[ $fail -eq 0 ] && echo PASS || echo FAIL
exit $fail
