#!/usr/bin/env bash
# Builds the Debian package and checks it as a user would meet it: validates the desktop entry, the
# AppStream metadata and the man pages, runs lintian, installs it with apt-get, runs twb (doctor,
# a tiny prepare/train/sample, a sentencepiece tokenizer) and the desktop program under Xvfb from
# /usr/bin with the build tree off PATH and in a fresh HOME, checks man and bash completion, then
# removes the package and checks that none of its files is left (the user's workspace stays).
# Needs root: it installs into this system (CI runs it; scripts/test.sh calls it when CI=true).
# One PASS or FAIL line per check; exit status 1 when any failed. The package is removed at the end
# whatever happened.
set -uo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
if [ "$(id -u)" -ne 0 ]; then
  echo "check-package: needs root (it installs the package into the system with apt-get)" >&2
  exit 2
fi
export DEBIAN_FRONTEND=noninteractive
APT=(apt-get -y -q -o DPkg::Lock::Timeout=600)
work=$(mktemp -d /tmp/twb-check-package.XXXXXX)
log=$work/log
failed=0
installed=0

pass() { echo "PASS: $*"; }
fail() {
  echo "FAIL: $*"
  failed=$((failed + 1))
}
# check "WHAT" COMMAND...: PASS, or FAIL with the end of the command's output.
check() {
  local what=$1
  shift
  if "$@" >"$log" 2>&1; then
    pass "$what"
  else
    fail "$what"
    tail -n 40 "$log" | sed 's/^/    /'
  fi
}
# check_show "WHAT" COMMAND...: the same, and the output is shown on success too.
check_show() {
  check "$@" && sed 's/^/    /' "$log"
}
remove_package() {
  if [ $installed -eq 1 ]; then
    "${APT[@]}" purge transformer-workbench >>"$work/remove.log" 2>&1
    installed=0
  fi
}
finish() {
  remove_package
  rm -rf "$work"
}
trap finish EXIT

# --- build ---
echo "check-package: building the package"
if ! bash scripts/package.sh >"$work/package.log" 2>&1; then
  fail "scripts/package.sh builds the package"
  tail -n 40 "$work/package.log" | sed 's/^/    /'
  exit 1
fi
deb=$(tail -n 1 "$work/package.log")
pass "scripts/package.sh built $(basename "$deb") ($(du -h "$deb" | cut -f1), $(dpkg-deb -f "$deb" Installed-Size) KiB installed)"
echo "    Depends: $(dpkg-deb -f "$deb" Depends)"
echo "    Recommends: $(dpkg-deb -f "$deb" Recommends)"

# --- what the package holds ---
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
appid=io.github.transformer_workbench.TransformerWorkbench
dpkg-deb -x "$deb" "$work/root"
expected=(
  usr/bin/twb usr/bin/transformer-workbench
  "usr/lib/$multiarch/transformer-workbench/libtwb_spm.so"
  "usr/lib/$multiarch/transformer-workbench/twb-torch"
  usr/share/transformer-workbench/datasets/catalogue.json
  usr/share/applications/transformer-workbench.desktop
  "usr/share/metainfo/$appid.metainfo.xml"
  usr/share/icons/hicolor/scalable/apps/transformer-workbench.svg
  usr/share/man/man1/twb.1.gz usr/share/man/man1/transformer-workbench.1.gz
  usr/share/bash-completion/completions/twb
  usr/share/doc/transformer-workbench/copyright usr/share/doc/transformer-workbench/changelog.Debian.gz
)
for size in 16 22 24 32 48 64 128 256 512; do
  expected+=("usr/share/icons/hicolor/${size}x${size}/apps/transformer-workbench.png")
done
missing=()
for f in "${expected[@]}"; do
  [ -e "$work/root/$f" ] || missing+=("/$f")
