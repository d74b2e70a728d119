// JSON-lines record files: appending through a temporary file, reading line by line and skipping bad lines.
#include "core/util/json_lines.h"

#include "twb/text.h"

#include <ctime>
#include <exception>
#include <fstream>

namespace twb {

std::string local_time_iso() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    return buf;
}

void append_json_lines(const std::filesystem::path& path, const std::vector<nlohmann::json>& records) {
    std::string text;
    if (std::filesystem::exists(path)) {
        text = read_file(path);
        if (!text.empty() && text.back() != '\n')
            text += '\n';
    }
    for (const auto& r : records)
        text += r.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    write_file_atomic(path, text);
}

void for_each_json_object(const std::filesystem::path& path, const std::function<void(const nlohmann::json&)>& read) {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
        const auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (!j.is_object())
            continue;
        try {
            read(j);
        } catch (const std::exception&) {
            continue;
        }
    }
}

}  // namespace twb
