// The embedding explorer on hand-set embeddings: a tiny checkpoint whose token embedding (wte) rows
// are chosen so that every neighbour, similarity and map coordinate is known by hand. The corpus fixes
// the token frequencies (a > b > c > d > e > newline), so the map's choice of tokens is known too.
#include "nn/analysis/embedding_geometry.h"
#include "nn/interchange/checkpoint.h"
#include "test_util.h"
#include "twb/dataset.h"
#include "twb/embeddings.h"
#include "twb/errors.h"
#include "twb/session.h"
#include "twb/tokenizer.h"

#include <cmath>
#include <map>

using namespace twb;

class TestEmbeddings : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_run, m_data;
    std::map<char, int> m_id;  // each character's token id
    int m_vocab = 0;

    // Saves a checkpoint at `step` whose wte row of each character is rows[c] (others: `rest`).
    void save(int64_t step, const std::map<char, std::vector<float>>& rows, const std::vector<float>& rest) {
        RunConfig c = preset_config("tiny");
        c.data_dir = m_data;
        c.vocab_size = m_vocab;
        c.n_layer = 1;
        c.n_head = 1;
        c.n_embd = 4;
        c.block_size = 8;
        c.threads = 1;
        nn::GPT model(c);
        torch::NoGradGuard ng;
        auto& w = model->transformer->wte->weight;
        for (int id = 0; id < m_vocab; ++id)
            w[id].copy_(torch::tensor(rest));
        for (const auto& [ch, v] : rows)
            w[m_id.at(ch)].copy_(torch::tensor(v));
        CheckpointState st;
        st.step = step;
        st.config = c;
        nn::save_checkpoint(m_run, model, nullptr, st);
        // The tokenizer a run keeps beside its checkpoints (the dataset's is never read in its place).
        std::filesystem::create_directories(std::filesystem::path(m_run) / "tokenizer");
        std::filesystem::copy_file(std::filesystem::path(m_data) / "tokenizer.json",
                                   std::filesystem::path(m_run) / "tokenizer" / "tokenizer.json",
                                   std::filesystem::copy_options::overwrite_existing);
    }

