// Reading and writing the probe timeline (see probe_log.h for the layout).
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

struct Header {
    std::vector<int32_t> ids;
    std::vector<std::string> tokens;
    int64_t layers = 0, heads = 0;
};

bool read_header(const fs::path& run, Header& h) {
    const fs::path f = probe_dir(run) / "probe.json";
    if (!fs::exists(f))
        return false;
    try {
        const auto j = nlohmann::json::parse(read_file(f));
        h.ids = j.at("ids").get<std::vector<int32_t>>();
        h.tokens = j.at("tokens").get<std::vector<std::string>>();
        h.layers = j.at("layers").get<int64_t>();
        h.heads = j.at("heads").get<int64_t>();
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(f.string() + " is broken (" + e.what() +
                          "); delete the probe folder to start a new timeline");
    }
    if (h.ids.size() != h.tokens.size() || h.layers <= 0 || h.heads <= 0)
        throw FormatError(f.string() + " does not describe a probe; delete the probe folder to start a new timeline");
    return true;
}

size_t record_bytes(const Header& h) {
    const size_t T = h.ids.size();
    return sizeof(int64_t) + static_cast<size_t>(h.layers * h.heads) * T * T;
}
}  // namespace

AttentionCapture ProbeTimeline::at(size_t i) const {
    AttentionCapture c;
    c.tokens = tokens;
    c.layers = layers;
    c.heads = heads;
    c.length = length;
    const size_t n = static_cast<size_t>(layers * heads * length * length);
    c.weights.resize(n);
    const uint8_t* p = data.data() + i * n;
    for (size_t k = 0; k < n; ++k)
        c.weights[k] = static_cast<float>(p[k]) / 255.f;
    return c;
}

void start_probe(const fs::path& run, const std::vector<int32_t>& ids, const std::vector<std::string>& tokens,
                 int64_t layers, int64_t heads) {
    fs::create_directories(probe_dir(run));
    nlohmann::json j;
    j["ids"] = ids;
    j["tokens"] = tokens;
    j["layers"] = layers;
    j["heads"] = heads;
    j["format"] = "attention.u8: records of int64 step + layers*heads*T*T uint8 weights (w*255, rounded)";
    fs::remove(probe_dir(run) / "attention.u8");
    write_file_atomic(probe_dir(run) / "probe.json", j.dump(1));
}

std::vector<int32_t> probe_ids(const fs::path& run) {
    Header h;
    return read_header(run, h) ? h.ids : std::vector<int32_t>{};
}

void append_probe(const fs::path& run, int64_t step, const AttentionCapture& cap) {
    Header h;
    if (!read_header(run, h))
        throw InputError("the run has no probe; start_probe comes first");
    if (cap.layers != h.layers || cap.heads != h.heads || cap.length != static_cast<int64_t>(h.ids.size()))
        throw InputError("the capture's shape does not match the run's probe");
    const fs::path f = probe_dir(run) / "attention.u8";
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

ProbeTimeline read_probe(const fs::path& run) {
    ProbeTimeline t;
    Header h;
    if (!read_header(run, h))
        return t;
    t.tokens = h.tokens;
    t.ids = h.ids;
    t.layers = h.layers;
    t.heads = h.heads;
    t.length = static_cast<int64_t>(h.ids.size());
    const fs::path f = probe_dir(run) / "attention.u8";
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

}  // namespace twb
