// The byte-level BPE model (GPT-2's scheme) behind the "bytebpe" tokenizer: a split pattern, a token
// table of byte strings and ranked merges. Trained here (ByteBpeModel::train) or assembled from another
// tool's vocabulary and merges (from_parts: GPT-2's vocab.json + merges.txt). Encoding is thread-safe.
#pragma once
#include "twb/dataset.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace twb {

class Tokenizer;
class ByteBpeModel;

/// The byte-level BPE model behind a tokenizer, or nullptr when it is another kind.
const ByteBpeModel* bytebpe_model(const Tokenizer& tokenizer);

/// The regex of a split pattern by name: "gpt2" or "gpt4". Throws ConfigError otherwise.
std::string bytebpe_pattern(const std::string& name);

class ByteBpeModel {
public:
    ByteBpeModel();
    ~ByteBpeModel();
    ByteBpeModel(ByteBpeModel&&) noexcept;
    ByteBpeModel& operator=(ByteBpeModel&&) noexcept;

    /// Learns merges on a UTF-8 corpus file up to vocab_size (256 bytes + merges + <pad> <bos> <eos>);
    /// stops early when no pair occurs twice. merges_learned receives how many were learned.
    static ByteBpeModel train(const std::filesystem::path& corpus, int vocab_size, const std::string& pattern_name,
                              const ProgressFn& progress = {}, int* merges_learned = nullptr);
    /// Assembles a model: tokens[id] is the token's bytes (a special token's name), merges[r] the pair
    /// of rank r and merged_ids[r] the id it becomes. pattern_name: "gpt2", "gpt4" or a regex. Throws
    /// FormatError when a byte has no token or a merge does not give the token it names.
    static ByteBpeModel from_parts(const std::string& pattern_name, std::vector<std::string> tokens,
                                   const std::vector<std::pair<int32_t, int32_t>>& merges,
                                   const std::vector<int32_t>& merged_ids, const std::vector<int32_t>& special_ids);

    void encode(std::string_view text, std::vector<int32_t>& out) const;
    std::string decode(const std::vector<int32_t>& ids) const;
    int vocab_size() const;
    const std::string& token_bytes(int id) const;
    bool is_special(int id) const;
    int special_id(const std::string& name) const;  // -1 when absent
    const std::vector<std::pair<int32_t, int32_t>>& merges() const;
    const std::string& pattern_name() const;
    /// Id the merge of rank r gives.
    int32_t merged_id(int rank) const;
    /// text's pieces as byte ids (start) and the merges encode applies to them, lowest rank first over
    /// all pieces (the same result as merging piece by piece): each step's rank and the ids after it,
    /// at most max_steps steps. The last step's ids are encode(text).
    std::vector<std::pair<int, std::vector<int32_t>>> merge_trace(std::string_view text, int max_steps,
                                                                  std::vector<int32_t>& start) const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

}  // namespace twb
