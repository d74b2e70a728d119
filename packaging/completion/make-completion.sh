#!/usr/bin/env bash
# Writes the bash completion of twb at build time: fills the tables of twb.bash.in from `twb --help`,
# each `twb COMMAND --help` (through packaging/cli-help.awk) and twb-config-keys.
# What an option's value completes to: the choices CLI11 lists ({a,b}) or a description that is only
# "a | b | c"; config keys for --set and --axis (KEY=VALUE); nothing for numbers; files otherwise.
# usage: make-completion.sh TWB CONFIG_KEYS TEMPLATE OUT
# Fields are read split at \037, not at tabs: read collapses runs of tabs, and empty fields are common.
set -euo pipefail
twb_bin=$1 keys_bin=$2 template=$3 out=$4
awk_help="$(cd "$(dirname "$0")/.." && pwd)/cli-help.awk"
key_options=" --set --axis "

quote() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

tables=$(
  commands=$("$twb_bin" --help | awk -f "$awk_help" | awk -F'\t' '$1 == "subcommand" { print $2 }')
  globals=$("$twb_bin" --help | awk -f "$awk_help" | awk -F'\t' '$1 == "option" { gsub(",", " ", $2); print $2 }')
  echo "_twb_commands=$(quote "$(echo $commands)")"
  echo "_twb_global_options=$(quote "$(echo $globals)")"
  echo "declare -gA _twb_options=() _twb_values=() _twb_positional=() _twb_key_choices=()"
  for cmd in $commands; do
    opts=()
    while IFS=$'\037' read -r kind names type choices def req rep desc; do
      if [ "$kind" = positional ]; then
        echo "_twb_positional[$cmd]=1"
        continue
      fi
      IFS=, read -r -a aliases <<<"$names"
      opts+=("${aliases[@]}")
      [ -n "$type" ] || continue
      if [ -n "$choices" ]; then
        what=${choices//,/ }
      elif [[ $desc =~ ^[a-z0-9_-]+( \| [a-z0-9_-]+)+$ ]]; then
        what=${desc// | / }
      elif [[ $key_options == *" ${aliases[-1]} "* ]]; then
        what=@key
      elif [[ $type == INT || $type == UINT || $type == FLOAT ]]; then
        what=@none
      else
        what=@file
      fi
      for a in "${aliases[@]}"; do
        echo "_twb_values[$(quote "$cmd $a")]=$(quote "$what")"
      done
    done < <("$twb_bin" "$cmd" --help | awk -f "$awk_help" | tr '\t' '\037')
    echo "_twb_options[$cmd]=$(quote "${opts[*]}")"
  done
  keys=()
  while IFS=$'\037' read -r key def choices _rest; do
    keys+=("$key")
    [ -n "$choices" ] && echo "_twb_key_choices[$key]=$(quote "$choices")"
  done < <("$keys_bin" | tr '\t' '\037')
  echo "_twb_keys=$(quote "${keys[*]}")"
)

TABLES=$tables awk '$0 == "@TWB_COMPLETION_TABLES@" { print ENVIRON["TABLES"]; next } { print }' "$template" >"$out"
