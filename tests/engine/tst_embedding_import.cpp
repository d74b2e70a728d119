// embeddings_from: word vectors from a text file land on the token ids whose text is the word (and
// nowhere else), a width mismatch, an unreadable file and a run with another tokenizer are refused with
// messages that say so, a run's embedding comes over whole, and with freeze_embeddings the imported
// rows (and the random ones) are still exactly there after training.
#include "core/data/word_vectors.h"
#include "nn/interchange/checkpoint.h"
#include "nn/training/embedding_import.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/run_folder.h"
#include "twb/tokenizer.h"
#include "twb/training.h"

using namespace twb;

namespace {
constexpr int kWidth = 8;

/// The vector the test files give a word: distinct, exactly representable values.
std::vector<float> vec(int k) {
    std::vector<float> v;
    for (int i = 0; i < kWidth; ++i)
        v.push_back(static_cast<float>(k) + 0.125f * static_cast<float>(i));
    return v;
}

std::string line(const std::string& word, const std::vector<float>& v) {
    std::string s = word;
    for (float x : v)
        s += " " + std::to_string(x);
    return s + "\n";
}

/// Token text without a leading space: what a vectors file calls the word (written out here, not taken
/// from the engine).
std::string bare(const std::string& t) {
    return !t.empty() && t[0] == ' ' ? t.substr(1) : t;
}
}  // namespace

class TestEmbeddingImport : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_data, m_vectors;

    RunConfig config(int iters) const {
        RunConfig c = preset_config("tiny");
        c.data_dir = m_data.string();
        c.n_layer = 1;
        c.n_head = 2;
        c.n_embd = kWidth;
        c.block_size = 16;
        c.batch_size = 4;
        c.max_iters = iters;
        c.lr_decay_iters = iters;
        c.warmup_iters = 1;
        c.eval_interval = iters;
        c.eval_iters = 1;
        c.threads = 1;
        return c;
    }
    std::string train_run(const RunConfig& c, const char* name) {
        TrainJob job;
        job.config = c;
        job.run_dir = twbtest::path(m_dir, name).string();
        train(job);
        return job.run_dir;
    }
    static torch::Tensor wte_of(const std::string& run) {
        return nn::read_checkpoint(find_checkpoint(run, "last")).weights.tensors.at("transformer.wte.weight");
    }

