#!/usr/bin/env bash
# Reads a `twb export --format gguf` file with llama.cpp's own Python reader (PyPI's `gguf`, gguf-py)
# and checks it against the checkpoint: trains a small GPT-2-architecture run on a bytebpe dataset in a
# few seconds, exports it as f32 and f16, prints every key and tensor as GGUFReader sees them, compares
# every tensor with the checkpoint's safetensors (f32 bit-exact, f16 equal to numpy's float16 rounding),
# decodes the vocabulary back through GPT-2's byte-to-unicode table, and then runs GPT-2's forward pass
# written here in numpy from the GGUF tensors alone (the computation llama.cpp's gpt2 graph does:
# pre-LayerNorm, fused qkv split q|k|v, heads of n_embd/n_head, tanh GELU, tied or separate head) and
# compares its greedy continuation with `twb sample --greedy`.
# Usage: bench/gguf_reference.sh [corpus.txt]
#   VENV: a Python with numpy, safetensors and gguf (default: the torch wheel's venv; pip install gguf)
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${1:-../shared/datasets/tinyshakespeare/input.txt}
TWB=${TWB:-build/bin/twb}
VENV=${VENV:-/root/.local/share/transformer-workbench/torch-wheel}
"$VENV/bin/python" -c 'import gguf, numpy, safetensors' 2>/dev/null || "$VENV/bin/pip" install -q gguf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -c 300000 "$CORPUS" >"$tmp/corpus.txt"
"$TWB" prepare -i "$tmp/corpus.txt" -o "$tmp/data" --tokenizer bytebpe --vocab-size 512 -q
"$TWB" train -d "$tmp/data" -o "$tmp/run" --preset tiny --set position=learned --set activation=gelu_tanh \
  --set bias=true --set tie_embeddings=true --set max_iters=100 --set eval_interval=50 --set threads=2 -q \
  | tail -n 2
"$TWB" export --run "$tmp/run" --format gguf --out "$tmp/model.gguf"
"$TWB" export --run "$tmp/run" --format gguf --outtype f16 --out "$tmp/model-f16.gguf"
prompt="ROMEO:"
"$TWB" sample --run "$tmp/run" --greedy -n 40 --prompt "$prompt" --no-history >"$tmp/twb.txt"
ck=$(ls -d "$tmp"/run/checkpoints/step_* | sort | tail -n 1)
[ -f "$tmp/run/best.json" ] && ck="$tmp/run/checkpoints/$(
  "$VENV/bin/python" -c 'import json,sys; print("step_%08d" % json.load(open(sys.argv[1]))["step"])' "$tmp/run/best.json")"
"$VENV/bin/python" - "$tmp" "$ck/model.safetensors" "$prompt" <<'PY'
import sys, numpy as np
from gguf import GGUFReader
from safetensors.numpy import load_file
tmp, st_path, prompt = sys.argv[1], sys.argv[2], sys.argv[3]
st = load_file(st_path)
ok = True

def value(f):
    t = f.types[0].name
    if t == "STRING":
        return bytes(f.parts[f.data[0]]).decode("utf-8")
    if t == "ARRAY":
        return f"[{len(f.data)} x {f.types[1].name}]"
    return f.parts[f.data[0]].tolist()[0]

names = {"token_embd.weight": "transformer.wte.weight", "position_embd.weight": "transformer.wpe.weight",
         "output_norm.weight": "transformer.ln_f.weight", "output_norm.bias": "transformer.ln_f.bias",
         "output.weight": "lm_head.weight"}
parts = {"attn_norm": "ln_1", "attn_qkv": "attn.c_attn", "attn_output": "attn.c_proj", "ffn_norm": "ln_2",
         "ffn_up": "mlp.c_fc", "ffn_down": "mlp.c_proj"}
def st_name(n):
    if n in names:
        return names[n]
    _, i, part, p = n.split(".")
    return f"transformer.h.{i}.{parts[part]}.{p}"

for fn in ("model.gguf", "model-f16.gguf"):
    r = GGUFReader(f"{tmp}/{fn}")
    print(f"== {fn}: {len(r.fields)} keys, {len(r.tensors)} tensors, alignment {r.alignment}")
    for k, f in r.fields.items():
        if k.startswith("GGUF."):
            continue
        print(f"  {k:40s} {f.types[0].name:8s} {value(f)}")
    for t in r.tensors:
        ref = st[st_name(t.name)]
        want = ref.astype(np.float16) if t.tensor_type.name == "F16" else ref.astype(np.float32)
        same = t.data.shape == want.shape and np.array_equal(t.data.view(np.uint16 if want.dtype == np.float16 else np.uint32),
                                                            want.view(np.uint16 if want.dtype == np.float16 else np.uint32))
        ok &= same
        if t.name.startswith(("token", "position", "blk.0.", "output")):
            print(f"  {t.name:28s} ne={list(map(int, t.shape))} {t.tensor_type.name} offset={t.data_offset} "
                  f"{'equal' if same else 'DIFFERENT'}")
    print(f"  every tensor equal to the checkpoint's: {ok}")

