// The fast single-token decoder: bf16 rounding against libtorch's own conversion, the AVX2 gemv against
// a plain loop on the same bf16 weights, the fused step against libtorch's forward on the same (rounded)
// weights and against the float32 model within bf16's precision, the same greedy text with and without
// its KV cache, a prompt fed at once giving what it gives a token at a time, and decode_weights float32
// giving the old path's results bit for bit.
#include "nn/decoding/fast_decode.h"
#include "nn/decoding/gpt_source.h"
#include "nn/interchange/safetensors.h"
#include "nn/models/model_loader.h"
#include "test_util.h"
#include "twb/cpu_session.h"
#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/process.h"
#include "twb/session.h"
#include "twb/training.h"

#include <QTemporaryDir>

#include <unistd.h>  // sysconf

using namespace twb;
using namespace twb::nn;

namespace {
std::string no_decode(const std::vector<int32_t>& ids) {
    return std::string(ids.size(), 'x');
}

RunConfig small_model() {
    RunConfig c = preset_config("tiny");
    c.vocab_size = 29;
    c.block_size = 16;
    c.n_layer = 2;
    c.n_head = 2;
    c.n_embd = 24;  // head size 12: the gemv's 16-, 8- and 1-wide tails all run
    c.dropout = 0;
    return c;
}

/// Every weight matrix (the position table excepted: the decoder keeps it in fp32) rounded to bf16.
void round_matrices_to_bf16(GPT& m) {
    torch::NoGradGuard ng;
    for (auto& p : m->named_parameters())
        if (p.value().dim() == 2 && p.key().find("wpe") == std::string::npos)
            p.value().copy_(p.value().to(torch::kBFloat16).to(torch::kFloat32));
}

/// Logits of both sources for each prefix of seq, as (steps, V).
std::pair<torch::Tensor, torch::Tensor> logits_of(GptSource& a, GptSource& b, const std::vector<int32_t>& seq) {
    std::vector<torch::Tensor> ra, rb;
    for (size_t n = 1; n <= seq.size(); ++n) {
        std::vector<std::vector<int32_t>> s{std::vector<int32_t>(seq.begin(), seq.begin() + static_cast<long>(n))};
        ra.push_back(a.next_logits(s));
        rb.push_back(b.next_logits(s));
    }
    return {torch::cat(ra), torch::cat(rb)};
}

std::vector<int32_t> some_tokens(int n, int vocab) {
    std::vector<int32_t> seq;
    for (int i = 0; i < n; ++i)
        seq.push_back((i * 7 + 3) % vocab);
    return seq;
}
}  // namespace

class TestFastDecode : public QObject {
    Q_OBJECT
private slots:
    void bf16RoundsToNearestEven() {
        QCOMPARE(to_bf16(1.0f), uint16_t(0x3F80));
        QCOMPARE(to_bf16(-2.0f), uint16_t(0xC000));
        // 1 + 2^-8 is half-way between 1 and 1 + 2^-7: ties go to the even mantissa (1).
        QCOMPARE(to_bf16(1.0f + 1.0f / 256), uint16_t(0x3F80));
        // 1 + 3 * 2^-8 is half-way between 1 + 2^-7 (odd) and 1 + 2^-6 (even).
        QCOMPARE(to_bf16(1.0f + 3.0f / 256), uint16_t(0x3F82));
        QVERIFY(std::isnan(from_bf16(to_bf16(std::nanf("")))));
        QVERIFY(std::isinf(from_bf16(to_bf16(std::numeric_limits<float>::infinity()))));
        // libtorch's own conversion (also round to nearest even) on many values.
        torch::manual_seed(3);
        auto v = torch::randn({4096}) * 100;
        auto ref = v.to(torch::kBFloat16).to(torch::kFloat32);
        for (int64_t i = 0; i < v.numel(); ++i)
            QCOMPARE(from_bf16(to_bf16(v[i].item<float>())), ref[i].item<float>());
    }

