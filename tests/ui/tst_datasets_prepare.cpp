// What the Datasets panel says of the text it tokenizes and prepares: byte tokens told apart in the
// vocabulary, a failed tokenize leaves no figures of the tokenizer before, a Prepare shows the figures of
// what it prepared, the catalogue's buttons stay put when an error comes and its failure goes when the files
// arrive, a shuffled split that would hold out nothing warned about or refused, and the translation pairs'
// fields wide enough for a file's name at large text, and Import's preview under its controls where the tab is
// too narrow for both.
#include "test_util.h"
#include "twb/dataset.h"
#include "ui/Workspace.h"
#include "ui/datasets/DatasetsPanel.h"
#include "ui/datasets/ImportTab.h"
#include "ui/datasets/ParallelTab.h"
#include "ui/widgets/TextScale.h"
#include "ui_fixture.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTcpServer>
#include <QTimer>

class TestDatasetsPrepare : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;

    static void waitIdle(DatasetsPanel& p) { QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000); }

private slots:
    void initTestCase() { twbtest::use_test_workspace(m_ws); }

    void theNameIsWholeAtLargeText() {
        // At 175% text the dataset's name sat beside "Validation share"'s long label, its field too narrow for its
        // own placeholder ("dataset na…"): where it would be, it goes under its label.
        QCOMPARE(TextScale::apply(175), 175);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        DatasetsPanel p;
        p.resize(1052, 590);                             // the panel's room in a 1280x720 window at 175%
        p.findChild<QTabWidget*>()->setCurrentIndex(1);  // Tokenize
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        auto* name = p.findChild<QLineEdit*>("datasetName");
        QVERIFY(name && name->isVisible());
        const int room = name->fontMetrics().horizontalAdvance(name->placeholderText()) +
                         2 * name->fontMetrics().averageCharWidth();  // its text and the field's margins
        QTRY_VERIFY2(name->width() >= room,
                     qPrintable(QString("%1 px for %2 px")
                                    .arg(name->width())
                                    .arg(name->fontMetrics().horizontalAdvance(name->placeholderText()))));
    }
    /// The translation pairs' file fields at 150% and 175% text: beside their labels they were 150 px, a path's
    /// start and no more, and the mode read "Two line-aligned fil"; now each goes under its label where it
    /// would be narrower than a file's name, and the whole form still stands inside the tab.
    void thePairsFilesHaveRoomAtLargeText_data() {
        QTest::addColumn<int>("scale");
        QTest::addColumn<QSize>("room");  // the panel's in a 1280x720 window
        QTest::newRow("100%") << 100 << QSize(1110, 630);
        QTest::newRow("150%") << 150 << QSize(1070, 600);
        QTest::newRow("175%") << 175 << QSize(1052, 590);
    }
    void thePairsFilesHaveRoomAtLargeText() {
        QFETCH(int, scale);
        QFETCH(QSize, room);
        QCOMPARE(TextScale::apply(scale), scale);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        DatasetsPanel p;
        p.resize(room);
        p.findChild<QTabWidget*>()->setCurrentWidget(p.parallelTab());
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        QApplication::processEvents();
        auto* mode = p.findChild<QComboBox*>("parallelMode");
        QVERIFY(mode && mode->isVisible());
        QVERIFY2(mode->width() > mode->fontMetrics().horizontalAdvance(mode->currentText()),
                 qPrintable(QString("the mode %1 px for \"%2\"").arg(mode->width()).arg(mode->currentText())));
        const QRect page = p.parallelTab()->rect();
        for (const char* name : {"sourceFile", "targetFile", "valSourceFile", "valTargetFile", "testSourceFile",
                                 "testTargetFile", "sourceLang", "targetLang", "parallelName"}) {
            auto* e = p.findChild<QLineEdit*>(name);
            QVERIFY(e && e->isVisible());
            const QFontMetrics fm = e->fontMetrics();
            const int least = e->placeholderText().isEmpty()
                                  ? fm.averageCharWidth() * 20
                                  : fm.horizontalAdvance(e->placeholderText()) + fm.averageCharWidth();
            QVERIFY2(e->width() >= least,
                     qPrintable(QString("%1: %2 px, %3 wanted").arg(name).arg(e->width()).arg(least)));
            const QRect at(e->mapTo(p.parallelTab(), QPoint(0, 0)), e->size());
            QVERIFY2(page.contains(at), qPrintable(QString("%1 out of the tab").arg(name)));
        }
        auto* prepare = p.findChild<QPushButton*>("preparePairs");
        QVERIFY(page.contains(QRect(prepare->mapTo(p.parallelTab(), QPoint(0, 0)), prepare->size())));
    }
    /// Import's controls and its before/after preview never lie on each other: beside each other where both
    /// have their least width, else the preview under the controls (at 175% text in Bokmål on 1280x720 the
    /// preview covered the right of the cleaning options and of the Remove button).
    void importsPreviewGoesUnderTheControlsWhenNarrow_data() {
        QTest::addColumn<int>("scale");
        QTest::addColumn<QSize>("room");
        QTest::addColumn<bool>("beside");
        QTest::newRow("100%") << 100 << QSize(1110, 630) << true;
        QTest::newRow("175%, narrow") << 175 << QSize(900, 590) << false;
    }
    void importsPreviewGoesUnderTheControlsWhenNarrow() {
        QFETCH(int, scale);
        QFETCH(QSize, room);
        QFETCH(bool, beside);
        QCOMPARE(TextScale::apply(scale), scale);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        DatasetsPanel p;
        p.layout()->setSizeConstraint(QLayout::SetNoConstraint);  // held to its room, as a window to the screen
        p.resize(room);
        p.findChild<QTabWidget*>()->setCurrentIndex(0);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        auto* import = p.findChild<ImportTab*>();
        QTRY_COMPARE(import->previewBesideControls(), beside);
        QApplication::processEvents();
        auto* controls = import->findChild<QWidget*>("importControls");
        auto* preview = import->findChild<QWidget*>("importPreview");
        QVERIFY(controls->isVisible() && preview->isVisible());
        const QRect c(controls->mapTo(import, QPoint()), controls->size());
        const QRect v(preview->mapTo(import, QPoint()), preview->size());
        QVERIFY2(!c.intersects(v), qPrintable(QString("controls %1,%2 %3x%4, preview %5,%6 %7x%8")
                                                  .arg(c.x())
                                                  .arg(c.y())
                                                  .arg(c.width())
                                                  .arg(c.height())
                                                  .arg(v.x())
                                                  .arg(v.y())
                                                  .arg(v.width())
                                                  .arg(v.height())));
        QVERIFY(import->rect().contains(c) && import->rect().contains(v));
        // the controls' column no narrower than its content: nothing cut at its side
        QVERIFY(controls->width() >= controls->minimumWidth());
        if (!beside)  // stacked, the preview leaves the controls most of the height
            QVERIFY2(c.height() > v.height(), qPrintable(QString("%1 against %2").arg(c.height()).arg(v.height())));
    }
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
        // A tokenizer this text cannot make: its error, and no figures of the one before beside it
        p.setTokenizer("bpe", 60000);
        p.tokenize();
        waitIdle(p);
        QVERIFY2(!p.lastError().isEmpty(), "a vocabulary of 60000 from 6000 characters");
        QVERIFY(p.analysis(0).tokenTexts.isEmpty());
    }
    void aFileThatIsNotUtf8IsReplacedFromThePanel() {
        // The refusal sent GUI users to a command-line option; the panel has the choice itself. A name in
        // another script names its own folder (every such name was "-", one dataset replacing another).
        twbtest::write(twbtest::path(m_ws, "latin1.txt"),
                       twbtest::english_like(4000) + " caf\xe9 " + twbtest::english_like(4000, 3));
        DatasetsPanel p;
        p.resize(1100, 700);  // the panel in a larger window (at 1280x720 its column scrolls, and nothing moved)
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        // The controls the refusal points at stay where they were when it comes under the tab: the
        // checkbox it names, and Remove, moved up by its height (a click meant for one landing on another).
        auto* replace = p.findChild<QCheckBox*>("replaceInvalid");
        auto* remove = p.findChild<QPushButton*>("removeSources");
        QVERIFY(replace && remove);
        const QPoint replaceAt = replace->mapTo(&p, QPoint()), removeAt = remove->mapTo(&p, QPoint());
        p.addSources({QString::fromStdString(twbtest::path(m_ws, "latin1.txt").string())});
        QTRY_VERIFY_WITH_TIMEOUT(p.lastError().contains("invalid UTF-8"), 20000);
        QTest::qWait(0);  // the layout after the error's line came
        QApplication::processEvents();
        QCOMPARE(replace->mapTo(&p, QPoint()), replaceAt);
        QCOMPARE(remove->mapTo(&p, QPoint()), removeAt);
        QVERIFY2(
            p.lastError().contains("“Replace invalid bytes with U+FFFD”") && !p.lastError().contains("twb prepare"),
            qPrintable(p.lastError()));
        auto* tabs = p.findChild<QTabWidget*>();
        tabs->setCurrentIndex(1);
        QVERIFY(p.lastError().isEmpty());  // an error speaks of its own tab
        tabs->setCurrentIndex(0);
        QVERIFY2(p.lastError().contains("invalid UTF-8"), qPrintable(p.lastError()));  // it was gone for good
        p.findChild<QCheckBox*>("replaceInvalid")->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(p.lastError().isEmpty(), 20000);
        p.setTokenizer("char");
        p.setDatasetName("文字");
        p.prepare();
        waitIdle(p);
        QVERIFY2(p.lastError().contains("1 invalid UTF-8 byte was replaced with U+FFFD"), qPrintable(p.lastError()));
        QVERIFY(twb::open_prepared((Workspace::datasetsDir() + "/文字").toStdString()).train_tokens > 1000);
    }
    void preparingShowsWhatWasPrepared() {
        // After Prepare without Tokenize first, the tab still said "Tokenize to see statistics.".
        twbtest::write(twbtest::path(m_ws, "prose.txt"), twbtest::english_like(5000));
        DatasetsPanel p;
        p.addSources({QString::fromStdString(twbtest::path(m_ws, "prose.txt").string())});
        waitIdle(p);
        p.setTokenizer("char");
        p.setDatasetName("prose");
        p.prepare();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const auto data = twb::open_prepared((Workspace::datasetsDir() + "/prose").toStdString());
        QCOMPARE(p.analysis(0).stats.tokens, data.train_tokens + data.val_tokens);
        QCOMPARE(p.analysis(0).trainTokens, data.train_tokens);
        QCOMPARE(p.analysis(0).label, QString("char"));
        QCOMPARE(p.analysis(0).tokenTexts.size(), data.vocab_size);
        const QString stats = p.findChild<QLabel*>("stats")->text();
        QVERIFY2(stats.contains("char") && !stats.contains("Tokenize to see"), qPrintable(stats));
        // The list's figures of it are written as the statistics write them ("train 1003854 tokens" beside
        // "train 1,003,854")
        QVERIFY(data.train_tokens >= 1000);
        const QString info = p.findChild<QLabel*>("preparedInfo")->text();
        QVERIFY2(info.contains(QLocale().toString(static_cast<qulonglong>(data.train_tokens))), qPrintable(info));
    }
    void bytePiecesAreSaid() {
        // sentencepiece BPE of 500 keeps 256 byte pieces: about 240 pieces of text, and the statistics did not say so.
        twbtest::write(twbtest::path(m_ws, "pieces.txt"), twbtest::english_like(8000));
        DatasetsPanel p;
        p.addSources({QString::fromStdString(twbtest::path(m_ws, "pieces.txt").string())});
        waitIdle(p);
        p.setTokenizer("bpe", 400);
        p.tokenize();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const QStringList texts = p.analysis(0).tokenTexts;
        const auto bytes = std::count_if(texts.begin(), texts.end(), [](const QString& t) {
            return QRegularExpression("^<0x[0-9A-F]{2}>$").match(t).hasMatch();
        });
        QCOMPARE(bytes, 254);  // <0x09> and <0x0A> are shown as the tab and the newline
        const QString stats = p.findChild<QLabel*>("stats")->text();
        QVERIFY2(stats.contains("256 of the vocabulary are byte pieces"), qPrintable(stats));
        p.setTokenizer("char");  // none: nothing said
        p.tokenize();
        waitIdle(p);
        QVERIFY(!p.findChild<QLabel*>("stats")->text().contains("byte pieces"));
    }
    void theCataloguesButtonsStayWhereTheyAreWhenAnErrorComes() {
        // Download without a dataset chosen: the request came under the tabs and the buttons under the table
        // moved up by its height, so a second click missed Download.
        DatasetsPanel p;
        p.resize(1100, 700);
        auto* table = p.findChild<QTableWidget*>("catalogue");
        QVERIFY(table);
        p.findChild<QTabWidget*>()->setCurrentWidget(table->parentWidget());
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        table->clearSelection();
        table->setCurrentCell(-1, -1);
        auto* use = p.findChild<QPushButton*>("useCatalogueEntry");
        const QPoint useAt = use->mapTo(&p, QPoint());
        p.download();
        QVERIFY2(p.lastError().contains("Choose a dataset in the catalogue first"), qPrintable(p.lastError()));
        QTest::qWait(0);  // the layout after the error's line came
        QApplication::processEvents();
        QCOMPARE(use->mapTo(&p, QPoint()), useAt);
    }
    void aFailedDownloadsErrorGoesWhenItsFilesArrive() {
        // Offline, the message says to copy the files into the download folder by hand; once they were there the
        // row read "downloaded" while "failed" and the error stood beside it.
        const QByteArray text = "a few words to stand for a corpus\n";
        QTcpServer closed;  // a port nobody listens on: offline
        closed.listen(QHostAddress::LocalHost, 0);
        const quint16 dead = closed.serverPort();
        closed.close();
        QTemporaryDir cat;
        const QJsonObject file{{"path", "x.txt"},
                               {"url", QStringLiteral("http://127.0.0.1:%1/x.txt").arg(dead)},
                               {"bytes", text.size()},
                               {"sha256", QString(QCryptographicHash::hash(text, QCryptographicHash::Sha256).toHex())}};
        const QJsonObject entry{{"name", "offline"},
                                {"title", "offline"},
                                {"format", "text"},
                                {"tokenizer", "char"},
                                {"files", QJsonArray{file}}};
        twbtest::write(twbtest::path(cat, "catalogue.json"),
                       QJsonDocument(QJsonObject{{"datasets", QJsonArray{entry}}}).toJson().toStdString());
        qputenv("TWB_DATASETS_DIR", cat.path().toUtf8());
        const auto restore = qScopeGuard([] { qunsetenv("TWB_DATASETS_DIR"); });
        DatasetsPanel p;
        auto* table = p.findChild<QTableWidget*>("catalogue");
        p.findChild<QTabWidget*>()->setCurrentWidget(table->parentWidget());
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        p.selectCatalogue("offline");
        QTRY_COMPARE(p.catalogueStatus(), QString("not downloaded"));
        p.download();
        QTRY_VERIFY_WITH_TIMEOUT(!p.lastError().isEmpty(), 20000);
        auto* bar = p.findChild<QProgressBar*>("downloadProgress");
        QCOMPARE(bar->format(), QString("failed"));
        QVERIFY(QDir().mkpath(Workspace::root() + "/downloads/offline"));
        QFile copied(Workspace::root() + "/downloads/offline/x.txt");
        QVERIFY(copied.open(QIODevice::WriteOnly) && copied.write(text) == text.size());
        copied.close();
        QTRY_COMPARE_WITH_TIMEOUT(p.catalogueStatus(), QString("downloaded"), 20000);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QVERIFY(bar->format() != "failed");
    }
    void deletingADatasetAsksWithCancelTheDefault() {
        // Enter on the question keeps the dataset: Yes was the default (and no word that it is for good).
        const QString dir = Workspace::datasetsDir() + "/keep-me";
        QVERIFY(QDir().mkpath(dir));
        twbtest::write(std::filesystem::path(dir.toStdString()) / "meta.json", "{}");
        DatasetsPanel p;
        QString text, action;
        QTimer::singleShot(0, [&] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            QVERIFY(box);
            text = box->text();
            QVERIFY(box->defaultButton() == box->button(QMessageBox::Cancel));
            action = box->button(QMessageBox::Yes)->text();
            QTest::keyClick(box, Qt::Key_Return);
        });
        QVERIFY(!p.deletePrepared(dir));
        QVERIFY(QFileInfo::exists(dir));
        QVERIFY2(text.contains("cannot be undone"), qPrintable(text));
        QCOMPARE(action, QString("Delete"));
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
        // chosen in the prepared list, Train on it at hand (nothing was chosen)
        QVERIFY(p.preparedList()->currentItem());
        QCOMPARE(p.preparedList()->currentItem()->data(Qt::UserRole).toString(), Workspace::datasetsDir() + "/forty");
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
