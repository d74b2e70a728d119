#!/usr/bin/env python3
"""Independent check of twb's model-inspection numbers against plain PyTorch (Debian's python3-torch).

  check_inspection.py RUN [RUN...] --twb PATH [--only CHECK,...]
  check_inspection.py --make-run --twb PATH   trains a tiny run in a temporary folder and checks it
                                              (the ctest tst_inspection_reference)

For a decoder-LM run trained by `twb train` (LayerNorm, pre-norm, exact GELU; positions learned,
sinusoidal or rotary; biases on or off; tied or untied output layer) it runs

  twb export --format safetensors, tokenize, lens (table, --json, --csv), attribute --json/--csv, ablate --json/--csv, attention --out,
  eval, embeddings --near / --similarity

and recomputes every number from the checkpoint's model.safetensors with its own forward pass (float64,
written from the usual GPT definitions; the safetensors reader is tests/python/reference.py's, whose
forward is also used to cross-check this one). Prints one PASS/FAIL line per check and exits 1 on any FAIL.

Conventions checked (from docs/inspection.md and docs/cli.md):
  lens       stage s = embedding output (x0), then each block's output; p = softmax(lm_head(ln_f(x_s)));
             final choice = argmax of the last stage; rank = #tokens with a higher probability there;
             a prompt longer than block_size: its last block_size tokens.
  attribute  z = logit of the target at the last position; value_t = dz/de_t . (e_t - mean_rows(wte));
             prob = softmax of the last position's logits at the target; rollout = Abnar & Zuidema
             (heads averaged, 0.5 A + 0.5 I, rows renormalised, product over layers, the last row).
  ablate     head gate = its slice of the attention output zeroed before c_proj (bias kept); loss = mean
             cross-entropy over consecutive non-overlapping block_size blocks of the split from offset 0
             (x = d[i*T:(i+1)*T], y = d[i*T+1:(i+1)*T+1]), max-tokens // block_size blocks.
  attention  weights[layer][head][q][k] = causal softmax(q k^T / sqrt(D)); next_token_top = top-5 of the
             model's own next-token distribution at every position.
  eval       as ablate without gates: loss, accuracy (argmax == target), perplexity = exp(loss),
             bits/char = loss / ln 2 * split tokens / split characters (char and word tokenizers).
  embeddings cosine similarity of transformer.wte rows; a text of several tokens = the mean of its rows;
             --near leaves the word's own tokens out.
"""
import argparse
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference  # noqa: E402  (its safetensors reader and its forward pass, for a cross-check)

torch.set_num_threads(1)
DT = torch.float64

PROMPTS = [
    "A gift of a flower will",
    "The quick brown fox jumps over the lazy dog.",
    "You will be",
    "x",
]
# prompt, target text (one token of a char tokenizer; for other tokenizers the target is taken from
# the model's own top choice so that it is always one token)
ATTR = [("A gift of a flower will soon be made to you", "."), ("A gift of a fl", "o"), ("You will", " "),
        ("A gift of a flower will soon be made to you. " * 3, " ")]  # the last is longer than block_size
NEAR = ["the", "e", "love", "Twain", "the cat"]
SIM = [("king", "queen"), ("the cat", "a dog"), ("love", "hate"), ("love it", "hate it")]

RESULTS = []


def report(ok, name, detail):
    RESULTS.append(ok)
    print(f"{'PASS' if ok else 'FAIL'} {name}: {detail}", flush=True)


def rel(a, b):
    """max |a-b| / max(|b|) over the whole tensor (a scale-aware relative difference)."""
    a, b = torch.as_tensor(a, dtype=DT), torch.as_tensor(b, dtype=DT)
    return float((a - b).abs().max() / b.abs().max().clamp_min(1e-30)), float((a - b).abs().max())


class Twb:
    def __init__(self, exe, run, tmp):
        self.exe, self.run, self.tmp = exe, run, tmp
        self.env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        self.tok_kind = json.load(open(os.path.join(run, "tokenizer", "tokenizer.json"))).get("kind")

    def __call__(self, *args, stdin=None):
        r = subprocess.run([self.exe, *args], input=stdin, capture_output=True, text=True, env=self.env)
        if r.returncode != 0:
            raise RuntimeError(f"twb {' '.join(args)} failed ({r.returncode}): {r.stderr.strip()}")
        return r.stdout

    def ids(self, text):
        out = self(*("tokenize", "--data", self.run), stdin=text)
        return [int(t) for t in out.split()]


