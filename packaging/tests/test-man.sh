#!/usr/bin/env bash
# ctest pkg_man_pages: every man page renders with `man -l` without a groff warning, and twb(1) names
# every subcommand, every option of each and every configuration key.
# usage: test-man.sh TWB CONFIG_KEYS PAGE.1...
set -euo pipefail
twb=$1 keys=$2
shift 2
command -v man >/dev/null || { echo "SKIP: man is not installed (apt-get install man-db)"; exit "$([ "${CI:-}" = true ] && echo 1 || echo 77)"; }  # CI=true: a skip fails
awk_help="$(cd "$(dirname "$0")/.." && pwd)/cli-help.awk"
fail=0
for page in "$@"; do
  [ -s "$page" ] || { echo "FAIL: $page is missing"; fail=1; continue; }
  warnings=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null || true)
  if [ -n "$warnings" ]; then
    echo "FAIL: $(basename "$page") renders with warnings:"
    printf '%s\n' "$warnings"
    fail=1
    continue
  fi
  lines=$(MANWIDTH=80 LC_ALL=C.UTF-8 man -E UTF-8 -l "$page" 2>/dev/null | wc -l)
  echo "ok: $(basename "$page") renders ($lines lines)"
  if [ "$(basename "$page")" = twb.1 ]; then
    text=$(MANWIDTH=200 LC_ALL=C.UTF-8 man -E UTF-8 -l "$page" 2>/dev/null | sed 's/‐/-/g')
    missing=()
    for cmd in $("$twb" --help | awk -f "$awk_help" | awk -F'\t' '$1 == "subcommand" { print $2 }'); do
      grep -q "^   twb $cmd\$" <<<"$text" || missing+=("command $cmd")
      for opt in $("$twb" "$cmd" --help | awk -f "$awk_help" | awk -F'\t' '$1 == "option" { gsub(",", " ", $2); print $2 }'); do
        grep -qe "$opt" <<<"$text" || missing+=("$cmd $opt")
      done
    done
    for key in $("$keys" | cut -f1); do
      grep -qE "^ +$key( |\$)" <<<"$text" || missing+=("key $key")
    done
    if [ ${#missing[@]} -gt 0 ]; then
      echo "FAIL: twb.1 does not describe: ${missing[*]}"
      fail=1
    else
      echo "ok: twb.1 describes every subcommand, option and configuration key"
    fi
  fi
done
[ $fail -eq 0 ] && echo PASS || echo FAIL
exit $fail
