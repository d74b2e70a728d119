// The attention viewer driven offscreen over a tiny trained run: the heatmap shows exactly the
// engine's captured weights with the future masked, the aggregations are what they claim, the probe
// timeline scrubs through the run's evaluations, positions load, and exports hold every weight. With many
// tokens the heatmap's labels are thinned so they never overlap, the full tokens shown on hover.
#include "twb/attention.h"
#include "twb/session.h"
#include "ui/attention/AttentionPanel.h"
#include "ui/attention/HeadGrid.h"
#include "ui/attention/Heatmap.h"
#include "ui/widgets/HintBar.h"
#include "ui/widgets/RunPicker.h"
#include "ui/widgets/TextScale.h"
#include "ui_fixture.h"

#include <qcustomplot.h>
#include <QApplication>
#include <QJsonDocument>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QRadioButton>
#include <QScopeGuard>
#include <QScrollArea>
#include <QSlider>
#include <QSplitter>
#include <QTimer>

class TestAttentionPanel : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;
    QString m_run;

    static void waitIdle(AttentionPanel& p) { QTRY_VERIFY_WITH_TIMEOUT(!p.isBusy(), 60000); }

private slots:
    void initTestCase() { m_run = twbtest::make_tiny_run(m_ws); }

    void promptShowsEngineWeights() {
        AttentionPanel p;
        p.setRun(m_run);
        p.picker()->setCheckpoint("40");
        p.setPrompt("the cat sat");
        p.showPrompt();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        const auto& c = p.capture();
        QCOMPARE(c.layers, int64_t(2));
        QCOMPARE(c.heads, int64_t(2));
        QCOMPARE(c.length, int64_t(11));
        QCOMPARE(c.weights.size(), size_t(2 * 2 * 11 * 11));
        QCOMPARE(p.shownStep(), qint64(40));
        // the same weights as the engine computes for that checkpoint
        twb::ModelSession s;
        s.open(m_run.toStdString(), "40");
        const auto ref = s.attention("the cat sat");
        QCOMPARE(c.weights, ref.weights);
        // the large view is head (1, 1): equal to the capture below the diagonal, masked above
        p.select(1, 1);
        auto* h = p.heatmap();
        QCOMPARE(h->rows(), 11);
        for (int q = 0; q < 11; ++q)
            for (int k = 0; k < 11; ++k) {
                if (k > q)
                    QVERIFY(std::isnan(h->value(q, k)));
                else
                    QCOMPARE(h->value(q, k), c.at(1, 1, q, k));
            }
        QVERIFY(h->describe(3, 1).contains("'␣'") || h->describe(3, 1).contains("(3)"));
        // layer mean and rollout
        p.setView(AttentionPanel::View::LayerMean);
        QVERIFY(std::abs(h->value(5, 2) - (c.at(1, 0, 5, 2) + c.at(1, 1, 5, 2)) / 2) < 1e-6f);
        p.setView(AttentionPanel::View::Rollout);
        for (int q = 0; q < 11; ++q) {
            double sum = 0;
            for (int k = 0; k <= q; ++k)
                sum += h->value(q, k);
            QVERIFY(std::abs(sum - 1.0) < 1e-5);
        }
        // exports hold every weight
        QTemporaryDir out;
        QVERIFY(p.exportJson(out.path() + "/w.json"));
        QFile jf(out.path() + "/w.json");
        QVERIFY(jf.open(QIODevice::ReadOnly));
        const auto j = QJsonDocument::fromJson(jf.readAll()).object();
        QCOMPARE(j["tokens"].toArray().size(), 11);
        QCOMPARE(j["weights"].toArray()[1].toArray()[0].toArray()[10].toArray()[3].toDouble(),
                 static_cast<double>(c.at(1, 0, 10, 3)));
        QVERIFY(p.exportCsv(out.path() + "/w.csv"));
        QFile cf(out.path() + "/w.csv");
        QVERIFY(cf.open(QIODevice::ReadOnly));
        QCOMPARE(cf.readAll().count('\n'), 1 + 2 * 2 * (11 * 12 / 2));
        QVERIFY(!QFile::exists(out.path() + "/w.csv.tmp.csv"));
    }

    void jsonExportIsTheEngineFormat() {
        AttentionPanel p;
        p.setRun(m_run);
        p.picker()->setCheckpoint("40");
        p.setPrompt("the cat sat");
        p.showPrompt();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QTemporaryDir out;
        const QString file = out.path() + "/a.json";
        QVERIFY(p.exportJson(file));
        // read back by the engine's reader, the one `twb attention --out` files are read with
        const auto back = twb::read_attention_json(file.toStdString());
        const auto& c = p.capture();
        QCOMPARE(back.tokens, c.tokens);
        QCOMPARE(back.layers, c.layers);
        QCOMPARE(back.heads, c.heads);
        QCOMPARE(back.length, c.length);
        QCOMPARE(back.weights, c.weights);
        QFile jf(file);
        QVERIFY(jf.open(QIODevice::ReadOnly));
        const auto j = QJsonDocument::fromJson(jf.readAll()).object();
        QCOMPARE(j["format"].toString(), QString("twb-attention"));
        QCOMPARE(j["step"].toInteger(), qint64(40));
        QVERIFY(j["checkpoint"].toString().endsWith("step_00000040"));
    }

    void timelineScrubsThroughEvaluations() {
        AttentionPanel p;
        p.setRun(m_run);
        // Before a timeline: no legend, and a line saying how to fill the plot.
        QCOMPARE(p.scorePlot()->itemCount(), 1);
        QVERIFY(qobject_cast<QCPItemText*>(p.scorePlot()->item(0)));
        QVERIFY(!p.scorePlot()->legend->visible());
        p.showTimeline();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QCOMPARE(p.timeline().steps, (std::vector<int64_t>{0, 10, 20, 30, 40}));
        auto* slider = p.timelineSlider();
        QVERIFY(slider->isEnabled());
        QCOMPARE(slider->maximum(), 4);
        QCOMPARE(p.shownStep(), qint64(40));  // opens at the newest capture
        slider->setValue(0);
        QCOMPARE(p.shownStep(), qint64(0));
        const auto first = p.capture().weights;
        QCOMPARE(first, p.timeline().at(0).weights);
        slider->setValue(4);
        QCOMPARE(p.shownStep(), qint64(40));
        QVERIFY(p.capture().weights != first);
        // one score curve per head, one point per evaluation, and a line at the step shown
        QCOMPARE(p.scorePlot()->graphCount(), 4);
        QCOMPARE(p.scorePlot()->itemCount(), 1);
        auto* line = qobject_cast<QCPItemStraightLine*>(p.scorePlot()->item(0));
        QCOMPARE(line->point1->coords().x(), 40.0);
        slider->setValue(2);
        QCOMPARE(line->point1->coords().x(), 20.0);  // scrubbing moves the line, the curves stay
        QCOMPARE(p.scorePlot()->graph(0)->data()->size(), 5);
        // every curve told from the others: another layer's hue or another dash (a layer's heads were shades
        // of one hue)
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < i; ++j) {
                const QPen a = p.scorePlot()->graph(i)->pen(), b = p.scorePlot()->graph(j)->pen();
                QVERIFY2(a.style() != b.style() || std::abs(a.color().hsvHue() - b.color().hsvHue()) >= 60,
                         qPrintable(p.scorePlot()->graph(i)->name() + " / " + p.scorePlot()->graph(j)->name()));
            }
        // The legend names the four heads beside the curves, not over them.
        QCPLegend* legend = p.scorePlot()->legend;
        QVERIFY(legend->visible());
        QCOMPARE(legend->itemCount(), 4);
        QVERIFY2(!legend->outerRect().intersects(p.scorePlot()->axisRect()->rect()),
                 qPrintable(QString("legend at x %1, curves to x %2")
                                .arg(legend->outerRect().left())
                                .arg(p.scorePlot()->axisRect()->rect().right())));
        // ...and whole within the plot: a rectangle's outline is drawn a pixel right of its last column, and the
        // legend's reached the plot's edge, so its right side was not drawn
        p.scorePlot()->setViewport(QRect(0, 0, 700, 400));  // laid out at this size though the tab is not shown
        p.scorePlot()->replot();
        QVERIFY2(legend->outerRect().right() + 1 < 700,
                 qPrintable(QString("legend to x %1 of 700").arg(legend->outerRect().right())));
        // Back to Prompt: the timeline's step is no longer what the maps show, nor said to be
        p.findChild<QRadioButton*>("timelineMode")->setChecked(true);
        waitIdle(p);
        QVERIFY(p.findChild<QLabel*>("timelineStep")->text().startsWith("step"));
        for (auto* b : p.findChildren<QRadioButton*>())
            if (b->text() == "Prompt")
                b->setChecked(true);
        waitIdle(p);
        QVERIFY2(!p.findChild<QLabel*>("timelineStep")->text().startsWith("step"),
                 qPrintable(p.findChild<QLabel*>("timelineStep")->text()));
        QVERIFY(!slider->isEnabled());
    }

    void positionsShowRotaryAngles() {
        AttentionPanel p;
        p.setRun(m_run);
        QVERIFY(p.positionMap()->isHidden());  // no grey box before Show positions
        p.loadPositions();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        auto* m = p.positionMap();
        QVERIFY(!m->isHidden());
        QCOMPARE(m->rows(), 32);                                     // block_size
        QCOMPARE(m->cols(), 8);                                      // head_dim / 2 rotation pairs
        QCOMPARE(m->value(0, 3), 1.0f);                              // cos(0)
        QVERIFY(std::abs(m->value(5, 0) - std::cos(5.0f)) < 1e-5f);  // theta_0 = 1
        // In a short panel the view scrolls rather than squeeze the map into a strip (at 150% text)
        QCOMPARE(TextScale::apply(150), 150);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        for (auto* tabs : p.findChildren<QTabWidget*>())
            for (int i = 0; i < tabs->count(); ++i)
                if (tabs->widget(i)->isAncestorOf(m))
                    tabs->setCurrentIndex(i);
        p.resize(1000, 480);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        QTRY_VERIFY2(m->height() >= 12 * m->fontMetrics().height(), qPrintable(QString::number(m->height())));
    }

    void aShortMapKeepsItsScaleLabelsApart() {
        // A short map (cross-attention at 150% text) drew its colour scale's labels on each other
        QCOMPARE(TextScale::apply(150), 150);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        Heatmap h;
        h.resize(500, 100);
        h.show();
        QVERIFY(QTest::qWaitForWindowExposed(&h));
        h.setMatrix(2, 10, std::vector<float>(20, 0.5f), {"a", "b"}, QStringList(10, "x"), "row", "column", 0, 1,
                    false);
        auto* scale = h.findChild<QCPColorScale*>();
        QVERIFY(scale);
        scale->parentPlot()->replot();  // the queued one, now
        QVERIFY(scale->axis()->tickVector().size() >= 2);
        const QVector<double> ticks = scale->axis()->tickVector();
        const int label = QFontMetrics(scale->axis()->tickLabelFont()).height();
        for (int i = 1; i < ticks.size(); ++i)
            QVERIFY2(
                std::abs(scale->axis()->coordToPixel(ticks[i]) - scale->axis()->coordToPixel(ticks[i - 1])) >= label,
                qPrintable(
                    QString("%1 and %2 of a %3 px scale").arg(ticks[i - 1]).arg(ticks[i]).arg(scale->rect().height())));
    }
    void positionsShowTheSinusoidalTable() {
        const QString run = twbtest::make_tiny_run(m_ws, "sinusoidal", 10, "sinusoidal");
        AttentionPanel p;
        p.setRun(run);
        p.loadPositions();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        auto* m = p.positionMap();
        QCOMPARE(m->rows(), 32);
        QCOMPARE(m->cols(), 32);  // n_embd
        for (int pos : {0, 3, 17})
            for (int i : {0, 4, 15}) {  // sin on dimension 2i, cos on 2i+1
                const double angle = pos / std::pow(10000.0, 2.0 * i / 32);
                QVERIFY(std::abs(m->value(pos, 2 * i) - std::sin(angle)) < 1e-5);
                QVERIFY(std::abs(m->value(pos, 2 * i + 1) - std::cos(angle)) < 1e-5);
            }
    }

    /// 70 tokens on a 560-pixel heatmap: every n-th label shows, spaced so no two overlap (the query
    /// labels stand one font height apart, the rotated target labels their slanted height), and hovering
    /// a cell shows its full query and target tokens in a tooltip (40 labels were forced onto any size).
    void manyTokensLabelsNeverOverlap() {
        Heatmap h;
        h.resize(560, 560);
        h.show();
        QVERIFY(QTest::qWaitForWindowExposed(&h));
        const int n = 70;
        QStringList labels;
        for (int i = 0; i < n; ++i)
            labels << QString("tok%1").arg(i);
        h.setMatrix(n, n, std::vector<float>(size_t(n) * n, 0.5f), labels, labels, "query", "target");
        for (int i = 0; i < 2; ++i)  // ticks are placed from the previous layout: settle it
            h.plot()->replot(QCustomPlot::rpImmediateRefresh);
        for (QCPAxis* axis : {h.plot()->xAxis, h.plot()->yAxis}) {
            const QVector<double> ticks = axis->tickVector();
            QVERIFY(ticks.size() >= 2);
            const double fontHeight = QFontMetricsF(axis->tickLabelFont()).height();
            const double slant =
                axis == h.plot()->xAxis ? std::sin(std::abs(axis->tickLabelRotation()) * M_PI / 180) : 1;
            for (int i = 1; i < ticks.size(); ++i) {
                const double apart = std::abs(axis->coordToPixel(ticks[i]) - axis->coordToPixel(ticks[i - 1])) * slant;
                QVERIFY2(apart >= fontHeight, qPrintable(QString("%1 labels %2 px apart, font %3 px high")
                                                             .arg(ticks.size())
                                                             .arg(apart)
                                                             .arg(fontHeight)));
            }
        }
        const QPoint cell(int(h.plot()->xAxis->coordToPixel(37)), int(h.plot()->yAxis->coordToPixel(41)));
        QMouseEvent move(QEvent::MouseMove, cell, h.plot()->mapToGlobal(cell), Qt::NoButton, Qt::NoButton,
                         Qt::NoModifier);
        QApplication::sendEvent(h.plot(), &move);
        QVERIFY2(h.plot()->toolTip().contains("'tok41'") && h.plot()->toolTip().contains("'tok37'"),
                 qPrintable(h.plot()->toolTip()));
    }
    void headGridFollowsItsRoom() {
        // The thumbnails were fitted to the grid's room only when the panel resized: back from 150% text, or
        // with the splitter moved, they kept their size and the mean column stood behind a scroll bar.
        AttentionPanel p;
        p.setRun(m_run);
        p.setPrompt("the cat sat");
        p.resize(1110, 640);
        p.show();  // shows the prompt
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        QTRY_VERIFY_WITH_TIMEOUT(p.capture().layers == 2 && !p.isBusy(), 60000);
        auto* scroll = qobject_cast<QScrollArea*>(p.grid()->parentWidget()->parentWidget());
        QVERIFY(scroll);
        QSplitter* split = nullptr;
        for (auto* s : p.findChildren<QSplitter*>())
            if (s->orientation() == Qt::Horizontal && s->isAncestorOf(scroll))
                split = s;
        QVERIFY(split);
        for (int left : {600, 300, 700}) {  // wide, narrow, wide again
            const int total = split->sizes().at(0) + split->sizes().at(1);
            split->setSizes({left, total - left});
            QCoreApplication::processEvents();
            QVERIFY2(p.grid()->width() <= scroll->viewport()->width(),
                     qPrintable(QString("grid %1 px in %2").arg(p.grid()->width()).arg(scroll->viewport()->width())));
            QVERIFY2(p.grid()->width() >= scroll->viewport()->width() - 3 * 12 || p.grid()->width() >= 3 * 120,
                     qPrintable(QString("grid %1 px in %2: not grown back")
                                    .arg(p.grid()->width())
                                    .arg(scroll->viewport()->width())));
        }
        // The band under each row (a score's bar and value, the caption under the last) grows with the text:
        // 16 px cut the caption "bars: entropy (1 = uniform)" at 150%
        HeadGrid g;
        g.setCapture(p.capture(), p.grid()->scores(), "entropy (1 = uniform)");
        g.fitWidth(400);
        const int at100 = g.sizeHint().height();
        QCOMPARE(TextScale::apply(150), 150);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        QCoreApplication::processEvents();  // the new font arrives as a posted event
        g.fitWidth(400);
        QVERIFY2(g.sizeHint().height() >= at100 + 3 * 3,
                 qPrintable(QString("%1 px at 100%, %2 at 150%").arg(at100).arg(g.sizeHint().height())));
    }
    void hoverLineIsWholeBesideOrAboveTheExportButtons() {
        // At 150% text on 1280x720 the hover line shared its row with the two export buttons and was cut
        // to "Hover the map for query": where it does not fit beside them it has a row of its own.
        const QString hovered = "query 'e' (29) → key 'a' (20): 0.0000";
        for (int scale : {100, 150}) {
            QCOMPARE(TextScale::apply(scale), scale);
            const auto restore = qScopeGuard([] { TextScale::apply(100); });
            AttentionPanel p;
            p.resize(1110, 640);  // the panel's room in a 1280x720 window
            p.show();
            QVERIFY(QTest::qWaitForWindowExposed(&p));
            auto* hover = p.findChild<QLabel*>("attentionHover");
            auto* heat = p.findChild<Heatmap*>("attentionHeatmap");
            QVERIFY(hover && heat);
            emit heat->hovered(hovered);
            QCoreApplication::processEvents();
            QVERIFY2(hover->width() >= hover->fontMetrics().horizontalAdvance(hovered),
                     qPrintable(QString("at %1%: the line %2 px for a hover of %3")
                                    .arg(scale)
                                    .arg(hover->width())
                                    .arg(hover->fontMetrics().horizontalAdvance(hovered))));
            // At 100% it keeps the buttons' row: the map loses no height to it.
            QPushButton* image = nullptr;
            for (auto* b : p.findChildren<QPushButton*>())
                if (b->text() == "Export image…")
                    image = b;
            QVERIFY(image);
            const int hoverMiddle = hover->mapTo(&p, QPoint(0, hover->height() / 2)).y(),
                      buttonMiddle = image->mapTo(&p, QPoint(0, image->height() / 2)).y();
            if (scale == 100)
                QVERIFY2(std::abs(hoverMiddle - buttonMiddle) <= 4,
                         qPrintable(QString("the line at y %1, the buttons at %2").arg(hoverMiddle).arg(buttonMiddle)));
        }
        // A line longer than its room is cut with "…" (in a narrow window it ended mid-word, "drag pano").
        AttentionPanel p;
        p.resize(1110, 640);
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        auto* bar = p.findChild<HintBar*>();
        QVERIFY(bar);
        const QString longer = hovered.repeated(8);
        emit p.findChild<Heatmap*>("attentionHeatmap")->hovered(longer);
        QTRY_VERIFY2(bar->shownHint().endsWith(QChar(0x2026)) && bar->shownHint().size() < longer.size(),
                     qPrintable(bar->shownHint()));
        emit p.findChild<Heatmap*>("attentionHeatmap")->hovered(hovered);
        QTRY_COMPARE(bar->shownHint(), hovered);
        // The mouse leaves the map: the hint again, not the last cell's read-out as if it were still under it.
        auto* plot = p.findChild<Heatmap*>("attentionHeatmap")->plot();
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(plot, &leave);
        QCOMPARE(p.findChild<QLabel*>("attentionHover")->text(),
                 QString("Hover for query, key, weight; wheel zooms, drag pans."));
    }
    void theMapEnlargesOverThePage() {
        // At 175% text on 1280x720 (a projector) the Selected map was a strip under the prompt and beside the
        // grid: Enlarge, or a double-click on the map, gives it the page; Esc gives the rest back.
        QCOMPARE(TextScale::apply(175), 175);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        AttentionPanel p;
        p.resize(1110, 640);  // the panel's room in a 1280x720 window
        p.show();
        QVERIFY(QTest::qWaitForWindowExposed(&p));
        auto* heat = p.findChild<Heatmap*>("attentionHeatmap");
        auto* grid = p.findChild<HeadGrid*>();
        auto* enlarge = p.findChild<QPushButton*>("enlargeMap");
        QVERIFY(heat && grid && enlarge);
        p.setRun(m_run);
        p.setPrompt("the cat sat");
        p.showPrompt();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QCOMPARE(heat->rows(), 11);
        const QSize before = heat->size();
        enlarge->click();
        QVERIFY(p.mapEnlarged());
        QTRY_VERIFY2(2 * heat->height() > 3 * before.height() && heat->width() > before.width(),
                     qPrintable(QString("%1x%2 from %3x%4")
                                    .arg(heat->width())
                                    .arg(heat->height())
                                    .arg(before.width())
                                    .arg(before.height())));
        QVERIFY(!grid->isVisible() && !p.picker()->isVisible());
        QTest::keyClick(enlarge, Qt::Key_Escape);
        QVERIFY(!p.mapEnlarged() && !enlarge->isChecked());
        QTRY_COMPARE(heat->size(), before);
        QVERIFY(grid->isVisible() && p.picker()->isVisible());
        // a double-click on the map enlarges it, and again gives the page back
        auto* plot = heat->findChild<QCustomPlot*>();
        QTest::mouseDClick(plot, Qt::LeftButton, Qt::NoModifier, plot->rect().center());
        QVERIFY(p.mapEnlarged() && enlarge->isChecked());
        QTest::mouseDClick(plot, Qt::LeftButton, Qt::NoModifier, plot->rect().center());
        QVERIFY(!p.mapEnlarged());
        QTRY_COMPARE(heat->size(), before);
    }
    void aTargetLeftFromATranslationRunIsNotSentForALanguageModel() {
        // The target box is hidden for a language model; a target remembered from a translation run (the
        // settings keep it across a restart) made every language model's capture fail, with no way to clear it.
        AttentionPanel p;
        p.setTarget("Ein Mann fährt Fahrrad.");
        p.setRun(m_run);
        p.setPrompt("the cat");
        p.showPrompt();
        waitIdle(p);
        QVERIFY2(p.lastError().isEmpty(), qPrintable(p.lastError()));
        QCOMPARE(p.capture().length, int64_t(7));
    }
    void anotherRunsFailureClearsTheMapsShown() {
        // The maps shown were of the run before; beside the new run's error they would be taken for its.
        const QString other = twbtest::make_tiny_run(m_ws, "other", 10);
        AttentionPanel p;
        p.setRun(m_run);
        p.setPrompt("the cat");
        p.showPrompt();
        waitIdle(p);
        QCOMPARE(p.capture().layers, int64_t(2));
        p.setRun(other);
        p.setPrompt("☃");
        p.showPrompt();
        waitIdle(p);
        QVERIFY2(p.lastError().contains("☃"), qPrintable(p.lastError()));
        QCOMPARE(p.capture().layers, int64_t(0));
        // The same run's failure keeps what is shown: it is still that run's.
        p.setPrompt("the cat");
        p.showPrompt();
        waitIdle(p);
        p.setPrompt("☃");
        p.showPrompt();
        waitIdle(p);
        QCOMPARE(p.capture().layers, int64_t(2));
        // An emptied prompt shows the maps' empty state: no capture of a lone newline, drawn as solid maps
        // with entropy 0.00 that looked like data.
        p.setPrompt(" \n ");
        p.showPrompt();
        waitIdle(p);
        QCOMPARE(p.capture().layers, int64_t(0));
        QVERIFY(p.lastError().isEmpty());
        p.heatmap()->plot()->replot();  // nor the tokens of the map before along the emptied map's axes
        QVERIFY(p.heatmap()->plot()->xAxis->tickVector().isEmpty());
        QVERIFY(p.heatmap()->plot()->yAxis->tickVector().isEmpty());
    }
    void anEmptiedPromptEmptiesTheMapsAndTheirExports() {
        // Emptying the prompt left the maps (and the hover line of a cell) until Show; Export image then wrote a
        // blank grey picture without a word.
        AttentionPanel p;
        p.setRun(m_run);
        p.setPrompt("the cat");
        p.showPrompt();
        waitIdle(p);
        QCOMPARE(p.capture().layers, int64_t(2));
        auto* hover = p.findChild<QLabel*>("attentionHover");
        emit p.heatmap()->hovered("query 'c' (4) → key 't' (0): 0.5000");
        QVERIFY(hover->text().startsWith("query"));
        p.setPrompt("");
        QCOMPARE(p.capture().layers, int64_t(0));
        QVERIFY2(!hover->text().startsWith("query"), qPrintable(hover->text()));
        QTimer::singleShot(2000, [] {  // the old way asked for a file: closed, so a failure ends
            if (auto* d = QApplication::activeModalWidget())
                d->close();
        });
        for (auto* b : p.findChildren<QPushButton*>())
            if (b->text() == "Export image…")
                b->click();
        QVERIFY2(p.lastError().contains("Nothing to export yet"), qPrintable(p.lastError()));
    }
    void badPromptGivesMessage() {
        AttentionPanel p;
        p.setRun(m_run);
        p.setPrompt("☃");
        p.showPrompt();
        waitIdle(p);
        QVERIFY2(p.lastError().contains("☃"), qPrintable(p.lastError()));
    }
};

QTEST_MAIN(TestAttentionPanel)
#include "tst_attention_panel.moc"
