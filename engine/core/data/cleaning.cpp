// Cleaning steps, in a fixed order: Gutenberg cut, NFKC, transliteration, strip, lowercase,
// whitespace, empty-line drop, dedupe. ICU does the Unicode work.
#include "core/data/cleaning.h"

#include "twb/errors.h"
#include "twb/text.h"

#include <unicode/normalizer2.h>
#include <unicode/translit.h>
#include <unicode/unistr.h>

#include <functional>

namespace twb {

namespace {
enum Step { kGutenberg, kNfkc, kAscii, kStrip, kLower, kWhitespace, kEmpty, kDedupe, kStepCount };
const char* kStepNames[kStepCount] = {"gutenberg", "nfkc",       "ascii",      "strip",
                                      "lowercase", "whitespace", "drop-empty", "dedupe"};

uint64_t fnv1a(std::string_view s) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

bool starts_with(std::string_view s, std::string_view p) {
    return s.substr(0, p.size()) == p;
}
}  // namespace

void CleaningOptions::enable(const std::string& name) {
    if (name == "nfkc")
        nfkc = true;
    else if (name == "whitespace")
        normalize_whitespace = true;
    else if (name == "ascii")
        transliterate_ascii = true;
    else if (name == "strip")
        strip_outside = true;
    else if (name == "gutenberg")
        strip_gutenberg = true;
    else if (name == "lowercase")
        lowercase = true;
    else if (name == "drop-empty")
        drop_empty_lines = true;
    else if (name == "dedupe")
        drop_duplicate_lines = true;
    else {
        std::string all;
        for (auto& n : names())
            all += (all.empty() ? "" : ", ") + n;
        throw ConfigError("unknown cleaning option '" + name + "'; choose from: " + all);
    }
}

std::vector<std::string> CleaningOptions::names() {
    return {"nfkc", "whitespace", "ascii", "strip", "gutenberg", "lowercase", "drop-empty", "dedupe"};
}

bool CleaningOptions::any() const {
    return nfkc || normalize_whitespace || transliterate_ascii || strip_outside || strip_gutenberg || lowercase ||
           drop_empty_lines || drop_duplicate_lines;
}

void to_json(nlohmann::json& j, const CleaningOptions& o) {
    j = {{"nfkc", o.nfkc},
         {"normalize_whitespace", o.normalize_whitespace},
         {"transliterate_ascii", o.transliterate_ascii},
         {"strip_outside", o.strip_outside},
         {"allowed_chars", o.allowed_chars},
         {"strip_gutenberg", o.strip_gutenberg},
         {"lowercase", o.lowercase},
         {"drop_empty_lines", o.drop_empty_lines},
         {"drop_duplicate_lines", o.drop_duplicate_lines}};
}

void from_json(const nlohmann::json& j, CleaningOptions& o) {
    CleaningOptions d;
    o.nfkc = j.value("nfkc", d.nfkc);
    o.normalize_whitespace = j.value("normalize_whitespace", d.normalize_whitespace);
    o.transliterate_ascii = j.value("transliterate_ascii", d.transliterate_ascii);
    o.strip_outside = j.value("strip_outside", d.strip_outside);
    o.allowed_chars = j.value("allowed_chars", d.allowed_chars);
    o.strip_gutenberg = j.value("strip_gutenberg", d.strip_gutenberg);
    o.lowercase = j.value("lowercase", d.lowercase);
    o.drop_empty_lines = j.value("drop_empty_lines", d.drop_empty_lines);
    o.drop_duplicate_lines = j.value("drop_duplicate_lines", d.drop_duplicate_lines);
}

void to_json(nlohmann::json& j, const CleaningReport& r) {
    j = nlohmann::json{{"lines_in", r.lines_in}, {"lines_out", r.lines_out}, {"effects", nlohmann::json::array()}};
    for (auto& e : r.effects)
        j["effects"].push_back({{"option", e.option},
                                {"lines_changed", e.lines_changed},
                                {"lines_removed", e.lines_removed},
                                {"chars_removed", e.chars_removed}});
}

struct Cleaner::Icu {
    const icu::Normalizer2* nfkc = nullptr;
    std::unique_ptr<icu::Transliterator> ascii;
    std::unordered_set<uint32_t> allowed;
};

Cleaner::Cleaner(CleaningOptions opts) : m_opts(std::move(opts)), m_icu(std::make_unique<Icu>()) {
    const bool on[kStepCount] = {m_opts.strip_gutenberg,     m_opts.nfkc,
                                 m_opts.transliterate_ascii, m_opts.strip_outside,
                                 m_opts.lowercase,           m_opts.normalize_whitespace,
                                 m_opts.drop_empty_lines,    m_opts.drop_duplicate_lines};
    for (int s = 0; s < kStepCount; ++s) {
        m_effectIndex[s] = SIZE_MAX;
        if (on[s]) {
            m_effectIndex[s] = m_report.effects.size();
            m_report.effects.push_back({kStepNames[s]});
        }
    }
    UErrorCode err = U_ZERO_ERROR;
    if (m_opts.nfkc) {
        m_icu->nfkc = icu::Normalizer2::getNFKCInstance(err);
        if (U_FAILURE(err))
            throw Error(std::string("ICU NFKC normaliser unavailable: ") + u_errorName(err));
    }
    if (m_opts.transliterate_ascii) {
        m_icu->ascii.reset(icu::Transliterator::createInstance("Any-Latin; Latin-ASCII", UTRANS_FORWARD, err));
        if (U_FAILURE(err) || !m_icu->ascii)
            throw Error(std::string("ICU transliterator unavailable: ") + u_errorName(err));
    }
    if (m_opts.strip_outside) {
        std::string set = m_opts.allowed_chars;
        if (set.empty())
            for (int c = 0x20; c < 0x7F; ++c)
                set += static_cast<char>(c);
        set += "\n\t";
        for (size_t i = 0; i < set.size();) {
            size_t n = 0;
            m_icu->allowed.insert(utf8_decode_at(set, i, &n));
            i += n;
        }
    }
}

Cleaner::~Cleaner() = default;

namespace {
// The line steps, each a whole transformation of one line (the Cleaner counts what each changed).
void nfkc_line(std::string& l, const icu::Normalizer2& nfkc) {
    UErrorCode err = U_ZERO_ERROR;
    icu::UnicodeString u = icu::UnicodeString::fromUTF8(l);
    if (nfkc.isNormalized(u, err))
        return;
    err = U_ZERO_ERROR;
    icu::UnicodeString n = nfkc.normalize(u, err);
    if (U_SUCCESS(err)) {
        l.clear();
        n.toUTF8String(l);
    }
}

void ascii_line(std::string& l, const icu::Transliterator& ascii) {
    bool isAscii = true;
    for (unsigned char c : l)
        isAscii &= c < 0x80;
    if (isAscii)
        return;
    icu::UnicodeString u = icu::UnicodeString::fromUTF8(l);
    ascii.transliterate(u);
    l.clear();
    u.toUTF8String(l);
}

void strip_line(std::string& l, const std::unordered_set<uint32_t>& allowed) {
    std::string out;
    for (size_t i = 0; i < l.size();) {
        size_t n = 0;
        const uint32_t cp = utf8_decode_at(l, i, &n);
        if (allowed.count(cp))
            out.append(l, i, n);
        i += n;
    }
    l.swap(out);
}

void lower_line(std::string& l) {
    icu::UnicodeString u = icu::UnicodeString::fromUTF8(l);
    u.toLower();
    l.clear();
    u.toUTF8String(l);
}

void whitespace_line(std::string& l) {
    std::string out;
    bool space = false;
    for (size_t i = 0; i < l.size();) {
        size_t n = 0;
        const uint32_t cp = utf8_decode_at(l, i, &n);
        const bool ws = cp == ' ' || cp == '\t' || cp == '\r' || cp == 0xA0 || cp == 0x2009 || cp == 0x202F ||
                        cp == 0x3000 || (cp >= 0x2000 && cp <= 0x200A);
        if (ws) {
            space = true;
        } else {
            if (space && !out.empty())
                out += ' ';
            space = false;
            out.append(l, i, n);
        }
        i += n;
    }
    l.swap(out);
}
}  // namespace

bool Cleaner::process_line(std::string& line) {
    auto step = [&](int s, const std::function<void(std::string&)>& fn) {
        if (m_effectIndex[s] == SIZE_MAX)
            return;
        const size_t before = code_points(line);
        std::string copy = line;
        fn(line);
        if (line != copy) {
            auto& e = m_report.effects[m_effectIndex[s]];
            ++e.lines_changed;
            e.chars_removed += static_cast<int64_t>(before) - static_cast<int64_t>(code_points(line));
        }
    };
    step(kNfkc, [&](std::string& l) { nfkc_line(l, *m_icu->nfkc); });
    step(kAscii, [&](std::string& l) { ascii_line(l, *m_icu->ascii); });
    step(kStrip, [&](std::string& l) { strip_line(l, m_icu->allowed); });
    step(kLower, lower_line);
    step(kWhitespace, whitespace_line);
    if (m_effectIndex[kEmpty] != SIZE_MAX && line.empty()) {
        auto& e = m_report.effects[m_effectIndex[kEmpty]];
        ++e.lines_removed;
        e.chars_removed += 1;  // its line break: a dropped line is one character fewer, as dedupe counts it
        return false;
    }
    if (m_effectIndex[kDedupe] != SIZE_MAX) {
        if (!m_seen.insert(fnv1a(line)).second) {
            auto& e = m_report.effects[m_effectIndex[kDedupe]];
            ++e.lines_removed;
            e.chars_removed += static_cast<int64_t>(code_points(line)) + 1;
            return false;
        }
    }
    return true;
}

void Cleaner::emit_line(std::string& line, bool had_newline, std::string& out) {
    ++m_report.lines_in;
    if (m_opts.normalize_whitespace && !line.empty() && line.back() == '\r')
        line.pop_back();
    if (!process_line(line))
        return;
    ++m_report.lines_out;
    out += line;
    if (had_newline)
        out += '\n';
}

void Cleaner::feed(std::string_view text, std::string& out) {
    if (!m_opts.any()) {  // fast path: lossless pass-through
        for (char c : text)
            m_report.lines_in += c == '\n';
        m_report.lines_out = m_report.lines_in;
        out.append(text);
        return;
    }
    size_t pos = 0;
    while (pos < text.size()) {
        size_t nl = text.find('\n', pos);
        const bool had_newline = nl != std::string_view::npos;
        if (!had_newline)
            nl = text.size();
        std::string line(text.substr(pos, nl - pos));
        pos = nl + 1;
        if (!m_opts.strip_gutenberg) {
            emit_line(line, had_newline, out);
            continue;
        }
        auto& eff = m_report.effects[m_effectIndex[kGutenberg]];
        const bool start = starts_with(line, "*** START OF") || starts_with(line, "***START OF");
        const bool end = starts_with(line, "*** END OF") || starts_with(line, "***END OF");
        if (m_gut == Gut::Footer) {
            ++eff.lines_removed;
            eff.chars_removed += static_cast<int64_t>(code_points(line)) + 1;
            ++m_report.lines_in;
            continue;
        }
        if (m_gut == Gut::Looking) {
            if (start) {
                // Everything before the START marker is the header.
                for (auto& [l, nlf] : m_lookahead) {
                    ++eff.lines_removed;
                    eff.chars_removed += static_cast<int64_t>(code_points(l)) + 1;
                    ++m_report.lines_in;
                }
                m_lookahead.clear();
                ++eff.lines_removed;
                eff.chars_removed += static_cast<int64_t>(code_points(line)) + 1;  // the marker line
                ++m_report.lines_in;
                m_gut = Gut::Body;
                continue;
            }
            m_lookahead.emplace_back(line, had_newline);
            if (m_lookahead.size() > 2000) {  // no header within reach: keep it all
                m_gut = Gut::Body;
                for (auto& [l, nlf] : m_lookahead)
                    emit_line(l, nlf, out);
                m_lookahead.clear();
            }
            continue;
        }
        if (end) {
            m_gut = Gut::Footer;
            ++eff.lines_removed;
            eff.chars_removed += static_cast<int64_t>(code_points(line)) + 1;
            ++m_report.lines_in;
            continue;
        }
        emit_line(line, had_newline, out);
    }
}

void Cleaner::end_document(std::string& out) {
    for (auto& [l, nlf] : m_lookahead)
        emit_line(l, nlf, out);
    m_lookahead.clear();
    m_gut = Gut::Looking;
}

std::string Cleaner::clean(std::string_view document) {
    std::string out;
    feed(document, out);
    end_document(out);
    return out;
}

}  // namespace twb
