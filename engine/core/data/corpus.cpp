// Corpus readers, one per input format, all feeding the same document sink.
#include "core/data/corpus.h"
#include "core/data/cleaning.h"

#include "twb/errors.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <memory>
#include <set>

namespace twb {

namespace fs = std::filesystem;

InputFormat parse_input_format(const std::string& name) {
    if (name == "text" || name == "txt")
        return InputFormat::Text;
    if (name == "jsonl")
        return InputFormat::Jsonl;
    if (name == "csv")
        return InputFormat::Csv;
    if (name == "tsv")
        return InputFormat::Tsv;
    if (name == "parallel")
        return InputFormat::Parallel;
    if (name == "records" || name == "fortune")
        return InputFormat::Records;
    throw ConfigError("unknown input format '" + name + "'; choose text, jsonl, csv, tsv, parallel or records");
}

std::string to_string(InputFormat f) {
    switch (f) {
        case InputFormat::Text:
            return "text";
        case InputFormat::Jsonl:
            return "jsonl";
        case InputFormat::Csv:
            return "csv";
        case InputFormat::Tsv:
            return "tsv";
        case InputFormat::Parallel:
            return "parallel";
        case InputFormat::Records:
            return "records";
    }
    return "text";
}

void to_json(nlohmann::json& j, const CorpusSpec& s) {
    j = {{"format", to_string(s.format)}, {"inputs", s.inputs}};
    if (s.format == InputFormat::Jsonl)
        j["field"] = s.field;
    if (s.format == InputFormat::Csv || s.format == InputFormat::Tsv)
        j["column"] = s.column;
    if (s.format == InputFormat::Records)
        j["record_separator"] = s.record_separator;
    if (s.format == InputFormat::Parallel)
        j["pair_separator"] = s.pair_separator;
    j["replace_invalid_utf8"] = s.replace_invalid_utf8;
}

std::vector<fs::path> expand_inputs(const std::vector<std::string>& inputs) {
    if (inputs.empty())
        throw InputError("no input given; name at least one file or folder (--input PATH)");
    std::vector<fs::path> out;
    for (const auto& in : inputs) {
        const fs::path p(in);
        std::error_code ec;
        const fs::file_status st = fs::status(p, ec);
        if (ec == std::errc::too_many_symbolic_link_levels)
            throw InputError(in + ": a loop of symbolic links; point it at a file or folder");
        if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
            throw InputError(in + ": cannot read it (" + ec.message() + ")");
        if (!fs::exists(st))
            throw InputError(in + ": no such file or folder");
        if (!fs::is_directory(st) && !fs::is_regular_file(st))
            throw InputError(in + " is not a regular file (a FIFO, a device or a socket); give a file or folder");
        if (fs::is_directory(p, ec)) {
            std::vector<fs::path> files;
            for (auto it = fs::recursive_directory_iterator(p, ec); it != fs::recursive_directory_iterator();
                 it.increment(ec)) {
                const auto name = it->path().filename().string();
                if (!name.empty() && name[0] == '.') {
                    if (it->is_directory())
                        it.disable_recursion_pending();
                    continue;
                }
                if (it->is_regular_file())
                    files.push_back(it->path());
            }
            std::sort(files.begin(), files.end());
            if (files.empty())
                throw InputError(in + ": the folder holds no files");
            for (auto& f : files)
                if (fs::file_size(f) > 0)
                    out.push_back(f);
        } else {
            if (fs::file_size(p, ec) == 0)
                throw InputError(in + (p.lexically_normal().string().rfind("/proc/", 0) == 0 ||
                                               p.lexically_normal().string().rfind("/sys/", 0) == 0
                                           ? ": a system file whose size reads as 0; copy it to a regular file first"
                                           : ": the file is empty"));
            out.push_back(p);
        }
    }
    if (out.empty())
        throw InputError("every input is empty; nothing to read");
    // A file named on its own and again inside a folder given too (or by two spellings) is read once: read
    // twice, its text could land in the training and validation splits both.
    std::vector<fs::path> once;
    std::set<std::string> seen;
    for (auto& f : out) {
        std::error_code ec;
        const fs::path real = fs::weakly_canonical(f, ec);
        if (seen.insert(ec ? fs::absolute(f).lexically_normal().string() : real.string()).second)
            once.push_back(std::move(f));
    }
    return once;
}

namespace {

/// "UTF-16LE"/"UTF-16BE"/"UTF-32LE"/"UTF-32BE" when the start of a file is in one of them (by its byte
/// order mark, or for UTF-16 without one by the zero byte in every other position), else nullptr.
const char* utf16_or_32(std::string_view h) {
    auto at = [&](size_t i) { return static_cast<unsigned char>(h[i]); };
    if (h.size() >= 4 && at(0) == 0xFF && at(1) == 0xFE && at(2) == 0 && at(3) == 0)
        return "UTF-32LE";
    if (h.size() >= 4 && at(0) == 0 && at(1) == 0 && at(2) == 0xFE && at(3) == 0xFF)
        return "UTF-32BE";
    if (h.size() >= 2 && at(0) == 0xFF && at(1) == 0xFE)
        return "UTF-16LE";
    if (h.size() >= 2 && at(0) == 0xFE && at(1) == 0xFF)
        return "UTF-16BE";
    size_t zeroEven = 0, zeroOdd = 0;
    for (size_t i = 0; i + 1 < h.size(); i += 2) {
        zeroEven += at(i) == 0;
        zeroOdd += at(i + 1) == 0;
    }
    const size_t pairs = h.size() / 2;
    if (pairs >= 2 && zeroOdd * 10 >= pairs * 8 && zeroEven == 0)
        return "UTF-16LE";
    if (pairs >= 2 && zeroEven * 10 >= pairs * 8 && zeroOdd == 0)
        return "UTF-16BE";
    return nullptr;
}

/// What is wrong with a file whose first bytes are `head`: in a word ("UTF-16LE text") and in full, with what to do
/// (": the text is UTF-16LE; convert it ..."); both "" when they can be UTF-8 text. `skip` is set to the length of
/// a UTF-8 byte order mark (not text) when there is one.
struct HeadProblem {
    std::string brief, full;
};
HeadProblem head_problem(std::string_view head, size_t& skip) {
    skip = 0;
    if (const char* enc = utf16_or_32(head))
        return {std::string(enc) + " text, iconv -f " + enc + " -t UTF-8 converts it",
                std::string(": the text is ") + enc + "; convert it to UTF-8 with iconv (iconv -f " + enc +
                    " -t UTF-8 FILE > FILE.utf8)"};
    if (head.substr(0, 3) == "\xEF\xBB\xBF")
        skip = 3;
    if (looks_binary(head.substr(skip)))
        return {"binary",
                ": looks like a binary file, not text (NUL or control bytes near the start); give a UTF-8 "
                "text file"};
    return {};
}

/// Every input whose start is not UTF-8 text, named at once: read file by file, a folder of 40 files with three
/// images in it named one, then the next once that one was removed. Only the first 8 KB of each are read here.
void check_starts(const std::vector<fs::path>& files) {
    std::vector<std::pair<fs::path, HeadProblem>> bad;
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        char head[8192];
        in.read(head, sizeof head);
        size_t skip = 0;
        if (auto why = head_problem(std::string_view(head, static_cast<size_t>(in.gcount())), skip); !why.full.empty())
            bad.emplace_back(f, std::move(why));
    }
    if (bad.size() == 1)
        throw InputError(bad.front().first.string() + bad.front().second.full);
    if (bad.size() > 1) {
        std::string msg = std::to_string(bad.size()) + " of the " + std::to_string(files.size()) +
                          " input files are not UTF-8 text: ";
        constexpr size_t kNamed = 8;
        for (size_t i = 0; i < std::min(bad.size(), kNamed); ++i)
            msg += (i ? ", " : "") + bad[i].first.string() + " (" + bad[i].second.brief + ")";
        if (bad.size() > kNamed)
            msg += " and " + std::to_string(bad.size() - kNamed) + " more";
        // A folder given as the input cannot lose single files in the GUI's list: they leave the folder
        throw InputError(msg +
                         "; take them out of the inputs (or out of the folder they are in), or convert them to "
                         "UTF-8 text");
    }
}

/// Reads a file in validated UTF-8 blocks that end on a line boundary; checks binary and encoding.
class FileReader {
public:
    FileReader(const fs::path& path, bool replace, CorpusReadResult& result)
        : m_path(path), m_replace(replace), m_result(result), m_in(path, std::ios::binary) {
        if (!m_in)
            throw InputError(path.string() + ": cannot open the file (check permissions)");
        // One buffer for the whole file, as large as it (plus one byte, to see its end at once) from 64 KB
        // to 4 MB, and left uninitialised: a fresh zeroed 4 MB vector per block cost a small file ~1 ms of
        // page faults per read.
        std::error_code ec;
        const uintmax_t size = fs::file_size(path, ec);
        constexpr size_t kLeast = 64 << 10, kMost = 4 << 20;
        m_bufSize = ec ? kMost : static_cast<size_t>(std::clamp<uintmax_t>(size + 1, kLeast, kMost));
        m_buf.reset(new char[m_bufSize]);
    }
    /// Next block of whole lines (the last block may end without a newline); false at end.
    bool next(std::string& block) {
        block.clear();
        while (true) {
            if (m_eof) {
                if (m_carry.empty())
                    return false;
                block.swap(m_carry);
                check(block);
                return true;
            }
            char* const buf = m_buf.get();
            m_in.read(buf, static_cast<std::streamsize>(m_bufSize));
            const size_t got = static_cast<size_t>(m_in.gcount());
            if (got == 0) {
                m_eof = true;
                continue;
            }
            size_t skip = 0;
            if (m_offset == 0 && m_carry.empty() && !m_started) {
                m_started = true;
                if (const auto why = head_problem(std::string_view(buf, std::min<size_t>(got, 8192)), skip);
                    !why.full.empty())
                    throw InputError(m_path.string() + why.full);
                m_offset = skip;  // a UTF-8 byte order mark is not text
            }
            m_carry.append(buf + skip, got - skip);
            const size_t nl = m_carry.rfind('\n');
            if (nl == std::string::npos)
                continue;
            block = m_carry.substr(0, nl + 1);
            m_carry.erase(0, nl + 1);
            check(block);
            return true;
        }
    }
    uint64_t offset() const { return m_offset; }

private:
    void check(std::string& block) {
        const size_t bad = find_invalid_utf8(block);
        if (bad != std::string::npos) {
            if (!m_replace)
                throw InputError(m_path.string() + ": invalid UTF-8 at byte offset " + std::to_string(m_offset + bad) +
                                 " (convert the file to UTF-8, or replace the bad bytes with U+FFFD: twb prepare "
                                 "--replace-invalid-utf8)");
            m_result.invalid_bytes_replaced += replace_invalid_utf8(block);
        }
        if (block.find('\0') != std::string::npos)
            throw InputError(m_path.string() + ": holds NUL bytes; it looks binary, not text");
        m_offset += block.size();
    }
    fs::path m_path;
    bool m_replace;
    CorpusReadResult& m_result;
    std::ifstream m_in;
    std::unique_ptr<char[]> m_buf;
    size_t m_bufSize = 0;
    std::string m_carry;
    bool m_eof = false;
    bool m_started = false;
    uint64_t m_offset = 0;
};

/// Calls fn(line, line_number) for each line of a file (newline stripped, CR kept).
template <typename Fn>
void for_each_line(FileReader& r, Fn&& fn) {
    std::string block;
    uint64_t lineNo = 0;
    while (r.next(block)) {
        size_t pos = 0;
        while (pos < block.size()) {
            size_t nl = block.find('\n', pos);
            if (nl == std::string::npos)
                nl = block.size();
            fn(std::string_view(block).substr(pos, nl - pos), ++lineNo);
            pos = nl + 1;
        }
    }
}

/// One CSV/TSV line's cells; `open` says whether a quoted field is still open at its end.
std::vector<std::string> split_csv_line(std::string_view line, char sep, bool& open) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cur += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cur += c;
            }
        } else if (c == '"' && cur.empty()) {
            quoted = true;
        } else if (c == sep) {
            out.push_back(cur);
            cur.clear();
        } else if (c != '\r') {
            cur += c;
        }
    }
    out.push_back(cur);
    open = quoted;
    return out;
}

