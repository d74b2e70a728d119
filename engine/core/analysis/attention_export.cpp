// The one attention export format (JSON), written by `twb attention --out` and the Attention panel: a
// decoder LM's capture, or an encoder-decoder's three (encoder self, decoder self, cross) in one file.
#include "core/analysis/attention_json.h"
#include "twb/attention.h"
#include "twb/errors.h"
#include "twb/text.h"
#include "twb/translation_attention.h"

namespace twb {

namespace {
const char* kFormat = "twb-attention";
constexpr int kVersion = 2;  // 2: "kind", and key_tokens/key_length for cross-attention

nlohmann::json header(const AttentionExportInfo& info) {
    nlohmann::json j;
    j["format"] = kFormat;
    j["version"] = kVersion;
    j["checkpoint"] = info.checkpoint;
    j["step"] = info.step;
    return j;
}

nlohmann::json parse_export(const std::filesystem::path& file) {
    auto j = nlohmann::json::parse(read_file(file), nullptr, false);
    if (!j.is_object() || j.value("format", "") != kFormat)
        throw FormatError(file.string() + ": not an attention export of Transformer Workbench (no \"format\": \"" +
                          kFormat + "\")");
    return j;
}
}  // namespace

void capture_to_json(const AttentionCapture& cap, nlohmann::json& j) {
    j["kind"] = to_string(cap.kind);
    j["tokens"] = cap.tokens;
    j["layers"] = cap.layers;
    j["heads"] = cap.heads;
    j["length"] = cap.length;
    const int64_t K = cap.keys();
    if (cap.kind == AttentionKind::Cross) {
        j["key_tokens"] = cap.column_tokens();
        j["key_length"] = K;
    }
    nlohmann::json w = nlohmann::json::array();
    for (int64_t l = 0; l < cap.layers; ++l) {
        nlohmann::json heads = nlohmann::json::array();
        for (int64_t h = 0; h < cap.heads; ++h) {
            nlohmann::json rows = nlohmann::json::array();
            for (int64_t q = 0; q < cap.length; ++q) {
                const float* row = &cap.weights[static_cast<size_t>(((l * cap.heads + h) * cap.length + q) * K)];
                rows.push_back(std::vector<float>(row, row + K));
            }
            heads.push_back(std::move(rows));
        }
        w.push_back(std::move(heads));
    }
    j["weights"] = std::move(w);
}

AttentionCapture capture_from_json(const nlohmann::json& j, const std::string& where) {
    AttentionCapture cap;
    try {
        cap.kind = j.contains("kind") ? parse_attention_kind(j.at("kind").get<std::string>()) : AttentionKind::Decoder;
        cap.tokens = j.at("tokens").get<std::vector<std::string>>();
        cap.layers = j.at("layers").get<int64_t>();
        cap.heads = j.at("heads").get<int64_t>();
        cap.length = j.at("length").get<int64_t>();
        if (cap.kind == AttentionKind::Cross) {
            cap.key_tokens = j.at("key_tokens").get<std::vector<std::string>>();
            cap.key_length = j.at("key_length").get<int64_t>();
            if (cap.key_length < 1 || cap.key_length > 1 << 16 ||
                static_cast<int64_t>(cap.key_tokens.size()) != cap.key_length)
                throw FormatError(where + "key_length does not match key_tokens");
        }
        const int64_t K = cap.keys();
        const auto& w = j.at("weights");
        if (cap.layers < 0 || cap.heads < 0 || cap.length < 0 || cap.length > 1 << 16 ||
            static_cast<int64_t>(cap.tokens.size()) != cap.length || static_cast<int64_t>(w.size()) != cap.layers)
            throw FormatError(where + "the shape (layers, heads, length) does not match the tokens and weights");
        cap.weights.reserve(static_cast<size_t>(cap.layers * cap.heads * cap.length * K));
        for (const auto& heads : w) {
            if (static_cast<int64_t>(heads.size()) != cap.heads)
                throw FormatError(where + "a layer has the wrong number of heads");
            for (const auto& rows : heads) {
                if (static_cast<int64_t>(rows.size()) != cap.length)
                    throw FormatError(where + "a head has the wrong number of rows");
                for (const auto& row : rows) {
                    if (static_cast<int64_t>(row.size()) != K)
                        throw FormatError(where + "a row has the wrong number of weights");
                    for (const auto& v : row)
                        cap.weights.push_back(v.get<float>());
                }
            }
        }
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(where + "broken attention export (" + e.what() + ")");
    }
    return cap;
}

std::string attention_to_json(const AttentionCapture& cap, const AttentionExportInfo& info) {
    nlohmann::json j = header(info);
    capture_to_json(cap, j);
    nlohmann::json next = nlohmann::json::array();
    for (const auto& row : cap.next_top) {
        nlohmann::json r = nlohmann::json::array();
        for (const auto& [id, p] : row) {
            nlohmann::json t{{"id", id}, {"prob", p}};
            if (info.token_text)
                t["token"] = info.token_text(id);
            r.push_back(std::move(t));
        }
        next.push_back(std::move(r));
    }
    j["next_token_top"] = std::move(next);
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void write_attention_json(const std::filesystem::path& file, const AttentionCapture& cap,
                          const AttentionExportInfo& info) {
    write_file_atomic(file, attention_to_json(cap, info));
}

AttentionCapture read_attention_json(const std::filesystem::path& file) {
    const auto j = parse_export(file);
    if (j.value("kind", "") == "encoder_decoder")
        throw FormatError(file.string() +
                          ": an encoder-decoder's export (three captures); read it as a translation attention");
    return capture_from_json(j, file.string() + ": ");
}

std::string translation_attention_to_json(const TranslationAttention& a, const AttentionExportInfo& info) {
    nlohmann::json j = header(info);
    j["kind"] = "encoder_decoder";
    j["source"] = a.source;
    j["target"] = a.target;
    j["target_from_model"] = a.target_from_model;
    for (const auto* c : {&a.encoder, &a.decoder, &a.cross}) {
        nlohmann::json part;
        capture_to_json(*c, part);
        j[to_string(c->kind)] = std::move(part);
    }
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void write_translation_attention_json(const std::filesystem::path& file, const TranslationAttention& a,
                                      const AttentionExportInfo& info) {
    write_file_atomic(file, translation_attention_to_json(a, info));
}

TranslationAttention read_translation_attention_json(const std::filesystem::path& file) {
    const auto j = parse_export(file);
    const std::string where = file.string() + ": ";
    if (j.value("kind", "") != "encoder_decoder")
        throw FormatError(where + "not an encoder-decoder's attention export (no \"kind\": \"encoder_decoder\")");
    TranslationAttention a;
    try {
        a.source = j.at("source").get<std::string>();
        a.target = j.at("target").get<std::string>();
        a.target_from_model = j.value("target_from_model", false);
        a.encoder = capture_from_json(j.at("encoder_self"), where + "encoder_self: ");
        a.decoder = capture_from_json(j.at("decoder_self"), where + "decoder_self: ");
        a.cross = capture_from_json(j.at("cross"), where + "cross: ");
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(where + "broken attention export (" + e.what() + ")");
    }
    if (a.encoder.kind != AttentionKind::EncoderSelf || a.decoder.kind != AttentionKind::DecoderSelf ||
        a.cross.kind != AttentionKind::Cross)
        throw FormatError(where + "the three captures' kinds are not encoder_self, decoder_self and cross");
    return a;
}

}  // namespace twb
