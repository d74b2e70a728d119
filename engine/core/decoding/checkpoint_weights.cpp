// A checkpoint's weights for the CPU decoder without libtorch (checkpoint_weights.h).
#include "core/decoding/checkpoint_weights.h"

#include "core/interchange/safetensors_header.h"
#include "twb/errors.h"

#include <cmath>
#include <cstring>
#include <map>
#include <set>

namespace twb {

namespace fs = std::filesystem;

namespace {
struct Tensor {
    std::vector<int64_t> shape;
    std::vector<float> values;
};

/// Every tensor of the file as fp32 (exact from F32 and BF16).
std::map<std::string, Tensor> read_tensors(const fs::path& path) {
    SafetensorsFile file(path);
    const std::string& where = file.where();
    std::map<std::string, Tensor> out;
    std::vector<char> bytes;
    for (const auto& e : file.header().tensors) {
        if (e.dtype != "F32" && e.dtype != "BF16")
            throw FormatError(where + ": tensor '" + e.name + "' is " + e.dtype + "; this reader takes F32 and BF16");
        bytes.resize(static_cast<size_t>(e.end - e.begin));
        file.read(e, bytes.data());
        Tensor t;
        t.shape = e.shape;
        if (e.dtype == "F32") {
            t.values.resize(bytes.size() / 4);
            std::memcpy(t.values.data(), bytes.data(), bytes.size());
        } else {
            t.values.resize(bytes.size() / 2);
            for (size_t i = 0; i < t.values.size(); ++i) {
                uint16_t b;
                std::memcpy(&b, bytes.data() + 2 * i, 2);
                t.values[i] = from_bf16(b);
            }
        }
        for (const float v : t.values)
            if (!std::isfinite(v))
                throw FormatError(where + ": tensor '" + e.name +
                                  "' holds NaN or infinite values; the checkpoint is damaged (use an earlier one)");
        out.emplace(e.name, std::move(t));
    }
    return out;
}
}  // namespace

std::shared_ptr<const FastWeights> read_fast_weights(const fs::path& file, const RunConfig& c, bool avx2) {
    const auto tensors = read_tensors(file);
    std::set<std::string> used;
    auto weights = build_fast_weights(c, avx2, [&](const std::string& name) -> std::optional<WeightView> {
        const auto it = tensors.find(name);
        if (it == tensors.end())
            return std::nullopt;
        used.insert(name);
        return WeightView{it->second.values.data(), it->second.shape};
    });
    // Exactly the decoder's tensors: one more (a head's gate, a norm of the queries) is something it does not compute.
    for (const auto& [name, t] : tensors)
        if (!used.count(name))
            throw FormatError(file.string() + ": holds tensor '" + name +
                              "' that this config has no place for; it was written for a different model config or "
                              "edited (check n_layer and the config in state.json)");
    return weights;
}

}  // namespace twb