/// What the readers of one format share: the spec, where documents go, the result they count into, and
/// the progress report (bytes done, throws Cancelled when the callback says stop).
struct CorpusReading {
    const CorpusSpec& spec;
    const DocumentSink& sink;
    CorpusReadResult& result;
    std::function<void(uint64_t)> report;

    void document(const std::string& text) {
        sink(text, true);
        ++result.documents;
    }
};

/// The next line of r (newline stripped) through the carry buf/pos; false at the end of the file.
bool next_line(FileReader& r, std::string& buf, size_t& pos, std::string& out) {
    while (true) {
        const size_t nl = buf.find('\n', pos);
        if (nl != std::string::npos) {
            out.assign(buf, pos, nl - pos);
            pos = nl + 1;
            return true;
        }
        std::string rest = buf.substr(pos);
        std::string more;
        if (!r.next(more)) {
            if (rest.empty())
                return false;
            out = rest;
            buf.clear();
            pos = 0;
            return true;
        }
        buf = rest + more;
        pos = 0;
    }
}

/// Two line-aligned files, source then target: one document per line pair, joined by the pair separator.
void read_parallel(const std::vector<fs::path>& files, uint64_t total, CorpusReading& c) {
    if (files.size() != 2)
        throw InputError("parallel input needs exactly two files, source then target (got " +
                         std::to_string(files.size()) + ")");
    FileReader src(files[0], c.spec.replace_invalid_utf8, c.result),
        tgt(files[1], c.spec.replace_invalid_utf8, c.result);
    // Line-aligned: read both in step. Keep memory bounded by reading block pairs line by line.
    std::string sb, tb, a, b;
    size_t sp = 0, tp = 0;
    uint64_t line = 0;
    while (true) {
        const bool ha = next_line(src, sb, sp, a), hb = next_line(tgt, tb, tp, b);
        if (!ha && !hb)
            break;
        ++line;
        if (ha != hb)
            throw InputError("parallel files are not line-aligned: " + (ha ? files[1] : files[0]).string() +
                             " ends at line " + std::to_string(line - 1) + " while the other goes on");
        if (!a.empty() && a.back() == '\r')
            a.pop_back();
        if (!b.empty() && b.back() == '\r')
            b.pop_back();
        c.document(a + c.spec.pair_separator + b);
        if (line % 4096 == 0)
            c.report(src.offset() + tgt.offset());
    }
    c.report(total);
}

