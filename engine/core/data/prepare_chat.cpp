// Preparing instruction data for a chat finetune (twb/chat.h's prepare_chat) and reading its loss spans
// back (chat_data.h). A chat dataset is a documents dataset (one conversation per document, no separator
// between them; a conversation's range holds every turn's EOT, the last one included) plus
// {split}.loss: the [start, end) spans of each assistant turn's content and EOT, the only targets the
// loss sees. Does not parse records (chat_template.cpp) or build batches (nn/training/batcher).
#include "core/data/chat_data.h"
#include "core/data/prepare_output.h"
#include "core/data/token_file.h"
#include "core/tokenizers/tokenizer.h"
#include "twb/errors.h"
#include "twb/text.h"
#include "twb/tokenizer.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <numeric>
#include <random>

namespace twb {

namespace {

namespace fs = std::filesystem;

/// Every conversation of every input, a system turn put first where asked and missing.
std::vector<Conversation> read_inputs(const ChatPrepareOptions& opts, const PrepareProgressFn& progress) {
    std::vector<Conversation> all;
    for (size_t i = 0; i < opts.inputs.size(); ++i) {
        for (auto& c : read_chat_file(opts.inputs[i])) {
            if (!opts.system.empty() && c.front().role != ChatRole::System)
                c.insert(c.begin(), ChatMessage{ChatRole::System, opts.system});
            all.push_back(std::move(c));
        }
        if (progress && !progress("reading", i + 1, opts.inputs.size()))
            throw Cancelled();
    }
    return all;
}

std::unique_ptr<Tokenizer> chat_tokenizer(const ChatPrepareOptions& opts, const std::vector<Conversation>& convs,
                                          const fs::path& scratch, const PrepareProgressFn& progress) {
    std::unique_ptr<Tokenizer> tok;
    if (!opts.tokenizer_from.empty()) {
        tok = load_tokenizer(find_tokenizer_dir(opts.tokenizer_from));
    } else {
        // Trained on the conversations as the template writes them (an end of turn as a newline).
        const fs::path corpus = scratch / "corpus.txt";
        std::string text;
        for (const auto& c : convs)
            text += render_chat_text(c, "\n");
        write_file_atomic(corpus, text);
        tok = train_tokenizer(opts.tokenizer, corpus, [&](uint64_t done, uint64_t total) {
            return !progress || progress("tokenizer", done, total);
        });
        fs::remove(corpus);
    }
    if (tok->eos_id() < 0 || tok->bos_id() < 0)
        throw ConfigError(
            "the " + to_string(tok->kind()) +
            " tokenizer has no <bos>/<eos>, which chat data needs (<eos> ends every turn); choose "
            "byte, word, bpe, unigram or bytebpe, or reuse the tokenizer of a run that has them (--tokenizer-from)");
    return tok;
}

/// One split being written: its token file, conversations and loss spans.
struct SplitWriter {
    TokenWriter tokens;
    DocumentIndex docs, loss;
    uint64_t trained = 0;
    SplitWriter(const fs::path& path, TokenDtype dtype) : tokens(path, dtype) {}
    void add(const ChatTokens& t) {
        const uint64_t at = tokens.count();
        tokens.write(t.ids.data(), t.ids.size());
        docs.docs.emplace_back(at, at + t.ids.size());
        for (auto [s, e] : t.trained) {
            loss.docs.emplace_back(at + s, at + e);
            trained += e - s;
        }
    }
};

std::vector<bool> held_out(size_t n, double fraction, uint64_t seed) {
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 rng(seed);
    std::shuffle(order.begin(), order.end(), rng);
    auto nVal = static_cast<size_t>(std::llround(fraction * static_cast<double>(n)));
    if (fraction > 0 && nVal == 0 && n > 1)
        nVal = 1;  // a validation loss from one conversation beats none
    std::vector<bool> isVal(n, false);
    for (size_t i = 0; i < nVal; ++i)
        isVal[order[i]] = true;
    return isVal;
}

/// meta.json of a chat dataset: a documents dataset's facts and the "chat" entry.
nlohmann::json chat_meta(const ChatPrepareOptions& opts, const Tokenizer& tok, const std::string& fingerprint,
                         TokenDtype dtype, const ChatPrepareResult& r,
                         std::pair<const SplitWriter*, const SplitWriter*> splits, int32_t maxId, uint64_t chars) {
    const SplitWriter &train = *splits.first, &val = *splits.second;
    nlohmann::json meta;
    meta["format_version"] = 1;
    meta["tokenizer"] = tok.kind();
    meta["vocab_size"] = tok.vocab_size();
    meta["tokenizer_fingerprint"] = fingerprint;
    if (!opts.tokenizer_from.empty())
        meta["tokenizer_from"] = fs::absolute(opts.tokenizer_from).string();
    meta["max_token_id"] = maxId;
    meta["dtype"] = to_string(dtype);
    meta["train_tokens"] = r.train_tokens;
    meta["val_tokens"] = r.val_tokens;
    meta["characters"] = chars;
    meta["chars_per_token"] = static_cast<double>(chars) / static_cast<double>(r.train_tokens + r.val_tokens);
    meta["special_tokens"] = {
        {"pad", tok.pad_id()}, {"unk", tok.unk_id()}, {"bos", tok.bos_id()}, {"eos", tok.eos_id()}};
    meta["tokenizer_spec"] = {{"kind", opts.tokenizer.kind}, {"vocab_size", opts.tokenizer.vocab_size}};
    meta["documents"] = {{"train", r.train_conversations}, {"val", r.val_conversations}, {"format", "u64 pairs"}};
    meta["chat"] = {{"template", kChatTemplate},
                    {"end_of_turn", tok.eos_id()},
                    {"system", opts.system},
                    {"loss_spans", {{"train", train.loss.docs.size()}, {"val", val.loss.docs.size()}}},
                    {"trained_tokens", {{"train", train.trained}, {"val", val.trained}}}};
    meta["split"] = {{"mode", "shuffle"}, {"val_fraction", opts.val_fraction}, {"seed", opts.seed}};
    meta["sources"] = nlohmann::json::array();
    for (const auto& f : opts.inputs)
        meta["sources"].push_back({{"path", fs::absolute(f).string()}, {"bytes", fs::file_size(f)}});
    meta["warnings"] = r.warnings;
    return meta;
}

}  // namespace

ChatPrepareResult prepare_chat(const ChatPrepareOptions& opts, const PrepareProgressFn& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!(opts.val_fraction >= 0.0 && opts.val_fraction < 1.0))
        throw ConfigError("val fraction " + std::to_string(opts.val_fraction) + " must be in [0, 1)");
    if (opts.inputs.empty())
        throw InputError("give at least one JSON-lines file of instruction data");
    if (opts.tokenizer_from.empty() && opts.tokenizer.kind == TokenizerKind::Char)
        throw ConfigError(
            "the char tokenizer has no <eos>, which ends every turn of the chat template; choose byte, word, bpe, "
            "unigram or bytebpe, or reuse the tokenizer of the run you finetune (--tokenizer-from)");
    TempDir tmp;
    std::vector<std::string> inputs = opts.inputs;
    if (!opts.tokenizer_from.empty())
        inputs.push_back(opts.tokenizer_from.string());
    const fs::path out = begin_output(opts.out, inputs, opts.overwrite, tmp);

