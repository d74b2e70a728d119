// twb prepare / tokenize / datasets: the data-side commands.
#include "app/twb/commands.h"
#include "app/twb/interrupt.h"
#include "app/twb/progress_line.h"
#include "twb/catalogue.h"
#include "twb/chat.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/output_paths.h"
#include "twb/synthetic.h"
#include "twb/text.h"
#include "twb/tokenizer.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <set>
#include <sstream>

namespace twb::cli {

namespace {
/// A seed as typed: a whole number from 0 to 2^64 - 1 ("-1" and 10^23 were wrapped or clamped to 2^64 - 1,
/// so three seeds made one file).
const CLI::Validator kSeed(
    [](std::string& text) -> std::string {
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
            return "a seed is a whole number from 0 (got " + text + ")";
        try {
            (void)std::stoull(text);
        } catch (const std::out_of_range&) {
            return "a seed is at most 18446744073709551615 (got " + text + ")";
        }
        return {};
    },
    "SEED");

/// Runs an engine preparation with a progress line (unless quiet). Ctrl-C or SIGTERM cancels it at the
/// next progress report; the engine then removes its temporary folder, so nothing is left behind.
template <class Prepare>
auto with_progress(bool quiet, Prepare prepare) {
    ProgressLine bar(!quiet);
    const auto& interrupted = install_interrupt_flag();
    auto r = prepare([&](const std::string& stage, uint64_t done, uint64_t total) {
        bar.update(stage, done, total);
        return !interrupted.load();
    });
    bar.finish();
    return r;
}

/// twb prepare --source/--target (or --pairs): a parallel dataset for twb train model_kind=encoder_decoder.
int prepare_parallel_dataset(ParallelPrepareOptions p, std::string tokenizer, int vocab, double val, uint64_t seed,
                             const std::string& out, bool force, bool quiet) {
    p.tokenizer.kind = parse_choice<TokenizerKind>(tokenizer, "tokenizer");
    if (!p.tokenizer_from.empty())
        tokenizer = "from " + p.tokenizer_from.string();
    p.tokenizer.vocab_size = vocab;
    if (val >= 0)
        p.val_fraction = val;
    p.seed = seed;
    p.out = out;
    p.overwrite = force;
    const auto r = with_progress(quiet, [&](const auto& progress) { return prepare_parallel(p, progress); });
    std::printf("prepared %s (parallel%s%s%s)\n", r.dir.c_str(), p.source_lang.empty() ? "" : ", ",
                p.source_lang.c_str(), p.target_lang.empty() ? "" : ("->" + p.target_lang).c_str());
    if (r.source_vocab_size > 0)
        std::printf("  tokenizer %s, separate vocabularies: source %d, target %d\n", tokenizer.c_str(),
                    r.source_vocab_size, r.vocab_size);
    else
        std::printf("  tokenizer %s, one vocabulary of %d for both sides\n", tokenizer.c_str(), r.vocab_size);
    std::printf("  pairs: train %llu, val %llu, test %llu\n", static_cast<unsigned long long>(r.train_pairs),
                static_cast<unsigned long long>(r.val_pairs), static_cast<unsigned long long>(r.test_pairs));
    if (p.max_tokens > 0)
        std::printf("  dropped %llu training pairs with a side longer than %d tokens\n",
                    static_cast<unsigned long long>(r.dropped_long), p.max_tokens);
    if (p.max_length_ratio > 0)
        std::printf("  dropped %llu training pairs whose longer side has over %g times the tokens of the shorter\n",
                    static_cast<unsigned long long>(r.dropped_ratio), p.max_length_ratio);
    auto lengths = [](const char* side, const SideLengths& l) {
        std::printf("  %s tokens per sentence: mean %.1f, max %llu; per 8 tokens:", side, l.mean,
                    static_cast<unsigned long long>(l.max));
        for (auto c : l.histogram)
            std::printf(" %llu", static_cast<unsigned long long>(c));
        std::printf("\n");
    };
    lengths("source", r.source_lengths);
    lengths("target", r.target_lengths);
    std::printf("  done in %.1f s\n", r.seconds);
    return 0;
}
/// twb prepare --chat FILE...: instruction data for a chat finetune (twb/chat.h).
int prepare_chat_dataset(ChatPrepareOptions c, const std::string& tokenizer, int vocab, const std::string& splitPattern,
                         bool quiet) {
    if (c.tokenizer_from.empty()) {
        c.tokenizer.kind = parse_choice<TokenizerKind>(tokenizer, "tokenizer");
        c.tokenizer.vocab_size = vocab;
        c.tokenizer.split_pattern = splitPattern;
    }
    const auto r = with_progress(quiet, [&](const auto& progress) { return prepare_chat(c, progress); });
    for (auto& w : r.warnings)
        std::cerr << "twb: warning: " << w << "\n";
    std::printf("prepared %s (chat, template %s)\n", r.dir.c_str(), kChatTemplate);
    std::printf("  tokenizer %s, vocab %d\n", to_string(TextTokenizer::load(r.dir).kind()).c_str(), r.vocab_size);
    std::printf("  conversations: train %llu, val %llu; longest %llu tokens\n",
                static_cast<unsigned long long>(r.train_conversations),
                static_cast<unsigned long long>(r.val_conversations), static_cast<unsigned long long>(r.longest));
    std::printf("  train %llu tokens (%llu in replies, trained), val %llu tokens\n",
                static_cast<unsigned long long>(r.train_tokens),
                static_cast<unsigned long long>(r.train_trained_tokens), static_cast<unsigned long long>(r.val_tokens));
    std::printf("  done in %.1f s\n", r.seconds);
    return 0;
}

/// Everything twb prepare is given: the options of the three kinds of dataset.
struct PrepareCli {
    std::vector<std::string> inputs, clean;
    std::string tokenizerFrom, splitPattern, preset, tokenizer = "char", format = "text", field = "text", column,
                                                     recordSep = "%", split = "tail", out, allowed;
    int vocab = 0, minFreq = 1;
    double val = 0.1;
    uint64_t seed = 1337;
    bool force = false, replaceBad = false, lowercase = false, quiet = false, documents = false;
    ParallelPrepareOptions par;  // --source/--target or --pairs: a parallel dataset
    ChatPrepareOptions chat;     // --chat: instruction data
    bool valGiven = false;
};

/// --source/--target or --pairs and what only parallel data takes.
void add_parallel_options(CLI::App& app, ParallelPrepareOptions& par) {
    auto* source =
        app.add_option("--source", par.source, "Parallel data: the training pairs' source file, one sentence a line");
    auto* target = app.add_option("--target", par.target,
                                  "Parallel data: the training pairs' target file, line-aligned with --source");
    // One way to give the pairs: --pairs with --source/--target used the TSV alone and named all three in
    // meta.json's sources.
    app.add_option("--pairs", par.pairs, "Parallel data: a tab-separated file of pairs (instead of --source/--target)")
        ->excludes(source)
        ->excludes(target);
    app.add_option("--source-column", par.source_column, "--pairs: 0-based column of the source (default 0)");
    app.add_option("--target-column", par.target_column, "--pairs: 0-based column of the target (default 1)");
    app.add_option("--val-source", par.val_source, "Parallel data: the official validation source file");
    app.add_option("--val-target", par.val_target, "Parallel data: the official validation target file");
    app.add_option("--test-source", par.test_source, "Parallel data: the official test source file");
    app.add_option("--test-target", par.test_target, "Parallel data: the official test target file");
    app.add_option("--val-pairs", par.val_pairs, "Parallel data: validation pairs as a tab-separated file");
    app.add_option("--test-pairs", par.test_pairs, "Parallel data: test pairs as a tab-separated file");
    app.add_option("--source-lang", par.source_lang, "Parallel data: the source language's code (e.g. de)");
    app.add_option("--target-lang", par.target_lang, "Parallel data: the target language's code (e.g. en)");
    app.add_option("--test-fraction", par.test_fraction,
                   "Parallel data: share of the training pairs held out for test when no test files are given");
    app.add_option("--max-tokens", par.max_tokens,
                   "Parallel data: drop training pairs with a side longer than this many tokens (counted)");
    app.add_option("--max-length-ratio", par.max_length_ratio,
                   "Parallel data: drop training pairs whose longer side has more than this many times the tokens "
                   "of the shorter (counted; 0 = keep all)");
    app.add_flag("--separate-vocab", par.separate_vocab,
                 "Parallel data: one vocabulary per side, each trained on its own side (default: one shared)");
}

/// The options of a text dataset (and those it shares with the other kinds); returns --tokenizer's,
/// whose count says whether one was named.
CLI::Option* add_text_options(CLI::App& app, const std::shared_ptr<PrepareCli>& o) {
    auto* inputOpt = app.add_option("--input,-i", o->inputs,
                                    "Input file or folder (repeat for several; parallel: source then target)");
    app.add_option("--preset", o->preset,
                   "Use a preset instead of --input: fortunes (Debian's fortune cookies, "
                   "offline) or a downloaded catalogue entry (translation pairs: multi30k-de-en with its official "
                   "splits, tatoeba-en-nb with 5% + 5% held out for val and test)")
        ->excludes(inputOpt);
    auto* tokenizerOpt =
        app.add_option("--tokenizer,-t", o->tokenizer,
                       "char (the default) | byte | word | bpe | unigram (sentencepiece) | bytebpe (byte-level BPE, "
                       "GPT-2's scheme)")
            ->check(CLI::IsMember(choice_names<TokenizerKind>()));
    app.add_option("--vocab-size", o->vocab, "Vocabulary size for word/bpe/unigram/bytebpe (e.g. 2000)");
    app.add_option("--split-pattern", o->splitPattern, "bytebpe: how text is split before merging: gpt2 or gpt4")
        ->check(CLI::IsMember({"gpt2", "gpt4"}));
    app.add_option("--tokenizer-from", o->tokenizerFrom,
                   "Encode with the tokenizer of this prepared dataset or run instead of training one (for "
                   "finetuning: the ids then mean what the pretrained model learned)")
        ->excludes(tokenizerOpt);
    app.add_flag("--documents", o->documents,
                 "Keep document boundaries for sequences=documents: each record, jsonl/csv row, line pair or "
                 "text paragraph (blank-line separated; else each line) is one document (needs <bos>/<eos>: "
                 "not char)");
    app.add_option("--val-fraction", o->val, "Share kept for validation, in [0,1) (default 0.1; parallel data 0.05)")
        ->each([o](const std::string&) { o->valGiven = true; });
    app.add_option("--split", o->split, "tail: last fraction of tokens (nanoGPT); shuffle: shuffled documents")
        ->check(CLI::IsMember({"tail", "shuffle"}));
    app.add_option("--seed", o->seed, "Seed for the shuffled split")->check(kSeed);
    app.add_option("--clean", o->clean,
                   "Cleaning step, repeatable: nfkc, whitespace, ascii (transliterate), strip (keep only "
                   "--allowed-chars), gutenberg, lowercase, drop-empty, dedupe");
    app.add_option("--allowed-chars", o->allowed, "Characters kept by --clean strip (default printable ASCII)");
    app.add_option("--format", o->format, "text | jsonl | csv | tsv | parallel | records")
        ->check(CLI::IsMember({"text", "jsonl", "csv", "tsv", "parallel", "records"}));
    app.add_option("--field", o->field, "jsonl: the text field (default text)");
    app.add_option("--column", o->column, "csv/tsv: column name or 0-based index (default 0)");
    app.add_option("--record-separator", o->recordSep, "records: the line that separates records (default %)");
    app.add_flag("--replace-invalid-utf8", o->replaceBad, "Replace invalid UTF-8 bytes with U+FFFD instead of failing");
    app.add_flag("--lowercase", o->lowercase, "word tokenizer: lowercase words");
    app.add_option("--min-frequency", o->minFreq, "word tokenizer: rarer words become <unk>")
        ->check(CLI::Range(0, 1'000'000'000));
    app.add_option("--out,-o", o->out, "Output folder")->required();
    app.add_flag("--force", o->force, "Replace an existing prepared dataset at --out");
    app.add_flag("--quiet,-q", o->quiet, "No progress output");
    return tokenizerOpt;
}

/// A text dataset's PrepareOptions from the command line (a preset's, adjusted, or the inputs').
PrepareOptions text_prepare_options(const PrepareCli& o) {
    PrepareOptions p;
    if (!o.preset.empty()) {
        p = preset_options(o.preset, o.out);
    } else {
        if (o.inputs.empty())
            throw InputError("give --input PATH (or --preset fortunes)");
        p.corpus.inputs = o.inputs;
        p.corpus.format = parse_input_format(o.format);
        p.tokenizer.kind = parse_choice<TokenizerKind>(o.tokenizer, "tokenizer");
    }
    p.out = o.out;
    p.overwrite = o.force;
    p.tokenizer_from = o.tokenizerFrom;
    p.tokenizer.split_pattern = o.splitPattern;
    if (!o.preset.empty() && o.tokenizer != to_string(TokenizerKind::Char))
        p.tokenizer.kind = parse_choice<TokenizerKind>(o.tokenizer, "tokenizer");
    if (o.vocab)
        p.tokenizer.vocab_size = o.vocab;
    // Taken without a word, it did nothing: a char vocabulary is the text's characters, a byte one the 256 bytes
    if (o.vocab && p.tokenizer_from.empty() &&
        (p.tokenizer.kind == TokenizerKind::Char || p.tokenizer.kind == TokenizerKind::Byte))
        std::fprintf(stderr,
                     "twb: warning: --vocab-size %d does nothing for the %s tokenizer (its vocabulary is %s); a "
                     "vocabulary of a chosen size is word's, bpe's, unigram's or bytebpe's (--tokenizer)\n",
                     o.vocab, to_string(p.tokenizer.kind).c_str(),
                     p.tokenizer.kind == TokenizerKind::Char ? "every character of the text" : "the 256 bytes");
    p.tokenizer.lowercase = o.lowercase;
    p.tokenizer.min_frequency = o.minFreq;
    p.corpus.field = o.field;
    p.corpus.column = o.column;
    if (o.preset.empty())
        p.corpus.record_separator = o.recordSep;
    p.corpus.replace_invalid_utf8 = p.corpus.replace_invalid_utf8 || o.replaceBad;
    p.val_fraction = o.val;
    if (o.preset.empty() || o.split != "tail")
        p.split = o.split;
    p.seed = o.seed;
    p.documents = o.documents;
    for (auto& c : o.clean)
        p.cleaning.enable(c);
    p.cleaning.allowed_chars = o.allowed;
    return p;
}

/// twb prepare --input (or --preset): a text dataset for a language model.
int prepare_text_dataset(const PrepareCli& o) {
    const PrepareOptions p = text_prepare_options(o);
    const auto r = with_progress(o.quiet, [&](const auto& progress) { return prepare_dataset(p, progress); });
    for (auto& w : r.warnings)
        std::cerr << "twb: warning: " << w << "\n";
    const auto& s = r.stats;
    std::printf("prepared %s\n", r.dir.c_str());
    std::printf("  tokenizer %s, vocab %d (%d used)\n", to_string(TextTokenizer::load(r.dir).kind()).c_str(),
                s.vocab_size, s.vocab_used);
    std::printf("  train %llu tokens, val %llu tokens\n", static_cast<unsigned long long>(r.train_tokens),
                static_cast<unsigned long long>(r.val_tokens));
    if (p.documents) {
        const auto d = open_prepared(r.dir);
        std::printf("  documents kept: train %llu, val %llu\n", static_cast<unsigned long long>(d.train_documents),
                    static_cast<unsigned long long>(d.val_documents));
    }
    std::printf("  %llu characters, %llu document%s, %.3f characters/token, unknown %.4f%%\n",
                static_cast<unsigned long long>(s.characters), static_cast<unsigned long long>(s.documents),
                s.documents == 1 ? "" : "s", s.chars_per_token, 100.0 * s.unk_rate);
    for (auto& e : r.cleaning.effects)
        std::printf("  clean %-10s %llu lines changed, %llu removed, %lld characters removed\n", e.option.c_str(),
                    static_cast<unsigned long long>(e.lines_changed), static_cast<unsigned long long>(e.lines_removed),
                    static_cast<long long>(e.chars_removed));
    std::printf("  done in %.1f s\n", r.seconds);
    return 0;
}
}  // namespace

Action add_prepare(CLI::App& app) {
    auto o = std::make_shared<PrepareCli>();
    auto* chatOpt = app.add_option("--chat", o->chat.inputs,
                                   "Instruction data for a chat finetune: JSON lines of instruction/input/output "
                                   "(Alpaca), instruction/instances (seed tasks) or messages (repeat for several "
                                   "files); the loss falls on the replies only");
    app.add_option("--system", o->chat.system, "With --chat: a system turn put before every conversation that has none")
        ->needs(chatOpt);
    add_parallel_options(app, o->par);
    CLI::Option* tokenizerOpt = add_text_options(app, o);
    chatOpt->excludes(app.get_option("--input"));
    // Parallel data comes from --source/--target or --pairs; --input beside them was dropped without a word.
    for (const char* parallel : {"--source", "--target", "--pairs"})
        app.get_option(parallel)->excludes(app.get_option("--input"));
    return [o, tokenizerOpt, self = &app]() {
        if (!o->chat.inputs.empty()) {
            // What instruction data does not use (cleaning, formats, documents, other inputs) is refused by
            // name rather than dropped without a word.
            static const std::set<std::string> used = {
                "--chat",         "--system", "--tokenizer", "--vocab-size", "--split-pattern", "--tokenizer-from",
                "--val-fraction", "--seed",   "--out",       "--force",      "--quiet"};
            for (const CLI::Option* opt : self->get_options())
                if (opt->count() > 0 && !used.count(opt->get_name()))
                    throw ConfigError(opt->get_name() +
                                      " does not apply to --chat (its files are JSON lines of conversations, split "
                                      "by conversation, kept as they are); drop it");
            o->chat.tokenizer_from = o->tokenizerFrom;
            o->chat.val_fraction = o->val;
            o->chat.seed = o->seed;
            o->chat.out = o->out;
            o->chat.overwrite = o->force;
            // Chat data needs <eos>: byte unless a tokenizer is named (char is then refused by name).
            return prepare_chat_dataset(o->chat, tokenizerOpt->count() > 0 ? o->tokenizer : "byte", o->vocab,
                                        o->splitPattern, o->quiet);
        }
        o->par.tokenizer_from = o->tokenizerFrom;
        if (!o->preset.empty()) {
            // A catalogue entry of translation pairs (multi30k-de-en, tatoeba-en-nb): a parallel dataset with
            // the entry's official splits, tokenizer and vocabulary unless named here.
            if (auto pairs = pairs_preset_options(o->preset, o->out)) {
                if (!o->par.source.empty() || !o->par.target.empty() || !o->par.pairs.empty())
                    throw ConfigError("--preset " + o->preset +
                                      " gives the pairs; drop --source, --target and --pairs");
                pairs->tokenizer_from = o->tokenizerFrom;
                pairs->separate_vocab = o->par.separate_vocab;
                pairs->max_tokens = o->par.max_tokens;
                pairs->max_length_ratio = o->par.max_length_ratio;
                if (o->par.test_fraction > 0)
                    pairs->test_fraction = o->par.test_fraction;
                return prepare_parallel_dataset(
                    *pairs, tokenizerOpt->count() > 0 ? o->tokenizer : to_string(pairs->tokenizer.kind),
                    o->vocab ? o->vocab : pairs->tokenizer.vocab_size, o->valGiven ? o->val : -1, o->seed, o->out,
                    o->force, o->quiet);
            }
        }
        if (!o->par.source.empty() || !o->par.target.empty() || !o->par.pairs.empty())
            return prepare_parallel_dataset(o->par, o->tokenizer, o->vocab, o->valGiven ? o->val : -1, o->seed, o->out,
                                            o->force, o->quiet);
        if (o->par.separate_vocab || o->par.max_length_ratio != 0 || o->par.max_tokens != 0)
            throw ConfigError(
                "--separate-vocab, --max-tokens and --max-length-ratio are for parallel data; give "
                "--source and --target (or --pairs)");
        return prepare_text_dataset(*o);
    };
}

Action add_synth(CLI::App& app) {
    auto spec = std::make_shared<SyntheticSpec>();
    auto out = std::make_shared<std::string>();
    app.add_option("--task", spec->task,
                   "addition, copy, reverse or sort (lines of text); instructions (JSON records for twb prepare "
                   "--chat: \"reverse: abc\" -> \"cba\", sort, upper, copy)")
        ->check(CLI::IsMember(synthetic_tasks()))
        ->capture_default_str();
    app.add_option("--examples,-n", spec->examples, "Number of examples (lines)")->capture_default_str();
    app.add_option("--digits", spec->digits, "addition: digits per operand")->capture_default_str();
    app.add_flag("--reversed", spec->reversed_digits, "addition: write numbers least significant digit first");
    app.add_option("--min-length", spec->min_length, "copy/reverse/sort/instructions: shortest sequence")
        ->capture_default_str();
    app.add_option("--max-length", spec->max_length, "copy/reverse/sort/instructions: longest sequence")
        ->capture_default_str();
    app.add_option("--alphabet", spec->alphabet, "copy/reverse/sort/instructions: letters a.. used")
        ->capture_default_str();
    app.add_option("--seed", spec->seed, "Seed; the same seed gives the same file")
        ->check(kSeed)
        ->capture_default_str();
    app.add_option("--out,-o", *out,
                   "Output text file (then: twb prepare --input FILE --tokenizer char; for --task instructions: twb "
                   "prepare --chat FILE --tokenizer byte)")
        ->required();
    auto force = std::make_shared<bool>(false);
    app.add_flag("--force", *force, "Replace an existing FILE");
    return [spec, out, force]() {
        // Never into a run or a prepared dataset, never over a file unless asked (as export and attention).
        check_output_file(*out, {}, *force);
        const std::string text = generate_synthetic(*spec);
        write_file_atomic(*out, text);
        std::printf("wrote %d %s examples to %s\n", spec->examples, spec->task.c_str(), out->c_str());
        return 0;
    };
}

namespace {
/// `twb tokenize --stats`: what the Datasets panel's inspection shows, as text.
int print_stats(const std::string& dir, int top) {
    const TokenizerInspection r = inspect_prepared(dir, 40);
    const auto& s = r.stats;
    const auto tok = TextTokenizer::load(dir);
    uint64_t used = 0;
    for (auto c : r.counts)
        used += c > 0;
    std::printf("%s: %s tokenizer, vocab %d (%llu used)\n", dir.c_str(), to_string(tok.kind()).c_str(),
                tok.vocab_size(), static_cast<unsigned long long>(used));
    std::printf("train %llu tokens, val %llu tokens, %.3f characters/token, unknown %.4f%%\n",
                static_cast<unsigned long long>(r.train_tokens), static_cast<unsigned long long>(r.val_tokens),
                s.chars_per_token, 100.0 * s.unk_rate);
    if (!s.length_unit.empty())  // a chat dataset records no lengths per line ("lines" or "documents")
        std::printf("tokens per %s: mean %.1f, max %llu\n",
                    s.length_unit.substr(0, s.length_unit.size() - (s.length_unit.back() == 's')).c_str(),
                    s.length_mean, static_cast<unsigned long long>(s.length_max));
    const size_t bins = std::min(s.length_counts.size(), s.length_bin_edges.size() - !s.length_bin_edges.empty());
    for (size_t i = 0; i < bins; ++i) {
        // The last bin holds every longer one too (the edges end at the 99th percentile): up to the max.
        const double top = s.length_bin_edges[i + 1];
        if (i + 1 == bins && static_cast<double>(s.length_max) >= top)
            std::printf("  [%6.0f, %6llu] %llu\n", s.length_bin_edges[i], static_cast<unsigned long long>(s.length_max),
                        static_cast<unsigned long long>(s.length_counts[i]));
        else
            std::printf("  [%6.0f, %6.0f) %llu\n", s.length_bin_edges[i], top,
                        static_cast<unsigned long long>(s.length_counts[i]));
    }
    std::vector<int> ids(r.counts.size());
    for (size_t i = 0; i < ids.size(); ++i)
        ids[i] = static_cast<int>(i);
    std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return r.counts[a] > r.counts[b]; });
    std::printf("most frequent tokens:\n");
    for (int i = 0; i < top && i < static_cast<int>(ids.size()) && r.counts[ids[i]] > 0; ++i)
        std::printf("  %6d  %-16s %llu\n", ids[i], visible_whitespace(r.token_texts[ids[i]]).c_str(),
                    static_cast<unsigned long long>(r.counts[ids[i]]));
    return 0;
}
/// `twb tokenize --merges`: what the Datasets panel's merge view shows, as text.
int print_merges(const std::string& dir, int top) {
    const std::string sample((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    const auto r = inspect_merges(dir, sample, top);
    auto show = [](const std::vector<std::string>& tokens) {
        std::string s;
        for (const auto& t : tokens)
            s += "[" + visible_whitespace(t) + "]";
        return s;
    };
    std::printf("%d merges\n", r.merges);
    for (const auto* list : {&r.first, &r.last}) {
        std::puts(list == &r.first ? "first merges:" : "last merges:");
        for (const auto& m : *list)
            std::printf("  %6d  %s + %s -> %s (id %d)\n", m.rank, visible_whitespace(m.left).c_str(),
                        visible_whitespace(m.right).c_str(), visible_whitespace(m.merged).c_str(), m.id);
    }
    if (sample.empty())
        return 0;
    std::printf("bytes: %s\n", show(r.start).c_str());
    for (const auto& st : r.steps)
        std::printf("  %6d  %s\n", st.merge.rank, show(st.tokens).c_str());
    return 0;
}
}  // namespace

Action add_tokenize(CLI::App& app) {
    auto dir = std::make_shared<std::string>();
    auto decode = std::make_shared<bool>(false);
    auto stats = std::make_shared<bool>(false);
    auto top = std::make_shared<int>(20);
    app.add_option("--data,-d", *dir,
                   "Prepared dataset folder (holds tokenizer.json); to encode or decode, a run or checkpoint too")
        ->required();
    auto* decodeOpt =
        app.add_flag("--decode", *decode, "Read space-separated ids on stdin and write the text (byte-exact)");
    auto* statsOpt = app.add_flag("--stats", *stats,
                                  "Print the dataset's token statistics instead: vocabulary used, length histogram, "
                                  "most frequent tokens")
                         ->excludes(decodeOpt);
    auto merges = std::make_shared<bool>(false);
    app.add_flag("--merges", *merges,
                 "bytebpe: print the first and last --top merges, then how the text on stdin is merged step by step")
        ->excludes(decodeOpt)
        ->excludes(statsOpt);
    auto* topOpt = app.add_option("--top", *top, "With --stats or --merges: how many tokens or merges (default 20)")
                       ->check(CLI::Range(1, 1000000));
    return [dir, decode, stats, top, merges, topOpt]() {
        if (topOpt->count() && !*stats && !*merges)
            throw ConfigError("--top counts what --stats or --merges print; give one of them");
        if (*stats)
            return print_stats(*dir, *top);
        if (*merges)
            return print_merges(*dir, *top);
        const auto tok = TextTokenizer::load(find_tokenizer_dir(*dir));  // a dataset, a run or a checkpoint
        std::string in((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
        if (*decode) {
            std::vector<int32_t> ids;
            std::istringstream ss(in);
            std::string w;
            while (ss >> w) {
                try {
                    size_t used = 0;
                    const long long v = std::stoll(w, &used);
                    if (used != w.size())
                        throw std::invalid_argument(w);
                    // Not cast to 32 bits first: 2^32 + 20 is no alias of id 20.
                    if (v < 0 || v >= tok.vocab_size())
                        throw std::out_of_range(w);
                    ids.push_back(static_cast<int32_t>(v));
                } catch (const std::out_of_range&) {
                    throw InputError("token id " + w + " is outside the vocabulary (0.." +
                                     std::to_string(tok.vocab_size() - 1) + ")");
                } catch (const std::exception&) {
                    throw InputError("'" + w + "' is not a token id; give whole numbers separated by spaces");
                }
            }
            const std::string text = tok.decode(ids);
            std::fwrite(text.data(), 1, text.size(), stdout);
        } else {
            const auto ids = tok.encode(in);
            std::string line;
            for (size_t i = 0; i < ids.size(); ++i) {
                if (i)
                    line += ' ';
                line += std::to_string(ids[i]);
            }
            line += '\n';
            std::fwrite(line.data(), 1, line.size(), stdout);
        }
        return 0;
    };
}

Action add_datasets(CLI::App& app) {
    return []() {
        std::printf("catalogue: %s\n\n", catalogue_path().c_str());
        for (auto& e : load_catalogue()) {
            std::printf("%-20s %s\n", e.name.c_str(), e.title.c_str());
            std::printf("  %s\n", e.description.c_str());
            std::printf("  size %s, licence: %s, suggested: %s tokenizer%s, model preset %s\n",
                        e.files.empty() ? "local" : human_bytes(e.total_bytes()).c_str(), e.licence.c_str(),
                        e.tokenizer.c_str(), e.vocab_size ? (" " + std::to_string(e.vocab_size)).c_str() : "",
                        e.model_preset.c_str());
            if (e.files.empty())
                continue;
            // Where it is (or would be) downloaded, and where each file comes from, to fetch it by hand.
            const auto dir = default_downloads_dir() / e.name;
            std::printf("  %s: %s\n", entry_cached(dir, e) ? "downloaded in" : "not downloaded; the GUI puts it in",
                        dir.c_str());
            for (const auto& f : e.files)
                std::printf("    %-22s %s\n", f.path.c_str(), f.url.c_str());
        }
        return 0;
    };
}

}  // namespace twb::cli
