// Checkpoint files.
#include "nn/checkpoint.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <algorithm>
#include <cstdio>
#include <random>

namespace twb::nn {

namespace fs = std::filesystem;

namespace {
std::string step_name(int64_t step) {
    return checkpoint_dir_name(step);
}

nlohmann::json number_or_null(double v) {
    return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v);
}
double json_double(const nlohmann::json& j, const char* key) {
    return j.contains(key) && j[key].is_number() ? j[key].get<double>() : std::nan("");
}
}  // namespace

fs::path save_checkpoint(const fs::path& run_dir, GPT& model, const FlatAdamW* opt, const CheckpointState& st) {
    const fs::path root = run_dir / "checkpoints";
    fs::create_directories(root);
    const fs::path final = root / step_name(st.step);
    const fs::path tmp = root / ("." + step_name(st.step) + ".tmp" + std::to_string(std::random_device{}()));
    fs::create_directories(tmp);
    try {
        std::map<std::string, std::string> meta{
            {"format", "pt"}, {"producer", "transformer-workbench"}, {"step", std::to_string(st.step)}};
        save_safetensors(tmp / "model.safetensors", model->named_weights(), meta);
        if (opt) {
            auto state = opt->state();
            auto gen = at::detail::getDefaultCPUGenerator();
            {
                std::lock_guard<std::mutex> lock(gen.mutex());
                state.emplace_back("rng.torch_cpu", gen.get_state());
            }
            save_safetensors(tmp / "optimizer.safetensors", state);
        }
        nlohmann::json j;
        j["format_version"] = 1;
        j["step"] = st.step;
        j["batcher_state"] = std::to_string(st.batcher_state);  // string: JSON numbers lose 64-bit precision
        j["val_loss"] = number_or_null(st.val_loss);
        j["best_val_loss"] = number_or_null(st.best_val_loss);
        j["best_step"] = st.best_step;
        j["elapsed_s"] = st.elapsed_s;
        j["tokens_seen"] = st.tokens_seen;
        j["config"] = st.config;
        write_file_atomic(tmp / "state.json", j.dump(2));
        std::error_code ec;
        if (fs::exists(final))
            fs::remove_all(final, ec);
        fs::rename(tmp, final);
    } catch (...) {
        std::error_code ec;
        fs::remove_all(tmp, ec);
        throw;
    }
    if (!std::isnan(st.best_val_loss) && st.best_step >= 0) {
        nlohmann::json b{{"step", st.best_step}, {"val_loss", st.best_val_loss}};
        write_file_atomic(root / "best.json", b.dump(2));
    }
    return final;
}

LoadedCheckpoint read_checkpoint(const fs::path& dir) {
    LoadedCheckpoint c;
    c.dir = dir;
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(read_file(dir / "state.json"));
    } catch (const nlohmann::json::exception& e) {
        throw FormatError((dir / "state.json").string() + ": unreadable (" + e.what() + ")");
    }
    c.state.step = j.value("step", 0ll);
    c.state.batcher_state = std::stoull(j.value("batcher_state", std::string("0")));
    c.state.val_loss = json_double(j, "val_loss");
    c.state.best_val_loss = json_double(j, "best_val_loss");
    c.state.best_step = j.value("best_step", -1ll);
    c.state.elapsed_s = j.value("elapsed_s", 0.0);
    c.state.tokens_seen = j.value("tokens_seen", 0ull);
    c.state.config = j.value("config", nlohmann::json::object()).get<RunConfig>();
    c.weights = load_safetensors(dir / "model.safetensors");
    if (fs::exists(dir / "optimizer.safetensors"))
        c.optimizer = load_safetensors(dir / "optimizer.safetensors");
    return c;
}

void load_weights(GPT& model, const SafetensorsData& w, const std::string& where) {
    torch::NoGradGuard ng;
    for (auto& [name, p] : model->named_weights()) {
        auto it = w.tensors.find(name);
        if (it == w.tensors.end())
            throw FormatError(where + ": has no tensor '" + name + "'; it was written for a different model config");
        const auto& t = it->second;
        if (t.sizes() != p.sizes()) {
            std::ostringstream ss;
            ss << where << ": tensor '" << name << "' has shape " << t.sizes() << " but this config needs " << p.sizes()
               << " (check n_layer, n_head, n_embd, head_size, ffn_hidden, norm, block_size, vocab_size)";
            throw FormatError(ss.str());
        }
        if (!at::isFloatingType(t.scalar_type()))
            throw FormatError(where + ": tensor '" + name + "' is not floating point");
        p.copy_(t.to(p.scalar_type()));
    }
}

void restore_rng(const SafetensorsData& optimizer) {
    auto it = optimizer.tensors.find("rng.torch_cpu");
    if (it == optimizer.tensors.end())
        return;
    auto gen = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_state(it->second);
}

void prune_checkpoints(const fs::path& run_dir, int keep_last, int64_t best_step) {
    auto steps = list_checkpoints(run_dir);
    const int n = static_cast<int>(steps.size());
    for (int i = 0; i < n - keep_last; ++i) {
        if (steps[static_cast<size_t>(i)] == best_step)
            continue;
        std::error_code ec;
        fs::remove_all(run_dir / "checkpoints" / step_name(steps[static_cast<size_t>(i)]), ec);
    }
}

}  // namespace twb::nn