/// A whole file as one document, fed block by block.
void read_text(FileReader& r, uint64_t doneBefore, CorpusReading& c) {
    std::string block;
    while (r.next(block)) {
        c.sink(block, false);
        c.report(doneBefore + r.offset());
    }
    c.document({});
}

/// Records between separator lines (the separator's own lines are not part of any record).
void read_records(FileReader& r, uint64_t doneBefore, CorpusReading& c) {
    std::string rec;
    bool any = false;
    auto flush = [&] {
        if (!rec.empty() && rec.back() == '\n')
            rec.pop_back();
        c.document(rec);
    };
    for_each_line(r, [&](std::string_view line, uint64_t n) {
        std::string_view l = line;
        if (!l.empty() && l.back() == '\r')
            l.remove_suffix(1);
        if (l == c.spec.record_separator) {
            if (any)
                flush();
            rec.clear();
            any = false;
        } else {
            rec.append(line);
            rec += '\n';
            any = true;
        }
        if (n % 4096 == 0)
            c.report(doneBefore + r.offset());
    });
    if (any)
        flush();
}

/// JSON lines: one document per line, the string field spec.field.
void read_jsonl(FileReader& r, const fs::path& f, uint64_t doneBefore, CorpusReading& c) {
    for_each_line(r, [&](std::string_view line, uint64_t n) {
        if (line.find_first_not_of(" \t\r") == std::string_view::npos)
            return;
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(line);
        } catch (const nlohmann::json::exception&) {
            throw InputError(f.string() + ": line " + std::to_string(n) + " is not valid JSON");
        }
        if (!j.is_object() || !j.contains(c.spec.field) || !j[c.spec.field].is_string())
            throw InputError(f.string() + ": line " + std::to_string(n) + " has no string field '" + c.spec.field +
                             "' (choose the field with --field)");
        c.document(j[c.spec.field].get<std::string>());
        if (n % 4096 == 0)
            c.report(doneBefore + r.offset());
    });
}

