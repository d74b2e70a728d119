// JSON-lines files of records (RUN/samples.jsonl, RUN/chat.jsonl): appended safely, read back leniently.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace twb {

/// The local time as "2026-11-27T12:34:56": a record's "time" field.
std::string local_time_iso();

/// Appends the records to the file, one a line, under an exclusive lock of its folder (concurrent
/// appenders lose nothing), through a temporary file renamed over it (a file whose
/// last line lacks its newline gets one first). Invalid UTF-8 in a string (a byte tokenizer's output cut
/// mid-character) is replaced, never thrown.
void append_json_lines(const std::filesystem::path& path, const std::vector<nlohmann::json>& records);

/// Calls `read` with every line of the file that is a JSON object, in order. Other lines (edited by hand,
/// torn) are skipped, and so is a line whose `read` throws (a field of the wrong type, an unknown value).
/// A missing file has no lines.
void for_each_json_object(const std::filesystem::path& path, const std::function<void(const nlohmann::json&)>& read);

}  // namespace twb