class Model:
    def __init__(self, run):
        self.cfg = json.load(open(os.path.join(run, "config.json")))
        best = os.path.join(run, "checkpoints", "best.json")
        step = json.load(open(best))["step"]
        self.step = step
        self.path = os.path.join(run, "checkpoints", f"step_{step:08d}", "model.safetensors")
        self.w32 = reference.load(self.path)
        self.w = {k: v.to(DT) for k, v in self.w32.items()}
        c = self.cfg
        unsupported = {
            "model_kind": "decoder", "norm": "layernorm", "norm_position": "pre", "activation": "gelu",
            "qk_norm": False, "head_size": 0, "sinusoid_halves": False,
        }
        for k, v in unsupported.items():
            if c.get(k, v) != v:
                raise SystemExit(f"this check covers {k}={v} only (the run has {c.get(k)})")
        self.L, self.H, self.C = c["n_layer"], c["n_head"], c["n_embd"]
        self.D = self.C // self.H
        self.eps = c.get("norm_eps", 1e-5)
        self.T = c["block_size"]
        self.wte = self.w["transformer.wte.weight"]
        self.head = self.w.get("lm_head.weight", self.wte)

    def positions(self, T):
        c = self.cfg
        if c["position"] == "learned":
            return self.w["transformer.wpe.weight"][:T]
        if c["position"] == "sinusoidal":
            pos = torch.arange(T, dtype=DT)
            pe = torch.zeros(T, self.C, dtype=DT)
            div = torch.exp(torch.arange(0, self.C, 2, dtype=DT) * (-math.log(10000.0) / self.C))
            pe[:, 0::2] = torch.sin(pos[:, None] * div)
            pe[:, 1::2] = torch.cos(pos[:, None] * div)
            return pe
        return None

    def ln(self, x, name):
        return F.layer_norm(x, (self.C,), self.w[name + ".weight"], self.w.get(name + ".bias"), self.eps)

    def forward(self, idx, emb=None, gates=None):
        """idx (B, T). emb: the token embeddings to use (B, T, C), e.g. a leaf for gradients.
        gates: {layer: tensor (H,)} multiplying each head's output before c_proj.
        Returns logits (B, T, V), residuals [x0, after block 0, ...], attention [(B, H, T, T)]."""
        B, T = idx.shape
        C, H, D = self.C, self.H, self.D
        x = self.wte[idx] if emb is None else emb
        pe = self.positions(T)
        if pe is not None:
            x = x + pe
        if self.cfg["position"] == "rotary":
            pos = torch.arange(T, dtype=DT)
            inv = 1.0 / (10000.0 ** (torch.arange(0, D, 2, dtype=DT) / D))
            ang = torch.cat((pos[:, None] * inv, pos[:, None] * inv), dim=-1)
            cos, sin = ang.cos(), ang.sin()
        causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
        res, atts = [x], []
        w = self.w
        for layer in range(self.L):
            p = f"transformer.h.{layer}."
            h = self.ln(x, p + "ln_1")
            q, k, v = F.linear(h, w[p + "attn.c_attn.weight"], w.get(p + "attn.c_attn.bias")).split(C, dim=2)
            q, k, v = (t.view(B, T, H, D).transpose(1, 2) for t in (q, k, v))
            if self.cfg["position"] == "rotary":
                q = q * cos + reference.rotate_half(q) * sin
                k = k * cos + reference.rotate_half(k) * sin
            att = (q @ k.transpose(-2, -1)) / math.sqrt(D)
            att = F.softmax(att.masked_fill(~causal, float("-inf")), dim=-1)
            atts.append(att)
            y = att @ v  # (B, H, T, D)
            if gates is not None and layer in gates:
                y = y * gates[layer].to(DT).view(1, H, 1, 1)
            y = y.transpose(1, 2).reshape(B, T, C)
            x = x + F.linear(y, w[p + "attn.c_proj.weight"], w.get(p + "attn.c_proj.bias"))
            h = self.ln(x, p + "ln_2")
            x = x + F.linear(F.gelu(F.linear(h, w[p + "mlp.c_fc.weight"], w.get(p + "mlp.c_fc.bias"))),
                             w[p + "mlp.c_proj.weight"], w.get(p + "mlp.c_proj.bias"))
            res.append(x)
        return self.unembed(x), res, atts

    def unembed(self, x):
        return F.linear(self.ln(x, "transformer.ln_f"), self.head)


