// What people say about a run, and what a front end asks of a run folder without torch: the run's
// name, notes and creation date (RUN/run.json), whether a trainer is writing it now (the run lock), and
// deleting it whole. The trainer never reads run.json; a run without one is simply unnamed. Public API.
#pragma once
#include <filesystem>
#include <string>

namespace twb {

/// RUN/run.json.
struct RunInfo {
    std::string name;     // a name people give the run ("fortunes, 4 heads"); "" = none (shown by folder)
    std::string notes;    // free text, several lines allowed
    std::string created;  // UTC, ISO 8601 ("2026-11-24T01:02:03Z"); when run.json lacks it, config.json's time
    std::string damage;   // "" or why run.json could not be read ("not valid JSON", "'name' is not text")
};

/// The run's run.json, or an empty name and notes when it has none. A damaged run.json reads as none too
/// (it only labels the run), with damage saying what is wrong. Throws InputError when run_dir is not a run
/// (no config.json).
RunInfo read_run_info(const std::filesystem::path& run_dir);

/// Writes RUN/run.json atomically (name and notes trimmed of surrounding white space; a name of more than
/// one line or 200 characters, or either of other bytes than UTF-8, is refused; created kept from
/// the run when info.created is empty). Throws InputError when run_dir is not a run or its run.json is
/// damaged (rewriting it would lose what it holds; the message says to fix or delete it), IoError when it
/// cannot be written.
void write_run_info(const std::filesystem::path& run_dir, const RunInfo& info);

/// Keeps a run's creation time (config.json's, while it has no run.json) in a new run.json, for a trainer
/// about to write config.json again (a resume, Train more): the time read later was the rewrite's. Does
/// nothing when run.json exists (damaged or not) or run_dir has no config.json.
void pin_created_time(const std::filesystem::path& run_dir);

/// "process 1234 (twb)" while a trainer (in any process) holds the run's lock, "" otherwise.
std::string run_holder(const std::filesystem::path& run_dir);

/// Deletes a run folder, never half: it is renamed away first (to a hidden sibling), then removed, so
/// an interruption leaves either the whole run or no run. Refuses (InputError) while a trainer holds it
/// or when the folder is not a run.
void delete_run(const std::filesystem::path& run_dir);

}  // namespace twb
