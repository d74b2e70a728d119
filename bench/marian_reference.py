"""Checks twb's Marian import and export against Hugging Face transformers (the reference; its code is only
called, never copied). Called by bench/marian_reference.sh with the paths of twb and bench_seq2seq_logits.

(a) a small random MarianMTModel made and saved by transformers, with sentencepiece models trained here on
    English and Norwegian Bokmål sentences (source.spm, target.spm) and a vocab.json over both, loaded by
    transformers' MarianTokenizer and saved beside it; its final_logits_bias and LayerNorms randomised too,
    so every tensor's mapping matters. Imported with `twb import --hf`.
(b) token ids of twb's tokenizer against MarianTokenizer's, source and target side;
(c) twb's logits against transformers' on the same ids (teacher forcing);
(d) greedy translations: `twb translate` against a greedy loop over transformers' logits (argmax of the
    whole vocabulary, stop at </s>, the same length limit), ids and text;
(e) the run exported with `twb export --format hf`, loaded with MarianMTModel.from_pretrained and
    MarianTokenizer.from_pretrained: transformers' logits against twb's, and its tensors against (a)'s.
"""
import json
import os
import shutil
import subprocess
import sys

import sentencepiece as spm
import torch
from transformers import MarianConfig, MarianMTModel, MarianTokenizer

TWB, LOGITS, PAIRS, WORK = sys.argv[1:5]
SOURCES = [
    "Tom is reading a book.",
    "Where is the train station?",
    "I don't know what you want.",
    "We'll go home after   dinner, okay?",
    "Café naïve façade — “quoted” 12345",
]


