#!/usr/bin/env bash
# Writes twb(1) from the program itself, at build time, so the page lists every subcommand and option
# that twb has: help2man turns `twb --help` into NAME, SYNOPSIS and OPTIONS; this script adds COMMANDS
# (each `twb COMMAND --help`, through packaging/cli-help.awk) and CONFIGURATION KEYS (twb-config-keys:
# every --set key of the option table with its default, range, choices, model family and help) to the
# hand-written parts in twb.h2m (configured with the install paths).
# usage: make-twb-man.sh TWB CONFIG_KEYS H2M OUT.1
set -euo pipefail
twb_bin=$1 keys_bin=$2 h2m=$3 out=$4
here=$(cd "$(dirname "$0")/.." && pwd)
awk_help="$here/cli-help.awk"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Run twb by its name, so the usage lines it prints say "twb", not the build folder.
mkdir "$tmp/bin"
ln -s "$(readlink -f "$twb_bin")" "$tmp/bin/twb"
export PATH="$tmp/bin:$PATH"

# roff-safe text: backslashes shown literally, no control character at the start of a line.
esc='s/\\/\\e/g; s/^[.'"'"']/\\\&&/'

{
  cat "$h2m"
  echo
  echo "[COMMANDS]"
  twb --help | awk -f "$awk_help" | awk -F'\t' '$1 == "subcommand" { print $2 }' | while read -r cmd; do
    help=$(twb "$cmd" --help) || { echo "make-twb-man.sh: 'twb $cmd --help' failed (exit $?)" >&2; exit 1; }
    summary=$(printf '%s\n' "$help" | head -n 1)
    usage=$(printf '%s\n' "$help" | sed -n 's/^Usage: twb //p')
    echo ".SS \"twb $cmd\""
    printf '%s\n' "$summary" | sed "$esc"
    echo ".PP"
    printf '.B twb %s\n' "$(printf '%s' "$usage" | sed 's/-/\\-/g')"
    # Split at \037, not at tabs: read collapses runs of tabs, and empty fields are common.
    printf '%s\n' "$help" | awk -f "$awk_help" | tr '\t' '\037' | while IFS=$'\037' read -r kind names type choices def req rep desc; do
      [ "$names" = "-h,--help" ] && continue
      tag=$(printf '%s' "$names" | sed 's/-/\\-/g; s/^\([^,]*\)/\\fB\1\\fR/; s/,\(.*\)/, \\fB\1\\fR/')
      if [ -n "$choices" ]; then
        tag="$tag \\fI{$choices}\\fR"
      elif [ -n "$type" ]; then
        tag="$tag \\fI$type\\fR"
      fi
      notes=""
      [ "$req" = 1 ] && notes="$notes Required."
      [ "$rep" = 1 ] && notes="$notes Repeatable."
      [ -n "$def" ] && notes="$notes Default: $def."
      echo ".TP"
      printf '%s\n' "$tag"
      printf '%s%s\n' "$desc" "$notes" | sed "$esc"
    done
  done

  echo
  echo "[CONFIGURATION KEYS]"
  echo "A run's configuration uses nanoGPT's key names. \\fBtwb train\\fR, \\fBtwb sweep\\fR and"
  echo "\\fBtwb lr-find\\fR start from \\fB\\-\\-preset\\fR, apply \\fB\\-\\-config\\fR FILE.json, then"
  echo "each \\fB\\-\\-set\\fR \\fIKEY\\fR=\\fIVALUE\\fR; an unknown key or a bad value is refused with the"
  echo "list of problems. The keys, with the default preset's values:"
  "$keys_bin" | tr '\t' '\037' | while IFS=$'\037' read -r key def choices type range families help; do
    echo ".TP"
    if [ -n "$def" ] && [ "$def" != '""' ]; then
      printf '\\fB%s\\fR (default %s)\n' "$key" "$def" | sed 's/-/\\-/g'
    else
      printf '\\fB%s\\fR\n' "$key"
    fi
    line="$help."
    [ -z "$range" ] || line="$line ${range^}."
    if [ -n "$choices" ] && [ "$type" != text ]; then
      line="$line One of: ${choices// /, }."
    fi
    case "$families" in
      decoder) line="$line Decoder LM only." ;;
      encoder_decoder) line="$line Encoder-decoder only." ;;
    esac
    printf '%s\n' "$line" | sed "$esc"
  done
} > "$tmp/twb.h2m"

# The page's date: the release's (TWB_RELEASE_DATE, from debian/changelog), not the build's.
if [ -n "${TWB_RELEASE_DATE:-}" ]; then
  SOURCE_DATE_EPOCH=$(date -u -d "$TWB_RELEASE_DATE" +%s)
  export SOURCE_DATE_EPOCH
fi
version=$(twb --version | awk '{ print $NF }')
help2man --no-info --no-discard-stderr --section=1 \
  --name="Transformer Workbench command line: prepare data, train, evaluate and sample small transformer language models" \
  --source="Transformer Workbench $version" --manual="User Commands" \
  --include="$tmp/twb.h2m" --output="$out" twb