    const auto convs = read_inputs(opts, progress);
    const auto tok = chat_tokenizer(opts, convs, tmp.path, progress);
    const std::string fingerprint = tok->fingerprint();  // before save() moves a sentencepiece model
    const TokenDtype dtype = dtype_for_vocab(tok->vocab_size());
    const auto isVal = held_out(convs.size(), opts.val_fraction, opts.seed);

    ChatPrepareResult r;
    SplitWriter train(tmp.path / "train.bin", dtype), val(tmp.path / "val.bin", dtype);
    int32_t maxId = -1;
    uint64_t chars = 0;
    const EncodeFn encode = [&](std::string_view s) { return tok->encode(s); };
    const int32_t unk = tok->unk_id();
    uint64_t replyTokens = 0, replyUnknown = 0;  // what the model is trained to say, and how much is <unk>
    for (size_t i = 0; i < convs.size(); ++i) {
        const ChatTokens t = render_chat_ids(encode, tok->eos_id(), convs[i], false);
        (isVal[i] ? val : train).add(t);
        for (const auto& [from, to] : t.trained) {
            replyTokens += to - from;
            if (unk >= 0)
                replyUnknown += static_cast<uint64_t>(std::count(t.ids.begin() + static_cast<std::ptrdiff_t>(from),
                                                                 t.ids.begin() + static_cast<std::ptrdiff_t>(to), unk));
        }
        maxId = std::max(maxId, *std::max_element(t.ids.begin(), t.ids.end()));
        r.longest = std::max<uint64_t>(r.longest, t.ids.size());
        for (unsigned char ch : render_chat_text(convs[i], " "))
            chars += (ch & 0xC0) != 0x80;  // code points
        if (progress && i % 64 == 0 && !progress("encoding", i, convs.size()))
            throw Cancelled();
    }
    train.tokens.close();
    val.tokens.close();
    r.train_conversations = train.docs.docs.size();
    r.val_conversations = val.docs.docs.size();
    r.train_tokens = train.tokens.count();
    r.val_tokens = val.tokens.count();
    r.train_trained_tokens = train.trained;
    r.vocab_size = tok->vocab_size();
    if (r.train_conversations == 0)
        throw InputError("the training split holds no conversation; lower the val fraction or add records");
    if (r.val_conversations == 0 && opts.val_fraction > 0)
        r.warnings.push_back("one conversation only: the validation split is empty");
    if (replyTokens > 0 && replyUnknown * 10 > replyTokens) {  // over a tenth: the replies learned are mostly gaps
        char pct[32];
        std::snprintf(pct, sizeof pct, "%.1f%%",
                      100.0 * static_cast<double>(replyUnknown) / static_cast<double>(replyTokens));
        r.warnings.push_back(std::string(pct) +
                             " of the reply tokens the model is trained on are <unk>: it would learn to answer in "
                             "<unk>; prepare with a larger vocabulary, a lower --min-frequency, or bytebpe");
    }

    if (progress && !progress("writing", 0, 1))
        throw Cancelled();
    train.docs.write(tmp.path / "train.docs");
    val.docs.write(tmp.path / "val.docs");
    train.loss.write(tmp.path / "train.loss");
    val.loss.write(tmp.path / "val.loss");
    save_tokenizer_files(*tok, tmp);
    finish_output(tmp, out, chat_meta(opts, *tok, fingerprint, dtype, r, {&train, &val}, maxId, chars));
    r.dir = out;
    if (progress)
        progress("writing", 1, 1);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

std::optional<DocumentIndex> read_loss_spans(const PreparedDataset& data, const std::string& split, uint64_t tokens) {
    if (data.chat_template.empty())
        return std::nullopt;
    return DocumentIndex::read(data.dir / (split + ".loss"), tokens,
                               split == "val" ? data.val_loss_spans : data.train_loss_spans);
}

}  // namespace twb
