// Text cleaning applied while a corpus is read: each option on or off, each one's effect counted.
// Works line by line with a little per-document state, so a corpus of any size streams through.
// Does not tokenize and does not decide document boundaries (corpus.cpp does).
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace twb {

/// Every cleaning option; all off by default so preparation is lossless unless asked otherwise.
struct CleaningOptions {
    bool nfkc = false;                 // Unicode NFKC normalisation ("ﬁ" -> "fi", full-width -> ASCII)
    bool normalize_whitespace = false; // CRLF -> LF, runs of spaces/tabs -> one space, trailing spaces cut
    bool transliterate_ascii = false;  // "Senjō café “x”" -> "Senjo cafe \"x\"" (ICU Any-Latin; Latin-ASCII)
    bool strip_outside = false;        // drop every character not in allowed_chars
    std::string allowed_chars;         // used by strip_outside; empty = printable ASCII plus newline and tab
    bool strip_gutenberg = false;      // drop Project Gutenberg header and footer
    bool lowercase = false;            // Unicode-aware lowercasing
    bool drop_empty_lines = false;     // remove lines that are empty after the steps above
    bool drop_duplicate_lines = false; // keep only the first occurrence of each line (whole corpus)

    /// Option names as the CLI spells them ("nfkc", "whitespace", "ascii", "strip", "gutenberg",
    /// "lowercase", "drop-empty", "dedupe"); throws ConfigError naming an unknown one.
    void enable(const std::string& name);
    static std::vector<std::string> names();
    bool any() const;
};
void to_json(nlohmann::json& j, const CleaningOptions& o);
void from_json(const nlohmann::json& j, CleaningOptions& o);

/// What one option did over the whole corpus.
struct CleaningEffect {
    std::string option;
    uint64_t lines_changed = 0;
    uint64_t lines_removed = 0;
    int64_t chars_removed = 0;  // code points before minus after (negative when text grew)
};

struct CleaningReport {
    std::vector<CleaningEffect> effects;  // one per enabled option, in the order applied
    uint64_t lines_in = 0;
    uint64_t lines_out = 0;
};
void to_json(nlohmann::json& j, const CleaningReport& r);

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

} // namespace twb