# ---------------------------------------------------------------------------------------------- checks

def check_forward(m):
    idx = torch.randint(0, m.wte.shape[0], (2, min(m.T, 40)), generator=torch.Generator().manual_seed(0))
    mine = m.forward(idx)[0]
    with torch.no_grad():
        ref = reference.forward(m.w32, m.cfg, idx)
    r, a = rel(ref, mine)
    report(r < 1e-4, "forward vs tests/python/reference.py", f"max rel {r:.2e} (abs {a:.2e})")


def check_export(m, twb, run):
    out = os.path.join(twb.tmp, "export")
    twb("export", "--run", run, "--format", "safetensors", "--out", out)
    e = reference.load(os.path.join(out, "model.safetensors"))
    same = sorted(e) == sorted(m.w32)
    diff = max(float((e[k] - m.w32[k]).abs().max()) for k in m.w32) if same else float("nan")
    report(same and diff == 0.0, "export --format safetensors equals the best checkpoint's model.safetensors",
           f"same names {same}, max abs diff {diff}")


def check_tokenize(m, twb, run):
    tok = json.load(open(os.path.join(run, "tokenizer", "tokenizer.json")))
    if tok.get("kind") != "char":
        report(True, "tokenize", f"{tok.get('kind')} tokenizer: ids taken from twb tokenize (not re-derived)")
        return
    vocab = {s: i for i, s in enumerate(tok["vocab"])}
    bad = [p for p in PROMPTS if twb.ids(p) != [vocab[ch] for ch in p]]
    report(not bad, "tokenize (char vocabulary of RUN/tokenizer/tokenizer.json)",
           "all prompts agree" if not bad else f"differ for {bad}")


