# Sourced by the CPU benches: nanoGPT's own train.py on tiny shakespeare's characters with its CPU recipe
# (README: "I only have a macbook"; 4 layers, 4 heads, 128 wide, block 64, batch 12, dropout 0), 2 threads.
#   setup_nanogpt NANOGPT WORK        copies train.py, model.py, configurator.py and config/ from a checkout
#                                     of github.com/karpathy/nanoGPT into WORK/nanoGPT and encodes the corpus
#                                     as its data/shakespeare_char/prepare.py does (which downloads it)
#   nano_train WORK ITERS [EVAL_INTERVAL] [SEED]   prints train.py's log; SEED replaces its fixed 1337
# PYTHON: a python3 with torch (Debian's python3-torch).
setup_nanogpt() {
  local nanogpt=$1 work=$2 py=${PYTHON:-/usr/bin/python3}
  local corpus
  corpus="$(dirname "${BASH_SOURCE[0]}")/../../shared/datasets/tinyshakespeare/input.txt"
  mkdir -p "$work/nanoGPT/data/shakespeare_char"
  cp -r "$nanogpt"/{train.py,model.py,configurator.py,config} "$work/nanoGPT/"
  "$py" - "$corpus" "$work/nanoGPT/data/shakespeare_char" << 'PY'
import numpy as np, pickle, sys
data = open(sys.argv[1]).read(); out = sys.argv[2]
chars = sorted(set(data)); stoi = {c: i for i, c in enumerate(chars)}
n = len(data)
np.array([stoi[c] for c in data[:int(n * 0.9)]], dtype=np.uint16).tofile(f"{out}/train.bin")
np.array([stoi[c] for c in data[int(n * 0.9):]], dtype=np.uint16).tofile(f"{out}/val.bin")
pickle.dump({"vocab_size": len(chars), "itos": dict(enumerate(chars)), "stoi": stoi}, open(f"{out}/meta.pkl", "wb"))
PY
}

nano_train() {
  local work=$1 iters=$2 eval_interval=${3:-1000000} seed=${4:-1337} py=${PYTHON:-/usr/bin/python3}
  local script=train.py
  if [ "$seed" != 1337 ]; then  # train.py has no option for its seed: a copy with another one
    sed "s/torch.manual_seed(1337 + seed_offset)/torch.manual_seed($seed + seed_offset)/" \
      "$work/nanoGPT/train.py" > "$work/nanoGPT/train_seed.py"
    grep -q "manual_seed($seed + seed_offset)" "$work/nanoGPT/train_seed.py" ||
      { echo "nano_train: train.py's seed line was not found" >&2; return 1; }
    script=train_seed.py
  fi
  (cd "$work/nanoGPT" && OMP_NUM_THREADS=2 "$py" "$script" config/train_shakespeare_char.py --device=cpu \
    --compile=False --eval_iters=20 --log_interval=1 --block_size=64 --batch_size=12 --n_layer=4 --n_head=4 \
    --n_embd=128 --max_iters="$iters" --lr_decay_iters=2000 --dropout=0.0 --eval_interval="$eval_interval" \
    --always_save_checkpoint=False --out_dir="$work/nano-out" 2>&1)
}
