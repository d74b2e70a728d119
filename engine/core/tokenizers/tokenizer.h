// The tokenizer interface and the factory that trains or loads one. Concrete tokenizers: char, byte,
// word (one file each) and sentencepiece BPE/unigram (spm_tokenizer.cpp, through a dlopen'd module).
// A trained tokenizer is immutable: encode/decode are const and safe to call from several threads.
#pragma once
#include "twb/dataset.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace twb {

namespace fs = std::filesystem;

class Tokenizer {
public:
    virtual ~Tokenizer() = default;
    virtual TokenizerKind kind() const = 0;
    virtual int vocab_size() const = 0;
    /// Appends the ids of text to out. Throws InputError when text holds what the vocabulary lacks and
    /// the tokenizer has no <unk> (the message names the characters).
    virtual void encode(std::string_view text, std::vector<int32_t>& out) const = 0;
    /// Appends the ids of a translation pair's target-side text. The same as encode for every tokenizer but
    /// Marian's, which cuts the two sides with two sentencepiece models (marian_vocab.h).
    virtual void encode_target(std::string_view text, std::vector<int32_t>& out) const { encode(text, out); }
    /// Text of a sequence of ids; byte-exact inverse of encode where the tokenizer is lossless.
    virtual std::string decode(const std::vector<int32_t>& ids) const = 0;
    /// The text one token stands for, as a person should see it ("<eos>", " the", "\n").
    virtual std::string token_text(int id) const = 0;
    /// Characters of text that cannot be encoded (empty when all can, or when <unk>/bytes cover them).
    virtual std::vector<std::string> unknown_chars(std::string_view text) const {
        (void)text;
        return {};
    }
    /// Identifies the tokenizer: equal fingerprints encode every text to the same ids. The sha256 of
    /// the kind and every token's text in id order; sentencepiece models hash their model file (the
    /// merge scores matter too).
    virtual std::string fingerprint() const;
    /// True when decode(encode(x)) == x for any text the vocabulary covers.
    virtual bool lossless() const = 0;
    /// Writes tokenizer.json (and any model files) into dir.
    virtual void save(const fs::path& dir) const = 0;

    /// The id of a token that is exactly "\n" and never merges with neighbours, or -1. Lets callers
    /// encode many lines at once and still count tokens per line.
    virtual int newline_id() const { return -1; }
    virtual int pad_id() const { return -1; }
    virtual int unk_id() const { return -1; }
    virtual int bos_id() const { return -1; }
    virtual int eos_id() const { return -1; }

    std::vector<int32_t> encode(std::string_view text) const {
        std::vector<int32_t> v;
        encode(text, v);
        return v;
    }
};

/// Trains a tokenizer on a cleaned corpus file (UTF-8). Streams the file; progress in bytes.
std::unique_ptr<Tokenizer> train_tokenizer(const TokenizerSpec& spec, const fs::path& corpus_file,
                                           const ProgressFn& progress = {});

/// Loads the tokenizer saved in a prepared dataset folder (tokenizer.json there).
std::unique_ptr<Tokenizer> load_tokenizer(const fs::path& dir);
/// Where a run's tokenizer is: the copy the run keeps (RUN/tokenizer). InputError when it is missing (the
/// dataset's may have been prepared again with another); data_dir is named in the advice.
fs::path run_tokenizer_dir(const fs::path& run_dir, const fs::path& data_dir);
/// The same for any tokenizer folder a run keeps (RUN/tokenizer, RUN/source_tokenizer): InputError naming
/// the dataset's folder to copy it back from when own/tokenizer.json is missing.
void require_kept_tokenizer(const fs::path& own, const fs::path& data_dir);

/// Special tokens shared by word and sentencepiece tokenizers, in id order 0..3.
inline constexpr const char* kSpecialTokens[] = {"<pad>", "<unk>", "<bos>", "<eos>"};

// Concrete factories (one file each).
std::unique_ptr<Tokenizer> train_char_tokenizer(const fs::path& corpus, const ProgressFn& progress);
std::unique_ptr<Tokenizer> load_char_tokenizer(const fs::path& dir, const nlohmann::json& j);
std::unique_ptr<Tokenizer> make_byte_tokenizer();
std::unique_ptr<Tokenizer> train_word_tokenizer(const TokenizerSpec& spec, const fs::path& corpus,
                                                const ProgressFn& progress);
std::unique_ptr<Tokenizer> load_word_tokenizer(const fs::path& dir, const nlohmann::json& j);
std::unique_ptr<Tokenizer> train_spm_tokenizer(const TokenizerSpec& spec, const fs::path& corpus,
                                               const ProgressFn& progress);
std::unique_ptr<Tokenizer> load_spm_tokenizer(const fs::path& dir, const nlohmann::json& j);
std::unique_ptr<Tokenizer> train_bytebpe_tokenizer(const TokenizerSpec& spec, const fs::path& corpus,
                                                   const ProgressFn& progress);
std::unique_ptr<Tokenizer> load_bytebpe_tokenizer(const fs::path& dir, const nlohmann::json& j);

/// Where the sentencepiece module was loaded from (or why it was not), for `twb doctor`.
std::string spm_module_path();

/// Reads a file in blocks of whole UTF-8 characters (and, when by_line, whole lines).
void for_each_block(const fs::path& file, bool by_line, const std::function<void(std::string_view)>& fn,
                    const ProgressFn& progress = {});

}  // namespace twb