def check_lens(m, twb):
    long_prompt = " ".join(PROMPTS) * 4  # longer than block_size for the small test models
    worst = {"prob": 0.0, "final_prob": 0.0}
    problems = []
    for prompt in PROMPTS + [long_prompt]:
        K = 5
        d = json.loads(twb("lens", "--run", twb.run, "--prompt", prompt, "--json", "--top", str(K)))
        ids = twb.ids(prompt)[-m.T:]
        if d["ids"] != ids:
            problems.append(f"ids of {prompt[:20]!r}: twb {d['ids'][:8]}... vs tokenize(last block_size) {ids[:8]}...")
            continue
        idx = torch.tensor([ids])
        with torch.no_grad():
            logits, res, _ = m.forward(idx)
        probs = [F.softmax(m.unembed(x)[0], -1) for x in res]  # stages x (T, V)
        final = probs[-1].argmax(-1)
        if len(d["stages"]) != m.L + 1:
            problems.append(f"{len(d['stages'])} stages, expected {m.L + 1}")
        if d["final_ids"] != final.tolist():
            problems.append(f"final_ids differ for {prompt[:20]!r}")
        for s, stage in enumerate(d["stages"]):
            p = probs[s]
            for t, cell in enumerate(stage["positions"]):
                f = final[t]
                pf = p[t, f]
                worst["final_prob"] = max(worst["final_prob"], abs(cell["final_choice_prob"] - pf.item()) / pf.item())
                rank = int((p[t] > pf).sum())
                near_tie = int((p[t] > pf * (1 - 1e-5)).sum()) != rank or int((p[t] > pf * (1 + 1e-5)).sum()) != rank
                if cell["final_choice_rank"] != rank and not near_tie:
                    problems.append(f"rank {stage['stage']} pos {t}: twb {cell['final_choice_rank']} ref {rank}")
                top = torch.topk(p[t], K)
                for j, e in enumerate(cell["top"]):
                    ref_p = p[t, e["id"]].item()
                    worst["prob"] = max(worst["prob"], abs(e["prob"] - ref_p) / max(ref_p, 1e-12))
                    # the token listed j-th must have the j-th highest probability (up to ties)
                    if abs(ref_p - top.values[j].item()) > 1e-6 * max(ref_p, 1e-12) + 1e-9:
                        problems.append(f"top {j} {stage['stage']} pos {t}: twb id {e['id']} ref id {top.indices[j].item()}")
    ok = not problems and worst["prob"] < 1e-4 and worst["final_prob"] < 1e-4
    report(ok, "lens --json (top-5 probabilities, final choice, its rank and probability per stage)",
           f"max rel diff top probs {worst['prob']:.2e}, final-choice probs {worst['final_prob']:.2e}"
           + (f"; {len(problems)} problems, first: {problems[:3]}" if problems else ""))

    # the table (default output): the last --last positions, top token's probability in % and the rank
    prompt = PROMPTS[1]
    last = 6
    table = twb("lens", "--run", twb.run, "--prompt", prompt, "--last", str(last))
    d = json.loads(twb("lens", "--run", twb.run, "--prompt", prompt, "--json", "--top", "1"))
    n, bad = 0, []
    for line in table.splitlines():
        cols = line.split("|")
        names = [s_["stage"] for s_ in d["stages"]]
        if len(cols) < 2 or cols[0].strip() not in names:
            continue
        stage = d["stages"][names.index(cols[0].strip())]
        cells = stage["positions"][-last:]
        for cell, text in zip(cells, cols[1:]):
            mm = re.match(r"\s*(\S+)\s+(\d+)%\s+\[(\d+)\]", text)
            n += 1
            if not mm or abs(int(mm.group(2)) - 100 * cell["top"][0]["prob"]) > 0.5 + 1e-9 \
                    or int(mm.group(3)) != cell["final_choice_rank"]:
                bad.append(f"{cols[0].strip()}: {text.strip()!r} vs {cell['top'][0]['prob']:.4f} [{cell['final_choice_rank']}]")
    report(not bad and n == (m.L + 1) * last, "lens table equals lens --json (top prob in %, rank)",
           f"{n} cells" + (f"; differ: {bad[:3]}" if bad else ""))

    # the CSV holds the same numbers as the JSON
    prompt = PROMPTS[0]
    path = os.path.join(twb.tmp, "lens.csv")
    twb("lens", "--run", twb.run, "--prompt", prompt, "--csv", path, "--top", "3", "--force")
    d = json.loads(twb("lens", "--run", twb.run, "--prompt", prompt, "--json", "--top", "3"))
    rows = list(csv.DictReader(open(path, newline="")))
    diff, bad = 0.0, 0
    for r in rows:
        stage = next(s for s in d["stages"] if s["stage"] == r["stage"])
        cell = stage["positions"][int(r["position"])]
        e = cell["top"][int(r["rank"])]
        bad += int(e["id"] != int(r["token_id"])) + int(cell["final_choice_rank"] != int(r["final_choice_rank"]))
        diff = max(diff, abs(e["prob"] - float(r["prob"])) / e["prob"])
    n_exp = (m.L + 1) * len(d["ids"]) * 3
    report(bad == 0 and diff < 1e-6 and len(rows) == n_exp, "lens --csv equals lens --json",
           f"{len(rows)} rows (expected {n_exp}), {bad} id/rank mismatches, max rel prob diff {diff:.1e}")


def rollout_variants(atts):
    """Rollout of the last position under a few readings of Abnar & Zuidema."""
    T = atts[0].shape[-1]
    eye = torch.eye(T, dtype=DT)
    out = {}
    for name, residual, headmix in (("0.5A+0.5I, heads mean", True, "mean"), ("A only, heads mean", False, "mean"),
                                    ("0.5A+0.5I, heads max", True, "max")):
        R = eye.clone()
        for a in atts:
            A = a[0].mean(0) if headmix == "mean" else a[0].max(0).values
            if residual:
                A = 0.5 * A + 0.5 * eye
            A = A / A.sum(-1, keepdim=True)
            R = A @ R
        out[name] = R[-1]
    return out


