"""Checks twb's GPT-2 import and export against Hugging Face transformers (the reference; its code is
only called, never copied). Called by bench/hf_reference.sh with the paths of twb and bench_logits.

(a) a small random GPT2LMHeadModel made and saved by transformers (with a small vocab.json/merges.txt
    of our own, loaded by transformers' GPT-2 tokenizer and saved beside it), imported with
    `twb import --hf`: twb's logits against transformers' on the same ids;
(b) a twb run trained with GPT-2's architecture, exported with `twb export --format hf` and loaded with
    GPT2LMHeadModel.from_pretrained: transformers' logits against twb's;
(c) token ids of twb's tokenizers against transformers' GPT-2 tokenizer on texts with Unicode and runs
    of white space, for (a)'s imported vocabulary and (b)'s exported one.
"""
import json
import os
import subprocess
import sys

import torch
from transformers import GPT2Config, GPT2LMHeadModel, GPT2TokenizerFast

TWB, LOGITS, CORPUS, WORK = sys.argv[1:5]
TEXTS = [
    "hello the world",
    "  leading spaces, and   three inside\n\n\ttabs\r\nCRLF",
    "Senjō café “quoted” — naïve façade 日本語のテキスト 😀🎉",
    "numbers 12345 and 3.14159; it's they're we'll I'd",
    "Ελληνικά. Русский текст.   ",
]


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def twb_logits(run_dir, ids):
    return torch.tensor(json.loads(run(LOGITS, run_dir, *map(str, ids))), dtype=torch.float64)


def twb_ids(run_dir, text):
    return json.loads(run(LOGITS, run_dir, "--encode", text))


