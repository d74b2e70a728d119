// RunConfig: validation messages, key=value overrides, JSON round trip with defaults, parameter count.
#include "test_util.h"
#include "twb/config.h"
#include "twb/errors.h"
#include "twb/precision.h"

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
        // nanoGPT's CPU recipe with vocab 65: 0.80M parameters (its printout excludes wpe: 0.80M too)
        RunConfig c = preset_config("nanogpt-cpu");
        c.vocab_size = 65;
        QCOMPARE(c.parameter_count(), int64_t(65 * 128 + 64 * 128 + 4 * (12 * 128 * 128 + 13 * 128) + 2 * 128));
    }
};

TWB_APPLESS_MAIN(TestConfig)
#include "tst_config.moc"
