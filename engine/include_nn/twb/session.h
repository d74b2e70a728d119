// ModelSession: one loaded checkpoint behind a torch-free interface, the model facade both `twb` and
// the GUI use: open a run's checkpoint, encode and decode text, generate with streaming and cancel, chat,
// capture attention, read the position table, and evaluate on a prepared dataset. One session serves
// one thread at a time; opening another checkpoint replaces the model. Public API.
#pragma once
#include "twb/attention.h"
#include "twb/chat.h"
#include "twb/config.h"
#include "twb/embeddings.h"
#include "twb/generation.h"
#include "twb/inspection.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace twb {

/// A position table for the viewer: values[row * cols + col], rows are positions; the columns are
/// embedding dimensions, or (rotary) dimension pairs.
struct PositionTable {
    Position kind = Position::Rotary;
    int64_t rows = 0, cols = 0;
    std::vector<float> values;
    std::vector<float> frequencies;  // rotary: angle per position of each dimension pair (radians)
};

/// What to evaluate: a split of a prepared dataset, as the run trained on it: a run with
/// sequences=documents scores every document of the split as <bos> doc <eos> (padding excluded), as its
/// validation did, when the dataset keeps document boundaries; otherwise consecutive blocks of the stream.
/// A chat dataset (twb/chat.h) is scored as documents by any run, on its replies only.
struct EvalOptions {
    std::string data_dir;       // prepared dataset; empty = the run's own
    std::string split = "val";  // val | train
    int batch_size = 32;        // blocks (documents: pieces of documents) per forward pass
    int64_t max_tokens = 0;     // at most this many tokens; 0 = the whole split
    /// The precision of the forward passes: float32 (the default, the same figures on every machine),
    /// bfloat16 (autocast, as a bf16 run trained), or auto (whatever the run's dtype resolves to here).
    DType precision = DType::Float32;
};

/// Loss and what follows from it, every figure from its definition (see metrics.h).
struct EvalResult {
    std::string split;
    Sequences sequences = Sequences::Stream;  // how the split was scored: stream blocks or documents
    int64_t documents = 0;                    // documents scored (sequences == documents)
    int64_t tokens = 0;                       // targets scored (documents: <eos> included, padding not)
    double loss = 0;                          // mean cross-entropy, nats per token
    double accuracy = 0;                      // share of positions whose most probable token is the target
    double perplexity = 0;                    // exp(loss)
    double bits_per_char = 0;                 // loss / ln 2 / characters per token of the split (split_chars_per_token)
    std::string precision;                    // the precision it was computed in: float32 | bfloat16
    std::vector<std::string> warnings;        // score_text: e.g. the text is mostly words the vocabulary lacks
};

class ModelSession {
public:
    ModelSession();
    ~ModelSession();
    ModelSession(const ModelSession&) = delete;
    ModelSession& operator=(const ModelSession&) = delete;

    /// Loads RUN's checkpoint ("best", "last" or a step; RUN may be a checkpoint folder). Keeps the
    /// current model when it is already the one asked for. Throws InputError/FormatError.
    void open(const std::string& run, const std::string& which = "best");
    bool is_open() const;
    std::string run() const;         // the run folder
    std::string checkpoint() const;  // folder of the loaded checkpoint
    int64_t step() const;
    const RunConfig& config() const;

    /// Prompt -> ids; InputError naming characters the tokenizer cannot encode. An empty prompt
    /// becomes <bos>, or a newline, or token 0.
    std::vector<int32_t> encode(const std::string& prompt) const;
    std::string decode(const std::vector<int32_t>& ids) const;
    std::string token_text(int id) const;
    int vocab_size() const;

