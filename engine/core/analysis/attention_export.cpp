// The one attention export format (JSON), written by `twb attention --out` and the Attention panel.
#include "twb/attention.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

namespace twb {

namespace {
const char* kFormat = "twb-attention";
constexpr int kVersion = 1;
}  // namespace

std::string attention_to_json(const AttentionCapture& cap, const AttentionExportInfo& info) {
    nlohmann::json j;
    j["format"] = kFormat;
    j["version"] = kVersion;
    j["checkpoint"] = info.checkpoint;
    j["step"] = info.step;
    j["tokens"] = cap.tokens;
    j["layers"] = cap.layers;
    j["heads"] = cap.heads;
    j["length"] = cap.length;
    nlohmann::json w = nlohmann::json::array();
    for (int64_t l = 0; l < cap.layers; ++l) {
        nlohmann::json heads = nlohmann::json::array();
        for (int64_t h = 0; h < cap.heads; ++h) {
            nlohmann::json rows = nlohmann::json::array();
            for (int64_t q = 0; q < cap.length; ++q) {
                const float* row =
                    &cap.weights[static_cast<size_t>(((l * cap.heads + h) * cap.length + q) * cap.length)];
                rows.push_back(std::vector<float>(row, row + cap.length));
            }
            heads.push_back(std::move(rows));
        }
        w.push_back(std::move(heads));
    }
    j["weights"] = std::move(w);
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
    const auto j = nlohmann::json::parse(read_file(file), nullptr, false);
    const std::string where = file.string() + ": ";
    if (!j.is_object() || j.value("format", "") != kFormat)
        throw FormatError(where + "not an attention export of Transformer Workbench (no \"format\": \"" + kFormat +
                          "\")");
    AttentionCapture cap;
    try {
        cap.tokens = j.at("tokens").get<std::vector<std::string>>();
        cap.layers = j.at("layers").get<int64_t>();
        cap.heads = j.at("heads").get<int64_t>();
        cap.length = j.at("length").get<int64_t>();
        const auto& w = j.at("weights");
        if (cap.layers < 0 || cap.heads < 0 || cap.length < 0 || cap.length > 1 << 16 ||
            static_cast<int64_t>(cap.tokens.size()) != cap.length || static_cast<int64_t>(w.size()) != cap.layers)
            throw FormatError(where + "the shape (layers, heads, length) does not match the tokens and weights");
        cap.weights.reserve(static_cast<size_t>(cap.layers * cap.heads * cap.length * cap.length));
        for (const auto& heads : w) {
            if (static_cast<int64_t>(heads.size()) != cap.heads)
                throw FormatError(where + "a layer has the wrong number of heads");
            for (const auto& rows : heads) {
                if (static_cast<int64_t>(rows.size()) != cap.length)
                    throw FormatError(where + "a head has the wrong number of rows");
                for (const auto& row : rows) {
                    if (static_cast<int64_t>(row.size()) != cap.length)
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

}  // namespace twb
