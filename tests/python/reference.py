#!/usr/bin/env python3
"""The GPT of Transformer Workbench written again in plain PyTorch (Debian's python3-torch), the
independent reference of tests/engine/tst_parity. It reads and writes safetensors with its own code
(struct + json), so the engine's reader also meets files another writer made.

  reference.py forward CASE...   CASE/{config.json, weights.safetensors (weights + "ids")}
                                 -> CASE/out.safetensors: logits (B, T, V), att.L (B, H, T, T)
  reference.py step CASE...      CASE/{config.json, weights.safetensors (initial weights),
                                 batches.safetensors (x.i, y.i per micro-batch)}
                                 -> CASE/out.safetensors: the weights after one AdamW step, "loss", "grad_norm"

config.json holds the model's RunConfig keys (n_layer, n_head, n_embd, position, bias, tie_embeddings)
and, for a step, learning_rate, beta1, beta2, weight_decay, decay_embeddings, grad_clip,
label_smoothing. Written from the usual definitions (nanoGPT's model, GPT-NeoX's rotate_half,
torch.optim.AdamW, clip_grad_norm_, F.cross_entropy); nothing is shared with the C++ code.
"""
import json
import math
import struct
import sys

import torch
import torch.nn.functional as F

DTYPES = {"F32": torch.float32, "F64": torch.float64, "I64": torch.int64, "I32": torch.int32}
NAMES = {v: k for k, v in DTYPES.items()}


def load(path):
    raw = open(path, "rb").read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    data = raw[8 + n :]
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        t = torch.frombuffer(bytearray(data[begin:end]), dtype=DTYPES[info["dtype"]]) if end > begin else torch.zeros(0)
        out[name] = t.reshape(info["shape"]).clone()
    return out


def save(path, tensors):
    """Header padded with spaces to a multiple of 8 bytes; tensors in name order, as the format allows."""
    header, blobs, offset = {}, [], 0
    for name in sorted(tensors):
        t = tensors[name].detach().contiguous().cpu()
        blob = t.numpy().tobytes()
        header[name] = {"dtype": NAMES[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    header["__metadata__"] = {"writer": "tests/python/reference.py"}
    text = json.dumps(header).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def forward(w, cfg, idx, attention=None):
    B, T = idx.shape
    C, H = cfg["n_embd"], cfg["n_head"]
    D = C // H
    pos = torch.arange(T, dtype=torch.float32)
    x = F.embedding(idx, w["transformer.wte.weight"])
    if cfg["position"] == "learned":
        x = x + w["transformer.wpe.weight"][:T]
    elif cfg["position"] == "sinusoidal":
        pe = torch.zeros(T, C)
        div = torch.exp(torch.arange(0, C, 2, dtype=torch.float32) * (-math.log(10000.0) / C))
        pe[:, 0::2] = torch.sin(pos[:, None] * div)
        pe[:, 1::2] = torch.cos(pos[:, None] * div)
        x = x + pe
    if cfg["position"] == "rotary":
        inv = 1.0 / (10000.0 ** (torch.arange(0, D, 2, dtype=torch.float32) / D))
        ang = torch.cat((pos[:, None] * inv, pos[:, None] * inv), dim=-1)  # (T, D)
        cos, sin = ang.cos(), ang.sin()
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
    for layer in range(cfg["n_layer"]):
        p = f"transformer.h.{layer}."
        h = F.layer_norm(x, (C,), w[p + "ln_1.weight"], w.get(p + "ln_1.bias"), 1e-5)
        q, k, v = F.linear(h, w[p + "attn.c_attn.weight"], w.get(p + "attn.c_attn.bias")).split(C, dim=2)
        q, k, v = (t.view(B, T, H, D).transpose(1, 2) for t in (q, k, v))
        if cfg["position"] == "rotary":
            q = q * cos + rotate_half(q) * sin
            k = k * cos + rotate_half(k) * sin
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(D))
        att = F.softmax(att.masked_fill(~causal, float("-inf")), dim=-1)
        if attention is not None:
            attention.append(att)
        y = (att @ v).transpose(1, 2).reshape(B, T, C)
        x = x + F.linear(y, w[p + "attn.c_proj.weight"], w.get(p + "attn.c_proj.bias"))
        h = F.layer_norm(x, (C,), w[p + "ln_2.weight"], w.get(p + "ln_2.bias"), 1e-5)
        x = x + F.linear(F.gelu(F.linear(h, w[p + "mlp.c_fc.weight"], w.get(p + "mlp.c_fc.bias"))),
                         w[p + "mlp.c_proj.weight"], w.get(p + "mlp.c_proj.bias"))
    x = F.layer_norm(x, (C,), w["transformer.ln_f.weight"], w.get("transformer.ln_f.bias"), 1e-5)
    return F.linear(x, w["lm_head.weight"] if "lm_head.weight" in w else w["transformer.wte.weight"])


def do_forward(case):
    cfg = json.load(open(f"{case}/config.json"))
    w = load(f"{case}/weights.safetensors")
    idx = w.pop("ids")
    att = []
    with torch.no_grad():
        logits = forward(w, cfg, idx, att)
    out = {"logits": logits}
    for i, a in enumerate(att):
        out[f"att.{i}"] = a
    save(f"{case}/out.safetensors", out)


def do_step(case):
    cfg = json.load(open(f"{case}/config.json"))
    params = {k: v.clone().requires_grad_(True) for k, v in load(f"{case}/weights.safetensors").items()}
    batches = load(f"{case}/batches.safetensors")
    k = len([n for n in batches if n.startswith("x.")])
    total = 0.0
    for i in range(k):
        logits = forward(params, cfg, batches[f"x.{i}"])
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), batches[f"y.{i}"].reshape(-1),
                               label_smoothing=cfg["label_smoothing"]) / k
        loss.backward()
        total += loss.item()
    plist = list(params.values())
    if cfg["grad_clip"] > 0:
        norm = torch.nn.utils.clip_grad_norm_(plist, cfg["grad_clip"])
    else:
        norm = torch.norm(torch.stack([p.grad.norm() for p in plist]))

    def decays(name, p):
        return p.dim() >= 2 and (cfg["decay_embeddings"] or ("wte" not in name and "wpe" not in name))

    groups = [
        {"params": [p for n, p in params.items() if decays(n, p)], "weight_decay": cfg["weight_decay"]},
        {"params": [p for n, p in params.items() if not decays(n, p)], "weight_decay": 0.0},
    ]
    opt = torch.optim.AdamW(groups, lr=cfg["learning_rate"], betas=(cfg["beta1"], cfg["beta2"]), eps=1e-8)
    opt.step()
    out = {n: p.detach() for n, p in params.items()}
    out["loss"] = torch.tensor([total], dtype=torch.float64)
    out["grad_norm"] = torch.tensor([float(norm)], dtype=torch.float64)
    save(f"{case}/out.safetensors", out)


if __name__ == "__main__":
    torch.set_num_threads(1)
    action = {"forward": do_forward, "step": do_step}[sys.argv[1]]
    for case in sys.argv[2:]:
        action(case)