    /// Generates from prompt ids, streaming each token to on_token; cancel is checked per token.
    SampleResult generate(const std::vector<int32_t>& prompt, const SamplingOptions& opt,
                          const TokenCallback& on_token = {}, const std::atomic<bool>* cancel = nullptr);
    /// One assistant reply to a conversation in the chat template (chat.h): the conversation rendered, the
    /// assistant's header appended, then generated with opt until the end-of-turn token (stop_at_eos is on
    /// whatever opt says) or max_new_tokens; the reply is texts[0]. A conversation longer than block_size is
    /// seen through generate's sliding window (its latest tokens). Warns when the run's dataset was no chat dataset
    /// (its replies then merely continue the template). InputError for an empty conversation, one that ends with an
    /// assistant turn, or a tokenizer without <eos>.
    SampleResult chat(const Conversation& conversation, const SamplingOptions& opt, const TokenCallback& on_token = {},
                      const std::atomic<bool>* cancel = nullptr);
    /// Which weights and kernels single-sequence generation with opt uses here, as one sentence, e.g.
    /// "bfloat16 weights, AVX2+FMA gemv (decode_weights auto)". InputError when opt asks for what this
    /// model or device cannot do (bfloat16 on a CUDA device).
    std::string decode_path(const SamplingOptions& opt) const;
    /// One forward pass over text (cropped to the last block_size tokens), with the weights of every
    /// layer and head and the `top` most probable next tokens at each position.
    AttentionCapture attention(const std::string& text, int top = 5);
    /// The model's positions: learned (wpe), sinusoidal (the fixed table) or rotary (cos of the
    /// angle per position and dimension pair), for positions 0..min(max_rows, block_size)-1.
    PositionTable positions(int64_t max_rows = 256) const;
    /// The precision log_probs, score_text and score_continuation compute in: float32 by default, so
    /// that a score is the same on every machine; bfloat16 (autocast), or auto (the run's dtype as it
    /// resolves on this device). Stays set for the session's later checkpoints.
    void set_scoring_precision(DType precision);
    /// What the scoring precision resolves to here: "float32" or "bfloat16".
    std::string scoring_precision() const;
    /// log P(token | everything before it) for each of ids[from..], under this model (from >= 1).
    std::vector<double> log_probs(const std::vector<int32_t>& ids, size_t from = 1);
    /// How well this model predicts a text: the text's tokens scored from the second on. Its loss is
    /// nats per token, bits per character the total over the text's characters. Seed report 001's judge:
    /// generated text scored by another model.
    EvalResult score_text(const std::string& text);
    /// A generated continuation judged as seed report 001 did and `twb eval --samples` does: the prompt is
    /// context only (an empty prompt becomes what encode() makes of it), every token of the continuation is
    /// scored. Bits per character are over the continuation's characters. InputError for an empty
    /// continuation or characters this model's tokenizer cannot encode.
    EvalResult score_continuation(const std::string& prompt, const std::string& continuation);
    /// Loss, accuracy, perplexity and bits per character over a split. Throws InputError when the
    /// dataset's tokenizer differs from the model's.
    EvalResult evaluate(const EvalOptions& opt);

    /// The k tokens whose embedding rows are nearest (cosine) to the text's: a text of several tokens
    /// stands for the mean of their rows, and its own tokens are left out. InputError for an empty
    /// text or characters the tokenizer lacks.
    NeighbourResult nearest_tokens(const std::string& text, int k = 10) const;
    /// Cosine similarity of two texts' mean embeddings (a single token is its own row).
    SimilarityResult similarity(const std::string& a, const std::string& b) const;
    /// The n most frequent tokens of the run's dataset (train + val counts; when the dataset cannot
    /// be read, the first n ids, and the map's source says why) on the top two principal components.
    EmbeddingMap embedding_map(int n = 200) const;

    // ------------------------------------------------ views inside the model (inspection.h)

    /// The logit lens over text (cropped to the last block_size tokens): what each stage (the embedding,
    /// then each block) already predicts at every position, with the rank of the model's final choice.
    LogitLens logit_lens(const std::string& text, int top = 5);
    /// How much each context token contributed to `target` following it: gradient x input and attention
    /// rollout, over the last block_size tokens of the context (what the model sees). InputError for an
    /// empty context or ids outside the vocabulary.
    TokenAttribution attribute(const std::vector<int32_t>& context, int target);
    /// The same for texts: the prompt's tokens, and a target that must be exactly one token (InputError
    /// naming its tokens otherwise).
    TokenAttribution attribute(const std::string& prompt, const std::string& target);
    /// Switches heads off (their outputs zeroed) for every later call (generate, evaluate, attention, the
    /// lens, attribution) until changed; empty switches every head back on. Opening another checkpoint
    /// switches them back on. InputError for a head the model lacks.
    void set_ablated_heads(const std::vector<HeadRef>& heads);
    const std::vector<HeadRef>& ablated_heads() const;
    /// The validation loss with nothing off, with opt.heads off together, and (every_head) with each head
    /// off alone, in one job: progress after each evaluation (return false to cancel: the table so far,
    /// cancelled set). The heads set with set_ablated_heads are on during the job and off again after.
    AblationTable ablation_table(const AblationOptions& opt, const InspectionProgress& progress = {});

    struct Impl;  // opaque: holds the torch model

private:
    std::unique_ptr<Impl> d;
};

}  // namespace twb