def check_attribute(m, twb):
    worst_g, worst_p, worst_r = 0.0, 0.0, 0.0
    problems, matched = [], set()
    for prompt, target in ATTR:
        ids = twb.ids(prompt)
        tid = twb.ids(target)
        if len(tid) != 1:
            continue
        d = json.loads(twb("attribute", "--run", twb.run, "--prompt", prompt, "--target", target, "--json"))
        if d["ids"] != ids[-m.T:] or d["target"]["id"] != tid[0]:
            problems.append(f"ids differ for {prompt!r}")
            continue
        ids = ids[-m.T:]
        idx = torch.tensor([ids])
        emb = m.wte[idx].clone().requires_grad_(True)
        logits, _, atts = m.forward(idx, emb=emb)
        z = logits[0, -1, tid[0]]
        z.backward()
        gxi = (emb.grad[0] * (m.wte[idx][0] - m.wte.mean(0))).sum(-1)
        r, _ = rel(d["gradient_x_input"], gxi)
        worst_g = max(worst_g, r)
        p = F.softmax(logits[0, -1].detach(), -1)[tid[0]].item()
        worst_p = max(worst_p, abs(d["target"]["prob"] - p) / p)
        variants = rollout_variants([a.detach() for a in atts])
        best = min(variants, key=lambda k: rel(d["rollout"], variants[k])[0])
        matched.add(best)
        worst_r = max(worst_r, rel(d["rollout"], variants["0.5A+0.5I, heads mean"])[0])
        if min(d["rollout"]) < 0 or abs(sum(d["rollout"]) - 1) > 1e-5:
            problems.append(f"rollout of {prompt[:20]!r} is not a distribution (sum {sum(d['rollout'])})")
        # the CSV holds the JSON's numbers
        path = os.path.join(twb.tmp, "attr.csv")
        twb("attribute", "--run", twb.run, "--prompt", prompt, "--target", target, "--csv", path, "--force")
        rows = list(csv.DictReader(open(path, newline="")))
        cg = [float(r["gradient_x_input"]) for r in rows]
        if len(cg) != len(ids) or rel(cg, d["gradient_x_input"])[0] > 1e-6:
            problems.append(f"csv differs from json for {prompt!r}")
    report(not problems and worst_g < 1e-4 and worst_p < 1e-4,
           "attribute: gradient x input against (e_t - mean row), and the target's probability",
           f"max rel diff gxi {worst_g:.2e} (of the largest |value|), prob {worst_p:.2e}"
           + (f"; problems: {problems}" if problems else ""))
    report(worst_r < 1e-4, "attribute: rollout (Abnar & Zuidema: heads averaged, 0.5A+0.5I, renormalised)",
           f"max rel diff {worst_r:.2e}; closest reading: {sorted(matched)}")


def stream_loss(m, data, n_tokens, gates=None):
    """Mean cross-entropy and accuracy over consecutive block_size blocks from offset 0."""
    T = m.T
    nblocks = (len(data) - 1) // T
    if n_tokens:
        nblocks = min(nblocks, n_tokens // T)
    total, correct = 0.0, 0
    with torch.no_grad():
        for b0 in range(0, nblocks, 32):
            bs = range(b0, min(nblocks, b0 + 32))
            x = torch.stack([data[i * T:(i + 1) * T] for i in bs])
            y = torch.stack([data[i * T + 1:(i + 1) * T + 1] for i in bs])
            logits = m.forward(x, gates=gates)[0]
            total += F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1), reduction="sum").item()
            correct += int((logits.argmax(-1) == y).sum())
    n = nblocks * T
    return total / n, correct / n, n


def read_split(run, split):
    cfg = json.load(open(os.path.join(run, "config.json")))
    data_dir = cfg["data_dir"]
    meta = json.load(open(os.path.join(data_dir, "meta.json")))
    import numpy as np
    arr = np.fromfile(os.path.join(data_dir, f"{split}.bin"), dtype=meta.get("dtype", "uint16"))
    return torch.from_numpy(arr.astype("int64")), meta