/// CSV or TSV: one document per row, the column spec.column (a header name, a number, or the first).
void read_table(FileReader& r, const fs::path& f, uint64_t doneBefore, CorpusReading& c) {
    const char sep = c.spec.format == InputFormat::Csv ? ',' : '\t';
    const std::string& column = c.spec.column;
    int col = -1;
    bool header = false;
    if (column.empty())
        col = 0;
    else if (std::all_of(column.begin(), column.end(), ::isdigit))
        col = std::stoi(column);
    else
        header = true;
    for_each_line(r, [&](std::string_view line, uint64_t n) {
        bool open = false;
        auto cells = split_csv_line(line, sep, open);
        if (open)  // fields are read line by line, so a quote must close on its own line
            throw InputError(f.string() + ": line " + std::to_string(n) +
                             " opens a quoted field that the line never closes; close the quote (a quote inside a "
                             "quoted field is written \"\") or save the file without line breaks inside fields");
        if (header && n == 1) {
            auto it = std::find(cells.begin(), cells.end(), column);
            if (it == cells.end())
                throw InputError(f.string() + ": the header row has no column '" + column + "'");
            col = static_cast<int>(it - cells.begin());
            return;
        }
        if (line.empty())
            return;
        if (col >= static_cast<int>(cells.size()))
            throw InputError(f.string() + ": line " + std::to_string(n) + " has only " + std::to_string(cells.size()) +
                             " columns, column " + std::to_string(col) + " asked for");
        c.document(cells[static_cast<size_t>(col)]);
        if (n % 4096 == 0)
            c.report(doneBefore + r.offset());
    });
}

}  // namespace

