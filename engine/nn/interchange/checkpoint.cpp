// Checkpoint files.
#include "nn/interchange/checkpoint.h"

#include "nn/models/seq2seq_model.h"

#include "twb/config_options.h"
#include "twb/errors.h"
#include "twb/text.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <set>

namespace twb::nn {

namespace fs = std::filesystem;

namespace {
std::string step_name(int64_t step) {
    return checkpoint_dir_name(step);
}

/// ".step_N.tmp<random>": a checkpoint folder being written or removed. Such a folder is never listed as a
/// checkpoint, and the next run on the folder removes it (remove_stale_temporaries).
fs::path temporary_name(const fs::path& root, int64_t step) {
    // Appended piece by piece: "." + string makes GCC 12 -O3 warn falsely (-Wstringop-overflow, PR 105329).
    std::string name = ".";
    name += step_name(step);
    name += ".tmp" + std::to_string(std::random_device{}());
    return root / name;
}

/// Removes checkpoint folder step of root as one step: renamed aside first, then deleted, so a kill
/// during the deletion never leaves a half-deleted step_N that looks like a checkpoint.
void remove_checkpoint(const fs::path& root, int64_t step) {
    std::error_code ec;
    const fs::path aside = temporary_name(root, step);
    fs::rename(root / step_name(step), aside, ec);
    if (!ec)
        fs::remove_all(aside, ec);
}

}  // namespace

fs::path save_checkpoint(const fs::path& run_dir, GPT& model, const FlatAdamW* opt, const CheckpointState& st) {
    return save_checkpoint(run_dir, model->named_weights(), opt, st);
}

fs::path save_checkpoint(const fs::path& run_dir, const std::vector<std::pair<std::string, torch::Tensor>>& weights,
                         const FlatAdamW* opt, const CheckpointState& st) {
    const fs::path root = run_dir / "checkpoints";
    fs::create_directories(root);
    const fs::path final = root / step_name(st.step);
    const fs::path tmp = temporary_name(root, st.step);
    fs::create_directories(tmp);
    try {
        std::map<std::string, std::string> meta{
            {"format", "pt"}, {"producer", "transformer-workbench"}, {"step", std::to_string(st.step)}};
        save_safetensors(tmp / "model.safetensors", weights, meta);
        if (opt) {
            auto state = opt->state();
            const auto keep = [&](const char* name, at::Generator gen) {
                std::lock_guard<std::mutex> lock(gen.mutex());
                state.emplace_back(name, gen.get_state());
            };
            keep("rng.torch_cpu", at::detail::getDefaultCPUGenerator());
            // On a GPU, dropout draws from the device's own generator.
            if (!weights.empty() && weights.front().second.device().is_cuda())
                keep("rng.torch_cuda", at::globalContext().defaultGenerator(weights.front().second.device()));
            save_safetensors(tmp / "optimizer.safetensors", state);
        }
        write_file_atomic(tmp / "state.json", checkpoint_state_json(st));
        if (fs::exists(final))
            remove_checkpoint(root, st.step);
        fs::rename(tmp, final);
    } catch (...) {
        std::error_code ec;
        fs::remove_all(tmp, ec);
        throw;
    }
    // best.json only ever names a checkpoint that exists (this one or an earlier one kept by pruning).
    if (!std::isnan(st.best_val_loss) && st.best_step >= 0 && fs::exists(root / step_name(st.best_step) / "state.json"))
        write_file_atomic(root / "best.json", best_json(st.best_step, st.best_val_loss, st.config.best_by));
    return final;
}

LoadedCheckpoint read_checkpoint(const fs::path& dir, CheckpointParts parts) {
    LoadedCheckpoint c;
    c.dir = dir;
    c.state = parse_checkpoint_state(read_file(dir / "state.json"), (dir / "state.json").string());
    const std::string folder = (dir.filename().empty() ? dir.parent_path() : dir).filename().string();
    if (folder.rfind("step_", 0) == 0 && folder != step_name(c.state.step))
        throw FormatError((dir / "state.json").string() + " says step " + std::to_string(c.state.step) +
                          " but the folder is " + folder +
                          "; the checkpoint was copied or edited, so it is not trusted (restore it or remove it)");
    c.weights = load_safetensors(dir / "model.safetensors");
    if (parts == CheckpointParts::WithOptimizer && fs::exists(dir / "optimizer.safetensors"))
        c.optimizer = load_safetensors(dir / "optimizer.safetensors");
    return c;
}

fs::path find_resume_checkpoint(const fs::path& run_dir) {
    if (list_checkpoints(run_dir).empty() && fs::exists(run_dir / "config.json"))
        throw InputError(run_dir.string() +
                         " was stopped before its first checkpoint, so there is nothing to resume; start it again "
                         "without --resume (the same --out: its metrics start afresh)");
    return find_checkpoint(run_dir, "last");
}

void check_resume_config(const RunConfig& checkpoint, const RunConfig& asked, const std::string& where) {
    const nlohmann::json was = checkpoint, now = asked;
    for (const auto& o : config_options()) {  // the keys the option table marks as shaping the model
        if (!o.shapes_model)
            continue;
        const std::string& key = o.key;
        if (!was.contains(key) || !now.contains(key) || was[key] == now[key])
            continue;
        if (key == "vocab_size" || key == "source_vocab_size")  // no --set of it, mostly: the dataset's own
            throw ConfigError("cannot resume " + where + ": it was trained with " + key + "=" + was[key].dump() +
                              " and its dataset (" + asked.data_dir + ") now has " + now[key].dump() +
                              ", so it was prepared again with another tokenizer; prepare it again as it was, or "
                              "start a new run");
        throw ConfigError(std::string("--resume cannot change ") + key + ": " + where + " was trained with " + key +
                          "=" + was[key].dump() + ", asked " + now[key].dump() +
                          "; drop that --set, or start a new run (--init-from keeps the weights)");
    }
}

void load_weights(GPT& model, const SafetensorsData& w, const std::string& where) {
    load_weights(model->named_weights(), w, where);
}

void load_weights(const std::vector<std::pair<std::string, torch::Tensor>>& params, const SafetensorsData& w,
                  const std::string& where) {
    torch::NoGradGuard ng;
    for (auto [name, p] : params) {
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
        if (!torch::isfinite(t).all().item<bool>())
            throw FormatError(where + ": tensor '" + name +
                              "' holds NaN or infinite values; the checkpoint is damaged (use an earlier one)");
        p.copy_(t.to(p.scalar_type()));
    }
    // Exactly the config's tensors: one more (a third layer under n_layer 2, an unknown name) means the
    // file was written for another config or edited, and would be carried on silently by an export.
    if (w.tensors.size() != params.size()) {
        std::set<std::string> known;
        for (const auto& kv : params)
            known.insert(kv.first);
        for (const auto& kv : w.tensors)
            if (!known.count(kv.first))
                throw FormatError(where + ": holds tensor '" + kv.first +
                                  "' that this config has no place for; it was written for a different model "
                                  "config or edited (check n_layer and the config in state.json)");
    }
}

void check_checkpoint_weights(const LoadedCheckpoint& c) {
    torch::NoGradGuard ng;
    SkipLayerInitialisation skip;  // the model is built for its names and shapes only
    if (c.state.config.model_kind == ModelKind::EncoderDecoder)
        load_weights(Seq2Seq(c.state.config)->named_weights(), c.weights, c.dir.string());
    else
        load_weights(GPT(c.state.config, GPTImpl::Init::None)->named_weights(), c.weights, c.dir.string());
}

namespace {
void set_generator_state(at::Generator gen, const torch::Tensor& t, const std::string& where) {
    std::lock_guard<std::mutex> lock(gen.mutex());
    const auto want = gen.get_state();
    if (t.scalar_type() != want.scalar_type() || t.numel() != want.numel())
        throw FormatError(where + ": its random-generator state has " + std::to_string(t.numel()) + " " +
                          c10::toString(t.scalar_type()) + " values where this libtorch needs " +
                          std::to_string(want.numel()) + "; the checkpoint is damaged or from another libtorch");
    try {
        gen.set_state(t.reshape({-1}).contiguous());
    } catch (const c10::Error&) {
        throw FormatError(where + ": its random-generator state is not valid; the checkpoint is damaged");
    }
}
}  // namespace

void restore_rng(const SafetensorsData& optimizer, const std::string& where, const torch::Device& device) {
    auto it = optimizer.tensors.find("rng.torch_cpu");
    if (it == optimizer.tensors.end())
        throw FormatError(where +
                          ": holds no random-generator state (rng.torch_cpu), so the run cannot resume "
                          "exactly; start a new run, or --init-from this one");
    set_generator_state(at::detail::getDefaultCPUGenerator(), it->second, where);
    // A checkpoint written on a GPU also holds that device's generator (older ones and CPU runs do not:
    // their dropout on the GPU then draws afresh).
    auto cuda = optimizer.tensors.find("rng.torch_cuda");
    if (device.is_cuda() && cuda != optimizer.tensors.end())
        set_generator_state(at::globalContext().defaultGenerator(device), cuda->second, where);
}

void prune_checkpoints(const fs::path& run_dir, int keep_last, int64_t best_step) {
    auto steps = list_checkpoints(run_dir);
    const int n = static_cast<int>(steps.size());
    for (int i = 0; i < n - keep_last; ++i) {
        if (steps[static_cast<size_t>(i)] == best_step)
            continue;
        remove_checkpoint(run_dir / "checkpoints", steps[static_cast<size_t>(i)]);
    }
}

}  // namespace twb::nn
