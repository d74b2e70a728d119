// Helpers shared by the tests: temporary folders and small generated corpora (tests make their own data).
#pragma once
#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <string>

/// A check that cannot run on this machine (a missing package, a CPU without an instruction): a skip
/// that says why on a developer's machine, and a failure under CI=true, where setup must provide what
/// every test needs (a skip would otherwise count as a pass).
#define TWB_SKIP_OR_FAIL(reason)                                                                    \
    do {                                                                                            \
        const QString twbWhy = (reason);                                                            \
        if (qEnvironmentVariable("CI") == QLatin1String("true"))                                    \
            QFAIL(qPrintable("cannot run under CI=true, where nothing may be skipped: " + twbWhy)); \
        QSKIP(qPrintable(twbWhy));                                                                  \
    } while (0)

namespace twbtest {

inline std::filesystem::path path(const QTemporaryDir& d, const char* name = "") {
    return std::filesystem::path(d.path().toStdString()) / name;
}

inline void write(const std::filesystem::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary);
    out << text;
}

/// Text with Unicode that tokenizers find hard: curly quotes, accents, CJK, emoji, tabs, CRLF, spaces.
inline std::string hard_unicode() {
    return "Senjō café “quoted” — naïve façade 日本語のテキスト 😀🎉 emoji\ttab\r\nCRLF line   three spaces\n"
           "\n  leading spaces and trailing  \nÅse og Øyvind på ærend. Ελληνικά. Русский текст.\n";
}

/// A deterministic English-like corpus of about n bytes.
inline std::string english_like(size_t n, unsigned seed = 7) {
    const char* words[] = {"the",  "quick", "brown", "fox",   "jumps", "over", "lazy",   "dog", "and", "runs",
                           "away", "from",  "a",     "small", "cat",   "that", "sleeps", "in",  "sun", "today"};
    std::mt19937 rng(seed);
    std::string s;
    while (s.size() < n) {
        const int len = 4 + static_cast<int>(rng() % 8);
        for (int i = 0; i < len; ++i) {
            if (i)
                s += ' ';
            s += words[rng() % 20];
        }
        s += ".\n";
    }
    return s;
}

/// Varied pseudo-English (random words from syllables): enough distinct pieces for larger vocabularies.
inline std::string syllable_text(size_t n, unsigned seed = 11) {
    const char* syl[] = {"ka", "lo",  "mi",  "ten", "ra", "shu", "vel", "dor", "pin", "que", "ast", "ber", "cu",
                         "fy", "gro", "hal", "ix",  "jo", "nem", "op",  "sto", "tri", "um",  "wex", "zor", "ble"};
    std::mt19937 rng(seed);
    std::string s;
    while (s.size() < n) {
        const int words = 3 + static_cast<int>(rng() % 9);
        for (int w = 0; w < words; ++w) {
            if (w)
                s += ' ';
            const int k = 1 + static_cast<int>(rng() % 3);
            for (int i = 0; i < k; ++i)
                s += syl[rng() % 26];
        }
        s += rng() % 3 ? ".\n" : ", ";
    }
    return s;
}

/// The source tree this test was built from, read at run time from CMakeCache.txt in the build folder
/// (the binaries are in BUILD/bin). Not a compile definition: an absolute path compiled in would make
/// every clone at another path recompile the tests instead of taking them from ccache.
inline std::filesystem::path source_dir() {
    const auto build = std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path();
    std::ifstream cache(build / "CMakeCache.txt");
    const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
    for (std::string line; std::getline(cache, line);)
        if (line.rfind(key, 0) == 0)
            return line.substr(key.size());
    std::fprintf(stderr, "test_util: no CMAKE_HOME_DIRECTORY in %s\n", (build / "CMakeCache.txt").c_str());
    std::abort();
}

}  // namespace twbtest

namespace twbtest {

/// Runs a test object so that one unexpected exception fails one test function instead of ending the
/// executable: Qt 6.4's qExec reports it and rethrows, so when that happens every test function is
/// run again on its own (a fresh test object each, so fresh temporary folders and initTestCase), and
/// the count of failing functions is the exit code. A normal run costs nothing extra.
inline int run_guarded(const std::function<std::unique_ptr<QObject>()>& make, int argc, char** argv) {
    try {
        auto tc = make();
        return QTest::qExec(tc.get(), argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "twbtest: an exception escaped a test function: %s\n", e.what());
    } catch (...) {
        std::fprintf(stderr, "twbtest: an exception escaped a test function\n");
    }
    if (argc > 1)
        return 1;  // functions or options were named: report the failure as it is
    std::fprintf(stderr, "twbtest: running each test function on its own\n");
    const QMetaObject* mo = make()->metaObject();
    int failed = 0;
    for (int i = mo->methodOffset(); i < mo->methodCount(); ++i) {
        const QMetaMethod m = mo->method(i);
        QByteArray name = m.name();
        if (m.methodType() != QMetaMethod::Slot || m.access() != QMetaMethod::Private || m.parameterCount() != 0 ||
            name.endsWith("_data") || name == "initTestCase" || name == "cleanupTestCase" || name == "init" ||
            name == "cleanup")
            continue;
        char* args[] = {argv[0], name.data(), nullptr};
        try {
            auto tc = make();
            failed += QTest::qExec(tc.get(), 2, args) != 0 ? 1 : 0;
        } catch (...) {
            ++failed;
        }
    }
    return failed > 0 ? failed : 1;
}

}  // namespace twbtest

/// QTEST_APPLESS_MAIN with run_guarded.
#define TWB_APPLESS_MAIN(TestObject)                                                                      \
    int main(int argc, char** argv) {                                                                     \
        return twbtest::run_guarded([] { return std::unique_ptr<QObject>(new TestObject); }, argc, argv); \
    }
