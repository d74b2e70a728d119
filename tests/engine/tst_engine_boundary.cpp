// The layers' include rules (docs/architecture.md), checked by scanning the sources:
// - nothing under engine/ includes Qt;
// - nothing in the torch-free part (engine/include/twb, engine/core) includes torch or an nn/ header;
// - the public headers include only other public headers (and standard or third-party ones);
// - ui/ and app/ reach the engine only through the public headers ("twb/...").
#include "test_util.h"

#include <regex>

namespace {

namespace fs = std::filesystem;

const fs::path kRoot = twbtest::source_dir();

// Built from pieces: a literal include directive in this file would confuse moc.
std::regex include_re(const std::string& what) {
    return std::regex("^\\s*#\\s*" + std::string("include") + "\\s*[<\"](" + what + ")");
}

/// Every "file:line: text" under folder whose line matches re.
QStringList offenders(const fs::path& folder, const std::regex& re, int* files = nullptr) {
    QStringList out;
    for (auto& e : fs::recursive_directory_iterator(folder)) {
        if (!e.is_regular_file())
            continue;
        const auto ext = e.path().extension().string();
        if (ext != ".h" && ext != ".cpp")
            continue;
        if (files)
            ++*files;
        std::ifstream in(e.path());
        std::string line;
        int n = 0;
        while (std::getline(in, line)) {
            ++n;
            if (std::regex_search(line, re))
                out << QString("%1:%2: %3")
                           .arg(QString::fromStdString(fs::relative(e.path(), kRoot).string()))
                           .arg(n)
                           .arg(QString::fromStdString(line));
        }
    }
    return out;
}

}  // namespace

class TestEngineBoundary : public QObject {
    Q_OBJECT
private slots:
    void engineHasNoQtIncludes() {
        int files = 0;
        const auto bad = offenders(kRoot / "engine", include_re("Q[A-Za-z]|qcustomplot"), &files);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join("\n")));
        QVERIFY(files > 40);
    }
    void torchFreePartHasNoTorch() {
        const auto re = include_re("torch/|ATen/|c10/|nn/");
        for (const char* dir : {"engine/include", "engine/include_nn", "engine/core"}) {
            const auto bad = offenders(kRoot / dir, re);
            QVERIFY2(bad.isEmpty(), qPrintable(bad.join("\n")));
        }
    }
    void publicHeadersIncludeOnlyPublicHeaders() {
        for (const char* dir : {"engine/include", "engine/include_nn"}) {
            const auto bad = offenders(kRoot / dir, include_re("engine/|core/|nn/|spm/"));
            QVERIFY2(bad.isEmpty(), qPrintable(bad.join("\n")));
        }
    }
    void uiAndAppUseOnlyThePublicApi() {
        // Any engine path other than the public twb/ folder is an internal header.
        const auto re = include_re("engine/|core/|nn/|spm/|torch/|ATen/|c10/");
        for (const char* dir : {"ui", "app"}) {
            const auto bad = offenders(kRoot / dir, re);
            QVERIFY2(bad.isEmpty(), qPrintable(bad.join("\n")));
        }
    }
    void theRulesAreLive() {
        // The scanner finds a planted internal include, so the checks above can fail.
        QTemporaryDir dir;
        twbtest::write(twbtest::path(dir, "x.cpp"), std::string("#") + "include \"nn/models/model.h\"\n");
        QCOMPARE(offenders(twbtest::path(dir), include_re("nn/")).size(), 1);
    }
};

TWB_APPLESS_MAIN(TestEngineBoundary)
#include "tst_engine_boundary.moc"
