// The views inside a model as files (CSV and JSON: `twb lens/attribute/ablate` and the GUI's exports),
// and head lists as users type them ("1.0,2.*").
#include "twb/errors.h"
#include "twb/inspection.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <functional>

namespace twb {

std::string LogitLens::stage_name(int64_t stage) {
    return stage == 0 ? std::string("embedding") : "block " + std::to_string(stage - 1);
}

std::string to_string(const HeadRef& h) {
    const char* stack = h.stack == HeadStack::Encoder ? "enc." : h.stack == HeadStack::Cross ? "cross." : "";
    return stack + std::to_string(h.layer) + "." + std::to_string(h.head);
}

std::vector<HeadRef> HeadLayout::all() const {
    std::vector<HeadRef> out;
    for (HeadStack s : {HeadStack::Encoder, HeadStack::Decoder, HeadStack::Cross}) {
        if (s != HeadStack::Decoder && !translation())
            continue;
        for (int l = 0; l < (s == HeadStack::Encoder ? encoder_layers : layers); ++l)
            for (int h = 0; h < heads; ++h)
                out.push_back({l, h, s});
    }
    return out;
}

double AblationTable::cost(int l, int h, HeadStack stack) const {
    for (const auto& r : every_head)
        if (r.head == HeadRef{l, h, stack})
            return r.cost;
    return NAN;
}

namespace {
const char* kHeadForm = "write LAYER.HEAD, both from 0 (e.g. 1.3), or LAYER.* for a whole layer";

int parse_index(const std::string& s, const std::string& item, const char* what, int count) {
    size_t used = 0;
    int v = -1;
    try {
        v = std::stoi(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (s.empty() || used != s.size())
        throw ConfigError("'" + item + "' is not a head: " + kHeadForm);
    if (v < 0 || v >= count)
        throw ConfigError("'" + item + "': " + what + " " + std::to_string(v) + " does not exist; the model has " +
                          std::to_string(count) + " " + what + "s, numbered 0 to " + std::to_string(count - 1));
    return v;
}

std::string csv_field(const std::string& s) {
    std::string q = "\"";
    for (char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + '"';
}

std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.9g", v);
    return b;
}

nlohmann::json token_probs(const std::vector<TokenProb>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& t : v)
        a.push_back({{"id", t.id}, {"token", t.text}, {"prob", t.prob}});
    return a;
}

// A byte-level token can be part of a UTF-8 character: such bytes become U+FFFD, never an exception.
std::string dumped(const nlohmann::json& j) {
    return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}
}  // namespace

namespace {
/// "enc.1.2" -> Encoder and "1.2"; "cross." and "dec." likewise; no prefix: the decoder (a language model's).
HeadStack split_stack(std::string& rest, const std::string& item, const HeadLayout& layout) {
    for (const auto& [prefix, stack] : {std::pair<std::string, HeadStack>{"enc.", HeadStack::Encoder},
                                        {"cross.", HeadStack::Cross},
                                        {"dec.", HeadStack::Decoder}})
        if (rest.rfind(prefix, 0) == 0) {
            if (!layout.translation())
                throw ConfigError("'" + item + "': a language model has no encoder or cross-attention; " + kHeadForm);
            rest.erase(0, prefix.size());
            return stack;
        }
    return HeadStack::Decoder;
}

void parse_head_item(const std::string& item, const HeadLayout& layout, const std::function<void(HeadRef)>& add) {
    std::string rest = item;
    const HeadStack stack = split_stack(rest, item, layout);
    const size_t dot = rest.find('.');
    if (dot == std::string::npos)
        throw ConfigError("'" + item + "' is not a head: " + kHeadForm +
                          (layout.translation() ? "; enc.L.H for the encoder's, cross.L.H for cross-attention's" : ""));
    const char* what = stack == HeadStack::Encoder ? "encoder layer" : layout.translation() ? "decoder layer" : "layer";
    const int l = parse_index(rest.substr(0, dot), item, what,
                              stack == HeadStack::Encoder ? layout.encoder_layers : layout.layers);
    const std::string h = rest.substr(dot + 1);
    if (h == "*")
        for (int i = 0; i < layout.heads; ++i)
            add({l, i, stack});
    else
        add({l, parse_index(h, item, "head", layout.heads), stack});
}
}  // namespace

std::vector<HeadRef> parse_heads(const std::string& text, const HeadLayout& layout) {
    std::vector<HeadRef> out;
    auto add = [&out](HeadRef r) {
        for (const auto& o : out)
            if (o == r)
                return;
        out.push_back(r);
    };
    // Items apart by commas or spaces ("0.1 1.2" was one item, refused as no head)
    const char* kApart = ", \t\n";
    for (size_t start = text.find_first_not_of(kApart); start != std::string::npos;) {
        const size_t end = text.find_first_of(kApart, start);
        parse_head_item(text.substr(start, end == std::string::npos ? std::string::npos : end - start), layout, add);
        start = end == std::string::npos ? end : text.find_first_not_of(kApart, end);
    }
    return out;
}

std::vector<HeadRef> parse_heads(const std::string& text, int layers, int heads) {
    return parse_heads(text, HeadLayout{layers, heads, 0});
}

std::string lens_to_csv(const LogitLens& lens) {
    std::string out = "stage,position,input_token,rank,token_id,token,prob,final_choice_rank,final_choice_prob\n";
    for (int64_t s = 0; s < lens.stages; ++s)
        for (int64_t p = 0; p < lens.positions; ++p) {
            const auto& cell = lens.at(s, p);
            const size_t i = static_cast<size_t>(s * lens.positions + p);
            for (size_t r = 0; r < cell.size(); ++r)
                out += csv_field(LogitLens::stage_name(s)) + "," + std::to_string(p) + "," +
                       csv_field(lens.tokens[static_cast<size_t>(p)]) + "," + std::to_string(r) + "," +
                       std::to_string(cell[r].id) + "," + csv_field(cell[r].text) + "," + num(cell[r].prob) + "," +
                       std::to_string(lens.final_rank[i]) + "," + num(lens.final_prob[i]) + "\n";
        }
    return out;
}

std::string lens_to_json(const LogitLens& lens) {
    nlohmann::json j;
    j["format"] = "twb-logit-lens";
    j["version"] = 1;
    j["tokens"] = lens.tokens;
    j["ids"] = lens.ids;
    j["top"] = lens.top;
    j["final_ids"] = lens.final_ids;
    nlohmann::json stages = nlohmann::json::array();
    for (int64_t s = 0; s < lens.stages; ++s) {
        nlohmann::json cells = nlohmann::json::array();
        for (int64_t p = 0; p < lens.positions; ++p) {
            const size_t i = static_cast<size_t>(s * lens.positions + p);
            cells.push_back({{"top", token_probs(lens.at(s, p))},
                             {"final_choice_rank", lens.final_rank[i]},
                             {"final_choice_prob", lens.final_prob[i]}});
        }
        stages.push_back({{"stage", LogitLens::stage_name(s)}, {"positions", std::move(cells)}});
    }
    j["stages"] = std::move(stages);
    return dumped(j);
}

std::string attribution_to_csv(const TokenAttribution& a) {
    std::string out = "position,token_id,token,gradient_x_input,rollout\n";
    for (size_t i = 0; i < a.ids.size(); ++i)
        out += std::to_string(i) + "," + std::to_string(a.ids[i]) + "," + csv_field(a.tokens[i]) + "," +
               num(a.gradient_x_input[i]) + "," + num(a.rollout[i]) + "\n";
    return out;
}

std::string attribution_to_json(const TokenAttribution& a) {
    nlohmann::json j;
    j["format"] = "twb-attribution";
    j["version"] = 1;
    j["target"] = {{"id", a.target_id}, {"token", a.target_text}, {"prob", a.target_prob}};
    j["tokens"] = a.tokens;
    j["ids"] = a.ids;
    j["gradient_x_input"] = a.gradient_x_input;
    j["rollout"] = a.rollout;
    return dumped(j);
}

std::string attribution_to_csv(const TranslationAttribution& a) {
    std::string out = "side,output_position,output_token,token_position,token_id,token,gradient_x_input\n";
    for (size_t t = 0; t < a.output_ids.size(); ++t) {
        const std::string row = std::to_string(t) + "," + csv_field(a.output_tokens[t]) + ",";
        for (size_t s = 0; s < a.source_ids.size(); ++s)
            out += "source," + row + std::to_string(s) + "," + std::to_string(a.source_ids[s]) + "," +
                   csv_field(a.source_tokens[s]) + "," + num(a.source(t, s)) + "\n";
        for (size_t u = 0; u <= t && u < a.input_ids.size(); ++u)
            out += "target," + row + std::to_string(u) + "," + std::to_string(a.input_ids[u]) + "," +
                   csv_field(a.input_tokens[u]) + "," + num(a.input(t, u)) + "\n";
    }
    return out;
}

std::string attribution_to_json(const TranslationAttribution& a) {
    nlohmann::json j;
    j["format"] = "twb-translation-attribution";
    j["version"] = 1;
    j["source"] = {{"ids", a.source_ids}, {"tokens", a.source_tokens}};
    j["inputs"] = {{"ids", a.input_ids}, {"tokens", a.input_tokens}};
    j["outputs"] = {{"ids", a.output_ids}, {"tokens", a.output_tokens}, {"prob", a.output_prob}};
    j["target_from_model"] = a.target_from_model;
    auto rows = [](const std::vector<double>& flat, size_t width) {
        nlohmann::json m = nlohmann::json::array();
        for (size_t i = 0; i + width <= flat.size() && width > 0; i += width)
            m.push_back(std::vector<double>(flat.begin() + static_cast<std::ptrdiff_t>(i),
                                            flat.begin() + static_cast<std::ptrdiff_t>(i + width)));
        return m;
    };
    j["source_attribution"] = rows(a.source_attribution, a.source_ids.size());
    j["input_attribution"] = rows(a.input_attribution, a.input_ids.size());
    return dumped(j);
}

std::string ablation_to_csv(const AblationTable& t) {
    std::string out = "heads_off,loss,cost\n";
    out += "\"none\"," + num(t.base_loss) + ",0\n";
    if (!t.set.empty()) {
        std::string names;
        for (const auto& h : t.set)
            names += (names.empty() ? "" : " ") + to_string(h);
        out += csv_field(names) + "," + num(t.set_loss) + "," + num(t.set_loss - t.base_loss) + "\n";
    }
    for (const auto& r : t.every_head)
        out += csv_field(to_string(r.head)) + "," + num(r.loss) + "," + num(r.cost) + "\n";
    return out;
}

std::string ablation_to_json(const AblationTable& t) {
    nlohmann::json j;
    j["format"] = "twb-head-ablation";
    j["version"] = 1;
    j["split"] = t.split;
    j["tokens"] = t.tokens;
    j["layers"] = t.layers;
    j["heads"] = t.heads;
    if (t.encoder_layers > 0)
        j["encoder_layers"] = t.encoder_layers;
    j["base_loss"] = t.base_loss;
    j["cancelled"] = t.cancelled;
    if (!t.set.empty()) {
        nlohmann::json set = nlohmann::json::array();
        for (const auto& h : t.set)
            set.push_back(to_string(h));
        j["set"] = set;
        j["set_loss"] = t.set_loss;
    }
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : t.every_head) {
        nlohmann::json row{{"layer", r.head.layer}, {"head", r.head.head}, {"loss", r.loss}, {"cost", r.cost}};
        if (t.encoder_layers > 0)  // a translation model's: which of its three attentions
            row["stack"] = r.head.stack == HeadStack::Encoder ? "encoder"
                           : r.head.stack == HeadStack::Cross ? "cross"
                                                              : "decoder";
        rows.push_back(std::move(row));
    }
    j["every_head"] = std::move(rows);
    return dumped(j);
}

}  // namespace twb
