// libtwb_spm.so: wraps sentencepiece behind the C API of spm_api.h. Links sentencepiece and
// nothing of libtorch. Never throws across the C boundary.
#include "spm_api.h"

#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sentencepiece::logging {
void SetMinLogLevel(int);  // exported by libsentencepiece, not declared in its public headers
}

#define TWB_EXPORT extern "C" __attribute__((visibility("default")))

struct twb_spm {
    sentencepiece::SentencePieceProcessor sp;
};

namespace {
void set_err(char* err, size_t len, const std::string& msg) {
    if (!err || len == 0)
        return;
    std::strncpy(err, msg.c_str(), len - 1);
    err[len - 1] = 0;
}
}  // namespace

TWB_EXPORT int twb_spm_api_version() {
    return TWB_SPM_API_VERSION;
}

TWB_EXPORT const char* twb_spm_version() {
    return "0.1.97 (Debian libsentencepiece)";
}

TWB_EXPORT int twb_spm_train(const char* options, char* err, size_t err_len) {
    try {
        std::unordered_map<std::string, std::string> kw;
        std::string all(options);
        size_t pos = 0;
        while (pos <= all.size()) {
            size_t end = all.find('\x1f', pos);
            if (end == std::string::npos)
                end = all.size();
            std::string item = all.substr(pos, end - pos);
            const size_t eq = item.find('=');
            if (eq != std::string::npos)
                kw[item.substr(0, eq)] = item.substr(eq + 1);
            pos = end + 1;
        }
        // Quiet unless asked: training logs every step at INFO level.
        sentencepiece::logging::SetMinLogLevel(std::getenv("TWB_SPM_VERBOSE") ? 0 : 2);
        const auto status = sentencepiece::SentencePieceTrainer::Train(kw);
        if (!status.ok()) {
            set_err(err, err_len, status.ToString());
            return 1;
        }
        return 0;
    } catch (const std::exception& e) {
        set_err(err, err_len, e.what());
        return 1;
    }
}

TWB_EXPORT twb_spm* twb_spm_load(const char* path, char* err, size_t err_len) {
    try {
        auto* m = new twb_spm;
        const auto status = m->sp.Load(path);
        if (!status.ok()) {
            set_err(err, err_len, status.ToString());
            delete m;
            return nullptr;
        }
        return m;
    } catch (const std::exception& e) {
        set_err(err, err_len, e.what());
        return nullptr;
    }
}

TWB_EXPORT void twb_spm_free(twb_spm* m) {
    delete m;
}

TWB_EXPORT size_t twb_spm_encode(const twb_spm* m, const char* text, size_t len, int32_t* ids, size_t cap) {
    std::vector<int> out;
    m->sp.Encode(std::string(text, len), &out).IgnoreError();
    for (size_t i = 0; i < out.size() && i < cap; ++i)
        ids[i] = out[i];
    return out.size();
}

TWB_EXPORT size_t twb_spm_encode_pieces(const twb_spm* m, const char* text, size_t len, char* out, size_t cap) {
    std::vector<std::string> pieces;
    m->sp.Encode(std::string(text, len), &pieces).IgnoreError();
    std::string joined;
    for (const auto& p : pieces)
        joined.append(p).push_back('\0');
    if (cap > 0)
        std::memcpy(out, joined.data(), joined.size() < cap ? joined.size() : cap);
    return joined.size();
}

TWB_EXPORT size_t twb_spm_decode_pieces(const twb_spm* m, const char* pieces, size_t len, char* out, size_t cap) {
    std::vector<std::string> v;
    for (size_t at = 0; at < len;) {
        const size_t end = std::string_view(pieces + at, len - at).find('\0');
        const size_t n = end == std::string_view::npos ? len - at : end;
        v.emplace_back(pieces + at, n);
        at += n + 1;
    }
    std::string text;
    m->sp.Decode(v, &text).IgnoreError();
    if (cap > 0)
        std::memcpy(out, text.data(), text.size() < cap ? text.size() : cap);
    return text.size();
}

TWB_EXPORT size_t twb_spm_decode(const twb_spm* m, const int32_t* ids, size_t n, char* out, size_t cap) {
    std::vector<int> v(ids, ids + n);
    std::string text;
    m->sp.Decode(v, &text).IgnoreError();
    if (cap > 0)
        std::memcpy(out, text.data(), text.size() < cap ? text.size() : cap);
    return text.size();
}

TWB_EXPORT int twb_spm_vocab_size(const twb_spm* m) {
    return m->sp.GetPieceSize();
}

TWB_EXPORT const char* twb_spm_piece(const twb_spm* m, int id, int* kind) {
    if (kind) {
        *kind = m->sp.IsUnknown(id) ? 1 : m->sp.IsControl(id) ? 2 : m->sp.IsByte(id) ? 3 : 0;
    }
    return m->sp.IdToPiece(id).c_str();
}
