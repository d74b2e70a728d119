// What the Datasets panel says of the text it tokenizes and prepares: byte tokens told apart in the
// vocabulary, and a shuffled split that would hold out nothing warned about or refused.
#include "test_util.h"
#include "twb/dataset.h"
#include "ui/Workspace.h"
#include "ui/datasets/DatasetsPanel.h"
#include "ui_fixture.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>

class TestDatasetsPrepare : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;

    static void waitIdle(DatasetsPanel& p) { QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000); }

private slots:
    void initTestCase() { twbtest::use_test_workspace(m_ws); }

    void byteTokensAreToldApart() {
        // bytebpe's byte tokens, control bytes and lone bytes of longer characters, were all one box (or
        // "�") in the vocabulary.
        twbtest::write(twbtest::path(m_ws, "bytes.txt"), twbtest::english_like(6000));
        DatasetsPanel p;
        p.addSources({QString::fromStdString(twbtest::path(m_ws, "bytes.txt").string())});
        p.setTokenizer("bytebpe", 300);
        p.tokenize();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const QStringList texts = p.analysis(0).tokenTexts;
        QVERIFY(texts.size() >= 256);
        QCOMPARE(QSet<QString>(texts.begin(), texts.end()).size(), texts.size());
        for (const QString& t : texts)
            for (QChar c : t)
                QVERIFY2((c >= QChar(0x20) || c == '\n' || c == '\t') && c != QChar(0xFFFD),
                         qPrintable(QString("token %1 holds U+%2").arg(texts.indexOf(t)).arg(c.unicode(), 4, 16)));
    }
    void aShuffledSplitWarnsOrRefusesWhatHoldsOutNothing() {
        // Forty paragraphs: a share of 0.01 rounds to no document, so one is held out, and said so.
        std::string text;
        const std::string words = twbtest::english_like(8000, 5);
        for (size_t i = 0; i < words.size(); i += 200)
            text += words.substr(i, 200) + "\n\n";
        twbtest::write(twbtest::path(m_ws, "forty.txt"), text);
        DatasetsPanel p;
        p.addSources({QString::fromStdString(twbtest::path(m_ws, "forty.txt").string())});
        p.setTokenizer("byte");
        auto* split = p.findChild<QComboBox*>("split");
        split->setCurrentIndex(split->findData("shuffle"));
        p.findChild<QDoubleSpinBox*>("valFraction")->setValue(0.01);
        p.findChild<QCheckBox*>("documents")->setChecked(true);
        p.setDatasetName("forty");
        p.prepare();
        waitIdle(p);
        QVERIFY2(p.lastError().contains("one document is held out"), qPrintable(p.lastError()));
        QVERIFY(twb::open_prepared((Workspace::datasetsDir() + "/forty").toStdString()).val_tokens > 100);
        // Without Keep documents the text is one document: a shuffled split would hold out nothing.
        p.findChild<QCheckBox*>("documents")->setChecked(false);
        p.findChild<QDoubleSpinBox*>("valFraction")->setValue(0.1);
        p.setDatasetName("one-document");
        p.prepare();
        waitIdle(p);
        QVERIFY2(p.lastError().contains("this corpus is one document"), qPrintable(p.lastError()));
        QVERIFY(!QFileInfo::exists(Workspace::datasetsDir() + "/one-document"));
    }
};

QTEST_MAIN(TestDatasetsPrepare)
#include "tst_datasets_prepare.moc"
