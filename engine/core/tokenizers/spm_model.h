// A sentencepiece model file loaded through the project's module (libtwb_spm.so), with raw access: ids,
// pieces as sentencepiece spells them ("▁the"), encode and decode. The workbench's own sentencepiece
// tokenizers (spm_tokenizer.cpp) use a model's ids directly; Marian's vocabulary (marian_vocab.*) maps
// pieces to ids of its own, so it needs the pieces. Immutable once loaded; safe from several threads.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

struct twb_spm;

namespace twb {

class SpmModel {
public:
    /// FormatError naming the file when it is not a loadable sentencepiece model.
    explicit SpmModel(const std::filesystem::path& file);
    ~SpmModel();
    SpmModel(const SpmModel&) = delete;
    SpmModel& operator=(const SpmModel&) = delete;

    int size() const { return static_cast<int>(m_pieces.size()); }
    /// The piece of id as stored in the model (U+2581 for a space); kind: 0 normal, 1 unknown, 2 control, 3 byte.
    const std::string& piece(int id) const { return m_pieces[static_cast<size_t>(id)]; }
    int kind(int id) const { return m_kinds[static_cast<size_t>(id)]; }
    /// The model's id of a piece, or -1.
    int id_of(const std::string& piece) const;
    std::vector<int32_t> encode(std::string_view text) const;
    /// The pieces of text as sentencepiece's EncodeAsPieces gives them: an unknown stretch is its own text.
    std::vector<std::string> encode_pieces(std::string_view text) const;
    /// sentencepiece's DecodePieces: a piece the model lacks is its own text (U+2581 a space).
    std::string decode_pieces(const std::vector<std::string>& pieces) const;
    std::string decode(const std::vector<int32_t>& ids) const;
    const std::filesystem::path& file() const { return m_file; }

private:
    std::filesystem::path m_file;
    twb_spm* m_model = nullptr;
    std::vector<std::string> m_pieces;
    std::vector<int> m_kinds;
    std::vector<std::pair<std::string, int>> m_sorted;  // (piece, id) sorted by piece, for id_of
};

}  // namespace twb
