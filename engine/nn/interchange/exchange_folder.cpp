// The Hugging Face exchanges' shared parts (exchange_folder.h).
#include "nn/interchange/exchange_folder.h"

#include "core/run/checkpoint_state.h"
#include "core/tokenizers/tokenizer.h"
#include "nn/interchange/checkpoint.h"
#include "twb/errors.h"
#include "twb/output_paths.h"
#include "twb/run_folder.h"
#include "twb/run_info.h"
#include "twb/text.h"

#include <fstream>
#include <random>

namespace twb::nn {

namespace fs = std::filesystem;

namespace {
/// A hidden sibling of `target` to write into, renamed at the end.
fs::path temp_sibling(const fs::path& target) {
    const fs::path abs = fs::absolute(target);
    return abs.parent_path() / ("." + abs.filename().string() + ".tmp" + std::to_string(std::random_device{}()));
}

/// Refuses an output folder that holds something; creates its parent.
void check_output_folder(const fs::path& out) {
    check_output_place(out, {});  // not into a run's or a dataset's folder: their files are theirs
    std::error_code ec;
    if (fs::exists(out, ec) && !fs::is_directory(out, ec))
        throw InputError(out.string() + " is a file; the output is a folder: give a new folder's name");
    if (fs::exists(out, ec) && !fs::is_empty(out, ec))
        throw InputError(out.string() + ": already exists and is not empty; choose a new folder");
    const fs::path parent = fs::absolute(out).parent_path();
    fs::create_directories(parent, ec);
    if (ec)
        throw IoError(parent.string() + ": cannot create the folder (" + ec.message() + ")");
}

/// Renames the finished temporary folder into place (an empty `out` is replaced).
void publish(const fs::path& tmp, const fs::path& out) {
    std::error_code ec;
    if (fs::exists(out))
        fs::remove(out, ec);
    fs::rename(tmp, out, ec);
    if (ec)
        throw IoError(out.string() + ": cannot move the finished folder into place (" + ec.message() + ")");
}
}  // namespace

std::string shape_text(const std::vector<int64_t>& s) {
    std::string t = "[";
    for (size_t i = 0; i < s.size(); ++i)
        t += (i ? ", " : "") + std::to_string(s[i]);
    return t + "]";
}

void write_folder(const fs::path& out, const std::function<void(const fs::path&)>& fn) {
    check_output_folder(out);
    require_name_room(fs::absolute(out).lexically_normal(), 1 + 4 + 10);  // ".", ".tmp" and up to 10 digits
    const fs::path tmp = temp_sibling(out);
    std::error_code ec;
    fs::create_directories(tmp, ec);
    if (ec)
        throw IoError(tmp.parent_path().string() + ": cannot write there (" + ec.message() +
                      "); choose an --out in a folder you can write");
    try {
        fn(tmp);
        publish(tmp, out);
    } catch (const fs::filesystem_error& e) {  // a copy that failed (a full disk): said in our words
        std::error_code ec;
        fs::remove_all(tmp, ec);
        if (e.code() == std::errc::no_such_file_or_directory)  // the source went away while it was read
            throw IoError(out.string() + ": " + e.path1().filename().string() +
                          " vanished while it was copied (a trainer pruning that checkpoint?); nothing was left "
                          "behind: try again, or name a checkpoint the trainer keeps (--checkpoint best)");
        throw IoError(out.string() + ": writing failed (" + e.code().message() + " on " +
                      e.path1().filename().string() + "); is the disk full? Nothing was left behind");
    } catch (...) {
        std::error_code ec;
        fs::remove_all(tmp, ec);
        throw;
    }
}

void check_hf_folder(const fs::path& dir, const std::string& convert) {
    if (fs::exists(dir) && !fs::is_directory(dir))
        throw InputError(dir.string() +
                         " is a file; give the Hugging Face model's folder (config.json, model.safetensors)");
    if (!fs::is_directory(dir))
        throw InputError(dir.string() + ": no such folder");
    const fs::path st = dir / "model.safetensors";
    if (!fs::exists(st)) {
        for (const char* pickle : {"pytorch_model.bin", "model.bin", "model.pt", "model.ckpt", "tf_model.h5"})
            if (fs::exists(dir / pickle))
                throw InputError((dir / pickle).string() +
                                 ": only model.safetensors is read, never pickle/TensorFlow files (they can run code); "
                                 "convert it first, e.g. with transformers: " +
                                 convert + ".from_pretrained(DIR).save_pretrained(DIR, safe_serialization=True)");
        if (fs::exists(dir / "model.safetensors.index.json"))
            throw InputError((dir / "model.safetensors.index.json").string() +
                             ": sharded checkpoints are not supported; save the model as one model.safetensors");
        throw InputError(st.string() +
                         ": no such file (a Hugging Face model folder has config.json and model.safetensors)");
    }
    if (!fs::exists(dir / "config.json"))
        throw InputError((dir / "config.json").string() + ": no such file (the model's config.json is needed)");
}

SafetensorsHeader read_safetensors_header(const fs::path& file) {
    const std::string where = file.string();
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw InputError(where + ": cannot open the file");
    const uint64_t size = fs::file_size(file);
    char first[8] = {};
    in.read(first, 8);
    const uint64_t hl =
        safetensors_header_length(std::string_view(first, static_cast<size_t>(in.gcount())), size, where);
    std::string h(hl, '\0');
    in.read(h.data(), static_cast<std::streamsize>(hl));
    return parse_safetensors_header(h, size - 8 - hl, where);
}

void write_imported_run(const fs::path& tmp, const RunConfig& cfg,
                        const std::vector<std::pair<std::string, torch::Tensor>>& weights, const Tokenizer& tok,
                        const std::string& name, const fs::path& from, const std::string& notes) {
    write_file_atomic(tmp / "config.json", nlohmann::json(cfg).dump(2));
    fs::create_directories(tmp / "tokenizer");
    tok.save(tmp / "tokenizer");
    CheckpointState state;
    state.config = cfg;
    save_checkpoint(tmp, weights, nullptr, state);
    write_file_atomic(tmp / "checkpoints" / "best.json", best_json(0, std::nan("")));
    RunInfo info;
    info.name = name.empty() ? "imported from " + fs::absolute(from).filename().string() : name;
    info.notes = notes;
    write_run_info(tmp, info);
}

}  // namespace twb::nn
