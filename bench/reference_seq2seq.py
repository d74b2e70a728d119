#!/usr/bin/python3
"""A PyTorch reference for bench/seq2seq_vs_reference.sh.

The encoder-decoder of `twb train --preset multi30k` written again in plain PyTorch: pre-norm blocks,
embeddings scaled by sqrt(C) plus the sinusoidal table, ReLU MLP, one embedding tied to the output,
key-padding masks, label smoothing, AdamW (beta2 0.98) with the paper's schedule and gradient clipping,
and the same token-budget batches (pairs sorted by length, packed while pairs * (max source + max
target) stays within the budget, batch order shuffled). It reads a parallel dataset written by
`twb prepare --source/--target` and prints JSON:

  train: median ms/step and target tokens/s over --steps steps (after 3 warm-up steps);
  translate (with --weights, a twb checkpoint's model.safetensors): greedy sentences/s (batched, 32
  sources a pass, decoder KV cache, cross-attention keys/values once) and beam-5 sentences/s (one
  source at a time, the beams batched), over the first --sentences validation sources.

Written for this project; run with Debian's python3-torch so BLAS and threads match twb's.
"""
import argparse, json, math, os, statistics, struct, time
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--data", required=True)
p.add_argument("--steps", type=int, default=40)
p.add_argument("--threads", type=int, default=2)
p.add_argument("--weights", default="")
p.add_argument("--sentences", type=int, default=100)
p.add_argument("--n-layer", type=int, default=3)
p.add_argument("--n-head", type=int, default=4)
p.add_argument("--n-embd", type=int, default=256)
p.add_argument("--ffn", type=int, default=1024)
p.add_argument("--block", type=int, default=96)
p.add_argument("--batch-tokens", type=int, default=4096)
p.add_argument("--warmup", type=int, default=400)
p.add_argument("--lr-factor", type=float, default=0.4)  # the noam scale: the preset's learning_rate
a = p.parse_args()
torch.set_num_threads(a.threads)
torch.manual_seed(1337)
C, H, L, BLOCK = a.n_embd, a.n_head, a.n_layer, a.block

meta = json.load(open(os.path.join(a.data, "meta.json")))
V = meta["vocab_size"]
sp = meta["special_tokens"]
BOS, EOS, PAD = sp["bos"], sp["eos"], sp["pad"]
dt = np.uint16 if meta["dtype"] == "uint16" else np.uint32


def load_pairs(split):
    ids = np.fromfile(os.path.join(a.data, split + ".bin"), dtype=dt).astype(np.int64)
    rec = np.fromfile(os.path.join(a.data, split + ".pairs"), dtype=np.uint64).reshape(-1, 4).astype(np.int64)
    return [(ids[s0:s1], ids[t0:t1]) for s0, s1, t0, t1 in rec]


def token_budget_batches(pairs):
    pairs = [q for q in pairs if len(q[0]) + 1 <= BLOCK and len(q[1]) + 1 <= BLOCK]
    order = sorted(range(len(pairs)), key=lambda i: (len(pairs[i][0]), len(pairs[i][1])))
    batches, cur, ms, mt = [], [], 0, 0
    for i in order:
        s, t = len(pairs[i][0]) + 1, len(pairs[i][1]) + 1
        if cur and (len(cur) + 1) * (max(ms, s) + max(mt, t)) > a.batch_tokens:
            batches.append(cur)
            cur, ms, mt = [], 0, 0
        cur.append(i)
        ms, mt = max(ms, s), max(mt, t)
    if cur:
        batches.append(cur)
    return pairs, batches


