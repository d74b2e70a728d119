#!/usr/bin/python3
"""A PyTorch reference for bench/train_vs_reference.sh.

Trains the same GPT (pre-norm, learned positions, tied head, GPT-2 init, AdamW with decay on matrices,
warmup + cosine) as nanoGPT's CPU recipe would, on a dataset written by `twb prepare`, and prints
median ms/iter and the final val loss as JSON. Written for this project; it mirrors nanoGPT's model
and training loop so the comparison is like for like. Run with Debian's python3-torch.
"""
import argparse, json, math, os, statistics, time
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--data", required=True)
p.add_argument("--iters", type=int, default=2000)
p.add_argument("--threads", type=int, default=2)
p.add_argument("--eval-interval", type=int, default=250)
a = p.parse_args()
torch.set_num_threads(a.threads)
torch.manual_seed(1337)
n_layer, n_head, n_embd, block, batch = 4, 4, 128, 64, 12
lr, min_lr, warmup, decay_iters, eval_iters = 1e-3, 1e-4, 100, a.iters, 20
meta = json.load(open(os.path.join(a.data, "meta.json")))
dt = np.uint16 if meta["dtype"] == "uint16" else np.uint32
train = np.memmap(os.path.join(a.data, "train.bin"), dtype=dt, mode="r")
val = np.memmap(os.path.join(a.data, "val.bin"), dtype=dt, mode="r")
V = meta["vocab_size"]

def get_batch(d):
    ix = torch.randint(len(d) - block, (batch,))
    x = torch.stack([torch.from_numpy(d[i:i + block].astype(np.int64)) for i in ix])
    y = torch.stack([torch.from_numpy(d[i + 1:i + 1 + block].astype(np.int64)) for i in ix])
    return x, y

class Attn(nn.Module):
    def __init__(s):
        super().__init__()
        s.c_attn = nn.Linear(n_embd, 3 * n_embd)
        s.c_proj = nn.Linear(n_embd, n_embd)
        s.register_buffer("mask", torch.tril(torch.ones(block, block)).view(1, 1, block, block))
    def forward(s, x):
        B, T, C = x.shape
        q, k, v = s.c_attn(x).split(n_embd, dim=2)
        q, k, v = [t.view(B, T, n_head, C // n_head).transpose(1, 2) for t in (q, k, v)]
        w = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        w = F.softmax(w.masked_fill(s.mask[:, :, :T, :T] == 0, float("-inf")), dim=-1)
        return s.c_proj((w @ v).transpose(1, 2).contiguous().view(B, T, C))

class Block(nn.Module):
    def __init__(s):
        super().__init__()
        s.ln_1, s.attn, s.ln_2 = nn.LayerNorm(n_embd), Attn(), nn.LayerNorm(n_embd)
        s.c_fc, s.c_proj = nn.Linear(n_embd, 4 * n_embd), nn.Linear(4 * n_embd, n_embd)
    def forward(s, x):
        x = x + s.attn(s.ln_1(x))
        return x + s.c_proj(F.gelu(s.c_fc(s.ln_2(x))))

class GPT(nn.Module):
    def __init__(s):
        super().__init__()
        s.wte, s.wpe = nn.Embedding(V, n_embd), nn.Embedding(block, n_embd)
        s.h = nn.ModuleList([Block() for _ in range(n_layer)])
        s.ln_f = nn.LayerNorm(n_embd)
        s.apply(s._init)
        for n, prm in s.named_parameters():
            if n.endswith("c_proj.weight"):
                nn.init.normal_(prm, 0.0, 0.02 / math.sqrt(2 * n_layer))
    def _init(s, m):
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, 0.0, 0.02)
        if isinstance(m, nn.Linear) and m.bias is not None:
            nn.init.zeros_(m.bias)
    def forward(s, idx, tgt):
        x = s.wte(idx) + s.wpe(torch.arange(idx.size(1)))
        for b in s.h:
            x = b(x)
        logits = s.ln_f(x) @ s.wte.weight.t()
        return F.cross_entropy(logits.view(-1, V), tgt.view(-1))

m = GPT()
decay = [q for q in m.parameters() if q.dim() >= 2]
nodecay = [q for q in m.parameters() if q.dim() < 2]
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": nodecay, "weight_decay": 0.0}],
                        lr=lr, betas=(0.9, 0.99))

def get_lr(it):
    if it < warmup:
        return lr * (it + 1) / (warmup + 1)
    if it > decay_iters:
        return min_lr
    r = (it - warmup) / (decay_iters - warmup)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * r)) * (lr - min_lr)

@torch.no_grad()
def est(d):
    m.eval()
    l = sum(m(*get_batch(d)).item() for _ in range(eval_iters)) / eval_iters
    m.train()
    return l

times, last_val = [], None
for it in range(a.iters + 1):
    if it % a.eval_interval == 0 or it == a.iters:
        last_val = est(val)
    if it == a.iters:
        break
    t0 = time.perf_counter()
    for g in opt.param_groups:
        g["lr"] = get_lr(it)
    loss = m(*get_batch(train))
    loss.backward()
    torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0)
    opt.step()
    opt.zero_grad(set_to_none=True)
    times.append((time.perf_counter() - t0) * 1000)
print(json.dumps({"median_ms_per_iter": statistics.median(times), "val_loss": last_val, "iters": a.iters,
                  "torch": torch.__version__, "threads": torch.get_num_threads()}))
