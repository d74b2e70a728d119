// The engine never includes Qt: every file under engine/ is scanned for a Qt include.
#include "test_util.h"

#include <regex>

class TestEngineBoundary : public QObject {
    Q_OBJECT
private slots:
    void engineHasNoQtIncludes() {
        const std::filesystem::path root = std::filesystem::path(TWB_SOURCE_DIR) / "engine";
        QVERIFY(std::filesystem::exists(root));
        // Built from pieces: a literal include directive in this file would confuse moc.
        const std::string hash = "#", directive = "include";
        const std::regex qtInclude("^\\s*" + hash + "\\s*" + directive + "\\s*[<\"](Q[A-Za-z]|qcustomplot)");
        int files = 0;
        for (auto& e : std::filesystem::recursive_directory_iterator(root)) {
            if (!e.is_regular_file()) continue;
            const auto ext = e.path().extension().string();
            if (ext != ".h" && ext != ".cpp") continue;
            ++files;
            std::ifstream in(e.path());
            std::string line;
            int n = 0;
            while (std::getline(in, line)) {
                ++n;
                if (std::regex_search(line, qtInclude))
                    QFAIL(qPrintable(QString("%1:%2 includes Qt: %3")
                                         .arg(QString::fromStdString(e.path().string()))
                                         .arg(n)
                                         .arg(QString::fromStdString(line))));
            }
        }
        QVERIFY(files > 20);
    }
};

QTEST_APPLESS_MAIN(TestEngineBoundary)
#include "tst_engine_boundary.moc"
