// The views inside a model (issue 39), each against what it must equal: the logit lens's last stage is
// the model's own output and, through blocks that do nothing, every stage predicts as the embedding;
// gradient x input agrees with finite differences, and on a copy task the answer's source token carries
// the most attribution among the tokens before the last; head ablation with nothing off is the plain loss, a whole
// layer off is that layer without attention, and the gates hold in the KV-cached decoder.
#include "core/data/token_file.h"
#include "nn/analysis/model_inspection.h"
#include "nn/training/evaluator.h"
#include "random_model.h"
#include "seq2seq_reference.h"
#include "test_util.h"
#include "train_outcome.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/inspection.h"
#include "twb/run_folder.h"
#include "twb/session.h"

#include <nlohmann/json.hpp>

#include <random>

#include "file_damage.h"  // after the torch headers: it brings Qt's macros (slots)

using namespace twb;

namespace {
RunConfig small_config(Position position = Position::Rotary) {
    RunConfig c = preset_config("tiny");
    c.dtype = DType::Float32;
    c.vocab_size = 11;
    c.n_layer = 2;
    c.n_embd = 16;
    c.n_head = 2;
    c.block_size = 12;
    c.dropout = 0;
    c.position = position;
    return c;
}

std::string token_name(int id) {
    return "t" + std::to_string(id);
}

torch::Tensor ids_tensor(const std::vector<int32_t>& ids) {
    return torch::tensor(std::vector<int64_t>(ids.begin(), ids.end()), torch::kInt64).unsqueeze(0);
}
}  // namespace

class TestInspection : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_run;  // a 1-layer model trained on a copy task: "fCa=c"

