// Documents as sequences: prepare --documents writes a document index that matches the text, the index
// is validated when read, a documents batch is <bos> doc <eos> padded with ignored targets, the loss
// and accuracy skip padding (checked against a hand computation), a documents run learns, resumes bit
// for bit and samples from <bos> to <eos>; twb eval of a documents run scores documents as validation does.
#include "core/data/document_index.h"
#include "core/data/token_file.h"
#include "nn/training/batcher.h"
#include "nn/training/evaluator.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/session.h"
#include "twb/tokenizer.h"
#include "twb/training.h"

#include <cmath>

using namespace twb;

class TestDocuments : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_data;

    /// The documents of a prepared split, decoded through its index.
    static std::vector<std::string> documents(const std::filesystem::path& dir, const std::string& split) {
        const auto d = open_prepared(dir);
        TokenFile f(dir / (split + ".bin"), d.dtype);
        const auto idx = DocumentIndex::read(dir / (split + ".docs"), f.size(),
                                             split == "train" ? d.train_documents : d.val_documents);
        const auto tok = TextTokenizer::load(dir);
        std::vector<std::string> out;
        for (auto [s, e] : idx.docs) {
            std::vector<int32_t> ids;
            for (uint64_t i = s; i < e; ++i)
                ids.push_back(f.at(i));
            out.push_back(tok.decode(ids));
        }
        return out;
    }

    static PrepareOptions options(const std::filesystem::path& in, const std::filesystem::path& out) {
        PrepareOptions o;
        o.corpus.inputs = {in.string()};
        o.tokenizer.kind = TokenizerKind::Byte;
        o.documents = true;
        o.out = out;
        return o;
    }

    RunConfig config(int iters) const {
        RunConfig c = preset_config("tiny");
        c.data_dir = m_data.string();
        c.sequences = Sequences::Documents;
        c.n_layer = 2;
        c.n_embd = 32;
        c.n_head = 2;
        c.block_size = 16;
        c.batch_size = 8;
        c.max_iters = iters;
        c.lr_decay_iters = iters;
        c.warmup_iters = 5;
        c.eval_interval = 20;
        c.eval_iters = 2;
        c.log_interval = 1;
        c.threads = 1;
        return c;
    }
    std::vector<double> run(const RunConfig& c, const std::string& dir, bool resume = false, int stopAt = -1) {
        std::vector<double> losses;
        TrainJob job;
        job.config = c;
        job.run_dir = dir;
        job.resume = resume;
        TrainCallbacks cb;
        cb.on_step = [&](const StepReport& s) {
            losses.push_back(s.loss);
            return s.step != stopAt;
        };
        train(job, cb);
        return losses;
    }