    void gemvMatchesPlainLoop_data() {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::addColumn<bool>("bias");
        QTest::newRow("1x1") << 1 << 1 << false;
        QTest::newRow("5x7 bias") << 5 << 7 << true;
        QTest::newRow("13x37") << 13 << 37 << false;
        QTest::newRow("65x384") << 65 << 384 << false;
        QTest::newRow("1152x384 bias (qkv)") << 1152 << 384 << true;
        QTest::newRow("384x1536 (mlp proj, threaded)") << 384 << 1536 << true;
    }
    void gemvMatchesPlainLoop() {
        QFETCH(int, rows);
        QFETCH(int, cols);
        QFETCH(bool, bias);
        torch::manual_seed(rows * 1000 + cols);
        const auto W = torch::randn({rows, cols});
        const auto b = bias ? torch::randn({rows}) : torch::Tensor();
        const auto m = bf16_matrix(W, b);
        auto x = torch::randn({cols});
        std::vector<float> ref(static_cast<size_t>(rows)), got(static_cast<size_t>(rows));
        gemv_bf16_reference(m, x.data_ptr<float>(), ref.data());
        // The portable kernel sums in the reference's order: equal bit for bit, threaded or not.
        gemv_bf16(m, x.data_ptr<float>(), got.data(), false);
        QCOMPARE(got, ref);
        // The reference itself against libtorch in double on the rounded weights.
        const auto exact = torch::mv(W.to(torch::kBFloat16).to(torch::kFloat64), x.to(torch::kFloat64));
        const auto absdot = torch::mv(W.abs().to(torch::kFloat64), x.abs().to(torch::kFloat64));
        if (!cpu_has_avx2_fma())
            TWB_SKIP_OR_FAIL("this CPU has no AVX2+FMA: the AVX2 kernel cannot run here");
        gemv_bf16(m, x.data_ptr<float>(), got.data(), true);
        for (int r = 0; r < rows; ++r) {
            // fp32 accumulation in another order: each differs from the exact sum by at most
            // cols * 2^-24 * sum |w x| (the standard bound for recursive summation), so from each other by twice that.
            const double bound = 2.0 * cols * std::ldexp(1.0, -24) * absdot[r].item<double>() + 1e-6;
            const double e = exact[r].item<double>() + (bias ? b[r].item<double>() : 0.0);
            QVERIFY2(std::abs(got[static_cast<size_t>(r)] - ref[static_cast<size_t>(r)]) <= bound,
                     qPrintable(QString("row %1: %2 vs %3").arg(r).arg(got[r]).arg(ref[r])));
            QVERIFY(std::abs(ref[static_cast<size_t>(r)] - e) <= bound);
        }
    }

    void gemmIsGemvPerInput_data() {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::addColumn<int>("inputs");
        QTest::newRow("7x37, 5 inputs (tails)") << 7 << 37 << 5;
        QTest::newRow("5x48, 4 inputs (blocks of 3 and 1 inputs, an odd row)") << 5 << 48 << 4;
        QTest::newRow("3x16, 32 inputs (a full chunk)") << 3 << 16 << 32;
        QTest::newRow("1152x384 bias, 3 inputs (threaded)") << 1152 << 384 << 3;
        QTest::newRow("384x1536, 1 input") << 384 << 1536 << 1;
    }
    void gemmIsGemvPerInput() {
        QFETCH(int, rows);
        QFETCH(int, cols);
        QFETCH(int, inputs);
        torch::manual_seed(rows + cols + inputs);
        const auto m = bf16_matrix(torch::randn({rows, cols}), torch::randn({rows}));
        const auto X = torch::randn({inputs, cols});
        for (bool avx2 : {false, true}) {
            if (avx2 && !cpu_has_avx2_fma())
                TWB_SKIP_OR_FAIL("this CPU has no AVX2+FMA: the AVX2 kernel cannot run here");
            std::vector<float> Y(static_cast<size_t>(inputs * rows)), y(static_cast<size_t>(rows));
            gemm_bf16(m, X.data_ptr<float>(), Y.data(), inputs, avx2);
            for (int t = 0; t < inputs; ++t) {
                gemv_bf16(m, X.data_ptr<float>() + t * cols, y.data(), avx2);
                // Bit for bit: the block over several inputs sums each in the single input's order.
                QCOMPARE(std::vector<float>(Y.begin() + t * rows, Y.begin() + (t + 1) * rows), y);
            }
        }
    }