def check_ablate(m, twb, run):
    for split, max_tokens in (("val", 2048), ("train", 1000), ("val", 0), ("train", None)):
        data, _ = read_split(run, split)
        d = json.loads(twb("ablate", "--run", run, "--heads", "0.*," + f"{m.L - 1}.{m.H - 1}", "--all",
                           "--split", split, *(["--max-tokens", str(max_tokens)] if max_tokens is not None else []),
                           "--json"))
        label = "(default: 16384)" if max_tokens is None else str(max_tokens)
        max_tokens = 16384 if max_tokens is None else max_tokens  # the documented default
        base, _, n = stream_loss(m, data, max_tokens)
        diffs = [abs(d["base_loss"] - base) / base]
        problems = [] if d["tokens"] == n else [f"tokens twb {d['tokens']} ref {n}"]
        for row in d["every_head"]:
            g = {row["layer"]: torch.ones(m.H)}
            g[row["layer"]][row["head"]] = 0
            loss = stream_loss(m, data, max_tokens, g)[0]
            diffs.append(abs(row["loss"] - loss) / loss)
            if abs(row["cost"] - (row["loss"] - d["base_loss"])) > 1e-6:
                problems.append(f"cost of {row['layer']}.{row['head']} is not loss - base")
        g = {0: torch.zeros(m.H)}
        g.setdefault(m.L - 1, torch.ones(m.H))[m.H - 1] = 0
        loss = stream_loss(m, data, max_tokens, g)[0]
        diffs.append(abs(d["set_loss"] - loss) / loss)
        if len(d["every_head"]) != m.L * m.H:
            problems.append(f"{len(d['every_head'])} rows, expected {m.L * m.H}")
        report(max(diffs) < 1e-4 and not problems,
               f"ablate --split {split} --max-tokens {label} (base, every head alone, the set 0.*,{m.L - 1}.{m.H - 1})",
               f"{n} tokens, max rel loss diff {max(diffs):.2e}" + (f"; problems: {problems}" if problems else ""))
    # the CSV holds the JSON's numbers
    path = os.path.join(twb.tmp, "ablate.csv")
    twb("ablate", "--run", run, "--all", "--max-tokens", "1024", "--csv", path, "--force")
    d = json.loads(twb("ablate", "--run", run, "--all", "--heads", "0.0", "--max-tokens", "1024", "--json"))
    rows = {r["heads_off"]: float(r["loss"]) for r in csv.DictReader(open(path, newline=""))}
    want = {"none": d["base_loss"], **{f"{r['layer']}.{r['head']}": r["loss"] for r in d["every_head"]}}
    bad = {k for k in want if k not in rows or abs(rows[k] - want[k]) > 1e-6 * want[k]}
    report(not bad, "ablate --csv equals --json", "same rows and losses" if not bad else f"differ: {bad}")


def check_attention(m, twb):
    worst_w, worst_p, problems = 0.0, 0.0, []
    for prompt in PROMPTS[:3] + [" ".join(PROMPTS) * 4]:
        path = os.path.join(twb.tmp, "att.json")
        twb("attention", "--run", twb.run, "--prompt", prompt, "--out", path, "--force")
        d = json.load(open(path))
        ids = twb.ids(prompt)[-m.T:]
        idx = torch.tensor([ids])
        with torch.no_grad():
            logits, _, atts = m.forward(idx)
        W = torch.tensor(d["weights"], dtype=DT)  # (L, H, T, T)
        ref = torch.stack([a[0] for a in atts])
        if W.shape != ref.shape:
            problems.append(f"shape {tuple(W.shape)} vs {tuple(ref.shape)}")
            continue
        worst_w = max(worst_w, float((W - ref).abs().max()))
        p = F.softmax(logits[0], -1)
        for t, top in enumerate(d["next_token_top"]):
            ref_top = torch.topk(p[t], len(top))
            for j, e in enumerate(top):
                worst_p = max(worst_p, abs(e["prob"] - p[t, e["id"]].item()) / p[t, e["id"]].item())
                if abs(p[t, e["id"]].item() - ref_top.values[j].item()) > 1e-6:
                    problems.append(f"next_token_top order at {t}")
    report(not problems and worst_w < 1e-5 and worst_p < 1e-4,
           "attention --out (weights[layer][head][q][k], next_token_top)",
           f"max abs diff weights {worst_w:.2e}, max rel diff next-token probs {worst_p:.2e}"
           + (f"; problems: {problems[:3]}" if problems else ""))


def parse_eval(text):
    out = {}
    for key in ("loss", "accuracy", "perplexity", "bits/char"):
        mm = re.search(rf"^{re.escape(key)}\s+([-+0-9.eE]+)", text, re.M)
        out[key] = float(mm.group(1)) if mm else None
    mm = re.search(r"(\d+) tokens", text)
    out["tokens"] = int(mm.group(1)) if mm else None
    return out


