// The Datasets panel driven offscreen: import -> clean (live preview) -> tokenize and compare two
// tokenizers -> prepare (the same files as the engine's prepare) -> list and delete; a bad file gives
// a message and creates nothing; catalogue downloads from a loopback HTTP server resume after an
// interruption, refuse a checksum mismatch and say so when the server cannot be reached; synthetic
// tasks are generated from a seed. The cleaning preview covers 16 KB cut at a line end and counts a
// dropped line as a character fewer; the token-length histogram's legend covers no bar. The Chat data
// tab prepares instruction data (Alpaca records and a message list) as twb prepare --chat does, with a
// system turn; a bad record is refused naming its file and line, a char tokenizer taken from a dataset is
// refused for its missing <eos>, and neither leaves a dataset; a run's tokenizer makes the tab offer that
// run's finetune on the data.
#include "test_util.h"
#include "twb/chat.h"
#include "twb/dataset.h"
#include "twb/synthetic.h"
#include "twb/text.h"
#include "twb/tokenizer.h"
#include "twb/training.h"
#include "ui/Workspace.h"
#include "ui/datasets/ChatTab.h"
#include "ui/datasets/DatasetsPanel.h"
#include "ui/datasets/ParallelTab.h"
#include "ui/datasets/TextDiff.h"
#include "ui/widgets/TextScale.h"
#include "ui_fixture.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMimeData>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTextBrowser>
#include <nlohmann/json.hpp>