def make_batch(pairs, rows):
    S = max(len(pairs[r][0]) for r in rows) + 1
    T = max(len(pairs[r][1]) for r in rows) + 1
    src = torch.full((len(rows), S), PAD, dtype=torch.long)
    tin = torch.full((len(rows), T), PAD, dtype=torch.long)
    tout = torch.full((len(rows), T), -100, dtype=torch.long)
    for b, r in enumerate(rows):
        s, t = pairs[r]
        src[b, :len(s)] = torch.from_numpy(s)
        src[b, len(s)] = EOS
        tin[b, 0] = BOS
        tin[b, 1:len(t) + 1] = torch.from_numpy(t)
        tout[b, :len(t)] = torch.from_numpy(t)
        tout[b, len(t)] = EOS
    return src, src == PAD, tin, tin == PAD, tout


def sinusoid(n, d):
    pos = torch.arange(n, dtype=torch.float64).unsqueeze(1)
    div = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * (-math.log(10000.0) / d))
    pe = torch.zeros(n, d, dtype=torch.float64)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
    return pe.float()


def heads(x):  # (B, T, C) -> (B, H, T, D)
    B, T, _ = x.shape
    return x.view(B, T, H, C // H).transpose(1, 2)


def attend(q, k, v, bias, drop, training):
    w = (q @ k.transpose(-2, -1)) / math.sqrt(q.size(-1)) + bias
    w = F.dropout(F.softmax(w, dim=-1), drop, training)
    y = w @ v
    return y.transpose(1, 2).reshape(y.size(0), y.size(2), C)


class SelfAttn(nn.Module):
    def __init__(s):
        super().__init__()
        s.c_attn, s.c_proj = nn.Linear(C, 3 * C), nn.Linear(C, C)

    def forward(s, x, bias, cache=None):
        q, k, v = (heads(t) for t in s.c_attn(x).split(C, dim=2))
        if cache is not None:  # decoding: append this step's keys and values
            if "k" in cache:
                k, v = torch.cat([cache["k"], k], 2), torch.cat([cache["v"], v], 2)
            cache["k"], cache["v"] = k, v
        return F.dropout(s.c_proj(attend(q, k, v, bias, 0.1, s.training)), 0.1, s.training)


class CrossAttn(nn.Module):
    def __init__(s):
        super().__init__()
        s.c_q, s.c_kv, s.c_proj = nn.Linear(C, C), nn.Linear(C, 2 * C), nn.Linear(C, C)

    def memory(s, m):
        k, v = s.c_kv(m).split(C, dim=2)
        return heads(k), heads(v)

    def forward(s, x, kv, bias):
        return F.dropout(s.c_proj(attend(heads(s.c_q(x)), kv[0], kv[1], bias, 0.1, s.training)), 0.1, s.training)


class MLP(nn.Module):
    def __init__(s):
        super().__init__()
        s.c_fc, s.c_proj = nn.Linear(C, a.ffn), nn.Linear(a.ffn, C)

    def forward(s, x):
        return F.dropout(s.c_proj(F.relu(s.c_fc(x))), 0.1, s.training)


class EncBlock(nn.Module):
    def __init__(s):
        super().__init__()
        s.ln_1, s.attn, s.ln_2, s.mlp = nn.LayerNorm(C), SelfAttn(), nn.LayerNorm(C), MLP()

    def forward(s, x, bias):
        x = x + s.attn(s.ln_1(x), bias)
        return x + s.mlp(s.ln_2(x))


class DecBlock(nn.Module):
    def __init__(s):
        super().__init__()
        s.ln_1, s.self_attn, s.ln_2 = nn.LayerNorm(C), SelfAttn(), nn.LayerNorm(C)
        s.cross_attn, s.ln_3, s.mlp = CrossAttn(), nn.LayerNorm(C), MLP()

    def forward(s, x, self_bias, kv, mem_bias, cache=None):
        x = x + s.self_attn(s.ln_1(x), self_bias, cache)
        x = x + s.cross_attn(s.ln_2(x), kv, mem_bias)
        return x + s.mlp(s.ln_3(x))


class Stack(nn.Module):
    def __init__(s, block):
        super().__init__()
        s.h, s.ln_f = nn.ModuleList([block() for _ in range(L)]), nn.LayerNorm(C)


class Seq2Seq(nn.Module):
    def __init__(s):
        super().__init__()
        s.wte, s.encoder, s.decoder = nn.Embedding(V, C), Stack(EncBlock), Stack(DecBlock)
        s.register_buffer("pe", sinusoid(BLOCK, C))
        s.register_buffer("causal", torch.full((BLOCK, BLOCK), float("-inf")).triu(1))

    def embed(s, ids, offset=0):
        return F.dropout(s.wte(ids) * math.sqrt(C) + s.pe[offset:offset + ids.size(1)], 0.1, s.training)

    @staticmethod
    def pad_bias(pad):
        return torch.zeros(pad.shape).masked_fill(pad, float("-inf")).view(pad.size(0), 1, 1, pad.size(1))

    def encode(s, src, src_pad):
        x, bias = s.embed(src), s.pad_bias(src_pad)
        for blk in s.encoder.h:
            x = blk(x, bias)
        return s.encoder.ln_f(x), bias

    def decode(s, tin, self_bias, kvs, mem_bias, caches=None, offset=0):
        x = s.embed(tin, offset)
        for i, blk in enumerate(s.decoder.h):
            x = blk(x, self_bias, kvs[i], mem_bias, caches[i] if caches else None)
        return s.decoder.ln_f(x) @ s.wte.weight.t()

    def forward(s, src, src_pad, tin, tin_pad):
        mem, mem_bias = s.encode(src, src_pad)
        kvs = [blk.cross_attn.memory(mem) for blk in s.decoder.h]
        T = tin.size(1)
        return s.decode(tin, s.causal[:T, :T] + s.pad_bias(tin_pad), kvs, mem_bias)


model = Seq2Seq()
with torch.no_grad():  # twb's initialisation: the tied embedding N(0, C^-0.5), matrices N(0, 0.02), biases 0
    for n, q in model.named_parameters():
        if n == "wte.weight":
            q.normal_(0.0, C ** -0.5)
        elif q.dim() == 2:
            q.normal_(0.0, 0.02)
        elif ".ln_" not in n and not n.startswith("ln"):
            q.zero_()
out = {"torch": torch.__version__, "threads": a.threads,
       "parameters": sum(q.numel() for n, q in model.named_parameters() if n != "pe")}

# --- training speed
pairs, batches = token_budget_batches(load_pairs("train"))
order = torch.randperm(len(batches)).tolist()
opt = torch.optim.AdamW(model.parameters(), lr=1.0, betas=(0.9, 0.98), weight_decay=0.0)
model.train()
times, tokens = [], []
for step in range(1, a.steps + 4):
    t0 = time.perf_counter()
    src, src_pad, tin, tin_pad, tout = make_batch(pairs, batches[order[step % len(order)]])
    lr = a.lr_factor * C ** -0.5 * min(step ** -0.5, step * a.warmup ** -1.5)
    for g in opt.param_groups:
        g["lr"] = lr
    logits = model(src, src_pad, tin, tin_pad)
    loss = F.cross_entropy(logits.view(-1, V), tout.view(-1), ignore_index=-100, label_smoothing=0.1)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if step > 3:
        times.append(time.perf_counter() - t0)
        tokens.append(int((tout != -100).sum()))
out["train"] = {"steps": len(times), "median_ms_per_step": 1000 * statistics.median(times),
                "target_tokens_per_s": sum(tokens) / sum(times), "last_loss": float(loss)}


# --- translation speed with a twb checkpoint's weights
def load_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        blob = f.read()
    weights = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        assert info["dtype"] == "F32", name
        b0, b1 = info["data_offsets"]
        weights[name] = torch.from_numpy(np.frombuffer(blob[b0:b1], dtype=np.float32).copy()).view(info["shape"])
    return weights


@torch.no_grad()
def greedy(sources):
    outs = []
    for i in range(0, len(sources), 32):
        chunk = sources[i:i + 32]
        S = max(len(s) for s in chunk) + 1
        src = torch.full((len(chunk), S), PAD, dtype=torch.long)
        for b, s in enumerate(chunk):
            src[b, :len(s)] = torch.from_numpy(s)
            src[b, len(s)] = EOS
        mem, mem_bias = model.encode(src, src == PAD)
        kvs = [blk.cross_attn.memory(mem) for blk in model.decoder.h]
        caches = [{} for _ in model.decoder.h]
        limit = min(BLOCK, int(1.5 * max(len(s) for s in chunk)) + 10)
        tok = torch.full((len(chunk), 1), BOS, dtype=torch.long)
        done = torch.zeros(len(chunk), dtype=torch.bool)
        hyp = [[] for _ in chunk]
        for t in range(limit):
            logits = model.decode(tok, torch.zeros(1, 1), kvs, mem_bias, caches, t)
            tok = logits[:, -1].argmax(-1, keepdim=True)
            for b in range(len(chunk)):
                if not done[b]:
                    if int(tok[b]) == EOS:
                        done[b] = True
                    else:
                        hyp[b].append(int(tok[b]))
            if bool(done.all()):
                break
        outs += hyp
    return outs


@torch.no_grad()
def beam(source, width=5):
    src = torch.tensor(list(source) + [EOS]).unsqueeze(0)
    mem, mem_bias = model.encode(src, src == PAD)
    kv0 = [blk.cross_attn.memory(mem) for blk in model.decoder.h]
    limit = min(BLOCK, int(1.5 * len(source)) + 10)
    beams = [([], 0.0)]  # (tokens, log-prob)
    caches = [{} for _ in model.decoder.h]
    finished = []
    tok = torch.tensor([[BOS]])
    for t in range(limit):
        n = len(beams)
        kvs = [(k.expand(n, -1, -1, -1), v.expand(n, -1, -1, -1)) for k, v in kv0]
        logp = F.log_softmax(model.decode(tok, torch.zeros(1, 1), kvs, mem_bias, caches, t)[:, -1], -1)
        scores = torch.tensor([b[1] for b in beams]).unsqueeze(1) + logp
        top = scores.view(-1).topk(2 * width)
        nxt, rows = [], []
        for sc, idx in zip(top.values.tolist(), top.indices.tolist()):
            r, w = divmod(idx, V)
            if w == EOS:
                finished.append((beams[r][0], sc / (len(beams[r][0]) + 1)))
            else:
                nxt.append((beams[r][0] + [w], sc))
                rows.append(r)
            if len(nxt) == width:
                break
        if len(finished) >= width or not nxt:
            break
        beams = nxt
        sel = torch.tensor(rows)
        for c in caches:
            c["k"], c["v"] = c["k"][sel], c["v"][sel]
        tok = torch.tensor([[b[0][-1]] for b in beams])
    finished += [(b[0], b[1] / (len(b[0]) + 1)) for b in beams]
    return max(finished, key=lambda f: f[1])[0]


if a.weights:
    w = load_safetensors(a.weights)
    missing = model.load_state_dict({k: v for k, v in w.items()}, strict=False)
    assert not [k for k in missing.missing_keys if k not in ("pe", "causal")], missing
    assert not missing.unexpected_keys, missing
    model.eval()
    sources = [s for s, _ in load_pairs("val")][:a.sentences]
    t0 = time.perf_counter()
    g = greedy(sources)
    tg = time.perf_counter() - t0
    t0 = time.perf_counter()
    bm = [beam(s) for s in sources]
    tb = time.perf_counter() - t0
    out["translate"] = {"sentences": len(sources), "greedy_sentences_per_s": len(sources) / tg,
                        "beam5_sentences_per_s": len(sources) / tb,
                        "greedy_mean_tokens": statistics.mean(len(h) for h in g),
                        "beam5_mean_tokens": statistics.mean(len(h) for h in bm),
                        "greedy_ids_first": g[0]}
print(json.dumps(out))
