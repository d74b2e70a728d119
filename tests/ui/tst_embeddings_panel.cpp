// The embedding explorer driven offscreen over a tiny trained run: a neighbour query fills the table
// with exactly the engine's neighbours, the similarity label shows the engine's figure, the map holds
// the engine's points and hovering names a token, bad words show one error, and the Attention panel
// carries the explorer as its Embeddings tab, following its run.
#include "twb/config.h"
#include "twb/session.h"
#include "ui/attention/AttentionPanel.h"
#include "ui/embeddings/EmbeddingMapPlot.h"
#include "ui/embeddings/EmbeddingsPanel.h"
#include "ui/widgets/RunPicker.h"
#include "ui/widgets/TextScale.h"
#include "ui_fixture.h"

#include <nlohmann/json.hpp>

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QScopeGuard>
#include <QTabWidget>
#include <QTableWidget>

class TestEmbeddingsPanel : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
    QString m_run;

    static void waitIdle(EmbeddingsPanel& p) { QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000); }

private slots:
    void initTestCase() { m_run = twbtest::make_tiny_run(m_ws, "tiny", 20); }

    void neighbourQueryFillsTheTable() {
        EmbeddingsPanel p;
        p.setRun(m_run);
        p.picker()->setCheckpoint("last");
        p.setWord("the");
        p.findNeighbours();
        QVERIFY(p.isBusy());
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        twb::ModelSession s;
        s.open(m_run.toStdString(), "last");
        const auto ref = s.nearest_tokens("the", 10);
        auto* t = p.neighbourTable();
        QCOMPARE(t->rowCount(), 10);
        for (int i = 0; i < 10; ++i) {
            const auto& n = ref.neighbours[static_cast<size_t>(i)];
            QCOMPARE(t->item(i, 1)->data(Qt::DisplayRole).toInt(), n.id);
            QCOMPARE(t->item(i, 0)->data(Qt::UserRole).toString(), QString::fromStdString(n.text));
            QCOMPARE(t->item(i, 2)->text(), QString::number(n.similarity, 'f', 4));
        }
        // Sorted: most similar first.
        for (int i = 1; i < 10; ++i)
            QVERIFY(t->item(i - 1, 2)->text().toDouble() >= t->item(i, 2)->text().toDouble());
        // The figures' titles whole, at 150% text too ("sine similar").
        p.resize(900, 600);
        p.show();
        QCOMPARE(TextScale::apply(150), 150);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        QTRY_VERIFY2(
            t->columnWidth(2) >= t->horizontalHeader()->sectionSizeHint(2) &&
                t->columnWidth(1) >= t->horizontalHeader()->sectionSizeHint(1),
            qPrintable(QString("%1 < %2").arg(t->columnWidth(2)).arg(t->horizontalHeader()->sectionSizeHint(2))));
    }

    void similarityAndMapShowTheEnginesFigures() {
        EmbeddingsPanel p;
        p.setRun(m_run);
        p.picker()->setCheckpoint("last");
        p.setTexts("cat", "dog");
        p.compare();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        twb::ModelSession s;
        s.open(m_run.toStdString(), "last");
        const double sim = s.similarity("cat", "dog").similarity;
        QVERIFY2(p.similarityLabel()->text().contains(QString::number(sim, 'f', 4)),
                 qPrintable(p.similarityLabel()->text()));

        p.drawMap();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const auto ref = s.embedding_map(200);
        const auto& shown = p.mapPlot()->map();
        QCOMPARE(shown.points.size(), ref.points.size());
        QVERIFY(shown.by_frequency);
        // The caption is the interface's sentence (translated), naming the count and the dataset (by its
        // folder's name; the whole path in the tooltip).
        const QString info = p.findChild<QLabel*>("mapInfo")->text();
        QVERIFY2(info.startsWith(QString("the %1 most frequent tokens of %2 (train + val) (step ")
                                     .arg(ref.points.size())
                                     .arg(QFileInfo(QString::fromStdString(ref.dataset)).fileName())),
                 qPrintable(info));
        QCOMPARE(p.findChild<QLabel*>("mapInfo")->toolTip(), QString::fromStdString(ref.dataset));
        QCOMPARE(shown.points.front().id, ref.points.front().id);
        QCOMPARE(shown.points.front().x, ref.points.front().x);
        // Hover: the pixel of the most frequent point names its token.
        p.resize(1000, 700);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        auto* plot = p.mapPlot();
        plot->replot();
        const QPointF at(plot->xAxis->coordToPixel(ref.points[0].x), plot->yAxis->coordToPixel(ref.points[0].y));
        QCOMPARE(plot->pointAt(at), 0);
        QSignalSpy hovered(plot, &EmbeddingMapPlot::hovered);
        QMouseEvent move(QEvent::MouseMove, at, plot->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(plot, &move);
        QCOMPARE(hovered.count(), 1);
        QVERIFY(hovered[0][0].toString().contains(QString("id %1").arg(ref.points[0].id)));
        // The y axis's title is whole where it fits, and short where the plot is low ("(8.1%" at 150% text)
        QVERIFY2(plot->yAxis->label().startsWith("second principal component ("), qPrintable(plot->yAxis->label()));
        plot->setViewport(QRect(0, 0, 600, 220));
        plot->replot();
        QVERIFY2(plot->yAxis->label().startsWith("component 2 ("), qPrintable(plot->yAxis->label()));
        QVERIFY(QFontMetrics(plot->yAxis->labelFont()).horizontalAdvance(plot->yAxis->label()) <=
                plot->axisRect()->height());
        plot->setViewport(plot->rect());
        plot->replot();
        QVERIFY2(plot->yAxis->label().startsWith("second principal component ("), qPrintable(plot->yAxis->label()));
        // The CSV export is the engine's format.
        const QString csv = m_ws.path() + "/map.csv";
        QVERIFY(p.exportMap(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray::fromStdString(twb::embedding_map_csv(ref)));
    }

    void crowdedLabelsGiveWayToTheMoreFrequent() {
        // Where points crowd, their labels were drawn over each other ("and", "you", "the").
        twb::EmbeddingMap map;
        for (int i = 0; i < 3; ++i)  // three crowded points, most frequent first
            map.points.push_back({i, "word" + std::to_string(i), uint64_t(100 - i), 0.001 * i, 0.0});
        for (int i = 3; i < 8; ++i)  // and five apart
            map.points.push_back({i, "far" + std::to_string(i), uint64_t(100 - i), double(i), double(i)});
        map.explained[0] = 0.3;
        map.explained[1] = 0.2;
        EmbeddingMapPlot plot;
        plot.resize(600, 450);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.setMap(map, 8);
        plot.replot();
        QCOMPARE(plot.shownLabels(), 1 + 5);  // of the crowded three, the most frequent
        // Zoomed in on them, there is room for all three.
        plot.xAxis->setRange(-0.0005, 0.003);
        plot.yAxis->setRange(-0.01, 0.01);
        plot.replot();
        QCOMPARE(plot.shownLabels(), 8);
    }
    void anUnknownWordIsOneError() {
        EmbeddingsPanel p;
        p.setRun(m_run);
        p.setWord("the");  // an answer first: the unknown word's error must not stand over it
        p.findNeighbours();
        waitIdle(p);
        QVERIFY(p.neighbourTable()->rowCount() > 0);
        p.setTexts("the", "a");
        p.compare();
        waitIdle(p);
        p.setWord("日本");
        p.findNeighbours();
        waitIdle(p);
        QVERIFY(!p.lastError().isEmpty());
        QVERIFY(!p.lastError().contains('\n'));
        QCOMPARE(p.neighbourTable()->rowCount(), 0);
        QVERIFY2(p.findChild<QLabel*>("nearInfo")->text().startsWith("No neighbours"),
                 qPrintable(p.findChild<QLabel*>("nearInfo")->text()));
        p.setTexts("日本", "a");
        p.compare();
        waitIdle(p);
        QVERIFY2(p.findChild<QLabel*>("similarityResult")->text().startsWith("No similarity"),
                 qPrintable(p.findChild<QLabel*>("similarityResult")->text()));
    }

    void anotherRunClearsWhatTheRunBeforeShowed() {
        // A run that cannot be shown (a translation run) kept the run before's neighbours and map under
        // its own name: another run empties them.
        EmbeddingsPanel p;
        p.setRun(m_run);
        p.setWord("the");
        p.findNeighbours();
        waitIdle(p);
        p.drawMap();
        waitIdle(p);
        QVERIFY(p.neighbourTable()->rowCount() > 0 && !p.mapPlot()->map().points.empty());
        p.setRun(m_ws.path() + "/elsewhere");
        QCOMPARE(p.neighbourTable()->rowCount(), 0);
        QVERIFY(p.mapPlot()->map().points.empty());
        QVERIFY(p.findChild<QLabel*>("mapInfo")->text().isEmpty());
        // The emptied map's axes claim no share of a variance ("0.0% of the variance").
        QVERIFY2(!p.mapPlot()->xAxis->label().contains('%'), qPrintable(p.mapPlot()->xAxis->label()));
        QVERIFY2(!p.mapPlot()->yAxis->label().contains('%'), qPrintable(p.mapPlot()->yAxis->label()));
        // A translation run is refused in the panel's words, not the command line's.
        twb::RunConfig c;
        c.model_kind = twb::ModelKind::EncoderDecoder;
        c.vocab_size = 20;
        c.data_dir = m_ws.path().toStdString();
        QVERIFY(QDir().mkpath(m_ws.path() + "/translation"));
        twbtest::write(twbtest::path(m_ws, "translation/config.json"), nlohmann::json(c).dump());
        p.setRun(m_ws.path() + "/translation");
        // said at once, its buttons off (they stayed on, each press refused)
        QVERIFY2(p.lastError().contains("translation is a translation run"), qPrintable(p.lastError()));
        QVERIFY(!p.findChild<QPushButton*>("findNeighbours")->isEnabled());
        p.findNeighbours();
        QVERIFY(!p.isBusy());
        QVERIFY2(p.lastError().contains("translation is a translation run") && !p.lastError().contains("twb "),
                 qPrintable(p.lastError()));
    }

    void attentionPanelHasTheEmbeddingsTab() {
        AttentionPanel a;
        a.setRun(m_run);
        QCOMPARE(a.pages()->count(), 4);  // Attention, Embeddings, Logit lens, Head ablation
        QCOMPARE(a.pages()->tabText(1), QString("Embeddings"));
        QCOMPARE(a.pages()->widget(1), static_cast<QWidget*>(a.embeddings()));
        QCOMPARE(a.embeddings()->picker()->run(), a.picker()->run());
    }
};

QTEST_MAIN(TestEmbeddingsPanel)
#include "tst_embeddings_panel.moc"
