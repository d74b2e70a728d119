# Reads the --help text CLI11 prints for twb or one of its subcommands and writes one tab-separated
# record per entry, for the man page and the bash completion generated at build time:
#   kind  names  type  choices  default  required  repeatable  description
# kind is option, positional or subcommand; names are comma-separated (-d,--data); choices are
# comma-separated ({char,byte,...} in CLI11's type column). It knows CLI11's layout only: an entry starts
# two spaces in, its description follows in column 31 or on the lines below, indented by 30.

function flush(   left, spec, names, type, choices, def, req, rep) {
    if (entry == "")
        return
    left = entry
    names = left; spec = ""
    if (match(left, / /)) {
        names = substr(left, 1, RSTART - 1)
        spec = substr(left, RSTART + 1)
    }
    req = 0; rep = 0
    if (sub(/ ?REQUIRED$/, "", spec)) req = 1
    if (sub(/ ?\.\.\.$/, "", spec)) rep = 1
    if (sub(/ ?REQUIRED$/, "", spec)) req = 1
    type = spec; choices = ""; def = ""
    if (match(spec, /:\{[^}]*\}/))
        choices = substr(spec, RSTART + 2, RLENGTH - 3)
    if (match(spec, /^[A-Z]+=/)) {
        def = substr(spec, RLENGTH + 1)
        type = substr(spec, 1, RLENGTH - 1)
    }
    sub(/:.*/, "", type)
    gsub(/\t/, " ", desc)
    printf "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\n", kind, names, type, choices, def, req, rep, desc
    entry = ""; desc = ""
}

/^Options:$/     { flush(); section = "option"; next }
/^Positionals:$/ { flush(); section = "positional"; next }
/^Subcommands:$/ { flush(); section = "subcommand"; next }
/^$/             { flush(); section = ""; next }
section != "" && /^  [^ ]/ {
    flush()
    kind = section
    # CLI11 pads "  NAME" to 30 columns and starts the description in column 31; a NAME of 28
    # characters or more is followed by a line break and the description indented by 30.
    if (length($0) > 30 && substr($0, 30, 1) == " " && substr($0, 31, 1) != " ") {
        entry = substr($0, 3, 27)
        desc = substr($0, 31)
    } else {
        entry = substr($0, 3)
        desc = ""
    }
    sub(/ +$/, "", entry)
    next
}
section != "" && /^   +[^ ]/ {
    line = $0
    sub(/^ +/, "", line)
    desc = (desc == "" ? line : desc " " line)
    next
}
END { flush() }