def check_eval(m, twb, run):
    kind = json.load(open(os.path.join(run, "tokenizer", "tokenizer.json"))).get("kind")
    for split, max_tokens in (("val", None), ("val", 2000), ("train", 4096)):
        data, _ = read_split(run, split)
        args = ["eval", "--run", run, "--split", split] + (["--max-tokens", str(max_tokens)] if max_tokens else [])
        e = parse_eval(twb(*args))
        loss, acc, n = stream_loss(m, data, max_tokens or 0)
        # printed with 4 decimals (loss, accuracy), 3 (perplexity), 4 (bits/char): allow half a unit + 1e-4 rel
        ok = (e["tokens"] == n and abs(e["loss"] - loss) <= 5e-5 + 1e-4 * loss and abs(e["accuracy"] - acc) <= 5e-5 + 1e-6
              and abs(e["perplexity"] - math.exp(loss)) <= 5e-4 + 1e-4 * math.exp(loss))
        detail = (f"{n} tokens; loss twb {e['loss']} ref {loss:.6f}, accuracy twb {e['accuracy']} ref {acc:.6f}, "
                  f"perplexity twb {e['perplexity']} ref {math.exp(loss):.4f}")
        if kind in ("char", "word"):
            # docs/experiments.md: the split's nats over its characters (its ids decoded and counted);
            # the scored tokens' mean loss times the split's tokens per character
            specials = {"<pad>", "<unk>", "<bos>", "<eos>"} if kind == "word" else set()
            vocab = json.load(open(os.path.join(run, "tokenizer", "tokenizer.json")))["vocab"]
            chars = sum(len(vocab[i]) for i in data.tolist() if vocab[i] not in specials)
            bpc = loss / math.log(2) * len(data) / chars
            ok = ok and abs(e["bits/char"] - bpc) <= 5e-5 + 1e-4 * bpc
            detail += f", bits/char twb {e['bits/char']} ref {bpc:.5f}"
        report(ok, f"eval --split {split}" + (f" --max-tokens {max_tokens}" if max_tokens else ""), detail)


def text_ids(twb, text):
    """The ids embeddings uses for a text: a word tokenizer's bare word that encodes to <unk> is taken
    as " word" (docs/cli.md says so for --near; twb does the same for --similarity)."""
    ids = twb.ids(text)
    if 1 in ids and twb.tok_kind == "word":
        alt = twb.ids(" " + text)
        if 1 not in alt:
            return alt
    return ids


def check_embeddings(m, twb, run):
    E = m.wte
    En = E / E.norm(dim=-1, keepdim=True)
    worst, problems = 0.0, []
    for word in NEAR:
        try:
            out = twb("embeddings", "--run", run, "--near", word, "-k", "8")
        except RuntimeError as exc:
            if "not in the vocabulary" in str(exc) and 1 in twb.ids(word) and 1 in twb.ids(" " + word):
                print(f"  note: --near {word!r} refused: the word is <unk> for this tokenizer")
                continue
            raise
        head = re.search(r"\((?:mean of tokens|token) ([0-9 ]+)\)", out)
        ids = [int(t) for t in head.group(1).split()]
        v = E[ids].mean(0)
        sims = En @ (v / v.norm())
        sims[ids] = -math.inf
        order = torch.argsort(sims, descending=True)
        rows = re.findall(r"^\s*(\d+)\s+([-+][0-9.]+)\s+(\d+)\s", out, re.M)
        if len(rows) != 8:
            problems.append(f"{word!r}: {len(rows)} rows")
        for rank, sim, tid in rows:
            rank, sim, tid = int(rank), float(sim), int(tid)
            worst = max(worst, abs(sim - sims[tid].item()))
            if order[rank - 1].item() != tid and abs(sims[order[rank - 1]].item() - sims[tid].item()) > 1e-6:
                problems.append(f"{word!r} rank {rank}: twb {tid} ref {order[rank - 1].item()}")
        if text_ids(twb, word) != ids:
            problems.append(f"{word!r}: tokens {ids} are not tokenize's {twb.ids(word)}")
    report(not problems and worst <= 6e-5, "embeddings --near (cosine of wte rows, word = mean of its rows, own tokens left out)",
           f"max abs diff {worst:.1e} (printed to 4 decimals)" + (f"; problems: {problems[:3]}" if problems else ""))
    worst = 0.0
    for a, b in SIM:
        try:
            out = twb("embeddings", "--run", run, "--similarity", a, b)
        except RuntimeError as exc:
            if "not in the vocabulary" in str(exc) and (1 in twb.ids(a) or 1 in twb.ids(b)):
                print(f"  note: --similarity {a!r} {b!r} refused: <unk> for this tokenizer")
                continue
            raise
        sim = float(re.search(r"similarity\s+([-+0-9.]+)", out).group(1))
        va, vb = E[text_ids(twb, a)].mean(0), E[text_ids(twb, b)].mean(0)
        ref = F.cosine_similarity(va, vb, dim=0).item()
        worst = max(worst, abs(sim - ref))
    report(worst <= 2e-6, "embeddings --similarity (cosine of the two texts' mean wte rows)",
           f"max abs diff {worst:.1e} (printed to 6 decimals)")
    if "lm_head.weight" in m.w:
        # untied: which matrix? report the alternative so a mismatch above is easy to read
        va, vb = m.head[twb.ids(SIM[0][0])].mean(0), m.head[twb.ids(SIM[0][1])].mean(0)
        print(f"  note: untied run; lm_head rows would give {F.cosine_similarity(va, vb, dim=0).item():+.6f} for {SIM[0]}")