# The model from the f32 GGUF alone.
r = GGUFReader(f"{tmp}/model.gguf")
F = {k: f for k, f in r.fields.items()}
def arr_str(k): return [bytes(F[k].parts[i]).decode("utf-8") for i in F[k].data]
def scalar(k): return F[k].parts[F[k].data[0]].tolist()[0]
T = {t.name: np.array(t.data, dtype=np.float64) for t in r.tensors}
tokens = arr_str("tokenizer.ggml.tokens")
merges = arr_str("tokenizer.ggml.merges")
# GPT-2's bytes_to_unicode, inverted
bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
cs, n = bs[:], 0
for b in range(256):
    if b not in bs:
        bs.append(b); cs.append(256 + n); n += 1
inv = {chr(c): b for b, c in zip(bs, cs)}
def tok_bytes(i):
    s = tokens[i]
    return s.encode() if s in ("<pad>", "<bos>", "<eos>") else bytes(inv[ch] for ch in s)
# BPE of the prompt with the GGUF's merges (prompt: one pre-tokenized piece per GPT-2's pattern suffices here)
rank = {tuple(m.split(" ")): i for i, m in enumerate(merges)}
tid = {s: i for i, s in enumerate(tokens)}
def bpe(piece):
    sym = ["".join(chr(cs[bs.index(b)]) for b in [x]) for x in piece.encode()]
    while len(sym) > 1:
        pairs = [(rank.get((a, b), 1 << 30), i) for i, (a, b) in enumerate(zip(sym, sym[1:]))]
        best, i = min(pairs)
        if best == 1 << 30:
            break
        sym = sym[:i] + [sym[i] + sym[i + 1]] + sym[i + 2:]
    return [tid[s] for s in sym]
ids = bpe("ROMEO") + bpe(":") if prompt == "ROMEO:" else bpe(prompt)
C = scalar("gpt2.embedding_length"); H = scalar("gpt2.attention.head_count"); L = scalar("gpt2.block_count")
eps = scalar("gpt2.attention.layer_norm_epsilon"); D = C // H
def ln(x, w, b):
    m = x.mean(-1, keepdims=True); v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * w + b
def gelu(x): return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
def forward(ids):
    x = T["token_embd.weight"][ids] + T["position_embd.weight"][: len(ids)]
    n = len(ids)
    mask = np.triu(np.full((n, n), -np.inf), 1)
    for i in range(L):
        p = f"blk.{i}."
        h = ln(x, T[p + "attn_norm.weight"], T[p + "attn_norm.bias"])
        qkv = h @ T[p + "attn_qkv.weight"].T + T[p + "attn_qkv.bias"]
        q, k, v = (qkv[:, j * C:(j + 1) * C].reshape(n, H, D).transpose(1, 0, 2) for j in range(3))
        a = q @ k.transpose(0, 2, 1) / np.sqrt(D) + mask
        a = np.exp(a - a.max(-1, keepdims=True)); a /= a.sum(-1, keepdims=True)
        y = (a @ v).transpose(1, 0, 2).reshape(n, C)
        x = x + y @ T[p + "attn_output.weight"].T + T[p + "attn_output.bias"]
        h = ln(x, T[p + "ffn_norm.weight"], T[p + "ffn_norm.bias"])
        x = x + gelu(h @ T[p + "ffn_up.weight"].T + T[p + "ffn_up.bias"]) @ T[p + "ffn_down.weight"].T + T[p + "ffn_down.bias"]
    x = ln(x, T["output_norm.weight"], T["output_norm.bias"])
    return x @ T.get("output.weight", T["token_embd.weight"]).T
out = []
for _ in range(40):
    out.append(int(np.argmax(forward(ids + out)[-1])))
text = b"".join(tok_bytes(i) for i in out).decode("utf-8", "replace")
twb = open(f"{tmp}/twb.txt", encoding="utf-8").read()
print("== greedy continuation of", repr(prompt))
print("  numpy from the GGUF:", repr(text))
print("  twb sample --greedy:", repr(twb.strip()[:200]))
same = text in twb
print("  the same text:", same)
sys.exit(0 if ok and same else 1)
PY