CorpusReadResult read_corpus(const CorpusSpec& spec, const DocumentSink& sink, const ProgressFn& progress) {
    if (spec.format == InputFormat::Records && spec.record_separator.empty())
        throw ConfigError(
            "the record separator is empty; give the line that separates records (e.g. "
            "--record-separator %)");
    CorpusReadResult result;
    const auto files = expand_inputs(spec.inputs);
    if (spec.format != InputFormat::Parallel)
        check_starts(files);  // before hashing or reading any
    uint64_t total = 0, doneBefore = 0;
    for (auto& f : files)
        total += fs::file_size(f);
    for (auto& f : files)
        result.files.push_back({f.string(), fs::file_size(f), spec.hash_sources ? sha256_file(f) : ""});
    CorpusReading c{spec, sink, result, [&](uint64_t done) {
                        if (progress && !progress(done, total))
                            throw Cancelled();
                    }};
    if (spec.format == InputFormat::Parallel) {
        read_parallel(files, total, c);
        return result;
    }
    for (auto& f : files) {
        FileReader r(f, spec.replace_invalid_utf8, result);
        switch (spec.format) {
            case InputFormat::Text:
                read_text(r, doneBefore, c);
                break;
            case InputFormat::Records:
                read_records(r, doneBefore, c);
                break;
            case InputFormat::Jsonl:
                read_jsonl(r, f, doneBefore, c);
                break;
            case InputFormat::Csv:
            case InputFormat::Tsv:
                read_table(r, f, doneBefore, c);
                break;
            case InputFormat::Parallel:
                break;
        }
        doneBefore += fs::file_size(f);
        c.report(doneBefore);
    }
    return result;
}

CleaningPreview preview_cleaning(const CorpusSpec& specIn, const CleaningOptions& cleaning, size_t maxBytes) {
    CorpusSpec spec = specIn;
    spec.hash_sources = false;
    CleaningPreview p;
    Cleaner cleaner(cleaning);
    std::string doc;
    bool full = false;
    auto flush = [&] {
        if (!p.before.empty()) {
            p.before += "\n\n";
            p.after += "\n\n";
        }
        p.before += doc;
        p.after += cleaner.clean(doc);
        doc.clear();
        full = p.before.size() >= maxBytes;
    };
    // The preview is at most max_bytes of text, the separators included: a document that does not fit
    // is cut at its last line end within the room (at a character's start when it has none), so the
    // cleaner never sees a torn line and the preview is the size the GUI says (16 KB).
    auto room = [&] {
        const size_t used = p.before.size() + (p.before.empty() ? 0 : 2) + doc.size();
        return used >= maxBytes ? size_t(0) : maxBytes - used;
    };
    auto cutAtLineEnd = [&] {
        const size_t nl = doc.rfind('\n');
        if (nl != std::string::npos) {
            doc.resize(nl + 1);
            return;
        }
        size_t start = doc.size();  // the last character's first byte
        while (start > 0 && (static_cast<unsigned char>(doc[start - 1]) & 0xC0) == 0x80)
            --start;
        if (start > 0) {
            const auto lead = static_cast<unsigned char>(doc[start - 1]);
            const size_t len = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
            if (doc.size() - (start - 1) < len)
                doc.resize(start - 1);
        }
    };
    try {
        read_corpus(
            spec,
            [&](std::string_view piece, bool end) {
                if (full)
                    return;
                const size_t left = room();
                if (piece.size() > left) {
                    doc.append(piece.substr(0, left));
                    cutAtLineEnd();
                    if (!doc.empty() || p.before.empty())
                        flush();
                    full = true;
                    return;
                }
                doc.append(piece);
                if (end)
                    flush();
            },
            [&](uint64_t, uint64_t) { return !full; });
    } catch (const Cancelled&) {
    }
    if (!doc.empty() && !full)
        flush();
    for (const auto& e : cleaner.report().effects) {
        p.lines_changed += e.lines_changed;
        p.lines_removed += e.lines_removed;
        p.chars_removed += e.chars_removed;
        p.per_option.emplace_back(e.option, e.chars_removed);
    }
    return p;
}

}  // namespace twb
