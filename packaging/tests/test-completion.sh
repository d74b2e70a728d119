#!/usr/bin/env bash
# ctest pkg_completion: the generated bash completion completes subcommands, options, option choices
# and --set KEY=VALUE through bash-completion's loader functions, as in an interactive shell.
# usage: test-completion.sh COMPLETION_FILE TWB CONFIG_KEYS
set -uo pipefail
completion=$1 twb=$2 keys=$3
bc=/usr/share/bash-completion/bash_completion
[ -f "$bc" ] || { echo "SKIP: bash-completion is not installed (bash scripts/setup.sh)"; exit "$([ "${CI:-}" = true ] && echo 1 || echo 77)"; }  # CI=true: a skip fails
awk_help="$(cd "$(dirname "$0")/.." && pwd)/cli-help.awk"
commands=$("$twb" --help | awk -f "$awk_help" | awk -F'\t' '$1 == "subcommand" { print $2 }' | sort | tr '\n' ' ')
all_keys=$("$keys" | cut -f1 | sed 's/$/=/' | sort | tr '\n' ' ')

BASH_COMPLETION_USER_DIR=/nonexistent source "$bc"
source "$completion"

fail=0
# expect "LINE" "EXPECTED (sorted, space-separated)" WORD...: WORDs are the line as readline splits it
# (at spaces and at '='), the last one being completed.
expect() {
    local line=$1 want=$2
    shift 2
    COMP_WORDS=("$@")
    COMP_CWORD=$(($# - 1))
    COMP_LINE=$line
    COMP_POINT=${#line}
    COMPREPLY=()
    _twb twb "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
    local got
    got=$(printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | sort | tr '\n' ' ')
    if [ "$got" = "$want" ]; then
        echo "ok: '$line' -> $got"
    else
        echo "FAIL: '$line'"
        echo "   expected: $want"
        echo "   got:      $got"
        fail=1
    fi
}

# The program's own top-level options (-h,--help, --version, --verbose ...), split at commas.
top_options=$("$twb" --help | awk -f "$awk_help" | awk -F'\t' '$1 == "option" { print $2 }' | tr ',' '\n')
expect "twb " "$(printf '%s\n' $commands $top_options | sort | tr '\n' ' ')" twb ""
expect "twb tr" "train translate " twb tr
expect "twb train --se" "--set " twb train --se
expect "twb train --set " "$all_keys" twb train --set ""
expect "twb train -s n_la" "n_layer= " twb train -s n_la
expect "twb train --set position=r" "rotary " twb train --set position = r
expect "twb train --set dtype=" "auto bfloat16 float32 " twb train --set dtype = ""
expect "twb sweep --axis n_h" "n_head= " twb sweep --axis n_h
expect "twb train --preset " "baby-gpt default multi30k nanogpt-cpu tatoeba tiny " twb train --preset ""
expect "twb prepare --tokenizer b" "bpe byte bytebpe " twb prepare --tokenizer b
expect "twb synth --task " "addition copy instructions reverse sort " twb synth --task ""
expect "twb sample --no-" "--no-history --no-kv-cache --no-repeat-ngram " twb sample --no-
expect "twb sample --top-k " "" twb sample --top-k ""
[ $fail -eq 0 ] && echo PASS || echo FAIL
exit $fail
