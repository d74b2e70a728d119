#!/usr/bin/env bash
# check_std_bindings.sh EXE [ARGS...]  (default ARGS: --version)
# Fails when a C++ standard library symbol that EXE itself uses (std::..., mangled _ZSt, _ZNSt, _ZNKSt)
# is bound by the dynamic linker to a library other than libstdc++ (or libgcc_s, libc, libm, a
# sanitizer runtime): some torch wheels export their own copies of libstdc++ functions (2.11's
# libtorch.so: std::filesystem without the helpers it needs, so remove_all jumped to address 0), and
# the first library in the needed order wins. Also fails when libstdc++ does not come before every
# torch library in EXE's needed list. LD_BIND_NOW=1 makes every binding happen at start-up, so a quick
# argument is enough. glibc prints the bindings to stderr, one a line:
#   binding file ./twb [0] to /.../libstdc++.so.6 [0]: normal symbol `_ZNSt10filesystem10remove_all...' [GLIBCXX_3.4.26]
set -uo pipefail
exe=${1:?usage: check_std_bindings.sh EXE [ARGS...]}
shift
[ $# -gt 0 ] || set -- --version
log=$(mktemp)
trap 'rm -f "$log"' EXIT

needed=$(readelf -d "$exe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
first_torch=$(echo "$needed" | grep -n -E '^lib(torch|c10)' | head -1 | cut -d: -f1)
stdcxx=$(echo "$needed" | grep -n '^libstdc++' | head -1 | cut -d: -f1)
if [ -n "$first_torch" ] && { [ -z "$stdcxx" ] || [ "$stdcxx" -gt "$first_torch" ]; }; then
  echo "FAIL: $exe needs a torch library before libstdc++ (needed order: $(echo $needed))"
  exit 1
fi

LD_BIND_NOW=1 LD_DEBUG=bindings "$exe" "$@" >/dev/null 2>"$log"
rc=$?
grep -q 'binding file ' "$log" || { echo "FAIL: no LD_DEBUG output from $exe (exit $rc)"; exit 2; }
bad=$(awk -v exe="$exe" '
  {
    i = index($0, "binding file "); if (!i) next
    s = substr($0, i + 13)
    pre = exe " ["; if (substr(s, 1, length(pre)) != pre) next        # references from exe itself
    if (!match(s, /\] to .* \[[0-9]+\]: [a-z]+ symbol `/)) next
    lib = substr(s, RSTART + 5, RLENGTH - 5); sub(/ \[[0-9]+\]: [a-z]+ symbol `$/, "", lib)
    sym = substr(s, RSTART + RLENGTH); sub(/\047.*$/, "", sym)
    if (sym !~ /^_Z(N|NK)?St/) next
    base = lib; sub(/^.*\//, "", base)
    if (lib == exe || base ~ /^(libstdc\+\+|libgcc_s|libc|libm|ld-linux|libasan|libubsan|liblsan|libtsan)[.-]/) next
    print sym " -> " lib
  }' "$log")
if [ -n "$bad" ]; then
  echo "$bad" | while IFS= read -r l; do echo "bound outside libstdc++: $l   [$(echo "${l%% -> *}" | c++filt)]"; done
  echo "FAIL: $(echo "$bad" | wc -l) std:: symbol(s) of $exe bound outside libstdc++"
  exit 1
fi
echo "PASS: every std:: symbol of $exe binds to libstdc++ (libstdc++ is needed before torch; exit $rc)"
