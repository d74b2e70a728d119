// Reading and writing the probe timelines (see probe.h for the layout): the LM's self-attention
// (probe.json + attention.u8) and an encoder-decoder's cross-attention (cross.json + cross.u8).
#include "twb/probe.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

namespace twb {

namespace fs = std::filesystem;

namespace {
fs::path probe_dir(const fs::path& run) {
    return run / "probe";
}

/// Which timeline: its header and record files.
struct Files {
    const char* header;
    const char* records;
    bool cross;
};
const Files kSelf{"probe.json", "attention.u8", false};
const Files kCross{"cross.json", "cross.u8", true};

struct Header {
    std::vector<int32_t> ids, key_ids;
    std::vector<std::string> tokens, key_tokens;
    int64_t layers = 0, heads = 0;
    size_t keys() const { return key_ids.empty() ? ids.size() : key_ids.size(); }
};

bool read_header(const fs::path& run, const Files& files, Header& h) {
    const fs::path f = probe_dir(run) / files.header;
    if (!fs::exists(f))
        return false;
    try {
        const auto j = nlohmann::json::parse(read_file(f));
        h.ids = j.at("ids").get<std::vector<int32_t>>();
        h.tokens = j.at("tokens").get<std::vector<std::string>>();
        h.layers = j.at("layers").get<int64_t>();
        h.heads = j.at("heads").get<int64_t>();
        if (files.cross) {
            h.key_ids = j.at("source_ids").get<std::vector<int32_t>>();
            h.key_tokens = j.at("source_tokens").get<std::vector<std::string>>();
        }
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(f.string() + " is broken (" + e.what() +
                          "); delete the probe folder to start a new timeline");
    }
    if (h.ids.size() != h.tokens.size() || h.key_ids.size() != h.key_tokens.size() || h.layers <= 0 || h.heads <= 0 ||
        (files.cross && h.key_ids.empty()))
        throw FormatError(f.string() + " does not describe a probe; delete the probe folder to start a new timeline");
    return true;
}

size_t record_bytes(const Header& h) {
    return sizeof(int64_t) + static_cast<size_t>(h.layers * h.heads) * h.ids.size() * h.keys();
}

void write_header(const fs::path& run, const Files& files, const Header& h) {
    fs::create_directories(probe_dir(run));
    nlohmann::json j;
    j["ids"] = h.ids;
    j["tokens"] = h.tokens;
    j["layers"] = h.layers;
    j["heads"] = h.heads;
    if (files.cross) {
        j["source_ids"] = h.key_ids;
        j["source_tokens"] = h.key_tokens;
        j["format"] =
            "cross.u8: records of int64 step + layers*heads*T*S uint8 weights (w*255, rounded); T target rows "
            "(ids: target + <eos>), S source columns (source_ids: source + <eos>)";
    } else {
        j["format"] = "attention.u8: records of int64 step + layers*heads*T*T uint8 weights (w*255, rounded)";
    }
    fs::remove(probe_dir(run) / files.records);
    write_file_atomic(probe_dir(run) / files.header, j.dump(1));
}

void append(const fs::path& run, const Files& files, int64_t step, const AttentionCapture& cap) {
    Header h;
    if (!read_header(run, files, h))
        throw InputError("the run has no probe; start_probe comes first");
    if (cap.layers != h.layers || cap.heads != h.heads || cap.length != static_cast<int64_t>(h.ids.size()) ||
        cap.keys() != static_cast<int64_t>(h.keys()))
        throw InputError("the capture's shape does not match the run's probe");
    const fs::path f = probe_dir(run) / files.records;
    const size_t rec = record_bytes(h);
    // Keep whole records with a smaller step; anything after (a torn record, or steps a resume redoes) goes.
    uintmax_t keep = 0;
    if (fs::exists(f)) {
        const uintmax_t size = fs::file_size(f);
        std::ifstream in(f, std::ios::binary);
        for (uintmax_t off = 0; off + rec <= size; off += rec) {
            int64_t s = 0;
            in.seekg(static_cast<std::streamoff>(off));
            in.read(reinterpret_cast<char*>(&s), sizeof s);
            if (!in || s >= step)
                break;
            keep = off + rec;
        }
        if (keep != size)
            fs::resize_file(f, keep);
    }
    std::string buf(rec, '\0');
    std::memcpy(buf.data(), &step, sizeof step);
    for (size_t k = 0; k < cap.weights.size(); ++k)
        buf[sizeof step + k] =
            static_cast<char>(static_cast<uint8_t>(std::lround(std::clamp(cap.weights[k], 0.f, 1.f) * 255.f)));
    std::ofstream out(f, std::ios::binary | std::ios::app);
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    if (!out)
        throw IoError("cannot append to " + f.string());
}

ProbeTimeline read(const fs::path& run, const Files& files) {
    ProbeTimeline t;
    Header h;
    if (!read_header(run, files, h))
        return t;
    t.kind = files.cross ? AttentionKind::Cross : AttentionKind::Decoder;
    t.tokens = h.tokens;
    t.ids = h.ids;
    t.key_tokens = h.key_tokens;
    t.key_ids = h.key_ids;
    t.layers = h.layers;
    t.heads = h.heads;
    t.length = static_cast<int64_t>(h.ids.size());
    t.key_length = files.cross ? static_cast<int64_t>(h.key_ids.size()) : 0;
    const fs::path f = probe_dir(run) / files.records;
    if (!fs::exists(f))
        return t;
    const std::string all = read_file(f);
    const size_t rec = record_bytes(h), n = rec - sizeof(int64_t);
    const size_t count = all.size() / rec;  // a torn last record is ignored
    t.data.resize(count * n);
    for (size_t i = 0; i < count; ++i) {
        int64_t s = 0;
        std::memcpy(&s, all.data() + i * rec, sizeof s);
        t.steps.push_back(s);
        std::memcpy(t.data.data() + i * n, all.data() + i * rec + sizeof s, n);
    }
    return t;
}
}  // namespace

AttentionCapture ProbeTimeline::at(size_t i) const {
    AttentionCapture c;
    c.kind = kind;
    c.tokens = tokens;
    c.key_tokens = key_tokens;
    c.layers = layers;
    c.heads = heads;
    c.length = length;
    c.key_length = key_length;
    const size_t n = static_cast<size_t>(layers * heads * length * c.keys());
    c.weights.resize(n);
    const uint8_t* p = data.data() + i * n;
    for (size_t k = 0; k < n; ++k)
        c.weights[k] = static_cast<float>(p[k]) / 255.f;
    return c;
}

void start_probe(const fs::path& run, const std::vector<int32_t>& ids, const std::vector<std::string>& tokens,
                 int64_t layers, int64_t heads) {
    Header h;
    h.ids = ids;
    h.tokens = tokens;
    h.layers = layers;
    h.heads = heads;
    write_header(run, kSelf, h);
}

std::vector<int32_t> probe_ids(const fs::path& run) {
    Header h;
    return read_header(run, kSelf, h) ? h.ids : std::vector<int32_t>{};
}

void append_probe(const fs::path& run, int64_t step, const AttentionCapture& cap) {
    append(run, kSelf, step, cap);
}

ProbeTimeline read_probe(const fs::path& run) {
    return read(run, kSelf);
}

void start_cross_probe(const fs::path& run, const std::vector<int32_t>& target_ids,
                       const std::vector<std::string>& target_tokens, const std::vector<int32_t>& source_ids,
                       const std::vector<std::string>& source_tokens, int64_t layers, int64_t heads) {
    Header h;
    h.ids = target_ids;
    h.tokens = target_tokens;
    h.key_ids = source_ids;
    h.key_tokens = source_tokens;
    h.layers = layers;
    h.heads = heads;
    if (h.key_ids.empty() || h.ids.empty())
        throw InputError("a cross-attention probe needs a source and a target");
    write_header(run, kCross, h);
}

bool has_cross_probe(const fs::path& run) {
    Header h;
    return read_header(run, kCross, h);
}

void append_cross_probe(const fs::path& run, int64_t step, const AttentionCapture& cap) {
    append(run, kCross, step, cap);
}

ProbeTimeline read_cross_probe(const fs::path& run) {
    return read(run, kCross);
}

}  // namespace twb
