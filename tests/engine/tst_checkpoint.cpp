// safetensors and checkpoints: round trip, refusal of truncated and mismatched files, atomic writes.
#include "nn/interchange/checkpoint.h"
#include "test_util.h"
#include "twb/errors.h"

using namespace twb;
using namespace twb::nn;

class TestCheckpoint : public QObject {
    Q_OBJECT
    static RunConfig small() {
        RunConfig c = preset_config("tiny");
        c.vocab_size = 17;
        return c;
    }
private slots:
    void safetensorsRoundTrip() {
        QTemporaryDir d;
        auto a = torch::randn({3, 5}), b = torch::arange(7, torch::kInt64), h = torch::randn({4}).to(torch::kBFloat16);
        save_safetensors(twbtest::path(d, "x.safetensors"), {{"a", a}, {"b", b}, {"h", h}}, {{"k", "v"}});
        auto r = load_safetensors(twbtest::path(d, "x.safetensors"));
        QVERIFY(torch::equal(r.tensors["a"], a));
        QVERIFY(torch::equal(r.tensors["b"], b));
        QVERIFY(torch::equal(r.tensors["h"], h));
        QCOMPARE(r.metadata["k"], std::string("v"));
        // the header is the documented layout: 8-byte little-endian length, then JSON
        std::ifstream in(twbtest::path(d, "x.safetensors"), std::ios::binary);
        unsigned char len[8];
        in.read(reinterpret_cast<char*>(len), 8);
        char first;
        in.read(&first, 1);
        QCOMPARE(first, '{');
        QCOMPARE(len[7], (unsigned char)0);
    }
    static std::string error_of_load(const std::filesystem::path& p) {
        try {
            load_safetensors(p);
        } catch (const FormatError& e) {
            return e.what();
        }
        return "(no error)";
    }
    void truncatedFileIsRefused() {
        QTemporaryDir d;
        const auto p = twbtest::path(d, "x.safetensors");
        save_safetensors(p, {{"a", torch::randn({64, 64})}});
        std::filesystem::resize_file(p, std::filesystem::file_size(p) - 100);
        try {
            load_safetensors(p);
            QFAIL("expected FormatError");
        } catch (const FormatError& e) {
            QVERIFY2(std::string(e.what()).find("truncated") != std::string::npos, e.what());
        }
        // Cut inside the header: its length is named as the header's, not as the file's expected size.
        std::vector<std::pair<std::string, torch::Tensor>> many;
        for (int i = 0; i < 100; ++i)
            many.emplace_back("tensor_" + std::to_string(i), torch::zeros({2}));
        save_safetensors(p, many);
        std::filesystem::resize_file(p, 1000);
        const std::string header = error_of_load(p);
        QVERIFY2(
            header.find("truncated (the file has 1000 bytes, fewer than its header alone: 8 + ") != std::string::npos,
            header.c_str());
        twbtest::write(p, std::string("\xff\xff\xff\xff\xff\xff\xff\x7f{}", 10));
        QVERIFY_THROWS_EXCEPTION(FormatError, load_safetensors(p));
    }
    void checkpointRoundTripAndMismatch() {
        QTemporaryDir d;
        const auto run = twbtest::path(d, "run");
        GPT m(small());
        FlatAdamW opt(m->named_weights(), small());
        CheckpointState st;
        st.step = 42;
        st.batcher_state = 0xFEDCBA9876543210ull;
        st.config = small();
        const auto dir = save_checkpoint(run, m, &opt, st);
        QCOMPARE(list_checkpoints(run), std::vector<int64_t>{42});
        QCOMPARE(find_checkpoint(run, "last"), dir);
        // no temp folder left behind
        for (auto& e : std::filesystem::directory_iterator(run / "checkpoints"))
            QVERIFY(e.path().filename().string()[0] != '.');
        auto loaded = read_checkpoint(dir);
        QCOMPARE(loaded.state.batcher_state, st.batcher_state);
        // the weights alone unless the optimizer's state is asked for (a resume)
        QVERIFY(loaded.optimizer.tensors.empty());
        QVERIFY(!loaded.weights.tensors.empty());
        const auto withOptimizer = read_checkpoint(dir, CheckpointParts::WithOptimizer);
        QVERIFY(withOptimizer.optimizer.tensors.count("exp_avg"));
        // a model built to be loaded (no initialisation) takes the same weights
        GPT m2(small(), GPTImpl::Init::None);
        load_weights(m2, loaded.weights, dir.string());
        QVERIFY(torch::equal(m2->transformer->wte->weight, m->transformer->wte->weight));
        // a different config is refused with the tensor's name
        RunConfig other = small();
        other.n_embd = 32;
        GPT m3(other);
        try {
            load_weights(m3, loaded.weights, dir.string());
            QFAIL("expected FormatError");
        } catch (const FormatError& e) {
            QVERIFY2(std::string(e.what()).find("transformer.wte.weight") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(InputError, find_checkpoint(run, "7"));
    }
    void linearLayerIsTorchsDrawForDraw() {
        // The models' layer starts as torch::nn::Linear does, draw for draw (a run's random numbers stay
        // what they were), computes what it computes, and under SkipLayerInitialisation draws nothing.
        for (bool bias : {true, false}) {
            torch::manual_seed(7);
            torch::nn::Linear theirs(torch::nn::LinearOptions(5, 3).bias(bias));
            const auto afterTheirs = torch::rand({4});
            torch::manual_seed(7);
            Linear ours(5, 3, bias);
            const auto afterOurs = torch::rand({4});
            QVERIFY(torch::equal(ours->weight, theirs->weight));
            QCOMPARE(ours->bias.defined(), bias);
            if (bias)
                QVERIFY(torch::equal(ours->bias, theirs->bias));
            QVERIFY(torch::equal(afterOurs, afterTheirs));
            QCOMPARE(ours->named_parameters().keys(), theirs->named_parameters().keys());
            const auto x = torch::randn({2, 5});
            QVERIFY(torch::equal(ours(x), theirs(x)));
        }
        torch::manual_seed(7);
        const auto untouched = torch::rand({4});
        torch::manual_seed(7);
        {
            SkipLayerInitialisation skip;
            Linear skipped(5, 3, true);
            QCOMPARE(skipped->weight.sizes().vec(), (std::vector<int64_t>{3, 5}));
        }
        QVERIFY(torch::equal(torch::rand({4}), untouched));
        torch::manual_seed(7);
        Linear drawsAgain(5, 3, true);  // the guard ended with its scope
        QVERIFY(!torch::equal(torch::rand({4}), untouched));
    }
    void aResumeOnAReTokenizedDatasetSaysSo() {
        // A sweep resumed after its dataset was prepared again with another tokenizer said "drop that --set"
        // where no --set was given.
        RunConfig was = small(), now = small();
        was.vocab_size = 65;
        now.vocab_size = 259;
        now.data_dir = "/data/rp";
        try {
            check_resume_config(was, now, "cell/checkpoints/step_00000014");
            QFAIL("resumed on another vocabulary");
        } catch (const ConfigError& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("its dataset (/data/rp) now has 259, so it was prepared again with another tokenizer") !=
                             std::string::npos &&
                         m.find("--set") == std::string::npos,
                     e.what());
        }
        now = small();
        now.n_layer = was.n_layer + 1;  // a key that only a --set changes keeps its message
        QVERIFY_THROWS_EXCEPTION(ConfigError, check_resume_config(small(), now, "x"));
    }
    void stateDictNamesFollowNanoGPT() {
        RunConfig learned = small();
        learned.position = Position::Learned;  // only learned positions have a wpe table
        GPT m(learned);
        std::set<std::string> names;
        for (auto& [n, t] : m->named_weights())
            names.insert(n);
        for (const char* k :
             {"transformer.wte.weight", "transformer.wpe.weight", "transformer.h.0.ln_1.weight",
              "transformer.h.0.attn.c_attn.weight", "transformer.h.0.attn.c_proj.bias",
              "transformer.h.1.mlp.c_fc.weight", "transformer.h.1.mlp.c_proj.weight", "transformer.ln_f.bias"})
            QVERIFY2(names.count(k), k);
        QCOMPARE(static_cast<int64_t>(m->num_parameters()), learned.parameter_count());
        GPT rotary(small());
        QCOMPARE(static_cast<int64_t>(rotary->num_parameters()), small().parameter_count());
    }
};

TWB_APPLESS_MAIN(TestCheckpoint)
#include "tst_checkpoint.moc"
