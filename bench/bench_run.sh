# Sourced by the speed benches: make_bench_run TWB WORK makes WORK/run, the 6x6x384 block-256 bench model
# (`--preset baby-gpt`, one step of batch 1: practically random weights) on tiny shakespeare's characters.
make_bench_run() {
  local twb=$1 work=$2
  local corpus
  corpus="$(dirname "${BASH_SOURCE[0]}")/../../shared/datasets/tinyshakespeare/input.txt"
  "$twb" prepare -q --input "$corpus" --tokenizer char --val-fraction 0.1 --out "$work/data" > /dev/null
  "$twb" train -q --data "$work/data" --preset baby-gpt --set max_iters=1 --set lr_decay_iters=1 \
    --set warmup_iters=0 --set batch_size=1 --set eval_iters=1 --set eval_interval=1 --set threads=2 \
    --out "$work/run" > /dev/null
}
