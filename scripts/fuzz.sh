#!/usr/bin/env bash
# Fuzzes every parser of outside data with libFuzzer (+ASan +UBSan) against the torch-free core:
# safetensors headers, run configs, checkpoint state, meta.json, tokenizer files, the corpus readers,
# the samples history, import --hf's config.json (GPT-2's and Marian's), vocab.json, merges.txt and
# tokenizer.json, and instruction data for prepare --chat. Builds build-fuzz with clang, writes seed
# corpora, runs each target for SECONDS (default 60; CI uses 8). Findings land in build-fuzz/crashes/;
# the script fails on any.
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-60}
shift || true
B=build-fuzz
ALL=(safetensors_header config checkpoint_state meta tokenizer_file corpus samples_history hf_import chat_records)
TARGETS=("${@:-${ALL[@]}}")
[ $# -gt 0 ] || TARGETS=("${ALL[@]}")

if [ ! -f $B/build.ninja ]; then
    CC=clang CXX=clang++ cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTWB_FUZZ=ON >/dev/null
fi
nice -n 10 ninja -C $B $(printf "fuzz_%s " "${TARGETS[@]}") >/dev/null

# Seed corpora: one or a few valid inputs per parser, generated here (nothing binary is committed).
S=$B/seeds
rm -rf "$S"
mkdir -p "$S"/{safetensors_header,config,checkpoint_state,meta,tokenizer_file,corpus,samples_history,hf_import,chat_records}
python3 - "$S" <<'PY'
import json, struct, sys, os
S = sys.argv[1]
def w(d, name, data):
    with open(os.path.join(S, d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
h = json.dumps({"__metadata__": {"format": "pt"},
                "wte.weight": {"dtype": "F32", "shape": [4, 2], "data_offsets": [0, 32]},
                "step": {"dtype": "I64", "shape": [1], "data_offsets": [32, 40]}}).encode()
h += b" " * (-len(h) % 8)
w("safetensors_header", "ok", struct.pack("<Q", len(h)) + h + bytes(40))
w("safetensors_header", "empty", struct.pack("<Q", 2) + b"{}")
cfg = {"format_version": 1, "data_dir": "/d", "vocab_size": 65, "n_layer": 2, "n_head": 4, "n_embd": 64,
       "block_size": 32, "dropout": 0.1, "bias": True, "position": "rotary", "schedule": "cosine",
       "dtype": "float32", "device": "cpu", "seed": 1337, "learning_rate": 0.001}
w("config", "file", json.dumps(cfg))
w("config", "set", "n_layer=6")
w("config", "set_float", "dropout=0.25")
st = {"format_version": 1, "step": 20, "batcher_state": "123456789", "val_loss": 2.5, "best_val_loss": 2.5,
      "best_step": 20, "elapsed_s": 1.5, "tokens_seen": 4096, "config": cfg}
w("checkpoint_state", "state", json.dumps(st))
w("checkpoint_state", "best", json.dumps({"step": 20, "val_loss": 2.5}))
w("meta", "meta", json.dumps({"format_version": 1, "tokenizer": "char", "vocab_size": 65, "max_token_id": 64,
                              "dtype": "uint16", "train_tokens": 100, "val_tokens": 10, "chars_per_token": 1.0,
                              "stats": {"characters": 110, "tokens": 110, "top_tokens": [{"id": 1, "text": "a",
                                                                                           "count": 3}]}}))
w("tokenizer_file", "char", json.dumps({"kind": "char", "vocab": ["\n", " ", "a", "b", "\u00e9", "\u65e5"]}))
w("tokenizer_file", "byte", json.dumps({"kind": "byte"}))
w("tokenizer_file", "word", json.dumps({"kind": "word", "lowercase": True,
                                        "vocab": ["<pad>", "<unk>", "<bos>", "<eos>", "hello", " ", ",", "\n"]}))
w("corpus", "text", "Hello world.\nSecond line, caf\u00e9.\n")
w("corpus", "jsonl", '{"text": "one"}\n{"text": "two\\nlines"}\n')
w("corpus", "csv", 'text,label\n"a, quoted ""x""",1\nplain,2\n')
w("corpus", "records", "first record\n%\nsecond\nrecord\n%\n")
w("corpus", "parallel", "source one\nsource two\n\xff".encode("latin1") + "target one\ntarget two\n".encode())
w("corpus", "bom", b"\xef\xbb\xbfwith a BOM\n")
# import --hf: config.json, 0xFF, vocab.json, 0xFF, merges.txt (GPT-2's byte table); and a tokenizer.json.
def b2u():
    bs = list(range(33, 127)) + list(range(161, 173)) + list(range(174, 256))
    cs, n = bs[:], 0
    for b in range(256):
        if b not in bs:
            bs.append(b); cs.append(256 + n); n += 1
    return {b: chr(c) for b, c in zip(bs, cs)}
u = b2u()
vocab = {u[b]: b for b in range(256)}
vocab.update({"h" + "e": 256, "l" + "l": 257, u[32] + "w": 258, "<|endoftext|>": 259})
merges = "#version: 0.2\nh e\nl l\n" + u[32] + " w\n"
hfcfg = {"model_type": "gpt2", "n_layer": 2, "n_head": 2, "n_embd": 8, "n_positions": 16, "vocab_size": 260,
         "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5}
w("hf_import", "files", json.dumps(hfcfg).encode() + b"\xff" + json.dumps(vocab).encode() + b"\xff" + merges.encode())
w("hf_import", "tokenizer_json", json.dumps({"model": {"type": "BPE", "vocab": vocab, "merges": ["h e", ["l", "l"]]},
                                            "added_tokens": [{"id": 259, "special": True}]}))
mcfg = {"model_type": "marian", "architectures": ["MarianMTModel"], "vocab_size": 40, "d_model": 16,
        "encoder_layers": 2, "decoder_layers": 2, "encoder_attention_heads": 2, "decoder_attention_heads": 2,
        "encoder_ffn_dim": 32, "decoder_ffn_dim": 32, "max_position_embeddings": 64, "activation_function": "swish",
        "scale_embedding": True, "share_encoder_decoder_embeddings": True, "pad_token_id": 39,
        "decoder_start_token_id": 39, "eos_token_id": 0, "normalize_before": False}
w("hf_import", "marian", json.dumps(mcfg))
w("chat_records", "alpaca", json.dumps({"instruction": "Add.", "input": "2 and 3", "output": "5"}) + "\n" +
  json.dumps({"instruction": "Say hi.", "output": "hi"}) + "\n")
w("chat_records", "seed_task", json.dumps({"id": "t1", "name": "antonym", "instruction": "Antonym?", "instances": [
    {"input": "hot", "output": "cold"}, {"input": "up", "output": "down"}], "is_classification": False}) + "\n")
w("chat_records", "messages", json.dumps({"messages": [{"role": "system", "content": "be kind"},
    {"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}, {"role": "user", "content": "bye"},
    {"role": "assistant", "content": "bye"}]}) + "\n")
w("samples_history", "history", json.dumps({"time": "2026-01-01T00:00:00Z", "source": "cli", "checkpoint_step": 5,
    "prompt": "ROMEO:", "options": {"temperature": 0.8, "top_k": 40}, "outputs": ["x"], "cancelled": False}) + "\n")
PY

mkdir -p $B/crashes
failed=()
for t in "${TARGETS[@]}"; do
    mkdir -p $B/corpus/$t
    echo "fuzz_$t: ${SECS}s"
    if ! nice -n 10 $B/bin/fuzz_$t -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix=$B/crashes/$t- $B/corpus/$t "$S/$t" >$B/fuzz_$t.log 2>&1; then
        failed+=("$t")
        tail -40 $B/fuzz_$t.log
    else
        grep -E "stat::number_of_executed_units|stat::new_units_added" $B/fuzz_$t.log | tr '\n' ' '
        echo
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzzing found problems in: ${failed[*]} (inputs in $B/crashes/)" >&2
    exit 1
fi
echo "fuzzing: ${#TARGETS[@]} targets clean"