private slots:
    void initTestCase() {
        std::string text;
        for (int i = 0; i < 500; ++i)
            text += "aaaaaabbbbbccccdddee\n";  // per line: a 6, b 5, c 4, d 3, e 2, newline 1
        twbtest::write(twbtest::path(m_dir, "c.txt"), text);
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, "c.txt").string()};
        o.out = twbtest::path(m_dir, "data");
        prepare_dataset(o);
        m_data = o.out.string();
        m_run = twbtest::path(m_dir, "run").string();
        const auto tok = TextTokenizer::load(m_data);
        m_vocab = tok.vocab_size();
        for (char ch : std::string("abcde\n")) {
            const auto ids = tok.encode(std::string(1, ch));
            QCOMPARE(ids.size(), size_t(1));
            m_id[ch] = ids[0];
        }
        // Step 1, for similarities: a = x, b = x + y, c = y, d = -x, e = 2x, newline = z, others = w.
        save(1,
             {{'a', {1, 0, 0, 0}},
              {'b', {1, 1, 0, 0}},
              {'c', {0, 1, 0, 0}},
              {'d', {-1, 0, 0, 0}},
              {'e', {2, 0, 0, 0}},
              {'\n', {0, 0, 1, 0}}},
             {0, 0, 0, 1});
        // Step 2, for the map: a..e in a plane, at (x, y) = a (-2, 0), b (2, 0), c (0, 1), d (0, -1),
        // e (0, 0) in the orthonormal basis u = (1, 2, 2, 0) / 3, v = (0, 0, 0, 1), plus an offset that
        // centring removes.
        auto at = [](double x, double y) {
            return std::vector<float>{static_cast<float>(x / 3 + 5), static_cast<float>(2 * x / 3 + 5),
                                      static_cast<float>(2 * x / 3 + 5), static_cast<float>(y + 5)};
        };
        save(2,
             {{'a', at(-2, 0)}, {'b', at(2, 0)}, {'c', at(0, 1)}, {'d', at(0, -1)}, {'e', at(0, 0)}, {'\n', at(9, 9)}},
             at(-9, 9));
    }

    void nearestOfOneTokenByCosine() {
        ModelSession s;
        s.open(m_run, "1");
        const auto r = s.nearest_tokens("a", m_vocab);
        QCOMPARE(r.query_ids, std::vector<int32_t>{m_id['a']});
        QCOMPARE(r.neighbours.size(), size_t(m_vocab - 1));  // every token but the query itself
        // cos(a, e) = 1, cos(a, b) = 1/sqrt 2, then c, newline and the rest at 0, d last at -1.
        QCOMPARE(r.neighbours[0].id, m_id['e']);
        QVERIFY(std::abs(r.neighbours[0].similarity - 1) < 1e-9);
        QCOMPARE(r.neighbours[1].id, m_id['b']);
        QVERIFY(std::abs(r.neighbours[1].similarity - 1 / std::sqrt(2.0)) < 1e-7);
        QCOMPARE(r.neighbours.back().id, m_id['d']);
        QVERIFY(std::abs(r.neighbours.back().similarity + 1) < 1e-9);
        QCOMPARE(r.neighbours[0].text, std::string("e"));
        // k limits the list.
        QCOMPARE(s.nearest_tokens("a", 2).neighbours.size(), size_t(2));
    }

    void aTextOfSeveralTokensIsTheMeanOfItsRows() {
        ModelSession s;
        s.open(m_run, "1");
        // mean(a, b) = (1, 0.5, 0, 0), norm sqrt(1.25): cos with e = 2 / (2 sqrt 1.25), with c = 0.5 / sqrt 1.25.
        const auto r = s.nearest_tokens("ab", 2);
        QCOMPARE(r.query_ids.size(), size_t(2));
        QCOMPARE(r.neighbours[0].id, m_id['e']);
        QVERIFY(std::abs(r.neighbours[0].similarity - 1 / std::sqrt(1.25)) < 1e-7);
        QCOMPARE(r.neighbours[1].id, m_id['c']);
        QVERIFY(std::abs(r.neighbours[1].similarity - 0.5 / std::sqrt(1.25)) < 1e-7);
    }

    void similarityOfTokensAndTexts() {
        ModelSession s;
        s.open(m_run, "1");
        QVERIFY(std::abs(s.similarity("a", "e").similarity - 1) < 1e-9);
        QVERIFY(std::abs(s.similarity("a", "d").similarity + 1) < 1e-9);
        QVERIFY(std::abs(s.similarity("a", "c").similarity) < 1e-9);
        QVERIFY(std::abs(s.similarity("b", "c").similarity - 1 / std::sqrt(2.0)) < 1e-7);
        const auto r = s.similarity("ab", "c");
        QCOMPARE(r.a_ids.size(), size_t(2));
        QVERIFY(std::abs(r.similarity - 0.5 / std::sqrt(1.25)) < 1e-7);
        // Symmetric, and a text of one repeated token is that token.
        QVERIFY(std::abs(s.similarity("c", "ab").similarity - r.similarity) < 1e-12);
        QVERIFY(std::abs(s.similarity("aaa", "e").similarity - 1) < 1e-9);
    }

    void unknownCharactersAndEmptyWordsAreOneClearError() {
        ModelSession s;
        s.open(m_run, "1");
        for (const char* bad : {"z", "aé", ""}) {
            try {
                s.nearest_tokens(bad, 3);
                QFAIL(qPrintable(QString("no error for '%1'").arg(bad)));
            } catch (const InputError& e) {
                QVERIFY(!std::string(e.what()).empty());
                QVERIFY(std::string(e.what()).find('\n') == std::string::npos);
            }
        }
        QVERIFY_THROWS_EXCEPTION(InputError, s.similarity("a", "q"));
        QVERIFY_THROWS_EXCEPTION(InputError, s.nearest_tokens("a", 0));
        QVERIFY_THROWS_EXCEPTION(InputError, s.embedding_map(1));
    }

    void wordsTheVocabularyLacksAreAnError() {
        // A word tokenizer maps words it lacks to <unk>; the explorer says so instead of listing <unk>'s
        // neighbours as the word's.
        std::string text;
        for (int i = 0; i < 300; ++i)
            text += "the cat sat on the mat\n";
        twbtest::write(twbtest::path(m_dir, "w.txt"), text);
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, "w.txt").string()};
        o.out = twbtest::path(m_dir, "wdata");
        o.tokenizer.kind = TokenizerKind::Word;
        o.tokenizer.vocab_size = 20;
        prepare_dataset(o);
        RunConfig c = preset_config("tiny");
        c.data_dir = o.out.string();
        c.vocab_size = TextTokenizer::load(o.out).vocab_size();
        c.n_layer = 1;
        c.n_head = 1;
        c.n_embd = 4;
        c.block_size = 8;
        nn::GPT model(c);
        CheckpointState st;
        st.step = 1;
        st.config = c;
        const auto run = twbtest::path(m_dir, "wrun");
        nn::save_checkpoint(run, model, nullptr, st);
        std::filesystem::create_directories(run / "tokenizer");
        std::filesystem::copy_file(o.out / "tokenizer.json", run / "tokenizer" / "tokenizer.json");
        ModelSession s;
        s.open(run.string(), "1");
        // Its words carry their space (" cat"); a bare word is looked up with one.
        const auto cat = s.nearest_tokens("cat", 3);
        QCOMPARE(cat.query_ids, s.encode(" cat"));
        QCOMPARE(cat.query_ids.size(), size_t(1));
        QVERIFY(!cat.neighbours.empty());
        try {
            s.nearest_tokens("dog", 3);
            QFAIL("no error for a word the vocabulary lacks");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("'dog' is not in the vocabulary") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(InputError, s.similarity("cat", "the dog"));
    }

    void mapOfTheMostFrequentTokens() {
        ModelSession s;
        s.open(m_run, "2");
        const auto map = s.embedding_map(5);
        QVERIFY(map.by_frequency);
        QCOMPARE(map.dataset, s.config().data_dir);  // where they were counted, for the GUI's own sentence
        QCOMPARE(map.points.size(), size_t(5));
        // Most frequent first, with their counts over the whole corpus (500 lines).
        const std::string order = "abcde";
        for (size_t i = 0; i < 5; ++i) {
            QCOMPARE(map.points[i].id, m_id[order[i]]);
            QCOMPARE(map.points[i].text, std::string(1, order[i]));
            QCOMPARE(map.points[i].count, uint64_t(500 * (6 - i)));
        }
        // Variance along u: (4 + 4) / 5, along v: (1 + 1) / 5, so 80% and 20%; the points' coordinates
        // are their (x, y) up to each component's sign.
        QVERIFY(std::abs(map.explained[0] - 0.8) < 1e-6);
        QVERIFY(std::abs(map.explained[1] - 0.2) < 1e-6);
        const double want[5][2] = {{-2, 0}, {2, 0}, {0, 1}, {0, -1}, {0, 0}};
        const double sx = map.points[1].x > 0 ? 1 : -1, sy = map.points[2].y > 0 ? 1 : -1;
        for (size_t i = 0; i < 5; ++i) {
            QVERIFY2(std::abs(map.points[i].x - sx * want[i][0]) < 1e-5, qPrintable(QString::number(map.points[i].x)));
            QVERIFY2(std::abs(map.points[i].y - sy * want[i][1]) < 1e-5, qPrintable(QString::number(map.points[i].y)));
        }
        // The sign rule: u's largest entry (2/3, the second and third) is positive, so b (x = +2 along u)
        // has x = +2; v = (0, 0, 0, 1) is positive, so c (y = +1) has y = +1.
        QCOMPARE(sx, 1.0);
        QCOMPARE(sy, 1.0);
        // More tokens than occur: only those that occur (six).
        QCOMPARE(s.embedding_map(1000).points.size(), size_t(6));
        const std::string csv = embedding_map_csv(map);
        QVERIFY(csv.rfind("id,token,count,x,y\n", 0) == 0);
        QVERIFY(csv.find("\n" + std::to_string(m_id['b']) + ",\"b\",2500,") != std::string::npos);
    }

    void collinearPointsHaveNoSecondComponent() {
        // Points t * u on a line: the first coordinate is t minus the mean, the second is zero.
        const auto u = torch::tensor({0.6, 0.8, 0.0}, torch::kFloat64);
        const std::vector<double> t = {0, 1, 2, 3, 9};  // mean 3
        auto rows = torch::stack({u * t[0], u * t[1], u * t[2], u * t[3], u * t[4]});
        const auto p = nn::pca_2d(rows);
        QVERIFY(std::abs(p.explained[0] - 1) < 1e-12);
        QVERIFY(std::abs(p.explained[1]) < 1e-12);
        for (int i = 0; i < 5; ++i) {
            QVERIFY(std::abs(p.coords[i][0].item<double>() - (t[static_cast<size_t>(i)] - 3)) < 1e-9);
            QVERIFY(std::abs(p.coords[i][1].item<double>()) < 1e-9);
        }
    }

    void withoutItsDatasetTheMapTakesTheFirstIds() {
        // A run whose dataset is gone keeps its tokenizer in RUN/tokenizer: the map says so and maps ids 0..n-1.
        std::filesystem::create_directories(std::filesystem::path(m_run) / "tokenizer");
        std::filesystem::copy_file(std::filesystem::path(m_data) / "tokenizer.json",
                                   std::filesystem::path(m_run) / "tokenizer" / "tokenizer.json",
                                   std::filesystem::copy_options::overwrite_existing);
        std::filesystem::rename(m_data, m_data + ".moved");
        ModelSession s;
        s.open(m_run, "2");
        const auto map = s.embedding_map(3);
        std::filesystem::rename(m_data + ".moved", m_data);
        QVERIFY(!map.by_frequency);
        QVERIFY(map.source.find("first 3 token ids") != std::string::npos);
        QCOMPARE(map.points.size(), size_t(3));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(map.points[static_cast<size_t>(i)].id, i);
            QCOMPARE(map.points[static_cast<size_t>(i)].count, uint64_t(0));
        }
    }
};

TWB_APPLESS_MAIN(TestEmbeddings)
#include "tst_embeddings.moc"