namespace {
/// A minimal HTTP/1.1 server on 127.0.0.1: /good.txt is cut off half-way on the first plain request
/// and honours Range afterwards; /bad.txt serves other bytes than the catalogue's checksum.
class LoopbackServer : public QObject {
public:
    QTcpServer server;
    QByteArray good, bad;
    QStringList ranges;  // Range headers received
    int goodRequests = 0;
    bool cutDone = false;  // only the first plain request is cut off
    LoopbackServer() {
        server.listen(QHostAddress::LocalHost, 0);
        connect(&server, &QTcpServer::newConnection, this, [this] {
            while (auto* s = server.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, this, [this, s] { handle(s); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    void handle(QTcpSocket* s) {
        QByteArray req = s->property("buf").toByteArray() + s->readAll();
        s->setProperty("buf", req);
        if (!req.contains("\r\n\r\n"))
            return;
        const QByteArray path = req.split(' ').value(1);
        QByteArray range;
        for (const QByteArray& line : req.split('\n'))
            if (line.toLower().startsWith("range:"))
                range = line.mid(6).trimmed();
        if (!range.isEmpty())
            ranges << QString::fromLatin1(range);
        if (path == "/good.txt") {
            ++goodRequests;
            const qint64 from = range.startsWith("bytes=") ? range.mid(6, range.indexOf('-') - 6).toLongLong() : -1;
            if (from >= good.size()) {
                s->write("HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */" +
                         QByteArray::number(good.size()) + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                s->disconnectFromHost();
            } else if (from >= 0) {
                const QByteArray rest = good.mid(from);
                s->write("HTTP/1.1 206 Partial Content\r\nContent-Length: " + QByteArray::number(rest.size()) +
                         "\r\nContent-Range: bytes " + QByteArray::number(from) + "-" +
                         QByteArray::number(good.size() - 1) + "/" + QByteArray::number(good.size()) +
                         "\r\nConnection: close\r\n\r\n" + rest);
                s->disconnectFromHost();
            } else if (cutDone) {
                s->write("HTTP/1.1 200 OK\r\nContent-Length: " + QByteArray::number(good.size()) +
                         "\r\nConnection: close\r\n\r\n" + good);
                s->disconnectFromHost();
            } else {
                cutDone = true;
                // Promise the whole file, send half, hang up: an interrupted download.
                s->write("HTTP/1.1 200 OK\r\nContent-Length: " + QByteArray::number(good.size()) +
                         "\r\nAccept-Ranges: bytes\r\nConnection: close\r\n\r\n" + good.left(good.size() / 2));
                s->flush();
                s->waitForBytesWritten(1000);
                s->abort();
            }
        } else if (path == "/bad.txt") {
            s->write("HTTP/1.1 200 OK\r\nContent-Length: " + QByteArray::number(bad.size()) +
                     "\r\nConnection: close\r\n\r\n" + bad);
            s->disconnectFromHost();
        } else {
            s->write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            s->disconnectFromHost();
        }
    }
};
}  // namespace

class TestDatasetsPanel : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws, m_cat;
    LoopbackServer m_http;

    static void waitIdle(DatasetsPanel& p) { QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000); }

private slots:
    void initTestCase() {
        twbtest::use_test_workspace(m_ws);
        // A catalogue of loopback entries; a closed port stands for being offline.
        m_http.good = QByteArray::fromStdString(twbtest::english_like(200000));
        m_http.bad = "these are not the bytes the catalogue promised\n";
        QTcpServer closed;
        closed.listen(QHostAddress::LocalHost, 0);
        const quint16 deadPort = closed.serverPort();
        closed.close();
        const QString base = QStringLiteral("http://127.0.0.1:%1").arg(m_http.server.serverPort());
        const QString sha = QCryptographicHash::hash(m_http.good, QCryptographicHash::Sha256).toHex();
        // (built from pieces: moc cannot read raw string literals)
        auto entry = [&](const char* name, const QString& file, const QString& url, qint64 bytes) {
            return QJsonObject{
                {"name", name},
                {"title", name},
                {"format", "text"},
                {"tokenizer", "char"},
                {"files", QJsonArray{QJsonObject{{"path", file}, {"url", url}, {"bytes", bytes}, {"sha256", sha}}}}};
        };
        const QJsonObject cat{
            {"datasets",
             QJsonArray{entry("good", "good.txt", base + "/good.txt", m_http.good.size()),
                        entry("bad", "bad.txt", base + "/bad.txt", 10),
                        entry("offline", "x.txt", QStringLiteral("http://127.0.0.1:%1/x.txt").arg(deadPort), 10)}}};
        const QString json = QJsonDocument(cat).toJson();
        twbtest::write(twbtest::path(m_cat, "catalogue.json"), json.toStdString());
        qputenv("TWB_DATASETS_DIR", m_cat.path().toUtf8());
    }

    void importCleanTokenizePrepare() {
        // Text with CRLF line ends, runs of spaces and an empty line: what whitespace cleaning changes.
        std::string text;
        const std::string words = twbtest::english_like(60000);
        for (size_t i = 0; i < words.size(); i += 60)
            text += words.substr(i, 60) + "  \r\n" + (i % 300 ? "" : "\r\n") + (i % 120 ? "" : "a   b\r\n");
        twbtest::write(twbtest::path(m_ws, "in.txt"), text);
        DatasetsPanel p;
        p.addSources({QString::fromStdString(twbtest::path(m_ws, "in.txt").string())});
        QTRY_VERIFY(!p.previewPending());
        QVERIFY(p.previewAfter().contains("\r"));  // nothing enabled yet: after == before
        QCOMPARE(p.previewChangedChars(), 0);
        p.setCleaning("whitespace", true);
        p.setCleaning("drop-empty", true);
        QTRY_VERIFY(p.previewPending());
        QTRY_VERIFY_WITH_TIMEOUT(!p.previewPending(), 10000);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QVERIFY(!p.previewAfter().contains("\r"));
        QVERIFY(!p.previewAfter().contains("  "));
        QVERIFY(p.previewChangedChars() > 300);

        // Tokenize with characters, compare with BPE.
        p.setTokenizer("char");
        p.setCompareTokenizer("bpe", 400);
        p.tokenize();
        QVERIFY(p.isBusy());
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const auto& a = p.analysis(0);
        QVERIFY(a.stats.tokens > 0);
        QCOMPARE(a.stats.chars_per_token, 1.0);
        QCOMPARE(a.tokenTexts.size(), a.stats.vocab_size);
        QCOMPARE(std::accumulate(a.counts.begin(), a.counts.end(), uint64_t(0)), a.trainTokens + a.valTokens);
        QCOMPARE(p.vocabTable()->rowCount(), a.stats.vocab_size);
        // the vocabulary search keeps only matching tokens
        auto* search = p.findChild<QLineEdit*>("vocabularySearch");
        search->setText("c");
        int shown = 0;
        for (int r = 0; r < p.vocabTable()->rowCount(); ++r)
            if (!p.vocabTable()->isRowHidden(r)) {
                ++shown;
                QVERIFY(p.vocabTable()->item(r, 0)->text().contains('c', Qt::CaseInsensitive));
            }
        const auto expected = std::count_if(a.tokenTexts.begin(), a.tokenTexts.end(),
                                            [](const QString& t) { return t.contains('c', Qt::CaseInsensitive); });
        QVERIFY(expected >= 1);
        QCOMPARE(shown, static_cast<int>(expected));
        search->clear();
        p.compare();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const auto& b = p.analysis(1);
        QVERIFY(b.stats.chars_per_token > 1.5);            // BPE merges characters
        QCOMPARE(b.stats.characters, a.stats.characters);  // the same cleaned text
        auto* t = p.compareTable();
        QCOMPARE(t->item(0, 1)->text(), QString("char"));
        QCOMPARE(t->item(0, 2)->text(), QString("bpe 400"));
        QVERIFY(QLocale().toDouble(t->item(2, 1)->text()) >
                QLocale().toDouble(t->item(2, 2)->text()));  // tokens per character
        QCOMPARE(p.histogram()->plottableCount(), 2);        // A and B overlaid
        p.tokenize();                                        // A again replaces A's bars only
        waitIdle(p);
        QCOMPARE(p.histogram()->plottableCount(), 2);

        // Prepare: the same files as the engine's prepare_dataset with the same options.
        p.setDatasetName("cats");
        p.prepare();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const QString dir = Workspace::datasetsDir() + "/cats";
        QVERIFY(QFileInfo::exists(dir + "/meta.json"));
        auto o = p.options();
        o.out = twbtest::path(m_ws, "engine-cats");
        twb::prepare_dataset(o);
        for (const char* f : {"train.bin", "val.bin", "tokenizer.json"})
            QCOMPARE(twb::read_file(o.out / f), twb::read_file(std::filesystem::path(dir.toStdString()) / f));
        QVERIFY(!p.preparedList()->findItems("cats", Qt::MatchExactly).isEmpty());
        QVERIFY(p.deletePrepared(dir, false));
        QVERIFY(!QFileInfo::exists(dir));
        QVERIFY(p.preparedList()->findItems("cats", Qt::MatchExactly).isEmpty());
        // Other sources: the figures of the text before go (they stayed, unmarked)
        p.clearSources();
        QCOMPARE(p.findChild<QLabel*>("stats")->text(), QString("Tokenize to see statistics."));
        QCOMPARE(p.histogram()->plottableCount(), 0);
        QCOMPARE(p.vocabTable()->rowCount(), 0);
        QCOMPARE(p.analysis(0).stats.tokens, uint64_t(0));
    }

    /// The cleaning preview covers the 16 KB the docs promise (it took 20,480 bytes, cut mid-line), and a
    /// dropped empty line is a character fewer (its line break): "153 removed … 0 characters fewer
    /// (drop-empty −0)" is now "153 characters fewer (drop-empty −153)".
    void cleaningPreviewCountsDroppedLinesAndCovers16KB() {
        std::string text;
        for (int i = 0; i < 153; ++i)
            text += "a line of text that is followed by an empty one\n\n";  // 50 bytes each
        std::string words = twbtest::english_like(40000);
        std::replace(words.begin(), words.end(), '\n', ' ');  // its lines are ours: none empty
        for (size_t i = 0; i < words.size(); i += 61)
            text += words.substr(i, 61) + "\n";
        twbtest::write(twbtest::path(m_ws, "empties.txt"), text);
        DatasetsPanel p;
        p.addSources({QString::fromStdString(twbtest::path(m_ws, "empties.txt").string())});
        QTRY_VERIFY(!p.previewPending());
        p.setCleaning("drop-empty", true);
        QTRY_VERIFY(p.previewPending());
        QTRY_VERIFY_WITH_TIMEOUT(!p.previewPending(), 10000);
        QLabel* info = nullptr;
        for (auto* l : p.findChildren<QLabel*>())
            if (l->text().startsWith("Preview of the first"))
                info = l;
        QVERIFY(info);
        const auto m = QRegularExpression("^Preview of the first (\\d[^ ]*) characters").match(info->text());
        QVERIFY2(m.hasMatch(), qPrintable(info->text()));
        const int covered = QString(m.captured(1)).remove(QRegularExpression("\\D")).toInt();  // "16,363"
        QVERIFY2(covered <= 16384 && covered > 16384 - 62, qPrintable(info->text()));  // 16 KB, cut at a line end
        QVERIFY2(info->text().contains("153 removed"), qPrintable(info->text()));
        QVERIFY2(info->text().contains("153 characters fewer (drop-empty −153)"), qPrintable(info->text()));
        QCOMPARE(p.previewAfter().size(), covered - 153);
        QVERIFY(p.previewAfter().endsWith("\n"));  // no torn last line
    }
    /// The histogram's legend covers no bar: with most lines long the peak is at the right, under the
    /// legend's old top-right place. At larger text it stays whole inside the plot (it was cut at the side).
    void histogramLegendCoversNoBar_data() {
        QTest::addColumn<int>("scale");
        QTest::newRow("100%") << 100;
        QTest::newRow("150%") << 150;
    }
    void histogramLegendCoversNoBar() {
        QFETCH(int, scale);
        QCOMPARE(TextScale::apply(scale), scale);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        std::string text;
        const std::string words = "the quick brown fox jumps over the lazy dog and keeps running ";
        for (int i = 0; i < 400; ++i)
            text += (i % 20 ? words + words.substr(0, static_cast<size_t>(i % 7)) : std::string("short")) + "\n";
        text += std::string(1000, 'x') + "\n";  // one line past the bins' 99th percentile: in the last bar
        twbtest::write(twbtest::path(m_ws, "long_lines.txt"), text);
        DatasetsPanel p;
        p.resize(1070, 620);  // its room in the window at 1280x720
        p.show();
        // The histogram's tab in front, laid out as a person sees it.
        for (QWidget* w = p.histogram(); w && w->parentWidget(); w = w->parentWidget())
            if (auto* tabs = qobject_cast<QTabWidget*>(w->parentWidget()->parentWidget());
                tabs && qobject_cast<QStackedWidget*>(w->parentWidget()) && tabs->indexOf(w) >= 0)
                tabs->setCurrentWidget(w);
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        p.addSources({QString::fromStdString(twbtest::path(m_ws, "long_lines.txt").string())});
        p.setTokenizer("char");
        p.setCompareTokenizer("byte");
        p.compare();  // before A was tokenized: both (it showed B's bars alone)
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QCustomPlot* plot = p.histogram();
        QVERIFY(plot->isVisible());
        plot->replot();
        QVERIFY(plot->legend->visible() && plot->plottableCount() == 2);
        // The axis ends where the bins do; the last bar also holds the longest line: each tokenizer's
        // legend entry says so (the axis title named only the last one analysed).
        for (int k = 0; k < 2; ++k)
            QVERIFY2(plot->plottable(k)->name().endsWith(" to 1001)"), qPrintable(plot->plottable(k)->name()));
        const QRectF legend = plot->legend->outerRect();
        QVERIFY2(
            QRectF(plot->axisRect()->rect()).contains(legend),
            qPrintable(QString("legend %1 px wide, the plot %2").arg(legend.width()).arg(plot->axisRect()->width())));
        for (int i = 0; i < plot->plottableCount(); ++i) {
            auto* bars = qobject_cast<QCPBars*>(plot->plottable(i));
            for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
                const double x0 = plot->xAxis->coordToPixel(it->key - bars->width() / 2);
                const double x1 = plot->xAxis->coordToPixel(it->key + bars->width() / 2);
                const QRectF bar(QPointF(x0, plot->yAxis->coordToPixel(it->value)),
                                 QPointF(x1, plot->yAxis->coordToPixel(0)));
                QVERIFY2(!bar.normalized().intersects(legend),
                         qPrintable(QString("bar at %1 (count %2) under the legend").arg(it->key).arg(it->value)));
            }
        }
    }
    void documentsTokenizerReuseAndMerges() {
        // Paragraphs separated by blank lines: with "Keep documents" each is one document.
        std::string text;
        const std::string words = twbtest::english_like(20000, 3);
        for (size_t i = 0; i < words.size(); i += 200)
            text += words.substr(i, 200) + "\n\n";
        twbtest::write(twbtest::path(m_ws, "paras.txt"), text);
        DatasetsPanel p;
        p.addSources({QString::fromStdString(twbtest::path(m_ws, "paras.txt").string())});
        p.setTokenizer("bytebpe", 300);
        p.findChild<QCheckBox*>("documents")->setChecked(true);
        p.setDatasetName("paras");
        p.prepare();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const std::filesystem::path dir = (Workspace::datasetsDir() + "/paras").toStdString();
        const auto d = twb::open_prepared(dir);
        QVERIFY(d.has_documents);
        QCOMPARE(d.train_documents + d.val_documents, uint64_t((words.size() + 199) / 200));

        // "Or reuse" (Choose…): the new dataset is encoded with that tokenizer, not a new one.
        p.findChild<QLineEdit*>("tokenizerFrom")->setText(QString::fromStdString(dir.string()));
        p.setTokenizer("char");  // ignored while a tokenizer is reused
        p.findChild<QCheckBox*>("documents")->setChecked(false);
        p.setDatasetName("reuse");
        p.prepare();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const std::filesystem::path reuse = (Workspace::datasetsDir() + "/reuse").toStdString();
        QCOMPARE(twb::TextTokenizer::load(reuse).fingerprint(), twb::TextTokenizer::load(dir).fingerprint());
        QVERIFY(!twb::open_prepared(reuse).has_documents);

        // The merge view: the engine's inspection, shown; the last step is the sample's encoding.
        p.findChild<QLineEdit*>("mergesSource")->setText(QString::fromStdString(dir.string()));
        p.findChild<QLineEdit*>("mergesSample")->setText("the quick fox");
        QTest::mouseClick(p.findChild<QPushButton*>("showMerges"), Qt::LeftButton);
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const auto r = twb::inspect_merges(dir, "the quick fox", 12);
        QVERIFY(!r.steps.empty());
        const QString shown = p.findChild<QTextBrowser*>("merges")->toPlainText();
        QVERIFY(shown.contains(QStringLiteral("%1 merges").arg(r.merges)));
        QVERIFY(shown.contains("First merges") && shown.contains("Last merges"));
        // each merge's pieces as the vocabulary shows them: a space as ␣ (it was blank), the rank apart
        for (const auto& m : r.first)
            if (m.left == " " || m.right == " ") {
                const QString line = QStringLiteral("%1.").arg(m.rank);
                QVERIFY2(shown.contains(QStringLiteral("␣ + ")) || shown.contains(QStringLiteral(" + ␣")),
                         qPrintable(shown.left(600)));
                QVERIFY(shown.contains(line));
                break;
            }
        std::string joined;
        for (const auto& t : r.steps.back().tokens)
            joined += t;
        QCOMPARE(joined, std::string("the quick fox"));
        QCOMPARE(r.steps.back().tokens.size(), twb::TextTokenizer::load(dir).encode("the quick fox").size());
        // A character tokenizer has no merges: said plainly.
        p.setTokenizer("char");
        p.findChild<QLineEdit*>("tokenizerFrom")->clear();
        p.setDatasetName("chars");
        p.prepare();
        waitIdle(p);
        p.findChild<QLineEdit*>("mergesSource")->setText(Workspace::datasetsDir() + "/chars");
        QTest::mouseClick(p.findChild<QPushButton*>("showMerges"), Qt::LeftButton);
        waitIdle(p);
        QVERIFY2(p.lastError().contains("not bytebpe"), qPrintable(p.lastError()));
        // A preview of the sources that reads fine comes back after it: the error stands (it was cleared).
        p.addSources({QString::fromStdString(twbtest::path(m_ws, "paras.txt").string())});
        QTRY_VERIFY(p.previewPending());
        QTRY_VERIFY_WITH_TIMEOUT(!p.previewPending(), 10000);
        QVERIFY2(p.lastError().contains("not bytebpe"), qPrintable(p.lastError()));
    }

    void dropAddsFilesAndCancelLeavesNothing() {
        // A big enough corpus that preparing it takes a while.
        twbtest::write(twbtest::path(m_ws, "big.txt"), twbtest::english_like(30'000'000));
        DatasetsPanel p;
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(twbtest::path(m_ws, "big.txt").string()))});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&p, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&p, &drop);
        QCOMPARE(p.sources(), QStringList{QString::fromStdString(twbtest::path(m_ws, "big.txt").string())});
        p.setDatasetName("big");
        p.prepare();
        QVERIFY(p.isBusy());
        p.cancel();
        waitIdle(p);
        QVERIFY2(p.lastError().contains("cancelled"), qPrintable(p.lastError()));
        QVERIFY(!QFileInfo::exists(Workspace::datasetsDir() + "/big"));
        QFile::remove(QString::fromStdString(twbtest::path(m_ws, "big.txt").string()));
    }

    void diffMarksChangedCharactersAndRemovedLines() {
        const auto d = diff_texts("a\tb\nkeep\ngone\nxyz caf\u00e9 ok\n", "a b\nkeep\nxyz cafe ok\n");
        QCOMPARE(d.linesChanged, 2);  // the tab and the accent
        QCOMPARE(d.linesRemoved, 1);  // "gone"
        QCOMPARE(d.charsChanged, 1 + 4 + 1);
        QVERIFY(d.beforeHtml.contains("line-through"));
        // only the differing character is marked, not the stretch around it
        QVERIFY(d.afterHtml.contains("caf<span style=\"background:#c9f2c9\">e</span> ok"));
    }

    void quotesMadeStraightAreChangedNotRemoved() {
        // ascii transliteration changes a short quoted line at both ends: still one changed line (as the
        // engine counts it), none removed.
        const auto d =
            diff_texts(QString::fromUtf8("\u201cHi!\u201d\n\u2018No.\u2019\nkeep\n"), "\"Hi!\"\n'No.'\nkeep\n");
        QCOMPARE(d.linesRemoved, 0);
        QCOMPARE(d.linesChanged, 2);
        QCOMPARE(d.charsChanged, 4);  // the four quotes, nothing else
        QVERIFY(!d.beforeHtml.contains("line-through"));
    }

    void badFileChangesNothing() {
        std::string bin(4096, '\0');
        for (size_t i = 0; i < bin.size(); ++i)
            bin[i] = static_cast<char>(i * 37);
        twbtest::write(twbtest::path(m_ws, "blob.bin"), bin);
        DatasetsPanel p;
        p.addSources({QString::fromStdString(twbtest::path(m_ws, "blob.bin").string())});
        QTRY_VERIFY_WITH_TIMEOUT(!p.previewPending(), 10000);
        QVERIFY2(p.lastError().contains("blob.bin"), qPrintable(p.lastError()));
        const QString found = p.lastError();
        p.setDatasetName("blob");
        p.prepare();
        waitIdle(p);
        QVERIFY(p.lastError().contains("binary") || p.lastError().contains("UTF-8"));
        // Prepare says why it does nothing (the same text as before seemed to be no answer at all).
        QVERIFY2(p.lastError() != found && p.lastError().startsWith("Nothing to tokenize or prepare"),
                 qPrintable(p.lastError()));
        QVERIFY(!QFileInfo::exists(Workspace::datasetsDir() + "/blob"));
    }

    void aNameTheFilesGaveFollowsTheList() {
        // The first file names the dataset until the user types a name; a removed file takes its name and
        // its error with it (the GUI walk-through found both left behind).
        const QString first = QString::fromStdString(twbtest::path(m_ws, "first.txt").string());
        const QString second = QString::fromStdString(twbtest::path(m_ws, "second.txt").string());
        const QString empty = QString::fromStdString(twbtest::path(m_ws, "nothing.txt").string());
        twbtest::write(twbtest::path(m_ws, "first.txt"), "one line\n");
        twbtest::write(twbtest::path(m_ws, "second.txt"), "another line\n");
        twbtest::write(twbtest::path(m_ws, "nothing.txt"), "");
        DatasetsPanel p;
        p.addSources({empty});
        QTRY_VERIFY_WITH_TIMEOUT(!p.previewPending(), 10000);
        QCOMPARE(p.datasetName(), QString("nothing"));
        QVERIFY2(p.lastError().contains("empty"), qPrintable(p.lastError()));
        p.clearSources();
        QCOMPARE(p.datasetName(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(p.lastError().isEmpty(), 10000);
        p.addSources({second, first});
        QCOMPARE(p.datasetName(), QString("second"));
        p.setDatasetName("mine");
        p.clearSources();
        p.addSources({first});
        QCOMPARE(p.datasetName(), QString("mine"));
    }

    void catalogueTranslationPairsGoToTheTranslationTab() {
        // An entry of translation pairs (Tatoeba's TSV here) fills the Translation pairs tab, languages and
        // held-out shares included, and prepares a parallel dataset: Import made a language model's text
        // of it, which the entry's suggested preset (an encoder-decoder's) then refused.
        const auto catalogue = twbtest::path(m_cat, "catalogue.json");
        const std::string saved = twb::read_file(catalogue);
        const auto restore = qScopeGuard([&] { twbtest::write(catalogue, saved); });
        std::string tsv;
        for (int i = 0; i < 60; ++i)
            tsv += "the cat number " + std::to_string(i) + "\tkatten nummer " + std::to_string(i) + "\tCC-BY x\n";
        const QJsonObject pairs{{"pairs", "pairs.tsv"},
                                {"source_lang", "en"},
                                {"target_lang", "nb"},
                                {"val_fraction", 0.1},
                                {"test_fraction", 0.05}};
        const QJsonObject entry{{"name", "pairs"},
                                {"title", "pairs"},
                                {"format", "tsv"},
                                {"tokenizer", "byte"},
                                {"model_preset", "tatoeba"},
                                {"files", QJsonArray{QJsonObject{{"path", "pairs.tsv"},
                                                                 {"url", "http://127.0.0.1:1/pairs.tsv"},
                                                                 {"bytes", qint64(tsv.size())}}}},
                                {"pairs", pairs}};
        twbtest::write(catalogue, QJsonDocument(QJsonObject{{"datasets", QJsonArray{entry}}}).toJson().toStdString());
        const QString dir = Workspace::root() + "/downloads/pairs";
        QDir().mkpath(dir);
        twbtest::write((dir + "/pairs.tsv").toStdString(), tsv);
        DatasetsPanel p;
        p.selectCatalogue("pairs");
        QTRY_COMPARE(p.catalogueStatus(), QString("downloaded"));
        QVERIFY(p.useCatalogueEntry());
        QCOMPARE(p.findChild<QTabWidget*>()->currentWidget(), static_cast<QWidget*>(p.parallelTab()));
        const auto o = p.parallelTab()->options(Workspace::datasetsDir());
        QCOMPARE(QString::fromStdString(o.pairs), dir + "/pairs.tsv");
        QCOMPARE(o.source_lang + ">" + o.target_lang, std::string("en>nb"));
        QCOMPARE(o.val_fraction, 0.1);
        QCOMPARE(o.test_fraction, 0.05);
        QCOMPARE(o.tokenizer.kind, twb::TokenizerKind::Byte);
        p.prepareParallel();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const auto meta = nlohmann::json::parse(twb::read_file(o.out / "meta.json"));
        QVERIFY(meta.contains("parallel"));
    }
    void downloadResumesAfterInterruption() {
        DatasetsPanel p;
        QCOMPARE(p.catalogueNames(), (QStringList{"good", "bad", "offline"}));
        p.selectCatalogue("good");
        QTRY_COMPARE(p.catalogueStatus(), QString("not downloaded"));
        auto* use = p.findChild<QPushButton*>("useCatalogueEntry");
        QVERIFY(!use->isEnabled());  // nothing to import before the download (it only gave an error)
        p.download();
        QTRY_VERIFY_WITH_TIMEOUT(!p.lastError().isEmpty(), 20000);  // cut off half-way
        QVERIFY2(p.lastError().contains("resume", Qt::CaseInsensitive), qPrintable(p.lastError()));
        const QString dir = Workspace::root() + "/downloads/good";
        QVERIFY(!QFileInfo::exists(dir + "/good.txt"));
        QVERIFY(QFileInfo(dir + "/good.txt.part").size() > 0);
        p.download();
        QTRY_COMPARE_WITH_TIMEOUT(p.catalogueStatus(), QString("downloaded"), 20000);
        QCOMPARE(m_http.ranges.size(), 1);
        QVERIFY(m_http.ranges[0].startsWith(QStringLiteral("bytes=%1-").arg(m_http.good.size() / 2).left(8)));
        QFile f(dir + "/good.txt");
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), m_http.good);
        QVERIFY(!QFileInfo::exists(dir + "/good.txt.part"));
        QTRY_VERIFY(use->isEnabled());
        // the cached entry imports straight into the panel
        QVERIFY(p.useCatalogueEntry());
        QCOMPARE(p.sources(), QStringList{dir + "/good.txt"});
        // A whole file left as .part (a crash before the rename): the server refuses the range (416),
        // the download starts that file over and ends intact.
        QFile::rename(dir + "/good.txt", dir + "/good.txt.part");
        p.selectCatalogue(QString());
        p.selectCatalogue("good");
        QTRY_COMPARE(p.catalogueStatus(), QString("not downloaded"));
        p.download();
        QTRY_COMPARE_WITH_TIMEOUT(p.catalogueStatus(), QString("downloaded"), 20000);
        QVERIFY(p.lastError().isEmpty());
        QCOMPARE(m_http.ranges.size(), 2);
        QVERIFY(!QFileInfo::exists(dir + "/good.txt.part"));
        // A file taken out of the cache, or put into it by hand (as the offline message says), while the tab
        // is in sight: its status follows (it was read again only when the tab was shown again)
        auto* tab = p.findChild<QTableWidget*>("catalogue")->parentWidget();
        p.findChild<QTabWidget*>()->setCurrentWidget(tab);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        QFile::rename(dir + "/good.txt", dir + "/good.keep");
        QTRY_COMPARE(p.catalogueStatus(), QString("not downloaded"));
        QFile::rename(dir + "/good.keep", dir + "/good.txt");
        QTRY_COMPARE(p.catalogueStatus(), QString("downloaded"));
    }

    void checksumMismatchIsRefused() {
        DatasetsPanel p;
        p.selectCatalogue("bad");
        p.download();
        QTRY_VERIFY_WITH_TIMEOUT(!p.lastError().isEmpty(), 20000);
        QVERIFY2(p.lastError().contains("Checksum mismatch"), qPrintable(p.lastError()));
        QVERIFY(!QFileInfo::exists(Workspace::root() + "/downloads/bad/bad.txt"));
        QTRY_COMPARE(p.catalogueStatus(), QString("not downloaded"));
    }

    void askingForAnEntryEndsWithTheChoice() {
        // "Choose a dataset in the catalogue first." stayed above the panel after one was chosen.
        DatasetsPanel p;
        p.resize(1100, 640);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        auto* train = p.findChild<QPushButton*>("trainOnIt");
        const int y = train->mapTo(&p, QPoint()).y();
        p.download();  // nothing chosen yet
        QVERIFY2(p.lastError().contains("Choose a dataset"), qPrintable(p.lastError()));
        QApplication::processEvents();
        QCOMPARE(train->mapTo(&p, QPoint()).y(), y);  // the list's buttons stay put (they moved up)
        // Tokenize & prepare's four views all in sight at this width (Merges sat behind scroll arrows)
        p.findChild<QTabWidget*>()->setCurrentIndex(1);
        auto* views = p.findChild<QTabWidget*>("tokenizeViews");
        QTRY_VERIFY(views->isVisible());
        QCOMPARE(views->count(), 4);
        QVERIFY2(views->tabBar()->tabRect(3).right() <= views->tabBar()->width(),
                 qPrintable(QString("%1 > %2").arg(views->tabBar()->tabRect(3).right()).arg(views->tabBar()->width())));
        p.findChild<QTabWidget*>()->setCurrentIndex(2);
        p.selectCatalogue("offline");
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        // an error goes when another tab is chosen: it spoke of the tab it came from
        DatasetsPanel q;
        q.download();  // nothing chosen
        QVERIFY(!q.lastError().isEmpty());
        auto* tabs = q.findChild<QTabWidget*>();
        tabs->setCurrentIndex((tabs->currentIndex() + 1) % tabs->count());
        QVERIFY2(q.lastError().isEmpty(), qPrintable(q.lastError()));
    }
    void offlineSaysSo() {
        DatasetsPanel p;
        p.selectCatalogue("offline");
        p.download();
        QTRY_VERIFY_WITH_TIMEOUT(!p.lastError().isEmpty(), 40000);
        QVERIFY2(p.lastError().contains("Could not reach"), qPrintable(p.lastError()));
        QCOMPARE(QDir(Workspace::root() + "/downloads/offline").entryList(QDir::Files), QStringList());  // no .part
    }

    void chatTabPreparesInstructionData() {
        // (built from pieces: moc cannot read raw string literals)
        std::string jsonl;
        for (int i = 0; i < 20; ++i)
            jsonl += "{\"instruction\": \"Repeat the word " + std::to_string(i) +
                     "\", \"input\": \"\", \"output\": \"word " + std::to_string(i) + "\"}\n";
        jsonl +=
            "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, {\"role\": \"assistant\", "
            "\"content\": \"hello\"}]}\n";
        const auto file = twbtest::path(m_ws, "instructions.jsonl");
        twbtest::write(file, jsonl);
        DatasetsPanel p;
        ChatTab* tab = p.chatTab();
        tab->setFiles({QString::fromStdString(file.string())});
        tab->setTokenizer("byte", 0);
        tab->setSystem("You are terse.");
        tab->setDatasetName("gui-chat");
        QSignalSpy done(&p, &DatasetsPanel::datasetPrepared);
        p.prepareChat();
        QVERIFY(p.isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(done.count() == 1, 60000);
        const auto d = twb::open_prepared(done.first().first().toString().toStdString());
        QCOMPARE(d.chat_template, std::string(twb::kChatTemplate));
        QCOMPARE(d.train_documents + d.val_documents, uint64_t(21));    // one document per conversation
        QCOMPARE(d.train_loss_spans + d.val_loss_spans, uint64_t(21));  // one reply each
        QVERIFY2(tab->resultText().contains("validation 2") && tab->resultText().contains("twb-chat-1"),
                 qPrintable(tab->resultText()));
        QVERIFY(!p.preparedList()->findItems("gui-chat", Qt::MatchStartsWith).isEmpty());
        // marked as chat data in the list, as pairs are (it read "gui-chat" alone)
        QCOMPARE(p.preparedList()->findItems("gui-chat (chat)", Qt::MatchExactly).size(), 1);
        // Train on it and Delete are off without a selected dataset (Delete did nothing, silently)
        p.preparedList()->setCurrentItem(nullptr);
        QVERIFY(!p.findChild<QPushButton*>("deleteDataset")->isEnabled());
        QVERIFY(!p.findChild<QPushButton*>("trainOnIt")->isEnabled());
        p.preparedList()->setCurrentItem(p.preparedList()->findItems("gui-chat (chat)", Qt::MatchExactly).first());
        QVERIFY(p.findChild<QPushButton*>("deleteDataset")->isEnabled());
        // The system turn went into every conversation: without it, each of the 21 has 26 byte tokens
        // fewer ("<|system|>\n" 11, "You are terse." 14, its end of sequence 1).
        tab->setSystem("");
        tab->setDatasetName("gui-chat-plain");
        QSignalSpy done2(&p, &DatasetsPanel::datasetPrepared);
        p.prepareChat();
        QTRY_VERIFY_WITH_TIMEOUT(done2.count() == 1, 60000);
        const auto plain = twb::open_prepared(done2.first().first().toString().toStdString());
        QCOMPARE((d.train_tokens + d.val_tokens) - (plain.train_tokens + plain.val_tokens), uint64_t(21 * 26));

        // A bad record: its file and line named, nothing written.
        twbtest::write(twbtest::path(m_ws, "bad.jsonl"), jsonl + "{\"instruction\": \"no output\"}\n");
        tab->setFiles({m_ws.filePath("bad.jsonl")});
        tab->setDatasetName("bad-chat");
        p.prepareChat();
        waitIdle(p);
        QVERIFY2(p.lastError().contains("bad.jsonl:22"), qPrintable(p.lastError()));
        QVERIFY(!QFileInfo::exists(Workspace::datasetsDir() + "/bad-chat"));
        QVERIFY(tab->resultText().isEmpty());  // gui-chat-plain's summary no longer stands beside the error
        // A tokenizer taken from a dataset with a char tokenizer: no <eos> to end the turns with.
        twb::PrepareOptions po;
        po.corpus.inputs = {twbtest::path(m_ws, "c.txt").string()};
        twbtest::write(twbtest::path(m_ws, "c.txt"), twbtest::english_like(5000));
        po.out = twbtest::path(m_ws, "char-data");
        twb::prepare_dataset(po);
        tab->setFiles({QString::fromStdString(file.string())});
        tab->setTokenizerFrom(QString::fromStdString(po.out.string()));
        p.prepareChat();
        waitIdle(p);
        QVERIFY2(p.lastError().contains("<eos>"), qPrintable(p.lastError()));
        QVERIFY(!QFileInfo::exists(Workspace::datasetsDir() + "/bad-chat"));
        // The tokenizer of a run: once prepared, the tab offers to finetune that run on the data.
        QVERIFY(tab->finetuneRun().isEmpty());  // the last preparation trained its own tokenizer
        po.tokenizer.kind = twb::TokenizerKind::Byte;
        po.out = twbtest::path(m_ws, "byte-data");
        twb::prepare_dataset(po);
        twb::TrainJob job;
        job.config = twb::preset_config("tiny");
        job.config.data_dir = po.out.string();
        job.config.n_layer = 1;
        job.config.n_embd = 16;
        job.config.n_head = 2;
        job.config.block_size = 16;
        job.config.max_iters = 2;
        job.config.eval_interval = 2;
        job.config.eval_iters = 1;
        job.config.threads = 1;
        job.run_dir = twbtest::path(m_ws, "byte-run").string();
        twb::train(job);
        const QString run = QString::fromStdString(job.run_dir);
        tab->setTokenizerFrom(run);
        tab->setDatasetName("run-chat");
        QSignalSpy done3(&p, &DatasetsPanel::datasetPrepared);
        p.prepareChat();
        QTRY_VERIFY_WITH_TIMEOUT(done3.count() == 1, 60000);
        QCOMPARE(tab->finetuneRun(), run);
        QSignalSpy finetune(&p, &DatasetsPanel::finetuneRequested);
        tab->findChild<QPushButton*>("chatFinetune")->click();
        QCOMPARE(finetune.count(), 1);
        QCOMPARE(finetune.first().at(0).toString(), run);
        QCOMPARE(finetune.first().at(1).toString(), done3.first().first().toString());
        QCOMPARE(twb::open_prepared(done3.first().first().toString().toStdString()).vocab_size,
                 twb::open_prepared(po.out).vocab_size);  // the run's own tokenizer
        // Nothing chosen: said before anything runs.
        tab->setFiles({});
        p.prepareChat();
        QVERIFY(!p.isBusy());
        QVERIFY2(p.lastError().contains("instruction data"), qPrintable(p.lastError()));
    }

    void syntheticAdditionFromSeed() {
        twb::SyntheticSpec s;
        s.examples = 50;
        s.digits = 3;
        s.reversed_digits = true;
        s.seed = 9;
        const std::string text = twb::generate_synthetic(s);
        QCOMPARE(text, twb::generate_synthetic(s));  // deterministic
        const QStringList lines = QString::fromStdString(text).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 50);
        for (const QString& l : lines) {
            // reversed digits: "cba+fed=hgfe" means abc + def = efgh
            const auto parts = l.split(QRegularExpression("[+=]"));
            QCOMPARE(parts.size(), 3);
            auto value = [](QString d) {
                std::reverse(d.begin(), d.end());
                return d.toLongLong();
            };
            QCOMPARE(parts[0].size(), 3);
            QCOMPARE(parts[2].size(), 4);
            QCOMPARE(value(parts[0]) + value(parts[1]), value(parts[2]));
        }
        s.task = "sort";
        for (const QString& l : QString::fromStdString(twb::generate_synthetic(s)).split('\n', Qt::SkipEmptyParts)) {
            auto src = l.section('>', 0, 0).toStdString();
            std::sort(src.begin(), src.end());
            QCOMPARE(l.section('>', 1), QString::fromStdString(src));
        }
        // the panel writes the task into the workspace and imports it
        DatasetsPanel p;
        const QString path = p.generateSynthetic();
        QVERIFY(QFileInfo::exists(path));
        QCOMPARE(p.sources(), QStringList{path});
        // instructions are JSON records: handed to the Chat data tab, which prepares them
        p.findChild<QComboBox*>("syntheticTask")->setCurrentText("instructions");
        const QString records = p.generateSynthetic();
        QVERIFY2(records.endsWith(".jsonl"), qPrintable(records));
        QCOMPARE(p.findChild<QTabWidget*>()->currentWidget(), p.chatTab());
        QCOMPARE(p.chatTab()->findChild<QLineEdit*>("chatFiles")->text(), records);
        QCOMPARE(p.sources(), QStringList{path});  // the Import tab keeps the text task
        p.chatTab()->setTokenizer("byte", 0);
        QSignalSpy done(&p, &DatasetsPanel::datasetPrepared);
        p.prepareChat();
        QTRY_VERIFY_WITH_TIMEOUT(done.count() == 1, 60000);
        const auto d = twb::open_prepared(done.first().first().toString().toStdString());
        QCOMPARE(d.chat_template, std::string(twb::kChatTemplate));
        QCOMPARE(d.train_documents + d.val_documents, uint64_t(20000));  // the tab's default count
    }
};

QTEST_MAIN(TestDatasetsPanel)
#include "tst_datasets_panel.moc"