def make_run(exe, folder):
    """A corpus holding every character the checks' prompts use, prepared and trained for 200 steps (2
    layers, 2 heads, 32 wide, rotary positions): small enough for a test, trained enough that its
    attention, lens and attribution are not uniform."""
    os.makedirs(folder)
    words = ("a gift of flower will soon be made to you the quick brown fox jumps over lazy dog king queen "
             "love hate cat it Twain You A The x").split()
    gen = torch.Generator().manual_seed(1)
    sentences = []
    for _ in range(6000):
        n = int(torch.randint(3, 10, (1,), generator=gen))
        pick = torch.randint(0, len(words), (n,), generator=gen).tolist()
        sentences.append(" ".join(words[i] for i in pick) + ".")
    corpus = os.path.join(folder, "corpus.txt")
    with open(corpus, "w") as f:
        f.write("\n".join(sentences) + "\n")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    for args in (["prepare", "--input", corpus, "--out", os.path.join(folder, "data"), "--quiet"],
                 ["train", "--data", os.path.join(folder, "data"), "--out", os.path.join(folder, "run"), "--preset",
                  "tiny", "--quiet"] + [a for kv in ("n_layer=2", "n_head=2", "n_embd=32", "block_size=64",
                                                     "max_iters=200", "lr_decay_iters=200", "eval_interval=100",
                                                     "eval_iters=2", "threads=1", "dropout=0")
                                        for a in ("--set", kv)]):
        r = subprocess.run([exe, *args], capture_output=True, text=True, env=env)
        if r.returncode != 0:
            raise SystemExit(f"twb {args[0]} failed ({r.returncode}): {r.stderr.strip()}")
    return os.path.join(folder, "run")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="*")
    ap.add_argument("--twb", required=True, help="the twb program to check")
    ap.add_argument("--make-run", action="store_true", help="train a tiny run in a temporary folder and check it")
    ap.add_argument("--only", help="comma-separated: forward,export,tokenize,lens,attribute,ablate,attention,eval,embeddings")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None
    if not args.runs and not args.make_run:
        ap.error("give a run folder, or --make-run")
    made = tempfile.mkdtemp(prefix="twb-inspection-") if args.make_run else None
    try:
        if made:
            args.runs.append(make_run(args.twb, os.path.join(made, "tiny")))
        check_runs(args, only)
    finally:
        if made:
            shutil.rmtree(made, ignore_errors=True)
    print(f"{sum(RESULTS)} passed, {len(RESULTS) - sum(RESULTS)} failed")
    sys.exit(0 if RESULTS and all(RESULTS) else 1)


def check_runs(args, only):
    for run in args.runs:
        tmp = tempfile.mkdtemp(prefix="twb-check-")
        try:
            twb = Twb(args.twb, run, tmp)
            m = Model(run)
            print(f"== {run}: {m.L}x{m.H}x{m.C}, position {m.cfg['position']}, bias {m.cfg['bias']}, "
                  f"tied {'lm_head.weight' not in m.w}, step {m.step}", flush=True)
            checks = [("forward", lambda: check_forward(m)), ("export", lambda: check_export(m, twb, run)),
                      ("tokenize", lambda: check_tokenize(m, twb, run)),
                      ("lens", lambda: check_lens(m, twb)), ("attribute", lambda: check_attribute(m, twb)),
                      ("ablate", lambda: check_ablate(m, twb, run)), ("attention", lambda: check_attention(m, twb)),
                      ("eval", lambda: check_eval(m, twb, run)), ("embeddings", lambda: check_embeddings(m, twb, run))]
            for name, fn in checks:
                if only and name not in only:
                    continue
                try:
                    fn()
                except Exception as exc:  # a crash is a failure of that check, not of the script
                    report(False, name, f"{type(exc).__name__}: {exc}")
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