    void feedEqualsSteps_data() {
        QTest::addColumn<QString>("set");
        QTest::newRow("default (rotary, pre-norm)") << "";
        QTest::newRow("learned, post-norm rmsnorm") << "position=learned,norm_position=post,norm=rmsnorm";
    }
    void feedEqualsSteps() {
        // A prompt (or a slid window) fed at once, in chunks of 32, gives what feeding it a token at a time
        // gives, bit for bit: the logits after it and after every later token (the same K/V were cached).
        QFETCH(QString, set);
        RunConfig c = small_model();
        c.block_size = 96;
        for (const auto& kv : set.split(',', Qt::SkipEmptyParts))
            c.set(kv.toStdString());
        torch::manual_seed(5);
        GPT m(c);
        {
            torch::NoGradGuard ng;
            for (auto& p : m->parameters())
                p.normal_(0.0, 0.3);
        }
        const auto seq = some_tokens(80, c.vocab_size);
        const auto fw = make_fast_weights(m, cpu_has_avx2_fma());
        FastDecoder batched(fw), single(fw);
        const int prompt = 70;  // three chunks: 32 + 32 + 6
        const std::vector<float> fed = batched.feed(seq.data(), prompt);
        std::vector<float> stepped;
        for (int i = 0; i < prompt; ++i)
            stepped = single.step(seq[static_cast<size_t>(i)]);
        QCOMPARE(batched.length(), int64_t(prompt));
        QCOMPARE(fed, stepped);
        for (int i = prompt; i < 80; ++i)
            QCOMPARE(batched.step(seq[static_cast<size_t>(i)]), single.step(seq[static_cast<size_t>(i)]));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, batched.feed(seq.data(), 17));  // 80 + 17 > block_size 96
    }

    void fastStepEqualsLibtorchOnRoundedWeights_data() {
        QTest::addColumn<QString>("set");
        QTest::newRow("default (rotary, pre-norm, tied)") << "";
        QTest::newRow("learned") << "position=learned";
        QTest::newRow("sinusoidal") << "position=sinusoidal";
        QTest::newRow("sinusoid halves, silu") << "position=sinusoidal,sinusoid_halves=true,activation=silu";
        QTest::newRow("post-norm rmsnorm relu") << "norm_position=post,norm=rmsnorm,activation=relu";
        QTest::newRow("untied, no bias, gelu_tanh, head_size 8")
            << "tie_embeddings=false,bias=false,activation=gelu_tanh,head_size=8";
    }
    void fastStepEqualsLibtorchOnRoundedWeights() {
        QFETCH(QString, set);
        RunConfig c = small_model();
        for (const auto& kv : set.split(',', Qt::SkipEmptyParts))
            c.set(kv.toStdString());
        torch::manual_seed(21);
        GPT m(c);
        m->eval();
        {
            torch::NoGradGuard ng;  // larger weights than the 0.02 init, so differences would show
            for (auto& p : m->parameters())
                p.normal_(0.0, 0.3);
        }
        const auto seq = some_tokens(40, c.vocab_size);  // past block_size 16: the window slides twice
        // 1. Same function: libtorch on the weights rounded to bf16 gives the fast decoder's logits up to
        //    fp32 rounding (different summation order; softmax and norms in another order).
        GPT rounded(c);
        rounded->eval();
        {
            torch::NoGradGuard ng;
            auto src = m->named_parameters();
            for (auto& p : rounded->named_parameters())
                p.value().copy_(src[p.key()]);
        }
        round_matrices_to_bf16(rounded);
        const auto fw = make_fast_weights(m, cpu_has_avx2_fma());
        GptSource fast(m, torch::kCPU, true, fw), torchRounded(rounded, torch::kCPU, true);
        auto [lf, lr] = logits_of(fast, torchRounded, seq);
        const double scale = lr.abs().max().item<double>();
        const double diff = (lf - lr).abs().max().item<double>();
        QVERIFY2(diff <= 1e-4 * scale, qPrintable(QString("max diff %1, max |logit| %2").arg(diff).arg(scale)));
        // 2. Against the float32 model: bf16 keeps 8 significant bits, a relative error of at most 2^-9
        //    per weight; through every layer that stays within a few percent of the logits' range.
        GptSource fp32(m, torch::kCPU, true);
        fast.reset();
        auto [lf2, l32] = logits_of(fast, fp32, seq);
        const double diff32 = (lf2 - l32).abs().max().item<double>();
        const double scale32 = l32.abs().max().item<double>();
        QVERIFY2(diff32 <= 0.05 * scale32, qPrintable(QString("max diff %1, max |logit| %2").arg(diff32).arg(scale32)));
        QVERIFY(diff32 > 0);  // it did use the bf16 weights
    }

    void cacheGivesSameGreedyText_data() {
        QTest::addColumn<QString>("position");
        QTest::newRow("learned") << "learned";
        QTest::newRow("sinusoidal") << "sinusoidal";
        QTest::newRow("rotary") << "rotary";
    }
    void cacheGivesSameGreedyText() {
        QFETCH(QString, position);
        RunConfig c = small_model();
        c.position = parse_choice<Position>(position.toStdString(), "position");
        torch::manual_seed(11);
        GPT m(c);
        const auto fw = make_fast_weights(m, cpu_has_avx2_fma());
        SamplingOptions o;
        o.temperature = 0;
        o.max_new_tokens = 40;  // well past block_size 16: the window slides twice
        GptSource cached(m, torch::kCPU, true, fw), plain(m, torch::kCPU, false, fw);
        const auto a = generate_ids(cached, {1, 2, 3}, o, -1, no_decode);
        const auto b = generate_ids(plain, {1, 2, 3}, o, -1, no_decode);
        QCOMPARE(a.tokens, b.tokens);
        QCOMPARE(a.logprob, b.logprob);  // the same arithmetic either way
        // Beam search starts with one sequence (fast path) and goes on with several (libtorch).
        o.beam_width = 3;
        o.max_new_tokens = 20;
        GptSource beams(m, torch::kCPU, true, fw), beamsPlain(m, torch::kCPU, false, fw);
        QCOMPARE(generate_ids(beams, {1, 2, 3}, o, -1, no_decode).tokens,
                 generate_ids(beamsPlain, {1, 2, 3}, o, -1, no_decode).tokens);
    }

    void processStartIsInThePast() {
        // The kernel's start time of this process, read here on its own (field 22 of /proc/self/stat, clock
        // ticks since boot), against CLOCK_BOOTTIME (the clock that start time counts on, as /proc/uptime
        // does) read just before and just after the call: the figure must lie between the two readings
        // minus the start time. It is also at least this thread's CPU time (the main thread cannot have run
        // longer than the process has existed), and it advances with the clock.
        std::ifstream in("/proc/self/stat");
        const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto close = stat.rfind(')');  // the command name, in parentheses, may hold spaces
        QVERIFY(close != std::string::npos);
        std::istringstream rest(stat.substr(close + 1));
        std::vector<std::string> fields;  // fields[0] is field 3, the state
        for (std::string x; rest >> x;)
            fields.push_back(x);
        QVERIFY(fields.size() > 19);
        const double startMs = std::stod(fields[19]) * 1000.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
        auto msOf = [](clockid_t clock) {
            timespec t{};
            clock_gettime(clock, &t);
            return static_cast<double>(t.tv_sec) * 1000.0 + static_cast<double>(t.tv_nsec) * 1e-6;
        };
        const double cpu = msOf(CLOCK_THREAD_CPUTIME_ID);
        const double before = msOf(CLOCK_BOOTTIME);
        const double a = ms_since_process_start();
        const double after = msOf(CLOCK_BOOTTIME);
        QVERIFY2(
            a >= before - startMs - 1e-3 && a <= after - startMs + 1e-3,
            qPrintable(QString("%1 ms, expected between %2 and %3").arg(a).arg(before - startMs).arg(after - startMs)));
        QVERIFY2(a >= cpu, qPrintable(QString("%1 ms since the start, but the main thread ran %2 ms").arg(a).arg(cpu)));
        QTest::qSleep(30);
        QVERIFY(ms_since_process_start() >= a + 30 - 1e-3);
    }

    void sessionChoosesAndFloat32IsTheOldPath() {
        QTemporaryDir dir;
        twbtest::write(twbtest::path(dir, "c.txt"), twbtest::english_like(20000));
        PrepareOptions po;
        po.corpus.inputs = {twbtest::path(dir, "c.txt").string()};
        po.out = twbtest::path(dir, "data");
        prepare_dataset(po);
        RunConfig c = preset_config("tiny");
        c.data_dir = po.out.string();
        c.n_layer = 1;
        c.n_head = 2;
        c.n_embd = 32;
        c.block_size = 16;
        c.max_iters = 20;
        c.lr_decay_iters = 20;
        c.warmup_iters = 5;
        c.eval_interval = 20;
        c.eval_iters = 1;
        c.threads = 1;
        TrainJob job;
        job.config = c;
        job.run_dir = twbtest::path(dir, "run").string();
        train(job);

        ModelSession s;
        s.open(job.run_dir);
        SamplingOptions o;
        o.temperature = 0;
        o.max_new_tokens = 30;
        o.decode_weights = DecodeWeights::Float32;
        QVERIFY(s.decode_path(o).find("float32 weights") == 0);
        const auto ids = s.encode("the ");
        const auto viaSession = s.generate(ids, o);
        // The libtorch path on the same checkpoint, as before this option existed.
        const auto lm = load_model(s.checkpoint());
        GptSource old(lm.model, torch::kCPU, true);
        const auto direct = generate_ids(old, ids, o, lm.tokenizer->eos_id(),
                                         [&](const std::vector<int32_t>& v) { return lm.tokenizer->decode(v); });
        QCOMPARE(viaSession.tokens, direct.tokens);
        QCOMPARE(viaSession.logprob, direct.logprob);  // bit for bit

        o.decode_weights = DecodeWeights::Auto;
        const bool fast = s.decode_path(o).find("bfloat16 weights") == 0;
        QCOMPARE(fast, cpu_has_avx2_fma());
        o.decode_weights = DecodeWeights::BFloat16;
        QVERIFY(s.decode_path(o).find("bfloat16 weights") == 0);
        const auto bf = s.generate(ids, o);
        QCOMPARE(bf.tokens.at(0).size(), size_t(30));
        QVERIFY(bf.logprob != direct.logprob);  // other weights, other arithmetic
        QCOMPARE(parse_decode_weights("bfloat16"), DecodeWeights::BFloat16);
        QVERIFY_THROWS_EXCEPTION(ConfigError, parse_decode_weights("int8"));

        withoutLibtorchGivesTheSameGeneration(s, job.run_dir, dir);
    }

