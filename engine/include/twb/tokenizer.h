// A prepared dataset's or a run's tokenizer behind a small torch-free handle: encode, decode and show
// tokens (`twb tokenize`, the Datasets panel). Loading reads DIR/tokenizer.json (and the sentencepiece
// model beside it). Copies share one immutable tokenizer; every call is safe from several threads.
// Public API.
#pragma once
#include "twb/choices.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace twb {

class Tokenizer;  // the engine's tokenizer interface (internal)

class TextTokenizer {
public:
    /// Loads DIR/tokenizer.json: a prepared dataset folder or a run's tokenizer/ folder. Throws
    /// InputError/FormatError naming the file.
    static TextTokenizer load(const std::filesystem::path& dir);

    TokenizerKind kind() const;
    int vocab_size() const;
    /// Throws InputError naming characters the vocabulary lacks (when it has no <unk> or bytes).
    std::vector<int32_t> encode(std::string_view text) const;
    std::string decode(const std::vector<int32_t>& ids) const;
    /// The text one token stands for, as a person should see it ("<eos>", " the", "\n").
    std::string token_text(int id) const;
    int eos_id() const;  // -1 when the tokenizer has none
    /// Equal fingerprints encode every text to the same ids (see tokenizers_match).
    std::string fingerprint() const;

private:
    explicit TextTokenizer(std::shared_ptr<const Tokenizer> impl);
    std::shared_ptr<const Tokenizer> m_impl;
};

/// One merge of a byte-level BPE tokenizer: rank `rank` joins left and right into token `id`
/// (texts as token_text shows them).
struct BpeMerge {
    int rank = 0;
    int id = 0;
    std::string left, right, merged;
};
/// One step of merging a sample: the merge applied (to every occurrence) and the tokens after it.
struct BpeMergeStep {
    BpeMerge merge;
    std::vector<std::string> tokens;
};
struct BpeMergeInspection {
    int merges = 0;                     // merges the tokenizer has
    std::vector<BpeMerge> first, last;  // its first and last `count` merges (disjoint)
    std::vector<std::string> start;     // the sample as bytes, after the split pattern
    std::vector<BpeMergeStep> steps;    // lowest rank first; the last step's tokens are encode(sample)
};
/// The merge list of a bytebpe tokenizer (a prepared dataset or a run) and `sample` merged step by step
/// (at most max_steps steps). Throws InputError for another kind of tokenizer.
BpeMergeInspection inspect_merges(const std::filesystem::path& dataset_or_run, const std::string& sample,
                                  int count = 10, int max_steps = 500);

/// The folder holding the tokenizer of a prepared dataset, a run (RUN/tokenizer) or a checkpoint of a
/// run. Throws InputError when the path has none.
std::filesystem::path find_tokenizer_dir(const std::filesystem::path& dataset_or_run);

/// Throws ConfigError when the model side (a run or checkpoint) and the data side (a prepared dataset)
/// use different tokenizers, naming both and saying how to prepare the data with the model's: token
/// 4711 of one means something else in the other, so the weights would be silently wrong. `what` says
/// what was attempted ("initialise from", "evaluate on").
void require_same_tokenizer(const std::filesystem::path& model_side, const std::filesystem::path& data_side,
                            const std::string& what);

}  // namespace twb
