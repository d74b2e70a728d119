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

private:
    explicit TextTokenizer(std::shared_ptr<const Tokenizer> impl);
    std::shared_ptr<const Tokenizer> m_impl;
};

}  // namespace twb
