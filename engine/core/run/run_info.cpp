// RUN/run.json (name, notes, created), the run lock's holder for front ends, and deleting a run whole.
#include "twb/run_info.h"

#include "core/run/run_lock.h"
#include "twb/errors.h"
#include "twb/text.h"

#include <nlohmann/json.hpp>

#include <unistd.h>
#include <chrono>
#include <ctime>
#include <memory>

namespace twb {

namespace fs = std::filesystem;

namespace {
constexpr const char* kFile = "run.json";
constexpr size_t kMaxNameLength = 200;  // characters

void require_run(const fs::path& run_dir) {
    if (!fs::exists(run_dir / "config.json"))
        throw InputError(run_dir.string() + ": not a run folder (no config.json)");
}

std::string iso_utc(std::time_t t) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

/// config.json's modification time: when the run was made, for runs without a run.json.
std::string config_time(const fs::path& run_dir) {
    std::error_code ec;
    const auto ft = fs::last_write_time(run_dir / "config.json", ec);
    if (ec)
        return {};
    const auto sys = std::chrono::time_point_cast<std::chrono::system_clock::duration>(
        ft - fs::file_time_type::clock::now() + std::chrono::system_clock::now());
    return iso_utc(std::chrono::system_clock::to_time_t(sys));
}

std::string trimmed(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r\n");
    if (a == std::string::npos)
        return {};
    const auto b = s.find_last_not_of(" \t\r\n");
    return s.substr(a, b - a + 1);
}
}  // namespace

RunInfo read_run_info(const fs::path& run_dir) {
    require_run(run_dir);
    RunInfo info;
    if (fs::exists(run_dir / kFile)) {
        // A hand-broken label file only loses the label, but says so (write_run_info refuses to replace it).
        try {
            const auto j = nlohmann::json::parse(read_file(run_dir / kFile));
            if (!j.is_object())
                info.damage = "not a JSON object";
            for (const char* key : {"name", "notes", "created"})
                if (info.damage.empty() && j.contains(key) && !j.at(key).is_string())
                    info.damage = std::string("'") + key + "' is not text";
            if (info.damage.empty()) {
                info.name = j.value("name", std::string());
                info.notes = j.value("notes", std::string());
                info.created = j.value("created", std::string());
            }
        } catch (const nlohmann::json::exception&) {
            info.damage = "not valid JSON";
        } catch (const std::exception& e) {
            info.damage = e.what();
        }
    }
    if (info.created.empty())
        info.created = config_time(run_dir);
    return info;
}

void write_run_info(const fs::path& run_dir, const RunInfo& info) {
    require_run(run_dir);
    if (const std::string damage = read_run_info(run_dir).damage; !damage.empty())
        throw InputError((run_dir / kFile).string() + " is damaged (" + damage +
                         "), so it is not rewritten: fix it by hand or delete it (it holds only the run's name, "
                         "notes and creation date), then label the run again");
    // A name is a table's cell and a legend's entry: one line of text, of a length a table can show.
    const std::string name = trimmed(info.name);
    if (find_invalid_utf8(name) != std::string::npos || find_invalid_utf8(info.notes) != std::string::npos)
        throw InputError("a run's name and notes are UTF-8 text; this one holds other bytes");
    if (name.find_first_of("\n\r") != std::string::npos)
        throw InputError("a run's name is one line; put the rest in its notes");
    if (code_points(name) > kMaxNameLength)
        throw InputError("a run's name is at most " + std::to_string(kMaxNameLength) + " characters (this one has " +
                         std::to_string(code_points(name)) + "); put the rest in its notes");
    nlohmann::json j;
    j["format_version"] = 1;
    j["name"] = name;
    j["notes"] = trimmed(info.notes);
    j["created"] = info.created.empty() ? read_run_info(run_dir).created : info.created;
    write_file_atomic(run_dir / kFile, j.dump(2) + "\n");
}

void pin_created_time(const fs::path& run_dir) {
    if (fs::exists(run_dir / "config.json") && !fs::exists(run_dir / kFile))
        write_run_info(run_dir, read_run_info(run_dir));
}

std::string run_holder(const fs::path& run_dir) {
    return RunLock::holder(run_dir);
}

void delete_run(const fs::path& run_dir) {
    require_run(run_dir);
    fs::path dir = fs::absolute(run_dir).lexically_normal();
    if (dir.filename().empty())
        dir = dir.parent_path();
    const fs::path away =
        dir.parent_path() / ("." + dir.filename().string() + ".deleting" + std::to_string(::getpid()));
    std::error_code ec;
    {
        // Held while renaming, so no trainer starts writing the run between the check and the rename.
        std::unique_ptr<RunLock> lock;
        try {
            lock = std::make_unique<RunLock>(dir);
        } catch (const InputError&) {
            throw InputError(dir.string() + " is being written by " + run_holder(dir) + "; stop its training first");
        }
        fs::rename(dir, away, ec);
    }
    if (ec)
        throw IoError(dir.string() + ": cannot delete the run (" + ec.message() + ")");
    fs::remove_all(away, ec);
    if (ec)
        throw IoError(away.string() + ": the run was taken out of the workspace but not all of it could be removed (" +
                      ec.message() + "); delete that folder by hand");
}

}  // namespace twb