def run(*args, stdin=None):
    r = subprocess.run(args, capture_output=True, text=True, input=stdin)
    if r.returncode != 0:
        sys.exit(f"{' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def read_pairs(n):
    en, nb = [], []
    with open(PAIRS, encoding="utf-8") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 2:
                en.append(cols[0])
                nb.append(cols[1])
            if len(en) >= n:
                break
    return en, nb


def make_marian(folder):
    en, nb = read_pairs(4000)
    os.makedirs(folder, exist_ok=True)
    for side, lines in (("source", en), ("target", nb)):
        corpus = os.path.join(WORK, side + ".txt")
        with open(corpus, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        spm.SentencePieceTrainer.train(input=corpus, model_prefix=os.path.join(WORK, side), vocab_size=400,
                                       model_type="unigram", character_coverage=1.0, unk_id=0, bos_id=1,
                                       eos_id=2, pad_id=-1, minloglevel=2)
        shutil.copy(os.path.join(WORK, side + ".model"), os.path.join(folder, side + ".spm"))
    # Marian's numbering: </s> 0, <unk> 1, then the pieces of both models, a language code, <pad> last.
    vocab = {"</s>": 0, "<unk>": 1}
    for side in ("source", "target"):
        sp = spm.SentencePieceProcessor(model_file=os.path.join(folder, side + ".spm"))
        for i in range(sp.get_piece_size()):
            p = sp.id_to_piece(i)
            if not (sp.is_control(i) or sp.is_unknown(i)) and p not in vocab:
                vocab[p] = len(vocab)
    vocab[">>nob<<"] = len(vocab)
    vocab["<pad>"] = len(vocab)
    with open(os.path.join(folder, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False)
    V = len(vocab)
    cfg = MarianConfig(vocab_size=V, decoder_vocab_size=V, d_model=48, encoder_layers=2, decoder_layers=3,
                       encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=96,
                       decoder_ffn_dim=96, max_position_embeddings=64, activation_function="swish",
                       scale_embedding=True, pad_token_id=V - 1, decoder_start_token_id=V - 1, eos_token_id=0,
                       forced_eos_token_id=0, dropout=0.0, attention_dropout=0.0, activation_dropout=0.0,
                       share_encoder_decoder_embeddings=True, tie_word_embeddings=True, init_std=0.2)
    torch.manual_seed(0)
    model = MarianMTModel(cfg).eval()
    with torch.no_grad():
        model.final_logits_bias.normal_(0, 0.5)
        for name, p in model.named_parameters():
            if "layer_norm" in name or name.endswith(".bias"):
                p.add_(torch.randn_like(p) * 0.1)
    model.save_pretrained(folder, safe_serialization=True)
    tok = MarianTokenizer(os.path.join(folder, "source.spm"), os.path.join(folder, "target.spm"),
                          os.path.join(folder, "vocab.json"), source_lang="en", target_lang="nb")
    tok.save_pretrained(folder)
    return model, tok, V


def hf_logits(model, src, tgt):
    with torch.no_grad():
        out = model(input_ids=torch.tensor([src]), decoder_input_ids=torch.tensor([tgt]))
    return out.logits[0].double()


def twb_logits(run_dir, src, tgt):
    out = run(LOGITS, run_dir, ",".join(map(str, src)), ",".join(map(str, tgt)))
    return torch.tensor(json.loads(out), dtype=torch.float64)


def greedy(model, src, start, eos, limit):
    out = []
    with torch.no_grad():
        enc = model.get_encoder()(input_ids=torch.tensor([src])).last_hidden_state
        while len(out) < limit:
            logits = model(encoder_outputs=(enc,), decoder_input_ids=torch.tensor([[start] + out])).logits[0, -1]
            nxt = int(logits.argmax())
            if nxt == eos:
                break
            out.append(nxt)
    return out


def main():
    folder, run_dir, exported = (os.path.join(WORK, n) for n in ("hf-marian", "run", "exported"))
    model, tok, V = make_marian(folder)
    print(f"(a) random MarianMTModel: vocab {V}, d_model 48, 2+3 layers, swish, scale_embedding, "
          f"{sum(p.numel() for p in model.parameters())} parameters; files {sorted(os.listdir(folder))}")
    print("   ", run(TWB, "import", "--hf", folder, "--out", run_dir).strip().splitlines()[0])

    ok_ids = 0
    for s in SOURCES:
        ours = json.loads(run(LOGITS, run_dir, "--encode", s))
        theirs = tok(s).input_ids[:-1]  # without the </s> MarianTokenizer appends
        ours_t = json.loads(run(LOGITS, run_dir, "--encode-target", s))
        theirs_t = tok(text_target=s).input_ids[:-1]
        ok_ids += (ours == theirs) + (ours_t == theirs_t)
        if ours != theirs or ours_t != theirs_t:
            print("    ids differ:", s, ours, theirs, ours_t, theirs_t)
    print(f"(b) token ids equal to MarianTokenizer's: {ok_ids}/{2 * len(SOURCES)} (source and target side)")

    worst = 0.0
    start, eos = model.config.decoder_start_token_id, model.config.eos_token_id
    for s in SOURCES:
        src = tok(s).input_ids
        tgt = [start] + tok(text_target=s).input_ids[:-1]
        worst = max(worst, (hf_logits(model, src, tgt) - twb_logits(run_dir, src, tgt)).abs().max().item())
    print(f"(c) logits, imported run vs transformers: max abs difference {worst:.3g} over {len(SOURCES)} pairs")

    limit = 21  # twb's limit: ceil(1e-9 * source tokens) + 20
    twb_out = run(TWB, "translate", "--run", run_dir, "--max-ratio", "1e-9", "--max-extra", "20",
                  stdin="\n".join(SOURCES) + "\n").splitlines()
    same_text = 0
    for s, line in zip(SOURCES, twb_out):
        text = tok.decode(greedy(model, tok(s).input_ids, start, eos, limit), skip_special_tokens=True)
        same_text += text == line
        if text != line:
            print(f"    differ: {s!r}: twb {line!r} transformers {text!r}")
    print(f"(d) greedy translations equal: {same_text}/{len(SOURCES)} (twb translate vs transformers' greedy loop)")

    print("   ", run(TWB, "export", "--run", run_dir, "--format", "hf", "--out", exported).strip())
    back = MarianMTModel.from_pretrained(exported).eval()
    tok2 = MarianTokenizer.from_pretrained(exported)
    worst = max((hf_logits(back, tok2(s).input_ids, [start] + tok2(text_target=s).input_ids[:-1]) -
                 twb_logits(run_dir, tok(s).input_ids, [start] + tok(text_target=s).input_ids[:-1]))
                .abs().max().item() for s in SOURCES)
    a, b = model.state_dict(), back.state_dict()
    tensors = max((a[k] - b[k]).abs().max().item() for k in a)
    print(f"(e) exported run loaded by MarianMTModel.from_pretrained: logits vs twb max abs difference {worst:.3g}; "
          f"tensors vs (a) max abs difference {tensors:.3g} over {len(a)}")


main()
