// check_output_file: the rule for file outputs (twb/output_paths.h).
#include "twb/output_paths.h"

#include "twb/errors.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace twb {

namespace fs = std::filesystem;

namespace {
fs::path canonical_or_absolute(const fs::path& p) {
    std::error_code ec;
    fs::path c = fs::weakly_canonical(fs::absolute(p, ec), ec);
    return ec ? fs::absolute(p).lexically_normal() : c;
}

bool inside_or_same(const fs::path& p, const fs::path& folder) {
    const auto rel = p.lexically_relative(folder);
    return !rel.empty() && *rel.begin() != "..";
}
}  // namespace

void check_output_place(const fs::path& out, const std::vector<fs::path>& inputs) {
    const fs::path target = canonical_or_absolute(out);
    for (const auto& in : inputs) {
        if (in.empty())
            continue;
        const fs::path source = canonical_or_absolute(in);
        if (target == source)
            throw InputError(out.string() + " is " + in.string() +
                             ", which this command reads; write the output to another file");
        if (inside_or_same(target, source))
            throw InputError(out.string() + " lies inside " + in.string() +
                             ", which this command reads; write the output outside it");
    }
    std::error_code ec;
    for (fs::path dir = target.parent_path(); !dir.empty(); dir = dir.parent_path()) {
        if (fs::is_directory(dir / "checkpoints", ec) && fs::is_regular_file(dir / "config.json", ec))
            throw InputError(out.string() + " lies inside the run folder " + dir.string() +
                             ", whose files are the run's; write the output outside it");
        if (fs::is_regular_file(dir / "meta.json", ec) && fs::is_regular_file(dir / "train.bin", ec))
            throw InputError(out.string() + " lies inside the prepared dataset " + dir.string() +
                             ", whose files are the dataset's; write the output outside it");
        if (dir == dir.parent_path())
            break;
    }
}

void check_output_file(const fs::path& out, const std::vector<fs::path>& inputs, bool replace) {
    if (out.empty())
        throw InputError("no output file given");
    check_output_place(out, inputs);
    const fs::path target = canonical_or_absolute(out);
    std::error_code ec;
    // The output is written beside its name and renamed over it: a link would be replaced by a file (its
    // target untouched), a device such as /dev/null by a regular file. Both are refused, --force or not.
    const fs::file_status own = fs::symlink_status(out, ec);
    if (fs::is_symlink(own))
        throw InputError(out.string() + " is a symbolic link; name the file itself (" +
                         fs::read_symlink(out, ec).string() + ") or another file");
    const fs::file_status st = fs::status(target, ec);
    if (fs::is_directory(st))
        throw InputError(out.string() + " is a folder; give a file name (e.g. " + (out / "out").string() + ")");
    if (fs::exists(st) && !fs::is_regular_file(st))
        throw InputError(out.string() +
                         " is not a regular file (a device, pipe or socket); twb writes its outputs as files: "
                         "name a file, or leave the option out");
    if (fs::exists(st) && !replace)
        throw InputError(out.string() + " already exists; choose another name or replace it (--force)");
    // Checked now, so a long command (lr-find's steps, a model's load) does not fail only at the end.
    const fs::path folder = target.parent_path();
    if (!fs::is_directory(folder, ec))
        throw InputError(out.string() + ": the folder " + folder.string() +
                         (fs::exists(folder, ec) ? " is a file" : " does not exist") + "; write the output elsewhere");
    if (::access(folder.c_str(), W_OK) != 0)
        throw IoError(out.string() + ": cannot write in " + folder.string() + " (" + std::strerror(errno) +
                      "); write the output elsewhere");
}

void require_name_room(const fs::path& path, size_t extra) {
    constexpr size_t kNameMax = 255;
    const size_t n = path.filename().string().size();
    if (n + extra > kNameMax)
        throw InputError(path.string() + ": a name of " + std::to_string(n) +
                         " bytes leaves no room for the temporary written beside it first (at most " +
                         std::to_string(kNameMax - std::min(extra, kNameMax)) + " bytes); choose a shorter name");
}

}  // namespace twb
