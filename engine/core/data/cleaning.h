// Text cleaning applied while a corpus is read: each option on or off, each one's effect counted.
// Works line by line with a little per-document state, so a corpus of any size streams through.
// Does not tokenize and does not decide document boundaries (corpus.cpp does).
#pragma once
#include "twb/dataset.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace twb {

/// Stateful cleaner. Not thread-safe; make one per thread.
class Cleaner {
public:
    explicit Cleaner(CleaningOptions opts);
    ~Cleaner();
    Cleaner(const Cleaner&) = delete;
    Cleaner& operator=(const Cleaner&) = delete;

    /// Cleans text made of whole lines (the last may lack its newline) and appends the result to out.
    void feed(std::string_view text, std::string& out);
    /// Ends the current document (flushes Gutenberg look-ahead, resets per-document state).
    void end_document(std::string& out);
    /// Convenience: a whole document in, cleaned document out.
    std::string clean(std::string_view document);

    const CleaningReport& report() const { return m_report; }
    const CleaningOptions& options() const { return m_opts; }

private:
    bool process_line(std::string& line);  // false = drop the line
    void emit_line(std::string& line, bool had_newline, std::string& out);

    CleaningOptions m_opts;
    CleaningReport m_report;
    struct Icu;
    std::unique_ptr<Icu> m_icu;
    std::unordered_set<uint64_t> m_seen;  // hashes of lines already emitted (dedupe)
    // Gutenberg state per document.
    enum class Gut { Looking, Body, Footer } m_gut = Gut::Looking;
    std::vector<std::pair<std::string, bool>> m_lookahead;
    size_t m_effectIndex[9] = {};
};

}  // namespace twb
