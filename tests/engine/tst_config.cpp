// RunConfig: validation messages, key=value overrides, JSON round trip with defaults, parameter count.
#include "test_util.h"
#include "twb/config.h"
#include "twb/errors.h"

using namespace twb;

class TestConfig : public QObject {
    Q_OBJECT
private slots:
    void defaultsAreValid() {
        for (auto& n : preset_config_names())
            QVERIFY(preset_config(n).validate().empty());
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
