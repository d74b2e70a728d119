// Tokenizers reused safely: --tokenizer-from encodes with the source's tokenizer (the same ids), and a
// model is never initialised from or evaluated on data whose ids mean other text.
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/session.h"
#include "twb/tokenizer.h"
#include "twb/training.h"

using namespace twb;

class TestTokenizerReuse : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::filesystem::path prepare(const char* name, const std::string& text, const std::filesystem::path& from = {}) {
        twbtest::write(twbtest::path(m_dir, (std::string(name) + ".txt").c_str()), text);
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, (std::string(name) + ".txt").c_str()).string()};
        o.tokenizer.kind = TokenizerKind::Bpe;
        o.tokenizer.vocab_size = 300;
        o.tokenizer_from = from;
        o.out = twbtest::path(m_dir, name);
        prepare_dataset(o);
        return o.out;
    }
    std::string train_tiny(const std::filesystem::path& data, const char* name, const std::string& init = {}) {
        RunConfig c = preset_config("tiny");
        c.data_dir = data.string();
        c.n_layer = 1;
        c.n_embd = 16;
        c.n_head = 2;
        c.block_size = 16;
        c.max_iters = 2;
        c.eval_interval = 2;
        c.eval_iters = 1;
        c.threads = 1;
        TrainJob job;
        job.config = c;
        job.run_dir = twbtest::path(m_dir, name).string();
        job.init_from = init;
        job.init_checkpoint = "last";
        train(job);
        return job.run_dir;
    }

private slots:
    void initTestCase() {
        // Shared by the test functions, made here so each passes alone and in any order.
        const auto a = prepare("a", twbtest::syllable_text(40000, 1));
        prepare("b_with_a", twbtest::syllable_text(40000, 2), a);
        train_tiny(a, "run_a");
    }
    void tokenizerFromGivesTheSourcesIds() {
        const auto a = twbtest::path(m_dir, "a"), b = twbtest::path(m_dir, "b_with_a");
        const auto ta = TextTokenizer::load(a), tb = TextTokenizer::load(b);
        QCOMPARE(tb.fingerprint(), ta.fingerprint());
        QCOMPARE(tb.vocab_size(), ta.vocab_size());
        const std::string probe = twbtest::syllable_text(3000, 9) + twbtest::hard_unicode();
        QCOMPARE(tb.encode(probe), ta.encode(probe));
        const auto meta = open_prepared(b).meta;
        QCOMPARE(meta["tokenizer_fingerprint"].get<std::string>(), ta.fingerprint());
        QVERIFY(meta.contains("tokenizer_from"));
        // A run carries its tokenizer: preparing from the run gives the same fingerprint again.
        const auto run = twbtest::path(m_dir, "run_a");
        QCOMPARE(TextTokenizer::load(find_tokenizer_dir(run)).fingerprint(), ta.fingerprint());
        // a path that does not exist is said as such (it read "no tokenizer here")
        try {
            find_tokenizer_dir(twbtest::path(m_dir, "no-such-folder"));
            QFAIL("a missing folder was taken");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("no-such-folder: no such folder") != std::string::npos, e.what());
        }
        const auto c = prepare("c_with_run", twbtest::syllable_text(20000, 3), run);
        QCOMPARE(TextTokenizer::load(c).fingerprint(), ta.fingerprint());
    }
    void mismatchedTokenizersAreRefused() {
        const auto a = twbtest::path(m_dir, "a"), b = twbtest::path(m_dir, "b_with_a");
        const auto other = prepare("other", twbtest::syllable_text(40000, 5));  // its own BPE-300
        QVERIFY(TextTokenizer::load(other).fingerprint() != TextTokenizer::load(a).fingerprint());
        const auto run = twbtest::path(m_dir, "run_a").string();
        try {
            train_tiny(other, "ft_other", run);
            QFAIL("finetuning on data with another tokenizer was accepted");
        } catch (const ConfigError& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("cannot initialise from") != std::string::npos &&
                         m.find("--tokenizer-from") != std::string::npos && m.find(run) != std::string::npos,
                     e.what());
        }
        QVERIFY(!std::filesystem::exists(twbtest::path(m_dir, "ft_other") / "checkpoints"));
        train_tiny(b, "ft_same", run);  // the same tokenizer: accepted
        ModelSession s;
        s.open(run, "last");
        EvalOptions opt;
        opt.data_dir = other.string();
        QVERIFY_THROWS_EXCEPTION(ConfigError, s.evaluate(opt));
        opt.data_dir = b.string();
        QVERIFY(s.evaluate(opt).tokens > 0);
    }
};

TWB_APPLESS_MAIN(TestTokenizerReuse)
#include "tst_tokenizer_reuse.moc"
