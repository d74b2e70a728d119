#!/usr/bin/env bash
# Checks `twb bleu` against sacreBLEU (the reference implementation, from PyPI in a venv beside the
# project) on real text: the Multi30k test references against several made-up "systems" (the
# references perturbed: words dropped, swapped, a sentence cut short, punctuation and numbers moved,
# casing changed, the German source as a poor system, an empty system). Prints both scores per system.
# Usage: bench/bleu_vs_sacrebleu.sh [shared-datasets-dir]   (needs network access to PyPI once)
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${1:-../shared/datasets}
TWB=${TWB:-build/bin/twb}
VENV=${VENV:-.venv-ref}
[ -x "$VENV/bin/python" ] || { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q sacrebleu; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ref=$DATA/multi30k/test_2016_flickr.en
"$VENV/bin/python" - "$ref" "$DATA/multi30k/test_2016_flickr.de" "$tmp" <<'PY'
import random, sys
ref = open(sys.argv[1], encoding="utf-8").read().splitlines()
src = open(sys.argv[2], encoding="utf-8").read().splitlines()
out = sys.argv[3]
rng = random.Random(5)
def drop(l):  w = l.split(); return " ".join(x for x in w if rng.random() > 0.2)
def swap(l):
    w = l.split()
    if len(w) > 2:
        i = rng.randrange(len(w) - 1); w[i], w[i + 1] = w[i + 1], w[i]
    return " ".join(w)
def cut(l): w = l.split(); return " ".join(w[: max(1, len(w) // 2)])
def punct(l): return l.replace(".", " .").replace(",", " ,") + (" 3.5-4 &amp; \"x\"" if rng.random() < 0.3 else "")
systems = {
    "identical": ref, "drop20%": [drop(l) for l in ref], "swap": [swap(l) for l in ref],
    "cut-half": [cut(l) for l in ref], "punct-numbers": [punct(l) for l in ref],
    "lowercase": [l.lower() for l in ref], "german-source": src, "empty": ["" for _ in ref],
    "first-10": ref[:10],
}
for name, lines in systems.items():
    open(f"{out}/{name}.hyp", "w", encoding="utf-8").write("\n".join(lines) + "\n")
    open(f"{out}/{name}.ref", "w", encoding="utf-8").write("\n".join(ref[: len(lines)]) + "\n")
PY
printf '%-15s %12s %12s %12s %12s\n' system "sacreBLEU" "twb BLEU" "sacre chrF" "twb chrF"
worst=0
for h in "$tmp"/*.hyp; do
  name=$(basename "$h" .hyp); r="$tmp/$name.ref"
  sb=$("$VENV/bin/python" -c "import sacrebleu,sys; h=open(sys.argv[1]).read().splitlines(); r=open(sys.argv[2]).read().splitlines(); print('%.4f %.4f' % (sacrebleu.corpus_bleu(h,[r]).score, sacrebleu.corpus_chrf(h,[r]).score))" "$h" "$r")
  out=$("$TWB" bleu --ref "$r" --hyp "$h")
  tb=$(echo "$out" | awk '/^BLEU/ {print $3}'); tc=$(echo "$out" | awk '/^chrF2/ {print $3}')
  printf '%-15s %12s %12s %12s %12s\n' "$name" "${sb% *}" "$tb" "${sb#* }" "$tc"
done
"$VENV/bin/python" -c "import sacrebleu; print('sacreBLEU', sacrebleu.__version__)"
