#!/usr/bin/env bash
# Checks that every C++ source the project tracks is formatted with the committed .clang-format.
# Prints the files that are not, with the command that fixes them; exit 1 when there are any.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check-format: clang-format is not installed (apt-get install clang-format)"; exit 1; }
bad=()
while IFS= read -r -d '' f; do
  [ -f "$f" ] || continue
  clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done < <(git ls-files -z --cached --others --exclude-standard -- '*.cpp' '*.h' '*.cu')
if [ ${#bad[@]} -gt 0 ]; then
  echo "check-format: ${#bad[@]} file(s) not formatted with .clang-format:"
  printf '  %s\n' "${bad[@]}"
  echo "fix with: clang-format -i ${bad[*]}"
  exit 1
fi
echo "check-format: every tracked C++ file is formatted"