def byte_table():
    """GPT-2's byte -> printable character table (as published in openai/gpt-2's encoder.py)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    order = bs + [b for b in range(256) if b not in bs]
    return {b: chr(b if i < len(bs) else 256 + i - len(bs)) for i, b in enumerate(order)}, order


def tiny_vocab(folder):
    """256 bytes, merges learned here by counting pairs of a little text (a plain loop), <|endoftext|>."""
    b2u, order = byte_table()
    vocab = {b2u[b]: i for i, b in enumerate(order)}
    text = open(CORPUS, encoding="utf-8").read(100000).split()
    words = [[b2u[b] for b in ((" " if i else "") + w).encode()] for i, w in enumerate(text)]
    merges = []
    for _ in range(200):
        counts = {}
        for w in words:
            for a, b in zip(w, w[1:]):
                counts[(a, b)] = counts.get((a, b), 0) + 1
        if not counts:
            break
        (a, b), c = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
        if c < 2:
            break
        merges.append((a, b))
        vocab.setdefault(a + b, len(vocab))
        new = []
        for w in words:
            out, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and w[i] == a and w[i + 1] == b:
                    out.append(a + b)
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            new.append(out)
        words = new
    vocab["<|endoftext|>"] = len(vocab)
    os.makedirs(folder, exist_ok=True)
    json.dump(vocab, open(os.path.join(folder, "vocab.json"), "w", encoding="utf-8"), ensure_ascii=False)
    with open(os.path.join(folder, "merges.txt"), "w", encoding="utf-8") as f:
        f.write("#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges))
    return len(vocab)


def part_a():
    src = os.path.join(WORK, "hf_random")
    vocab = tiny_vocab(src)
    tok = GPT2TokenizerFast.from_pretrained(src)  # reads vocab.json + merges.txt
    torch.manual_seed(0)
    cfg = GPT2Config(vocab_size=vocab, n_positions=64, n_embd=64, n_layer=3, n_head=4,
                     bos_token_id=vocab - 1, eos_token_id=vocab - 1)
    model = GPT2LMHeadModel(cfg).eval()
    with torch.no_grad():  # larger weights than GPT-2's init, so the logits differ in earnest
        for p in model.parameters():
            p.add_(torch.randn_like(p) * 0.1)
    model.save_pretrained(src)
    tok.save_pretrained(src)
    out = os.path.join(WORK, "imported")
    print(run(TWB, "import", "--hf", src, "--out", out).strip())
    ids = tok(TEXTS[0] + " " + TEXTS[3])["input_ids"][:40]
    with torch.no_grad():
        ref = model(torch.tensor([ids])).logits[0].double()
    diff = (twb_logits(out, ids) - ref).abs().max().item()
    print(f"(a) transformers GPT2LMHeadModel (3x4x64, vocab {vocab}) imported: {len(ids)} positions, "
          f"max |logit difference| = {diff:.3g} (logits span {ref.min():.2f}..{ref.max():.2f})")
    return tok, out, diff


def part_b(label, tied, activation):
    data = os.path.join(WORK, "data")
    if not os.path.exists(data):
        run(TWB, "prepare", "--input", CORPUS, "--out", data, "--tokenizer", "bytebpe", "--vocab-size", "400")
    trained = os.path.join(WORK, "trained_" + label)
    run(TWB, "train", "--data", data, "--out", trained, "--preset", "tiny", "--quiet",
        "--set", "position=learned", "--set", f"activation={activation}", "--set", "bias=true",
        "--set", f"tie_embeddings={'true' if tied else 'false'}", "--set", "norm=layernorm", "--set",
        "norm_position=pre", "--set", "max_iters=60", "--set", "eval_interval=60", "--set", "dtype=float32")
    hf = os.path.join(WORK, "exported_" + label)
    print(run(TWB, "export", "--run", trained, "--format", "hf", "--out", hf, "--checkpoint", "last").strip())
    model = GPT2LMHeadModel.from_pretrained(hf).eval()
    tok = GPT2TokenizerFast.from_pretrained(hf)
    ids = tok(TEXTS[0] + " " + TEXTS[3])["input_ids"][: model.config.n_positions]
    with torch.no_grad():
        ref = model(torch.tensor([ids])).logits[0].double()
    diff = (twb_logits(trained, ids) - ref).abs().max().item()
    c = model.config
    print(f"(b) twb run ({c.n_layer}x{c.n_head}x{c.n_embd}, block {c.n_positions}, vocab {c.vocab_size}, "
          f"activation={activation}, {'tied' if tied else 'untied'}) exported and loaded by "
          f"GPT2LMHeadModel.from_pretrained: {len(ids)} positions, max |logit difference| = {diff:.3g}")
    return tok, trained, diff


def part_c(name, tok, run_dir):
    same = 0
    for t in TEXTS:
        a, b = tok(t)["input_ids"], twb_ids(run_dir, t)
        same += a == b
        if a != b:
            print(f"    differs on {t!r}: transformers {a} twb {b}")
    print(f"(c) {name}: token ids equal to transformers' GPT-2 tokenizer on {same} of {len(TEXTS)} texts")
    return same == len(TEXTS)


def part_d(tok, hf):
    """The exported tokenizer_config.json: transformers' tokenizer has config.json's bos/eos ids as its specials."""
    cfg = json.load(open(os.path.join(hf, "config.json")))
    got = (tok.bos_token_id, tok.eos_token_id)
    want = (cfg["bos_token_id"], cfg["eos_token_id"])
    print(f"(d) exported specials: transformers' tokenizer bos/eos {got} ({tok.bos_token}, {tok.eos_token}, pad "
          f"{tok.pad_token}), config.json {want}")
    return got == want


tok_a, run_a, diff_a = part_a()
tok_b, run_b, diff_b = part_b("gpt2", True, "gelu_tanh")
_, _, diff_b2 = part_b("untied_gelu", False, "gelu")
ok = part_c("imported vocab.json/merges.txt", tok_a, run_a) & part_c("exported twb bytebpe", tok_b, run_b)
ok &= part_d(tok_b, os.path.join(WORK, "exported_gpt2"))
sys.exit(0 if ok and max(diff_a, diff_b, diff_b2) < 1e-4 else 1)