private slots:
    void initTestCase() {
        // A word-tokenized corpus: "the", "quick", "fox"... as " the" inside lines and "the" at line starts.
        twbtest::write(twbtest::path(m_dir, "text.txt"), twbtest::english_like(20000));
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, "text.txt").string()};
        o.tokenizer.kind = TokenizerKind::Word;
        o.out = twbtest::path(m_dir, "words");
        prepare_dataset(o);
        m_data = o.out;
        // A header line, a word of the corpus, one in capitals (found lowercased), one the corpus lacks.
        m_vectors = twbtest::path(m_dir, "vectors.vec");
        twbtest::write(m_vectors, "4 8\n" + line("quick", vec(1)) + line("FOX", vec(2)) + line("zebra", vec(3)) +
                                      line("dog", vec(4)));
    }

    void rowsLandOnTheirTokens() {
        const auto tok = load_tokenizer(m_data);
        const auto rows = read_word_vectors(m_vectors, *tok, kWidth);
        QCOMPARE(rows.vectors, int64_t(4));
        QCOMPARE(rows.unused, int64_t(1));  // zebra
        // Expected: every id whose text is the word with or without a leading space, and no other.
        std::map<int32_t, int> want;
        for (int id = 0; id < tok->vocab_size(); ++id) {
            const std::string w = bare(tok->token_text(id));
            if (w == "quick")
                want[id] = 1;
            if (w == "fox")
                want[id] = 2;
            if (w == "dog")
                want[id] = 4;
        }
        QVERIFY(want.size() >= 3);
        QCOMPARE(rows.ids.size(), want.size());
        for (size_t i = 0; i < rows.ids.size(); ++i) {
            QVERIFY(want.count(rows.ids[i]));
            const auto expect = vec(want[rows.ids[i]]);
            for (int k = 0; k < kWidth; ++k)
                QCOMPARE(rows.values[i * kWidth + static_cast<size_t>(k)], expect[static_cast<size_t>(k)]);
        }
        // Into a model: those rows replaced, every other row as it was.
        RunConfig c = config(1);
        c.vocab_size = tok->vocab_size();
        torch::manual_seed(3);
        nn::GPT model(c);
        const auto before = model->transformer->wte->weight.detach().clone();
        const auto r = nn::import_embeddings(model, m_vectors, m_data);
        QCOMPARE(r.rows, int64_t(want.size()));
        QVERIFY2(r.message.find(std::to_string(want.size()) + " of " + std::to_string(tok->vocab_size())) !=
                     std::string::npos,
                 r.message.c_str());
        const auto after = model->transformer->wte->weight.detach();
        for (int id = 0; id < tok->vocab_size(); ++id) {
            if (want.count(id)) {
                const auto expect = torch::tensor(vec(want[id]));
                QVERIFY(torch::equal(after[id], expect));
            } else {
                QVERIFY(torch::equal(after[id], before[id]));
            }
        }
    }

    void exactMatchBeatsLowercased() {
        // "Dog" (lowercased to dog) comes first, the exact "dog" after it: the exact one wins.
        const auto p = twbtest::path(m_dir, "cased.vec");
        twbtest::write(p, line("Dog", vec(5)) + line("dog", vec(6)));
        const auto tok = load_tokenizer(m_data);
        const auto rows = read_word_vectors(p, *tok, kWidth);
        QVERIFY(!rows.ids.empty());
        for (size_t i = 0; i < rows.ids.size(); ++i)
            QCOMPARE(rows.values[i * kWidth], 6.0f);
    }

    void badFilesAreRefused() {
        const auto tok = load_tokenizer(m_data);
        // Vectors of 5 values for a model 8 wide: the message names both widths and the file.
        const auto narrow = twbtest::path(m_dir, "narrow.vec");
        twbtest::write(narrow, "the 1 2 3 4 5\n");
        try {
            read_word_vectors(narrow, *tok, kWidth);
            QFAIL("a 5-wide vectors file was taken for an 8-wide model");
        } catch (const ConfigError& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("5 values") != std::string::npos && m.find("n_embd = 8") != std::string::npos &&
                         m.find("narrow.vec") != std::string::npos,
                     e.what());
        }
        // The header says 300 wide.
        const auto header = twbtest::path(m_dir, "header.vec");
        twbtest::write(header, "1 300\n" + line("the", vec(1)));
        QVERIFY_THROWS_EXCEPTION(ConfigError, read_word_vectors(header, *tok, kWidth));
        QVERIFY_THROWS_EXCEPTION(InputError, read_word_vectors(twbtest::path(m_dir, "missing.vec"), *tok, kWidth));
        const auto text = twbtest::path(m_dir, "nonumber.vec");
        twbtest::write(text, line("the", vec(1)) + "fox 1 2 3 x 5 6 7 8\n");
        QVERIFY_THROWS_EXCEPTION(FormatError, read_word_vectors(text, *tok, kWidth));
        // "nan" and "inf" parse as numbers but are none: refused with their line (a NaN row was taken, and
        // the run then "diverged at step 0" with advice about the learning rate).
        for (const char* bad : {"nan", "inf", "-inf"}) {
            const auto nan = twbtest::path(m_dir, "nan.vec");
            twbtest::write(nan, line("the", vec(1)) + "fox 1 2 " + bad + " 4 5 6 7 8\n");
            try {
                read_word_vectors(nan, *tok, kWidth);
                QFAIL(bad);
            } catch (const FormatError& e) {
                QVERIFY2(std::string(e.what()).find("line 2") != std::string::npos, e.what());
            }
        }
        // No word of the file is a token: refused rather than silently a random start.
        const auto foreign = twbtest::path(m_dir, "foreign.vec");
        twbtest::write(foreign, line("zebra", vec(1)));
        QVERIFY_THROWS_EXCEPTION(ConfigError, read_word_vectors(foreign, *tok, kWidth));
        // Through training: refused before any checkpoint is written.
        RunConfig c = config(2);
        c.set("embeddings_from=" + narrow.string());
        QCOMPARE(c.embeddings_from, narrow.string());
        QVERIFY_THROWS_EXCEPTION(ConfigError, train_run(c, "narrow_run"));
        QVERIFY(list_checkpoints(twbtest::path(m_dir, "narrow_run")).empty());
    }

    void frozenImportedRowsStayPut() {
        RunConfig c = config(5);
        c.embeddings_from = m_vectors.string();
        c.freeze_embeddings = true;
        const auto run = train_run(c, "frozen");
        // The start the trainer made: its seed, then the model, then the import (as restore() does).
        RunConfig full = c;
        full.vocab_size = open_prepared(m_data).vocab_size;
        torch::manual_seed(full.seed);
        nn::GPT start(full);
        nn::import_embeddings(start, m_vectors, m_data);
        const auto trained = wte_of(run);
        QVERIFY(torch::equal(trained, start->transformer->wte->weight.detach()));
        const auto tok = load_tokenizer(m_data);
        const int quick = tok->encode(" quick").at(0);
        QVERIFY(torch::equal(trained[quick], torch::tensor(vec(1))));
        // Not frozen, the same start moves: the comparison above can fail.
        c.freeze_embeddings = false;
        QVERIFY(!torch::equal(wte_of(train_run(c, "unfrozen")), start->transformer->wte->weight.detach()));
    }

    void embeddingsFromARun() {
        RunConfig c = config(3);
        const auto source = train_run(c, "source");
        c.embeddings_from = source;
        c.freeze_embeddings = true;  // so the copy's embedding is still the source's after its steps
        const auto copy = train_run(c, "copy");
        QVERIFY(torch::equal(wte_of(copy), wte_of(source)));
        // Another width: refused, naming both shapes.
        RunConfig wide = c;
        wide.n_embd = 16;
        try {
            train_run(wide, "wide");
            QFAIL("a 8-wide embedding was taken for a 16-wide model");
        } catch (const ConfigError& e) {
            QVERIFY2(std::string(e.what()).find("n_embd=8") != std::string::npos, e.what());
        }
        // Another tokenizer: refused by the fingerprint check.
        twbtest::write(twbtest::path(m_dir, "other.txt"), twbtest::syllable_text(20000));
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, "other.txt").string()};
        o.tokenizer.kind = TokenizerKind::Word;
        o.out = twbtest::path(m_dir, "other");
        prepare_dataset(o);
        RunConfig other = c;
        other.data_dir = o.out.string();
        QVERIFY_THROWS_EXCEPTION(ConfigError, train_run(other, "other_run"));
    }
};

TWB_APPLESS_MAIN(TestEmbeddingImport)
#include "tst_embedding_import.moc"