private:
    /// CpuSession reads the checkpoint's file itself and gives ModelSession's bf16 generation bit for bit:
    /// tokens, text, log-probability and every token's probability and alternatives, greedy and sampled with
    /// every filter; it refuses what it does not serve, and a file the model loader would refuse.
    void withoutLibtorchGivesTheSameGeneration(ModelSession& s, const std::string& run, const QTemporaryDir& dir) {
        SamplingOptions o;
        o.max_new_tokens = 40;
        o.decode_weights = DecodeWeights::BFloat16;  // the portable loops on a CPU without AVX2
        CpuSession cs;
        QCOMPARE(cs.open(run, "best", o), std::string());
        QVERIFY(cs.decode_path(o).find("without libtorch") != std::string::npos);
        QCOMPARE(cs.step(), s.step());
        QCOMPARE(cs.encode("the "), s.encode("the "));
        auto events = [](std::vector<TokenEvent>& into) { return [&into](const TokenEvent& e) { into.push_back(e); }; };
        for (const bool sampled : {false, true}) {
            o.temperature = sampled ? 0.9 : 0.0;
            o.top_k = sampled ? 6 : 0;
            o.top_p = sampled ? 0.9 : 1.0;
            o.repetition_penalty = sampled ? 1.3 : 1.0;
            o.no_repeat_ngram = sampled ? 3 : 0;
            o.seed = 4;
            std::vector<TokenEvent> ea, eb;
            const auto a = cs.generate(cs.encode("the "), o, events(ea));
            const auto b = s.generate(s.encode("the "), o, events(eb));
            QCOMPARE(a.tokens, b.tokens);
            QCOMPARE(a.texts, b.texts);
            QCOMPARE(a.logprob, b.logprob);
            QCOMPARE(ea.size(), eb.size());
            for (size_t i = 0; i < ea.size(); ++i) {
                QCOMPARE(ea[i].prob, eb[i].prob);
                QCOMPARE(ea[i].alternatives, eb[i].alternatives);
                QCOMPARE(ea[i].text, eb[i].text);
            }
        }
        o.seed = 5;  // another seed, another sample
        const auto other = cs.generate(cs.encode("the "), o).tokens;
        o.seed = 4;
        QVERIFY(other != cs.generate(cs.encode("the "), o).tokens);
        // What it leaves to libtorch.
        auto refused = [&](SamplingOptions p) { return !CpuSession().open(run, "best", p).empty(); };
        SamplingOptions p = o;
        p.beam_width = 2;
        QVERIFY(refused(p));
        p = o;
        p.num_samples = 2;
        QVERIFY(refused(p));
        p = o;
        p.use_kv_cache = false;
        QVERIFY(refused(p));
        p = o;
        p.decode_weights = DecodeWeights::Float32;
        QVERIFY(refused(p));
        for (const char* off : {"0", "off", "false", "no"}) {
            ::setenv("TWB_TORCH_FREE", off, 1);
            QVERIFY(refused(o));
        }
        ::setenv("TWB_TORCH_FREE", "1", 1);
        QVERIFY(!refused(o));
        ::unsetenv("TWB_TORCH_FREE");
        // A damaged or foreign file: refused (ModelSession then says why in full), never decoded.
        const auto ck = std::filesystem::path(s.checkpoint());
        const auto weights = load_safetensors(ck / "model.safetensors");
        auto withFile = [&](const std::string& name,
                            const std::function<void(std::map<std::string, torch::Tensor>&)>& edit) {
            const auto copy = twbtest::path(dir, name.c_str()) / "checkpoints" / ck.filename();
            std::filesystem::create_directories(copy);
            std::filesystem::copy_file(ck / "state.json", copy / "state.json");
            std::filesystem::create_directories(copy.parent_path().parent_path() / "tokenizer");
            std::filesystem::copy_file(ck.parent_path().parent_path() / "tokenizer" / "tokenizer.json",
                                       copy.parent_path().parent_path() / "tokenizer" / "tokenizer.json",
                                       std::filesystem::copy_options::overwrite_existing);
            auto t = weights.tensors;
            edit(t);
            save_safetensors(copy / "model.safetensors", {t.begin(), t.end()});
            return CpuSession().open(copy.string(), "best", o);
        };
        QCOMPARE(withFile("same", [](auto&) {}), std::string());
        QVERIFY(withFile("extra", [](auto& t) {
                    t["transformer.h.0.attn.gate"] = torch::ones({2});
                }).find("no place for") != std::string::npos);
        QVERIFY(withFile("nan", [](auto& t) {
                    auto w = t["transformer.ln_f.weight"].clone();  // the others share the loaded storage
                    w[0] = NAN;
                    t["transformer.ln_f.weight"] = w;
                }).find("NaN") != std::string::npos);
        QVERIFY(withFile("half", [](auto& t) {
                    t["transformer.ln_f.weight"] = t["transformer.ln_f.weight"].to(torch::kHalf);
                }).find("F16") != std::string::npos);
        QVERIFY(withFile("shape", [](auto& t) { t["transformer.ln_f.weight"] = torch::ones({3}); }).find("shape") !=
                std::string::npos);
        const std::string missing = withFile("missing", [](auto& t) { t.erase("transformer.h.0.mlp.c_fc.weight"); });
        QVERIFY2(missing.find("no tensor") != std::string::npos, missing.c_str());
        // A bias or a norm the config gives the model is required as libtorch's loader requires it, not
        // skipped (the decoder would run without it).
        for (const char* name : {"transformer.ln_f.bias", "transformer.h.0.mlp.c_fc.bias", "transformer.ln_f.weight"}) {
            const std::string why = withFile(std::string("missing-") + name, [&](auto& t) { t.erase(name); });
            QVERIFY2(why.find("no tensor '" + std::string(name) + "'") != std::string::npos, why.c_str());
        }
        QVERIFY(withFile("bf16", [](auto& t) {
                    for (auto& [name, v] : t)
                        v = v.to(torch::kBFloat16);
                }).empty());
    }
};

QTEST_APPLESS_MAIN(TestFastDecode)
#include "tst_fast_decode.moc"
