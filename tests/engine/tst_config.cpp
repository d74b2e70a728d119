// RunConfig: validation messages, key=value overrides, JSON round trip with defaults, parameter count;
// the option table: one row per key, defaults as before, ranges enforced at their edges, types refused.
#include "test_util.h"
#include "twb/config.h"
#include "twb/config_options.h"
#include "twb/errors.h"
#include "twb/precision.h"

#include <set>

using namespace twb;

class TestConfig : public QObject {
    Q_OBJECT
private slots:
    void defaultsAreValid() {
        for (auto& n : preset_config_names())
            QVERIFY(preset_config(n).validate().empty());
    }
    void autoPrecisionFollowsTheHardware() {
        // The default is auto; an old config that says float32 keeps it.
        QCOMPARE(RunConfig{}.dtype, DType::Auto);
        const RunConfig old = nlohmann::json{{"dtype", "float32"}}.get<RunConfig>();
        QCOMPARE(old.dtype, DType::Float32);
        // cpuinfo flags: AVX512-BF16 or AMX-BF16 is native bf16; AVX2 or plain AVX512 is not.
        QCOMPARE(cpu_bf16_flag_of("fpu sse2 avx2 fma avx512f avx512_bf16 amx_tile"), std::string("avx512_bf16"));
        QCOMPARE(cpu_bf16_flag_of("fpu avx2 amx_bf16 amx_tile"), std::string("amx_bf16"));
        QCOMPARE(cpu_bf16_flag_of("fpu avx2 fma avx512f avx512_vnni"), std::string());
        QCOMPARE(cpu_bf16_flag_of("xavx512_bf16 avx512_bf16x"), std::string());  // whole words only
        // auto: bf16 where the device does it natively; an explicit choice stays.
        QCOMPARE(choose_precision(DType::Auto, false, false, "avx512_bf16").dtype, DType::BFloat16);
        QCOMPARE(choose_precision(DType::Auto, false, false, "").dtype, DType::Float32);
        QCOMPARE(choose_precision(DType::Auto, true, true, "").dtype, DType::BFloat16);
        QCOMPARE(choose_precision(DType::Auto, true, false, "avx512_bf16").dtype, DType::Float32);
        QCOMPARE(choose_precision(DType::Float32, false, false, "avx512_bf16").dtype, DType::Float32);
        QCOMPARE(choose_precision(DType::BFloat16, false, false, "").dtype, DType::BFloat16);
        QVERIFY(choose_precision(DType::Auto, false, false, "amx_bf16").reason.find("amx_bf16") != std::string::npos);
    }
    void bf16SwitchDecidesForTheCpu() {
        // TWB_CPU_BF16: 1 = bf16 for auto whatever the CPU, 0 = float32 whatever the CPU, auto/unset = its flags.
        QCOMPARE(cpu_bf16_flag_for("", "1"), std::string("TWB_CPU_BF16=1"));
        QCOMPARE(cpu_bf16_flag_for("avx512_bf16", "0"), std::string());
        QCOMPARE(cpu_bf16_flag_for("avx512_bf16", "auto"), std::string("avx512_bf16"));
        QCOMPARE(cpu_bf16_flag_for("", "auto"), std::string());
        const PrecisionChoice forced = choose_precision(DType::Auto, false, false, cpu_bf16_flag_for("", "1"));
        QCOMPARE(forced.dtype, DType::BFloat16);
        QVERIFY2(forced.reason.find("TWB_CPU_BF16=1") != std::string::npos, forced.reason.c_str());
        const QByteArray before = qgetenv("TWB_CPU_BF16");
        qputenv("TWB_CPU_BF16", "1");
        QCOMPARE(cpu_bf16_switch(), std::string("1"));
        QCOMPARE(cpu_bf16_flag(), std::string("TWB_CPU_BF16=1"));
        qputenv("TWB_CPU_BF16", "0");
        QCOMPARE(cpu_bf16_flag(), std::string());
        qputenv("TWB_CPU_BF16", "");
        QCOMPARE(cpu_bf16_switch(), std::string("auto"));
        qputenv("TWB_CPU_BF16", "yes");
        try {
            cpu_bf16_switch();
            QFAIL("TWB_CPU_BF16=yes was accepted");
        } catch (const ConfigError& e) {
            QVERIFY2(std::string(e.what()).find("TWB_CPU_BF16=yes") != std::string::npos, e.what());
        }
        if (before.isNull())
            qunsetenv("TWB_CPU_BF16");
        else
            qputenv("TWB_CPU_BF16", before);
    }
    void problemsAreNamed() {
        RunConfig c;
        c.n_embd = 130;
        c.n_head = 4;
        c.dropout = 1.5;
        const auto p = c.validate();
        QCOMPARE(p.size(), size_t(2));
        QVERIFY(p[0].find("divisible by n_head") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(ConfigError, c.check());
    }
    void setParsesAndRefuses() {
        RunConfig c;
        c.set("n_layer=6");
        c.set("dropout=0.25");
        c.set("position=rotary");
        c.set("bias=false");
        QCOMPARE(c.n_layer, 6);
        QCOMPARE(c.dropout, 0.25);
        QCOMPARE(c.position, Position::Rotary);
        QCOMPARE(c.bias, false);
        QVERIFY_THROWS_EXCEPTION(ConfigError, c.set("n_layers=6"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, c.set("n_layer=six"));
        QVERIFY_THROWS_EXCEPTION(ConfigError, c.set("n_layer=2.5"));
    }
    void jsonRoundTripAndMissingKeys() {
        RunConfig c = preset_config("baby-gpt");
        c.data_dir = "/x";
        const nlohmann::json j = c;
        QCOMPARE(j["format_version"].get<int>(), kConfigFormatVersion);
        const RunConfig back = j.get<RunConfig>();
        QCOMPARE(nlohmann::json(back), j);
        const RunConfig partial = nlohmann::json{{"n_layer", 3}}.get<RunConfig>();
        QCOMPARE(partial.n_layer, 3);
        QCOMPARE(partial.n_embd, RunConfig().n_embd);
    }
    void parameterCountMatchesNanoGPT() {
        // nanoGPT's CPU recipe with vocab 65, bias = False as in its train.py: 0.80M parameters (its
        // printout excludes wpe: 0.80M too); each layer's two LayerNorms and the final one a weight only.
        RunConfig c = preset_config("nanogpt-cpu");
        c.vocab_size = 65;
        QVERIFY(!c.bias);
        QCOMPARE(c.parameter_count(), int64_t(65 * 128 + 64 * 128 + 4 * (12 * 128 * 128 + 2 * 128) + 128));
    }
    void tableHasEveryKeyOnce() {
        const auto& t = config_options();
        std::set<std::string> keys;
        for (const auto& o : t) {
            QVERIFY2(keys.insert(o.key).second, o.key.c_str());
            QVERIFY2(!o.help.empty(), o.key.c_str());
            QVERIFY(find_config_option(o.key) == &o);
        }
        QCOMPARE(RunConfig::keys().size(), t.size());
        nlohmann::json j = RunConfig{};
        j.erase("format_version");
        QCOMPARE(j.size(), t.size());
        for (const auto& o : t)
            QCOMPARE(j.at(o.key), o.default_value());
        QVERIFY(find_config_option("n_layers") == nullptr);
    }
    void defaultsAreThoseOfBefore() {
        // config.json of the defaults as written before the table (and qk_norm) existed: it reads as
        // RunConfig{} and writes back the same, qk_norm=false added.
        const nlohmann::json before = nlohmann::json::parse(R"({"format_version":1,"data_dir":"","vocab_size":0,
            "n_layer":4,"n_head":4,"n_embd":128,"block_size":64,"dropout":0.0,"bias":true,"position":"rotary",
            "tie_embeddings":true,"batch_size":12,"gradient_accumulation_steps":1,"learning_rate":0.003,
            "max_iters":2000,"schedule":"cosine","warmup_iters":100,"lr_decay_iters":2000,"min_lr":0.0003,
            "weight_decay":0.1,"decay_embeddings":true,"beta1":0.9,"beta2":0.99,"grad_clip":1.0,
            "label_smoothing":0.0,"eval_interval":250,"eval_iters":20,"log_interval":10,"keep_checkpoints":3,
            "probe_prompt":"","seed":1337,"threads":0,"device":"auto","dtype":"auto","ffn_hidden":0,
            "activation":"gelu","head_size":0,"norm":"layernorm","norm_position":"pre","norm_eps":1e-05,
            "freeze_embeddings":false,"sequences":"stream","embeddings_from":"","model_kind":"decoder",
            "n_encoder_layer":0,"n_decoder_layer":0,"max_epochs":0.0,"batch_tokens":0,"bleu_pairs":200,
            "best_by":"loss","source_vocab_size":0})");
        nlohmann::json now = RunConfig{};
        QCOMPARE(now.at("qk_norm"), nlohmann::json(false));
        now.erase("qk_norm");
        // The imported models' options (Marian): off, or on as the family always was (scaled embeddings).
        QCOMPARE(now.at("sinusoid_halves"), nlohmann::json(false));
        QCOMPARE(now.at("scale_embeddings"), nlohmann::json(true));
        QCOMPARE(now.at("logits_bias"), nlohmann::json(false));
        for (const char* k : {"sinusoid_halves", "scale_embeddings", "logits_bias"})
            now.erase(k);
        QCOMPARE(now.at("tensorboard"), nlohmann::json(true));  // added later too (RUN/tb/)
        now.erase("tensorboard");
        QCOMPARE(now, before);
        QCOMPARE(nlohmann::json(config_from_json(before)), nlohmann::json(RunConfig{}));
    }
    void rangesAreEnforcedAtTheirEdges() {
        for (const auto& o : config_options()) {
            auto problem_at = [&](double x) {
                RunConfig c;
                o.read(c, o.type == OptionType::Integer ? nlohmann::json(static_cast<int>(x)) : nlohmann::json(x),
                       "test");
                return o.range_problem(c);
            };
            const double step = o.type == OptionType::Integer ? 1 : 1e-3;
            if (o.min) {
                QVERIFY2(!problem_at(o.min->value - step).empty(), o.key.c_str());
                QCOMPARE(problem_at(o.min->value).empty(), !o.min->open);
                QVERIFY2(problem_at(o.min->value + step).empty() || o.max, o.key.c_str());
                QVERIFY2(problem_at(o.min->value - step).find(o.key + " must be") == 0, o.key.c_str());
            }
            if (o.max) {
                QVERIFY2(!problem_at(o.max->value + step).empty(), o.key.c_str());
                QCOMPARE(problem_at(o.max->value).empty(), !o.max->open);
            }
        }
        // and validate() reports them
        RunConfig c;
        c.n_layer = 0;
        QVERIFY(!c.validate().empty());
        QCOMPARE(c.validate().back(), std::string("n_layer must be between 1 and 128 (got 0)"));
    }
    void rangesInWords() {
        auto words = [](const char* k) { return find_config_option(k)->range_text(); };
        QCOMPARE(words("n_layer"), std::string("between 1 and 128"));
        QCOMPARE(words("dropout"), std::string("at least 0 and below 1"));
        QCOMPARE(words("learning_rate"), std::string("positive and below 10"));
        QCOMPARE(words("norm_eps"), std::string("positive and at most 0.1"));
        QCOMPARE(words("ffn_hidden"), std::string("between 0 (4 * n_embd) and 1048576"));
        QCOMPARE(words("head_size"), std::string("0 (n_embd / n_head) or positive"));
        QCOMPARE(words("data_dir"), std::string());
    }
    void typesAndFamiliesComeFromTheFields() {
        QCOMPARE(find_config_option("n_layer")->type, OptionType::Integer);
        QCOMPARE(find_config_option("seed")->type, OptionType::Unsigned);
        QCOMPARE(find_config_option("dropout")->type, OptionType::Number);
        QCOMPARE(find_config_option("qk_norm")->type, OptionType::Bool);
        QCOMPARE(find_config_option("device")->type, OptionType::Text);
        const auto* position = find_config_option("position");
        QCOMPARE(position->type, OptionType::Choice);
        QCOMPARE(position->choices, choice_names<Position>());
        QVERIFY(find_config_option("bleu_pairs")->applies_to(ModelKind::EncoderDecoder));
        QVERIFY(!find_config_option("bleu_pairs")->applies_to(ModelKind::Decoder));
        QVERIFY(!find_config_option("sequences")->applies_to(ModelKind::EncoderDecoder));
        QVERIFY(find_config_option("qk_norm")->applies_to(ModelKind::Decoder));
        QVERIFY(find_config_option("qk_norm")->applies_to(ModelKind::EncoderDecoder));
        QVERIFY(find_config_option("qk_norm")->shapes_model);
        QVERIFY(find_config_option("n_embd")->shapes_model);
        QVERIFY(!find_config_option("dropout")->shapes_model);
        QVERIFY(!find_config_option("learning_rate")->shapes_model);
        // wrong JSON types are refused on every key, naming it
        for (const auto& o : config_options()) {
            RunConfig c;
            const nlohmann::json wrong =
                o.type == OptionType::Text || o.type == OptionType::Choice ? nlohmann::json(3) : nlohmann::json("x");
            try {
                o.read(c, wrong, "here");
                QFAIL(o.key.c_str());
            } catch (const ConfigError& e) {
                QVERIFY2(std::string(e.what()).find("here: " + o.key) == 0, e.what());
            }
        }
    }
};

TWB_APPLESS_MAIN(TestConfig)
#include "tst_config.moc"