private slots:
    void initTestCase() {
        // Records: nine in ten "hello world", the rest "xyz"; the model learns each whole record.
        std::string text;
        std::mt19937 rng(5);
        for (int i = 0; i < 600; ++i)
            text += (rng() % 10 == 0) ? "xyz\n%\n" : "hello world\n%\n";
        twbtest::write(twbtest::path(m_dir, "records.txt"), text);
        auto o = options(twbtest::path(m_dir, "records.txt"), twbtest::path(m_dir, "data"));
        o.corpus.format = InputFormat::Records;
        prepare_dataset(o);
        m_data = o.out;
    }

    void recordsBecomeIndexedDocuments() {
        const auto d = open_prepared(m_data);
        QVERIFY(d.has_documents);
        QCOMPARE(d.train_documents + d.val_documents, uint64_t(600));
        // The tail split cuts at a document boundary: val starts with a whole document.
        QVERIFY(d.val_documents > 0);
        const auto train = documents(m_data, "train"), val = documents(m_data, "val");
        for (const auto* split : {&train, &val})
            for (const auto& doc : *split)
                QVERIFY2(doc == "hello world" || doc == "xyz", doc.c_str());  // records keep no line break
        TokenFile v(m_data / "val.bin", d.dtype);
        QCOMPARE(DocumentIndex::read(m_data / "val.docs", v.size(), d.val_documents).docs.front().first, uint64_t(0));
    }

    void textParagraphsOrLinesAreDocuments() {
        twbtest::write(twbtest::path(m_dir, "para.txt"), "one a\none b\n\n\ntwo\n  \nthree\n");
        auto o = options(twbtest::path(m_dir, "para.txt"), twbtest::path(m_dir, "para"));
        o.val_fraction = 0;
        // No validation split is said: training would score the training split in its place.
        const auto prepared = prepare_dataset(o);
        QCOMPARE(prepared.warnings.size(), size_t(1));
        QVERIFY2(prepared.warnings[0].find("the validation split is empty (val fraction 0)") == 0,
                 prepared.warnings[0].c_str());
        QCOMPARE(documents(o.out, "train"), (std::vector<std::string>{"one a\none b", "two", "three"}));
        // Without a blank line every line is a document.
        twbtest::write(twbtest::path(m_dir, "lines.txt"), "first line\nsecond\nthird");
        o = options(twbtest::path(m_dir, "lines.txt"), twbtest::path(m_dir, "lines"));
        o.val_fraction = 0;
        prepare_dataset(o);
        QCOMPARE(documents(o.out, "train"), (std::vector<std::string>{"first line", "second", "third"}));
    }

    void charTokenizerIsRefused() {
        auto o = options(twbtest::path(m_dir, "lines.txt"), twbtest::path(m_dir, "charDocs"));
        o.tokenizer.kind = TokenizerKind::Char;  // has no <bos>/<eos>
        QVERIFY_THROWS_EXCEPTION(ConfigError, prepare_dataset(o));
        QVERIFY(!std::filesystem::exists(o.out));
    }

    void badIndexIsRefused() {
        const auto p = twbtest::path(m_dir, "bad.docs");
        DocumentIndex ok;
        ok.docs = {{0, 3}, {4, 8}};
        ok.write(p);
        QCOMPARE(DocumentIndex::read(p, 9, 2).docs, ok.docs);
        QVERIFY_THROWS_EXCEPTION(FormatError, DocumentIndex::read(p, 7, 2));  // past the token file
        QVERIFY_THROWS_EXCEPTION(FormatError, DocumentIndex::read(p, 9, 3));  // count differs from meta.json
        DocumentIndex overlap;
        overlap.docs = {{0, 5}, {4, 8}};
        overlap.write(p);
        QVERIFY_THROWS_EXCEPTION(FormatError, DocumentIndex::read(p, 9, 2));
        DocumentIndex backwards;
        backwards.docs = {{3, 2}};
        backwards.write(p);
        QVERIFY_THROWS_EXCEPTION(FormatError, DocumentIndex::read(p, 9, 1));
        twbtest::write(p, "12345");  // not whole pairs
        QVERIFY_THROWS_EXCEPTION(FormatError, DocumentIndex::read(p, 9, 0));

        // Training refuses a corrupted index, and documents on a dataset without one.
        const auto broken = twbtest::path(m_dir, "broken");
        std::filesystem::copy(m_data, broken);
        overlap.write(broken / "train.docs");
        auto c = config(5);
        c.data_dir = broken.string();
        QVERIFY_THROWS_EXCEPTION(FormatError, run(c, twbtest::path(m_dir, "r-broken").string()));
        std::filesystem::remove(broken / "train.docs");
        QVERIFY_THROWS_EXCEPTION(FormatError, run(c, twbtest::path(m_dir, "r-missing").string()));
        twbtest::write(twbtest::path(m_dir, "s.txt"), twbtest::english_like(3000));
        PrepareOptions s;
        s.corpus.inputs = {twbtest::path(m_dir, "s.txt").string()};
        s.tokenizer.kind = TokenizerKind::Byte;
        s.out = twbtest::path(m_dir, "stream");
        prepare_dataset(s);
        c.data_dir = s.out.string();
        QVERIFY_THROWS_EXCEPTION(ConfigError, run(c, twbtest::path(m_dir, "r-stream").string()));
    }

    void batchIsPaddedDocuments() {
        // Token file: doc A = 10 11 12 13 14 (5 tokens), <eos>=2, doc B = 20 (1 token), <eos>.
        const auto p = twbtest::path(m_dir, "tiny.bin");
        {
            TokenWriter w(p, TokenDtype::U16);
            const std::vector<int32_t> ids{10, 11, 12, 13, 14, 2, 20, 2};
            w.write(ids.data(), ids.size());
            w.close();
        }
        TokenFile f(p, TokenDtype::U16);
        DocumentIndex idx;
        idx.docs = {{0, 5}, {6, 7}};
        nn::DocumentSource src{&idx, 1, 2, 0};
        // block 4: A is <bos> 10 11 12 13 14 <eos> (6 targets) -> 2 pieces; B is <bos> 20 <eos> -> 1 piece.
        nn::Batcher b(f, src, 4, 64, 7);
        QCOMPARE(b.pieces(), uint64_t(3));
        auto [x, y] = b.next(torch::Device(torch::kCPU));
        QCOMPARE(x.size(1), int64_t(4));  // the longest piece has block_size targets
        const std::vector<std::vector<int64_t>> xs{{1, 10, 11, 12}, {13, 14, 0, 0}, {1, 20, 0, 0}},
            ys{{10, 11, 12, 13}, {14, 2, -1, -1}, {20, 2, -1, -1}};
        std::vector<bool> seen(3, false);
        for (int64_t r = 0; r < x.size(0); ++r) {
            std::vector<int64_t> xr(x[r].data_ptr<int64_t>(), x[r].data_ptr<int64_t>() + 4),
                yr(y[r].data_ptr<int64_t>(), y[r].data_ptr<int64_t>() + 4);
            bool known = false;
            for (size_t k = 0; k < 3; ++k)
                if (xr == xs[k] && yr == ys[k])
                    known = seen[k] = true;
            QVERIFY(known);
        }
        QVERIFY(seen[0] && seen[1] && seen[2]);  // 64 draws of 3 pieces
        // A batch of short pieces only is as long as its longest: B alone has 2 targets.
        DocumentIndex onlyB;
        onlyB.docs = {{6, 7}};
        nn::DocumentSource srcB{&onlyB, 1, 2, 0};
        nn::Batcher bB(f, srcB, 4, 2, 7);
        QCOMPARE(bB.next(torch::Device(torch::kCPU)).first.size(1), int64_t(2));
    }

    void paddedLossIsTheMeanOverRealTokens() {
        // Logits (B=2, T=3, V=4) and targets with padding; the hand computation is -log softmax per real
        // position, averaged over the real positions only.
        torch::manual_seed(1);
        const auto logits = torch::randn({2, 3, 4}, torch::kFloat64);
        const auto y = torch::tensor({{1, 3, -1}, {2, -1, -1}}, torch::kInt64);
        double sum = 0;
        int n = 0;
        for (int b = 0; b < 2; ++b)
            for (int t = 0; t < 3; ++t) {
                const int64_t target = y[b][t].item<int64_t>();
                if (target < 0)
                    continue;
                double z = 0;
                for (int v = 0; v < 4; ++v)
                    z += std::exp(logits[b][t][v].item<double>());
                sum += std::log(z) - logits[b][t][target].item<double>();
                ++n;
            }
        const double byHand = sum / n;
        const double loss = nn::masked_cross_entropy(logits.view({-1, 4}), y.reshape({-1})).item<double>();
        QVERIFY2(std::abs(loss - byHand) < 1e-12, qPrintable(QString("%1 vs %2").arg(loss).arg(byHand)));
        // The sum over the padded batch equals the sum over the real tokens alone.
        const double total =
            nn::masked_cross_entropy(logits.view({-1, 4}), y.reshape({-1}), torch::kSum).item<double>();
        QVERIFY(std::abs(total - sum) < 1e-12);
    }

    void accuracyIgnoresPadding() {
        // Three real targets, two right; two padded positions whose argmax (0) would be "right" for 0.
        const auto logits =
            torch::tensor({{5.0, 0.0, 0.0}, {0.0, 5.0, 0.0}, {0.0, 0.0, 5.0}, {5.0, 0.0, 0.0}, {5.0, 0.0, 0.0}});
        const auto y = torch::tensor({0, 1, 0, -1, -1}, torch::kInt64);
        const auto [right, real] = nn::masked_correct(logits, y);
        QCOMPARE(right, int64_t(2));
        QCOMPARE(real, int64_t(3));  // accuracy 2/3, not 2/5
    }

    void documentsRunLearnsResumesAndStopsAtEos() {
        auto cfg = config(150);
        const auto full = run(cfg, twbtest::path(m_dir, "docs-full").string());
        QCOMPARE(full.size(), size_t(150));
        // From ~ln(259) = 5.56 nats; the records carry about 0.47 bits of choice each, so the loss falls far.
        QVERIFY2(full.back() < 1.0, qPrintable(QString::number(full.back())));

        // Resume: stopped at 37 and continued, the losses are the uninterrupted run's, exactly.
        const auto first = run(cfg, twbtest::path(m_dir, "docs-split").string(), false, 37);
        const auto second = run(cfg, twbtest::path(m_dir, "docs-split").string(), true);
        std::vector<double> joined = first;
        joined.insert(joined.end(), second.begin(), second.end());
        QCOMPARE(joined.size(), full.size());
        for (size_t i = 0; i < joined.size(); ++i)
            QCOMPARE(joined[i], full[i]);

        // Greedy sampling starts at <bos> and ends at <eos> by itself: the most likely record, whole.
        ModelSession s;
        s.open(twbtest::path(m_dir, "docs-full").string(), "last");
        SamplingOptions opt;
        opt.temperature = 0;
        opt.max_new_tokens = 50;
        auto r = s.generate(s.encode(""), opt);
        QCOMPARE(r.texts.at(0), std::string("hello world"));
        QVERIFY(r.generated < 50);  // stopped at <eos>, not at the token limit
        // A prompt gets the <bos> prepended, so "hello" continues as a document start.
        r = s.generate(s.encode("hello"), opt);
        QCOMPARE(r.texts.at(0), std::string(" world"));
    }

    void evalScoresDocumentsAsValidationDoes() {
        // twb eval of a documents run scores every val document as <bos> doc <eos>, padding excluded.
        auto cfg = config(20);
        const auto runDir = twbtest::path(m_dir, "docs-eval").string();
        run(cfg, runDir);
        ModelSession s;
        s.open(runDir, "last");
        EvalOptions opt;
        opt.batch_size = 5;  // pieces of unequal length in one batch: padding is there to be skipped
        const EvalResult r = s.evaluate(opt);
        QCOMPARE(r.sequences, Sequences::Documents);
        const auto d = open_prepared(m_data);
        QCOMPARE(r.documents, static_cast<int64_t>(d.val_documents));
        // Independently: each document's log-probabilities one sequence at a time (no batch, no padding).
        const auto special = d.meta.at("special_tokens");
        const int32_t bos = special.at("bos").get<int32_t>(), eos = special.at("eos").get<int32_t>();
        const auto tok = TextTokenizer::load(m_data);
        double nats = 0;
        int64_t targets = 0;
        std::vector<double> inOrder;  // every target's log-probability, document after document
        for (const auto& doc : documents(m_data, "val")) {
            std::vector<int32_t> ids{bos};
            const auto body = tok.encode(doc);
            ids.insert(ids.end(), body.begin(), body.end());
            ids.push_back(eos);
            for (double lp : s.log_probs(ids, 1)) {
                nats -= lp;
                inOrder.push_back(lp);
            }
            targets += static_cast<int64_t>(ids.size()) - 1;
        }
        QCOMPARE(r.tokens, targets);
        QVERIFY2(std::abs(r.loss - nats / static_cast<double>(targets)) < 1e-5,
                 qPrintable(QString("%1 vs %2").arg(r.loss).arg(nats / static_cast<double>(targets))));
        // --max-tokens 30: the first 30 targets and no more (a batch of whole pieces scored all five).
        EvalOptions few = opt;
        few.max_tokens = 30;
        QVERIFY(targets > 60);
        const EvalResult part = s.evaluate(few);
        QCOMPARE(part.tokens, int64_t(30));
        double first = 0;
        for (size_t i = 0; i < 30; ++i)
            first -= inOrder[i];
        QVERIFY2(std::abs(part.loss - first / 30) < 1e-5,
                 qPrintable(QString("%1 vs %2").arg(part.loss).arg(first / 30)));

        // Where every val document is the same, training's random validation batches see exactly the
        // documents a whole pass sees, so its val loss and twb eval's agree on the same checkpoint.
        std::string text;
        for (int i = 0; i < 200; ++i)
            text += "hello world\n%\n";
        twbtest::write(twbtest::path(m_dir, "same.txt"), text);
        auto o = options(twbtest::path(m_dir, "same.txt"), twbtest::path(m_dir, "same"));
        o.corpus.format = InputFormat::Records;
        prepare_dataset(o);
        auto same = config(20);
        same.data_dir = o.out.string();
        TrainJob job;
        job.config = same;
        job.run_dir = twbtest::path(m_dir, "same-run").string();
        const TrainSummary summary = train(job);
        ModelSession t;
        t.open(job.run_dir, "last");
        QCOMPARE(t.step(), int64_t(20));
        // The trainer validates in its training precision (bf16 where dtype=auto picks it); twb eval's
        // default is float32 everywhere, so compare in the run's own precision (--precision auto).
        EvalOptions inRunPrecision;
        inRunPrecision.precision = DType::Auto;
        const EvalResult e = t.evaluate(inRunPrecision);
        QVERIFY2(std::abs(e.loss - summary.last_val_loss) < 1e-5,
                 qPrintable(QString("eval %1 vs training %2").arg(e.loss).arg(summary.last_val_loss)));
    }
};

TWB_APPLESS_MAIN(TestDocuments)
#include "tst_documents.moc"