done
if [ ${#missing[@]} -eq 0 ]; then
  pass "the package holds programs, module, catalogue, desktop entry, metainfo, icons, man pages, completion, copyright, changelog"
else
  fail "the package lacks ${missing[*]}"
fi

check "desktop-file-validate transformer-workbench.desktop" \
  bash -c 'out=$(desktop-file-validate "$1" 2>&1); echo "$out"; [ -z "$out" ]' _ \
  "$work/root/usr/share/applications/transformer-workbench.desktop"
check "appstreamcli validate --no-net $appid.metainfo.xml" \
  appstreamcli validate --no-net "$work/root/usr/share/metainfo/$appid.metainfo.xml"
for page in twb transformer-workbench; do
  check "man -l renders $page(1) without warnings" bash -c \
    'out=$(MANWIDTH=80 man --warnings -E UTF-8 -l "$1" 2>&1 >/dev/null); echo "$out"; [ -z "$out" ] &&
     [ "$(MANWIDTH=80 man -E UTF-8 -l "$1" 2>/dev/null | wc -l)" -gt 20 ]' _ \
    "$work/root/usr/share/man/man1/$page.1.gz"
done

lintian --pedantic -I "$deb" >"$work/lintian.log" 2>/dev/null
errors=$(grep -c '^E:' "$work/lintian.log")
warnings=$(grep -c '^W:' "$work/lintian.log")
infos=$(grep -c '^[IP]:' "$work/lintian.log")
if [ "$errors" -eq 0 ]; then
  pass "lintian: $errors errors, $warnings warnings, $infos info/pedantic"
else
  fail "lintian: $errors errors, $warnings warnings, $infos info/pedantic"
fi
grep '^[EW]:' "$work/lintian.log" | sed 's/^/    /'

# --- install ---
if dpkg-query -W -f='${Status}' transformer-workbench 2>/dev/null | grep -q "install ok installed"; then
  echo "check-package: transformer-workbench was installed before the check; it is replaced and removed at the end"
fi
installed=1
if "${APT[@]}" install "$deb" >"$work/install.log" 2>&1; then
  pass "apt-get install ./$(basename "$deb")"
else
  fail "apt-get install ./$(basename "$deb")"
  tail -n 30 "$work/install.log" | sed 's/^/    /'
  exit 1
fi
dpkg -L transformer-workbench >"$work/files"

# --- try it as a user: fresh HOME, a plain PATH, none of the project's variables ---
mkdir -p "$work/home" "$work/try"
user_env=(env -i "HOME=$work/home" "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
  "LANG=C.UTF-8" "USER=root" "TMPDIR=$work")
as_user() { (cd "$work/try" && "${user_env[@]}" "$@"); }

check "twb is /usr/bin/twb, the build tree is not on PATH" \
  as_user bash -c '[ "$(command -v twb)" = /usr/bin/twb ] && [ "$(command -v transformer-workbench)" = /usr/bin/transformer-workbench ]'
check_show "twb doctor (finds the module in /usr/lib/$multiarch/transformer-workbench)" \
  as_user bash -c "twb doctor | tee /dev/stderr | grep -q '^sentencepiece *\\(/usr/bin/\\.\\./lib\\|/usr/lib\\)/$multiarch/transformer-workbench/libtwb_spm.so\$'"
check "twb datasets (reads the catalogue from /usr/share/transformer-workbench)" \
  as_user bash -c "twb datasets | tee /dev/stderr | grep -q '^catalogue: \\(/usr/bin/\\.\\./share\\|/usr/share\\)/transformer-workbench/datasets/catalogue.json\$'"

# About 50 KB of plain text with some variety, made here: no download, no dependency.
as_user bash -c 'words=(the a model learns small text from attention every head layer token word runs
  trains samples over under quick brown fox lazy dog reads writes tiny data and with into)
  RANDOM=7; for ((i = 0; i < 1100; i++)); do line=""; for ((j = 0; j < 8; j++)); do
  line+="${words[RANDOM % ${#words[@]}]} "; done; echo "${line}and stops."; done > small.txt'
check "twb prepare --tokenizer char ($(wc -c <"$work/try/small.txt") bytes)" \
  as_user twb prepare --input small.txt --tokenizer char --out data-char --quiet
check "twb prepare --tokenizer bpe (sentencepiece through the installed module)" \
  as_user twb prepare --input small.txt --tokenizer bpe --vocab-size 400 --out data-bpe --quiet
check "twb tokenize round trip with the bpe dataset" \
  as_user bash -c 'echo "the quick brown fox" | twb tokenize --data data-bpe | twb tokenize --data data-bpe --decode | grep -qx "the quick brown fox"'
check "twb train --preset tiny, 20 steps" \
  as_user twb train --data data-char --out run --preset tiny --set max_iters=20 --set eval_interval=10 --quiet
check_show "twb sample -n 20" as_user bash -c 'out=$(twb sample --run run -n 20 --seed 1); echo "$out"; [ -n "$out" ]'

# The desktop program under Xvfb: a window titled Transformer Workbench appears within a minute.
check_show "transformer-workbench under Xvfb shows its window" as_user xvfb-run -a -s "-screen 0 1280x720x24" bash -c '
  transformer-workbench >gui.log 2>&1 &
  pid=$!
  for ((i = 0; i < 60; i++)); do
    win=$(xdotool search --onlyvisible --name "Transformer Workbench" 2>/dev/null | head -n 1)
    [ -n "$win" ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 1
  done
  if [ -n "$win" ]; then
    xwininfo -id "$win" | grep -E "xwininfo|Width|Height|Map State"
  else
    cat gui.log
  fi
  kill $pid 2>/dev/null
  wait $pid 2>/dev/null
  [ -n "$win" ]'

check "man twb and man transformer-workbench find the installed pages" \
  as_user bash -c '[ "$(man -w twb)" = /usr/share/man/man1/twb.1.gz ] &&
    [ "$(man -w transformer-workbench)" = /usr/share/man/man1/transformer-workbench.1.gz ] &&
    MANWIDTH=80 man twb | grep -q "twb train"'
check "bash completion of twb loads on demand and completes subcommands and --set keys" \
  as_user bash -c 'source /usr/share/bash-completion/bash_completion
    _completion_loader twb  # returns 124, "completion loaded, try again"
    complete -p twb | grep -q "_twb twb" &&
    bash "$1/packaging/tests/test-completion.sh" /usr/share/bash-completion/completions/twb /usr/bin/twb "$2"' _ \
  "$src" "$(cd "${BUILD_DIR:-build}" && pwd)/packaging/twb-config-keys"

# --- remove: nothing of the package is left, the user's workspace is ---
if "${APT[@]}" remove transformer-workbench >"$work/remove.log" 2>&1; then
  pass "apt-get remove transformer-workbench"
else
  fail "apt-get remove transformer-workbench"
  tail -n 20 "$work/remove.log" | sed 's/^/    /'
fi
installed=0
left=()
while read -r f; do
  if [ -f "$f" ] || [ -L "$f" ]; then left+=("$f"); fi
done <"$work/files"
for d in "/usr/lib/$multiarch/transformer-workbench" /usr/share/transformer-workbench \
  /usr/share/doc/transformer-workbench; do
  [ -e "$d" ] && left+=("$d")
done
status=$(dpkg-query -W -f='${db:Status-Abbrev}' transformer-workbench 2>/dev/null || true)
if [ ${#left[@]} -eq 0 ] && [[ -z $status || $status == un* || $status == rc* ]]; then
  pass "after removal none of the package's $(wc -l <"$work/files") paths is left (dpkg status: '${status:-forgotten}')"
else
  fail "after removal left behind: ${left[*]} (dpkg status: '$status')"
fi
"${APT[@]}" purge transformer-workbench >>"$work/remove.log" 2>&1
if [ -d "$work/try/run" ] && [ -f "$work/try/data-char/train.bin" ]; then
  pass "the user's runs and datasets are untouched by the removal"
else
  fail "the user's runs or datasets disappeared with the package"
fi

if [ $failed -eq 0 ]; then
  echo "check-package: PASS (every check passed)"
else
  echo "check-package: FAIL ($failed check(s) failed)"
fi
[ $failed -eq 0 ]
