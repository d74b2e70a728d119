// A tiny translation run for the tests of streamed and batch translation (engine and UI): the copy task
// ("c a f" -> "c a f", letters a..h) written as a parallel dataset with a word tokenizer, and an
// encoder-decoder trained on it for 500 steps on one thread (about 5 s of CPU): past the plateau where it
// answers every source alike, so sources get different, many-token translations. Also the small
// encoder-decoder config the attention and ablation tests train on pairs of their own. Public API only.
#pragma once
#include "test_util.h"
#include "twb/config.h"
#include "twb/dataset.h"
#include "twb/training.h"

#include <random>
#include <string>

namespace twbtest {

/// The small encoder-decoder the attention and ablation tests train on pairs of their own: 32 wide, 2
/// heads, block 12, no dropout, 200 tokens a batch, cosine at 3e-3, 2 evaluation batches and 4 BLEU pairs.
/// Each test sets its depth, steps, warmup, evaluation interval and threads.
inline twb::RunConfig small_seq2seq_config(const std::string& data_dir) {
    twb::RunConfig c = twb::preset_config("tatoeba");
    c.data_dir = data_dir;
    c.n_embd = 32;
    c.n_head = 2;
    c.ffn_hidden = 64;
    c.block_size = 12;
    c.dropout = 0;
    c.max_epochs = 0;
    c.batch_tokens = 200;
    c.learning_rate = 3e-3;
    c.schedule = twb::Schedule::Cosine;
    c.eval_iters = 2;
    c.bleu_pairs = 4;
    return c;
}

/// Prepares the copy task's parallel dataset (pairs pairs) in dir/data and trains dir/run for iters steps;
/// returns the run folder.
inline std::string tiny_translation_run(const QTemporaryDir& dir, int iters = 500, int pairs = 600) {
    std::mt19937 rng(5);
    std::string src, tgt;
    for (int i = 0; i < pairs; ++i) {
        const int n = 3 + static_cast<int>(rng() % 5);
        std::string line;
        for (int k = 0; k < n; ++k)
            line += std::string(1, static_cast<char>('a' + rng() % 8)) + (k + 1 < n ? " " : "\n");
        src += line;
        tgt += line;
    }
    write(path(dir, "tiny_src.txt"), src);
    write(path(dir, "tiny_tgt.txt"), tgt);
    twb::ParallelPrepareOptions o;
    o.source = path(dir, "tiny_src.txt").string();
    o.target = path(dir, "tiny_tgt.txt").string();
    o.val_fraction = 0.05;
    o.test_fraction = 0.05;
    o.tokenizer.kind = twb::TokenizerKind::Word;
    o.out = path(dir, "tiny_data");
    twb::prepare_parallel(o);

    twb::RunConfig c = twb::preset_config("tatoeba");
    c.data_dir = o.out.string();
    c.n_layer = 1;
    c.n_encoder_layer = 1;
    c.n_decoder_layer = 1;
    c.n_embd = 32;
    c.n_head = 2;
    c.ffn_hidden = 64;
    c.block_size = 16;
    c.dropout = 0;
    c.max_epochs = 0;
    c.max_iters = iters;
    c.batch_tokens = 300;
    c.schedule = twb::Schedule::Noam;
    c.learning_rate = 0.15;
    c.warmup_iters = 20;
    c.label_smoothing = 0;
    c.eval_interval = iters;
    c.eval_iters = 2;
    c.bleu_pairs = 5;
    c.log_interval = 10;
    c.threads = 1;
    twb::TrainJob job;
    job.config = c;
    job.run_dir = path(dir, "tiny_run").string();
    twb::train(job, {});
    return job.run_dir;
}

}  // namespace twbtest