private slots:
    void initTestCase() {
        // Three distinct letters of a..h, one of them upper case, then '=' and that letter in lower case:
        // the answer has one source, found by content wherever it stands.
        std::mt19937 rng(5);
        std::string text;
        for (int i = 0; i < 8000; ++i) {
            std::string letters = "abcdefgh";
            std::shuffle(letters.begin(), letters.end(), rng);
            letters.resize(3);
            const size_t k = rng() % 3;
            const char answer = letters[k];
            letters[k] = static_cast<char>(answer - 'a' + 'A');
            text += letters + "=" + answer + "\n";
        }
        twbtest::write(twbtest::path(m_dir, "copy.txt"), text);
        PrepareOptions o;
        o.corpus.inputs = {twbtest::path(m_dir, "copy.txt").string()};
        o.out = twbtest::path(m_dir, "data");
        prepare_dataset(o);
        RunConfig c = preset_config("tiny");
        c.dtype = DType::Float32;
        c.data_dir = o.out.string();
        c.n_layer = 1;
        c.n_embd = 32;
        c.n_head = 2;
        c.block_size = 16;
        c.batch_size = 32;
        c.dropout = 0;
        c.learning_rate = 1e-2;
        c.max_iters = 800;
        c.lr_decay_iters = 800;
        c.warmup_iters = 20;
        c.eval_interval = 800;
        c.eval_iters = 4;
        c.threads = 2;
        m_run = twbtest::path(m_dir, "copy_run").string();
        twbtest::run_training(c, m_run);
    }

    void headListsParseAndRefuseWhatIsNotThere() {
        const auto h = parse_heads(" 1.0, 0.* ,1.0", 2, 3);
        QCOMPARE(h.size(), size_t{4});  // 1.0 once, then 0.0 0.1 0.2
        QVERIFY((h[0] == HeadRef{1, 0}) && (h[3] == HeadRef{0, 2}));
        QVERIFY(parse_heads("", 2, 3).empty());
        QVERIFY(parse_heads(" , ", 2, 3).empty());
        const auto spaced = parse_heads("0.1 1.2,  0.0", 2, 3);  // spaces apart too ("0.1 1.2" was refused)
        QCOMPARE(spaced.size(), size_t{3});
        QVERIFY((spaced[0] == HeadRef{0, 1}) && (spaced[1] == HeadRef{1, 2}) && (spaced[2] == HeadRef{0, 0}));
        for (const char* bad : {"2.0", "0.3", "1", "a.b", "1.-1", "0.1x"}) {
            try {
                parse_heads(bad, 2, 3);
                QFAIL(qPrintable(QString("accepted ") + bad));
            } catch (const ConfigError& e) {
                QVERIFY2(std::string(e.what()).find(std::string("'") + bad) != std::string::npos, e.what());
            }
        }
    }

    void lensLastStageIsTheModelsOwnOutput() {
        auto m = twbtest::random_model(small_config(), 3);
        const std::vector<int32_t> ids{1, 4, 2, 9, 9, 0, 5};
        const auto lens = nn::logit_lens_ids(m, ids, torch::kCPU, 3, token_name);
        QCOMPARE(lens.stages, int64_t{3});
        QCOMPARE(lens.positions, int64_t{7});
        torch::NoGradGuard ng;
        const auto probs = torch::softmax(m->forward(ids_tensor(ids))[0], -1);
        auto [pv, pi] = probs.topk(3, -1);
        for (int64_t t = 0; t < lens.positions; ++t) {
            const auto& cell = lens.at(2, t);
            for (int k = 0; k < 3; ++k) {
                QCOMPARE(cell[static_cast<size_t>(k)].id, static_cast<int>(pi[t][k].item<int64_t>()));
                QCOMPARE(cell[static_cast<size_t>(k)].prob, pv[t][k].item<double>());  // exactly
            }
            QCOMPARE(lens.final_ids[static_cast<size_t>(t)], cell.front().id);
            QCOMPARE(lens.final_rank[static_cast<size_t>(2 * lens.positions + t)], 0);
        }
        // The earlier stages differ from the output (a random model's blocks change the prediction).
        bool differs = false;
        for (int64_t t = 0; t < lens.positions; ++t)
            differs = differs || lens.at(0, t).front().prob != lens.at(2, t).front().prob;
        QVERIFY(differs);
    }

    void lensThroughBlocksThatDoNothingPredictsAsTheEmbedding() {
        auto m = twbtest::random_model(small_config(Position::Learned), 4);
        {
            torch::NoGradGuard ng;
            for (auto& p : m->named_parameters())
                if (p.key().find("c_proj") != std::string::npos)
                    p.value().zero_();  // attention and MLP add nothing to the residual
        }
        const auto lens = nn::logit_lens_ids(m, {3, 3, 7, 1, 10}, torch::kCPU, 4, token_name);
        for (int64_t s = 1; s < lens.stages; ++s)
            for (int64_t t = 0; t < lens.positions; ++t)
                for (size_t k = 0; k < 4; ++k) {
                    QCOMPARE(lens.at(s, t)[k].id, lens.at(0, t)[k].id);
                    QCOMPARE(lens.at(s, t)[k].prob, lens.at(0, t)[k].prob);
                }
    }

    void decoderLensLastStageIsTheTranslationModelsOwnOutput() {
        const RunConfig c = twbtest::tiny_seq2seq_config(2, Position::Sinusoidal);
        torch::manual_seed(12);
        nn::Seq2Seq m(c);
        {
            torch::NoGradGuard ng;
            for (auto& [name, p] : m->named_weights())
                p.normal_(name.find("ln_") != std::string::npos && name.find("weight") != std::string::npos ? 1.0 : 0.0,
                          name.find("ln_") != std::string::npos ? 0.2 : 0.5);
        }
        const std::vector<int32_t> src{5, 6, 7, 8}, tgt{9, 4, 6};
        const int64_t bos = 1, eos = 2;
        const auto lens = nn::seq2seq_logit_lens(m, src, tgt, bos, eos, torch::kCPU, 3, token_name);
        QCOMPARE(lens.stages, int64_t{3});     // the embedding and two decoder blocks
        QCOMPARE(lens.positions, int64_t{4});  // <bos> + the target
        QCOMPARE(lens.ids.front(), static_cast<int32_t>(bos));
        torch::NoGradGuard ng;
        const auto s = torch::tensor(std::vector<int64_t>{5, 6, 7, 8, eos}).unsqueeze(0);
        const auto t = torch::tensor(std::vector<int64_t>{bos, 9, 4, 6}).unsqueeze(0);
        const auto probs = torch::softmax(m->forward(s, torch::zeros_like(s, torch::kBool), t)[0], -1);
        auto [pv, pi] = probs.topk(3, -1);
        for (int64_t p = 0; p < lens.positions; ++p)
            for (int k = 0; k < 3; ++k) {
                QCOMPARE(lens.at(lens.stages - 1, p)[static_cast<size_t>(k)].id,
                         static_cast<int>(pi[p][k].item<int64_t>()));
                QCOMPARE(lens.at(lens.stages - 1, p)[static_cast<size_t>(k)].prob, pv[p][k].item<double>());
            }
    }

    void gradientTimesInputAgreesWithFiniteDifferences() {
        auto m = twbtest::random_model(small_config(), 6);
        m->to(torch::kFloat64);
        const std::vector<int32_t> ctx{2, 7, 7, 1, 4, 9};
        const int target = 5;
        const auto a = nn::attribute_ids(m, ctx, target, torch::kCPU, token_name);
        QCOMPARE(a.gradient_x_input.size(), ctx.size());
        torch::NoGradGuard ng;
        const auto e = m->transformer->wte(ids_tensor(ctx)).detach();
        const auto base = m->transformer->wte->weight.mean(0);
        const double h = 1e-5;
        double biggest = 0;
        for (size_t t = 0; t < ctx.size(); ++t)
            biggest = std::max(biggest, std::abs(a.gradient_x_input[t]));
        QVERIFY(biggest > 1e-3);  // something to check
        for (size_t t = 0; t < ctx.size(); ++t) {
            // d/dh f(e with row t moved by h (e_t - base)) at h = 0 is exactly grad_t . (e_t - base)
            auto up = e.clone(), down = e.clone();
            const auto step = h * (e[0][static_cast<int64_t>(t)] - base);
            up[0][static_cast<int64_t>(t)].add_(step);
            down[0][static_cast<int64_t>(t)].sub_(step);
            const double fd = (nn::target_logit(m, ctx, target, up, torch::kCPU) -
                               nn::target_logit(m, ctx, target, down, torch::kCPU)) /
                              (2 * h);
            QVERIFY2(std::abs(fd - a.gradient_x_input[t]) <= 1e-3 * std::max(std::abs(fd), 1e-3 * biggest),
                     qPrintable(QString("token %1: finite difference %2, gradient x input %3")
                                    .arg(t)
                                    .arg(fd, 0, 'g', 10)
                                    .arg(a.gradient_x_input[t], 0, 'g', 10)));
        }
        double sum = 0;
        for (double r : a.rollout) {
            QVERIFY(r >= 0);
            sum += r;
        }
        QVERIFY(std::abs(sum - 1) < 1e-6);
        QVERIFY(a.target_prob > 0 && a.target_prob < 1);
    }

    void translationAttributionAgreesWithFiniteDifferences() {
        // Separate vocabularies, so that the source side's rows come from src_wte.
        RunConfig c = twbtest::tiny_seq2seq_config(2, Position::Learned);
        c.source_vocab_size = 9;
        torch::manual_seed(21);
        nn::Seq2Seq m(c);
        {
            torch::NoGradGuard ng;
            for (auto& [name, p] : m->named_weights())
                if (name.find("ln_") == std::string::npos)
                    p.normal_(0.0, 0.5);
        }
        m->to(torch::kFloat64);
        const std::vector<int32_t> src{5, 6, 7, 8}, tgt{9, 4, 6};
        const int64_t bos = 1, eos = 2;
        const auto a = nn::seq2seq_attribution(m, src, tgt, bos, eos, torch::kCPU, token_name, token_name);
        const size_t S = src.size() + 1, T = tgt.size() + 1;
        QCOMPARE(a.source_ids.size(), S);  // the source and its <eos>
        QCOMPARE(a.input_ids.front(), static_cast<int32_t>(bos));
        QCOMPARE(a.output_ids.back(), static_cast<int32_t>(eos));
        QCOMPARE(a.source_attribution.size(), T * S);
        QCOMPARE(a.input_attribution.size(), T * T);
        torch::NoGradGuard ng;
        const auto s = ids_tensor(a.source_ids), t = ids_tensor(a.input_ids);
        const auto pad = torch::zeros_like(s, torch::kBool);
        const auto es = m->src_wte(s), ed = m->wte(t);
        // Output k's logit with the embedding rows given.
        const auto logit = [&](const torch::Tensor& srcRows, const torch::Tensor& tgtRows, size_t k) {
            nn::DecodeOptions o;
            o.token_embeddings = &tgtRows;
            const auto logits = m->decode(t, m->project_memory(m->encode(s, pad, nullptr, &srcRows)), pad, o)[0];
            return logits[static_cast<int64_t>(k)][a.output_ids[k]].item<double>();
        };
        const auto probs = torch::softmax(m->forward(s, pad, t)[0], -1);
        double biggest = 0;
        for (double v : a.source_attribution)
            biggest = std::max(biggest, std::abs(v));
        QVERIFY(biggest > 1e-3);
        const double h = 1e-5;
        // d/dh z_k(row moved by h (e - base)) at 0: each output over each source token and visible input.
        const auto check = [&](bool source, size_t k, size_t j, double value) {
            const auto& rows = source ? es : ed;
            const auto base = (source ? m->src_wte : m->wte)->weight.mean(0);
            auto up = rows.clone(), down = rows.clone();
            const auto step = h * (rows[0][static_cast<int64_t>(j)] - base);
            up[0][static_cast<int64_t>(j)].add_(step);
            down[0][static_cast<int64_t>(j)].sub_(step);
            const double fd = source ? (logit(up, ed, k) - logit(down, ed, k)) / (2 * h)
                                     : (logit(es, up, k) - logit(es, down, k)) / (2 * h);
            QVERIFY2(std::abs(fd - value) <= 1e-3 * std::max(std::abs(fd), 1e-3 * biggest),
                     qPrintable(QString("%1 %2 for output %3: finite difference %4, gradient x input %5")
                                    .arg(source ? "source" : "input")
                                    .arg(j)
                                    .arg(k)
                                    .arg(fd, 0, 'g', 10)
                                    .arg(value, 0, 'g', 10)));
        };
        for (size_t k = 0; k < T; ++k) {
            QVERIFY(std::abs(a.output_prob[k] - probs[static_cast<int64_t>(k)][a.output_ids[k]].item<double>()) <
                    1e-12);
            for (size_t j = 0; j < S; ++j)
                check(true, k, j, a.source(k, j));
            for (size_t u = 0; u < T; ++u)
                if (u <= k)
                    check(false, k, u, a.input(k, u));
                else
                    QCOMPARE(a.input(k, u), 0.0);  // a later input is not visible to output k
        }
        QVERIFY(m->is_training());  // the mode it had, restored
    }

    void copyTaskAnswerSourceCarriesTheMostAttribution() {
        ModelSession s;
        s.open(m_run, "last");
        int checked = 0;
        for (const char* line : {"bDf=", "gaC=", "Hgf=", "cEa="}) {
            const std::string prompt = std::string("aBc=b\nfgA=a\n") + line;  // whole lines before it
            const std::string l(line);
            const size_t k = static_cast<size_t>(std::find_if(l.begin(), l.end(), ::isupper) - l.begin());
            const std::string answer(1, static_cast<char>(std::tolower(l[k])));
            const auto a = s.attribute(prompt, answer);
            QVERIFY2(a.target_prob > 0.5,
                     qPrintable(QString("the copy task is not learned: P = %1").arg(a.target_prob)));
            const size_t source = prompt.size() - 4 + k;  // the upper-case letter
            // Among the letters before the last token ('=', which the prediction is made at and reads
            // directly): the source carries the most, by either measure. Letters only: gradient x input
            // grows with an input embedding's norm, and the separators (the '=' and newline of every
            // line) can outweigh any letter in it however the copy is made (as they did after a run in
            // training lanes, whose path differs by rounding); which letter is copied is the claim.
            // Gradient x input among the line's own letters: the earlier lines' upper-case letters are
            // what the model learned to look for, and one of them can outweigh the source by that measure
            // (the 'A' before "Hgf=" did after a run on a CPU with AVX-512, whose BLAS rounds otherwise).
            const size_t lineStart = prompt.size() - 4;
            size_t best = lineStart, bestRollout = 0;
            for (size_t t = 1; t + 1 < a.ids.size(); ++t) {
                if (!std::isalpha(static_cast<unsigned char>(prompt[t])))
                    continue;
                if (t >= lineStart && std::abs(a.gradient_x_input[t]) > std::abs(a.gradient_x_input[best]))
                    best = t;
                if (a.rollout[t] > a.rollout[bestRollout])
                    bestRollout = t;
            }
            QVERIFY2(best == source && bestRollout == source,
                     qPrintable(QString("%1: most attribution at position %2 ('%3'), rollout at %4, source %5")
                                    .arg(line)
                                    .arg(best)
                                    .arg(QString::fromStdString(a.tokens[best]))
                                    .arg(bestRollout)
                                    .arg(source)));
            ++checked;
        }
        QCOMPARE(checked, 4);
        try {
            s.attribute("abc", "ab");
            QFAIL("a two-token target was accepted");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("2 tokens") != std::string::npos, e.what());
        }
    }

    void aCheckpointReplacedInPlaceIsReloaded() {
        // Opening the same checkpoint again kept the old weights after the file was replaced (the Sampling
        // panel's refresh generated the old text under the new step).
        const auto copy = twbtest::path(m_dir, "replaced");
        std::filesystem::copy(m_run, copy, std::filesystem::copy_options::recursive);
        EvalOptions eo;
        eo.max_tokens = 512;
        ModelSession s;
        s.open(copy.string(), "last");
        const double before = s.evaluate(eo).loss;
        s.open(copy.string(), "last");
        QCOMPARE(s.evaluate(eo).loss, before);
        twbtest::poke_float(find_checkpoint(copy, "last") / "model.safetensors", "transformer.ln_f.weight", 100.f);
        s.open(copy.string(), "last");
        const double after = s.evaluate(eo).loss;
        QVERIFY2(std::abs(after - before) > 1e-3, std::to_string(after).c_str());
        ModelSession fresh;
        fresh.open(copy.string(), "last");
        QCOMPARE(fresh.evaluate(eo).loss, after);
    }

    void nothingOffIsThePlainLoss() {
        ModelSession s;
        s.open(m_run, "last");
        EvalOptions eo;
        eo.max_tokens = 2048;
        eo.batch_size = 16;
        const double plain = s.evaluate(eo).loss;
        AblationOptions ao;
        ao.max_tokens = 2048;
        ao.every_head = true;
        int calls = 0;
        const auto t = s.ablation_table(ao, [&](int done, int total) {
            ++calls;
            return done <= total;
        });
        QCOMPARE(t.base_loss, plain);
        QCOMPARE(t.set_loss, plain);
        QCOMPARE(t.every_head.size(), size_t{2});
        QCOMPARE(calls, 3);
        QVERIFY(!t.cancelled);
        bool costs = false;
        for (const auto& r : t.every_head)
            costs = costs || r.cost > 1e-3;
        QVERIFY(costs);                        // a trained head is worth something
        QCOMPARE(s.evaluate(eo).loss, plain);  // the job leaves every head on
        // Cancel after the first: the table so far.
        const auto c = s.ablation_table(ao, [](int, int) { return false; });
        QVERIFY(c.cancelled);
        QVERIFY(c.every_head.empty());
        // Heads set on the session stay off across calls, and are what a set of them costs.
        s.set_ablated_heads({{0, 1}});
        QCOMPARE(s.evaluate(eo).loss, t.every_head[1].loss);
        s.set_ablated_heads({});
        QCOMPARE(s.evaluate(eo).loss, plain);
        try {
            s.set_ablated_heads({{1, 0}});
            QFAIL("a head the model lacks was accepted");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("1.0") != std::string::npos, e.what());
        }
    }

    void wholeLayerOffIsTheLayerWithoutAttention() {
        RunConfig c = small_config();
        c.bias = true;
        auto gated = twbtest::random_model(c, 8), removed = twbtest::random_model(c, 8);
        gated->set_head_gates(nn::head_gates(c, {{1, 0}, {1, 1}}, torch::kCPU));
        {
            torch::NoGradGuard ng;
            removed->transformer->h[1]->as<nn::Block>()->attn->c_proj->weight.zero_();  // only its bias is left
        }
        const std::vector<int32_t> ids{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 1};
        torch::NoGradGuard ng;
        const auto a = gated->forward(ids_tensor(ids)), b = removed->forward(ids_tensor(ids));
        QVERIFY(torch::allclose(a, b, 1e-6, 1e-6));
        const auto plain = twbtest::random_model(c, 8)->forward(ids_tensor(ids));
        QVERIFY(!torch::allclose(a, plain, 1e-3, 1e-3));
    }

    void gatesHoldInTheCachedDecoder() {
        RunConfig c = small_config();
        auto m = twbtest::random_model(c, 9);
        m->set_head_gates(nn::head_gates(c, {{0, 1}}, torch::kCPU));
        const std::vector<int32_t> ids{4, 1, 8, 8, 2, 6};
        torch::NoGradGuard ng;
        const auto full = m->forward(ids_tensor(ids))[0];
        std::vector<nn::LayerCache> cache(2);
        for (size_t t = 0; t < ids.size(); ++t) {
            nn::ForwardOptions fo;
            fo.cache = &cache;
            fo.pos_offset = static_cast<int64_t>(t);
            const auto step = m->forward(ids_tensor({ids[t]}), fo)[0][0];
            QVERIFY(torch::allclose(step, full[static_cast<int64_t>(t)], 1e-5, 1e-5));
        }
    }

    void viewsWriteTheirNumbers() {
        ModelSession s;
        s.open(m_run, "last");
        const auto lens = s.logit_lens("aBc=b\nfg", 3);
        const auto j = nlohmann::json::parse(lens_to_json(lens));
        QCOMPARE(j["stages"].size(), size_t{2});
        QCOMPARE(j["stages"][1]["positions"].size(), lens.tokens.size());
        QCOMPARE(j["stages"][0]["stage"].get<std::string>(), std::string("embedding"));
        const auto csv = lens_to_csv(lens);
        auto rows = [&csv](const std::string& start) {  // rows begin at a line start (a token may be "\n")
            size_t n = 0;
            for (size_t at = csv.find("\n" + start); at != std::string::npos; at = csv.find("\n" + start, at + 1))
                ++n;
            return n;
        };
        QCOMPARE(rows("\"embedding\","), 3 * lens.tokens.size());
        QCOMPARE(rows("\"block 0\","), 3 * lens.tokens.size());
        const auto a = s.attribute("aBc=", "a");
        const auto ja = nlohmann::json::parse(attribution_to_json(a));
        QCOMPARE(ja["gradient_x_input"].size(), a.ids.size());
        QCOMPARE(ja["target"]["token"].get<std::string>(), std::string("a"));
    }
};

QTEST_GUILESS_MAIN(TestInspection)
#include "tst_inspection.moc"
