// The Training panel's plots and status line, offscreen at the sizes the panel gives them at 1280x720, at
// 100% and 150% text: a single evaluation sits inside its plot; the three small plots are as wide as each
// other, their titles whole or in their short form, their y ticks a label's height apart, their x axes two
// step labels at least that never run together (the last inside the plot), thousands written short; the loss
// axis's title fits its height; the status line keeps its height while it counts; where the column is too
// short for both, the small plots step aside for the loss plot.
#include "twb/metrics.h"
#include "ui/training/MetricsPlot.h"
#include "ui/widgets/FigureFile.h"
#include "ui/widgets/SteadyLabel.h"
#include "ui/widgets/TextScale.h"
#include "ui_fixture.h"

#include <qcustomplot.h>
#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QScopeGuard>
#include <QTabBar>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

class TestMetricsPlot : public QObject {
    Q_OBJECT
    QTemporaryDir m_ws;

    /// Rows 0..count of one kind ("train" or "eval"), `every` steps apart, the loss falling from 4.2 by `fall` a row.
    static std::vector<twb::MetricsRow> falling(const char* kind, int count, int every, double fall) {
        std::vector<twb::MetricsRow> rows;
        for (int i = 0; i <= count; ++i) {
            twb::MetricsRow r;
            r.step = every * i;
            r.kind = kind;
            (r.kind == "eval" ? r.val_loss : r.train_loss) = 4.2 - fall * i;
            rows.push_back(r);
        }
        return rows;
    }

private slots:
    void initTestCase() { twbtest::use_test_workspace(m_ws); }

    /// File → Export plots: each format a whole file (there was no test of any), and a name typed without an
    /// extension gets the chosen type's ("plots" was written as a PNG named "plots").
    void exportsWriteWholeFiles() {
        QCOMPARE(withChosenExtension("/x/plots", "SVG image (*.svg)", "PNG image (*.png);;SVG image (*.svg)"),
                 QString("/x/plots.svg"));
        QCOMPARE(withChosenExtension("/x/plots.PNG", "SVG image (*.svg)", "PNG image (*.png);;SVG image (*.svg)"),
                 QString("/x/plots.PNG"));
        QCOMPARE(withChosenExtension("/x/plots.v2", QString(), "PNG image (*.png);;SVG image (*.svg)"),
                 QString("/x/plots.v2.png"));
        QCOMPARE(withChosenExtension(QString(), "PNG image (*.png)", "PNG image (*.png)"), QString());
        MetricsPlot plot;
        plot.resize(500, 400);
        std::vector<twb::MetricsRow> rows;
        for (int i = 1; i <= 20; ++i) {
            twb::MetricsRow r;
            r.step = i;
            r.kind = "train";
            r.train_loss = 4.0 - 0.1 * i;
            rows.push_back(r);
        }
        plot.loadRows(rows);
        const QString dir = m_ws.path();
        QVERIFY(plot.savePng(dir + "/p.png"));
        QCOMPARE(QImage(dir + "/p.png").size(), plot.size());
        QVERIFY(plot.saveSvg(dir + "/p.svg"));
        QFile svg(dir + "/p.svg");
        QVERIFY(svg.open(QIODevice::ReadOnly) && svg.readAll().contains("</svg>"));
        QVERIFY(plot.saveCsv(dir + "/p.csv"));
        QFile csv(dir + "/p.csv");
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).trimmed().split('\n');
        QCOMPARE(lines.size(), 21);
        QVERIFY(lines.first().startsWith("step,kind,train_loss"));
        QVERIFY(!plot.saveCsv(dir + "/no-such-folder/p.csv"));  // said, and nothing half written
        QVERIFY(!QFileInfo::exists(dir + "/no-such-folder"));
    }
    void aSinglePointSitsInsideItsPlot() {
        // One evaluation (step 0, accuracy 0.0314): the axis ran from 0.0312 to 0.0316 and the marker sat
        // half off the left edge.
        MetricsPlot plot;
        plot.resize(540, 520);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        twb::MetricsRow eval;
        eval.step = 0;
        eval.kind = "eval";
        eval.val_loss = 4.2;
        eval.val_accuracy = 0.0314;
        plot.loadRows({eval});
        QCustomPlot* acc = nullptr;
        for (auto* p : plot.findChildren<QCustomPlot*>())
            if (p->property("title") == "Validation accuracy")
                acc = p;
        QVERIFY(acc);
        QTRY_VERIFY(acc->xAxis->range().lower < 0 && acc->xAxis->range().upper > 0);
        QVERIFY2(acc->yAxis->range().lower == 0 && acc->yAxis->range().upper >= 0.06,
                 qPrintable(QString("%1 .. %2").arg(acc->yAxis->range().lower).arg(acc->yAxis->range().upper)));
    }
    void statusLineKeepsItsHeightWhileItCounts() {
        // The step line wraps now and then (a longer ETA): what stands below it stays put until reset().
        QWidget w;
        auto* v = new QVBoxLayout(&w);
        auto* line = new SteadyLabel;
        line->setWordWrap(true);
        auto* below = new QLabel("plots");
        v->addWidget(line);
        v->addWidget(below);
        v->addStretch(1);
        w.resize(260, 300);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString shortText = "step 10 / 500 · ETA 0:09";
        line->setText(shortText);
        QTRY_VERIFY(below->y() > 0);
        const int oneLine = below->y();
        line->setText(shortText + " · loss 2.2731 · 59,188 tok/s · 17.3 ms/step · elapsed 12:07");
        QTRY_VERIFY(below->y() > oneLine);  // wrapped: the line takes the height it needs
        const int wrapped = below->y();
        line->setText(shortText);
        QApplication::processEvents();
        QCOMPARE(below->y(), wrapped);  // shorter again: nothing below moves
        line->reset();
        QTRY_COMPARE(below->y(), oneLine);  // a new run of lines starts at the height it needs
    }
    void smallPlotsHaveReadableAxes_data() {
        QTest::addColumn<int>("textScale");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("last");  // step: to 720, eight ticks of 100 ran their labels together
        QTest::newRow("100%") << 100 << 540 << 720;
        QTest::newRow("150%") << 150 << 540
                              << 720;  // three x labels ran together ("250500"), the loss label lost its end
        QTest::newRow("150%, narrow") << 150 << 420 << 720;  // Xvfb's wider fonts: the learning rate's x axis read "0"
        QTest::newRow("150%, to 500") << 150 << 550 << 500;  // the label 500, at the right end, was not drawn
    }
    void smallPlotsHaveReadableAxes() {
        // An accuracy of 0 at step 0 (all the plot has): a range from 0, not 0 to 6e-11. At the size the
        // panel gives them at 1280x720, the small plots' y tick labels do not overlap, nor their x labels,
        // and the loss axis's label fits its height, at normal text and at 150%.
        QFETCH(int, textScale);
        QFETCH(int, width);
        QFETCH(int, last);
        QCOMPARE(TextScale::apply(textScale), textScale);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        MetricsPlot plot;
        // The panel's right half at 1280x720 (with a banner) at 100%; at 150% a taller one (1920x1080): at
        // 1280x720 the small plots step aside (theLossPlotTakesTheRoomOfTheSmallOnes).
        plot.resize(width, textScale == 100 ? 520 : 600);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        std::vector<twb::MetricsRow> rows;
        twb::MetricsRow eval;
        eval.step = 0;
        eval.kind = "eval";
        eval.val_loss = 4.2;
        eval.val_accuracy = 0;
        rows.push_back(eval);
        for (int i = 1; i <= 60; ++i) {
            twb::MetricsRow r;
            r.step = last * i / 60;
            r.kind = "train";
            r.train_loss = 4.2 - 0.02 * i;
            r.lr = 6e-4 * std::min(1.0, i / 10.0);
            r.tokens_per_s = 12000 + 900 * std::sin(i);
            rows.push_back(r);
        }
        plot.loadRows(rows);
        QCustomPlot *acc = nullptr, *lr = nullptr, *speed = nullptr;
        for (auto* p : plot.findChildren<QCustomPlot*>()) {
            const QString title = p->property("title").toString();
            if (title == "Validation accuracy")
                acc = p;
            else if (title == "Learning rate")
                lr = p;
            else if (title == "Throughput (tokens/s)")
                speed = p;
        }
        QVERIFY(acc && lr && speed);
        QTRY_VERIFY(lr->yAxis->range().upper < 0.01);  // the throttled replot fitted the axes to the rows
        QCOMPARE(speed->xAxis->range().lower, 0.0);    // from step 0 as beside it, not its first row's 12
        // One step axis: the accuracy's one evaluation (step 0) on the same axis as the steps beside it (at
        // 1080p the accuracy's axis ended at the last evaluation, 100, while the others ran on to 170)
        for (QCustomPlot* p : {acc, lr, speed})
            QVERIFY2(p->xAxis->range() == plot.lossPlot()->xAxis->range(),
                     qPrintable(QString("%1: %2 .. %3")
                                    .arg(p->property("title").toString())
                                    .arg(p->xAxis->range().lower)
                                    .arg(p->xAxis->range().upper)));
        QVERIFY2(acc->yAxis->range().lower == 0 && acc->yAxis->range().upper >= 0.1,
                 qPrintable(QString("%1 .. %2").arg(acc->yAxis->range().lower).arg(acc->yAxis->range().upper)));
        for (QCustomPlot* p : {acc, lr, speed}) {
            p->replot();
            QVector<double> shown;
            for (double t : p->yAxis->tickVector())
                if (p->yAxis->range().contains(t))
                    shown << t;
            QVERIFY2(shown.size() >= 2, qPrintable(p->property("title").toString()));
            const int h = QFontMetrics(p->yAxis->tickLabelFont()).height();
            for (int i = 1; i < shown.size(); ++i)
                QVERIFY2(std::abs(p->yAxis->coordToPixel(shown[i]) - p->yAxis->coordToPixel(shown[i - 1])) >= h,
                         qPrintable(QString("%1: ticks %2 and %3 are closer than a label's height (%4 px)")
                                        .arg(p->property("title").toString())
                                        .arg(shown[i - 1])
                                        .arg(shown[i])
                                        .arg(h)));
        }
        // The x axes' labels (steps) do not run into each other either, and two at least are shown (the
        // learning rate's showed "0" alone at 150%).
        for (QCustomPlot* p : {acc, lr, speed}) {
            const QVector<double> ticks = p->xAxis->tickVector();
            const QVector<QString> labels = p->xAxis->tickVectorLabels();
            const QFontMetrics fm(p->xAxis->tickLabelFont());
            QVERIFY2(p == acc ||  // one evaluation: one step to label
                         std::count_if(ticks.begin(), ticks.end(),
                                       [p](double t) { return p->xAxis->range().contains(t); }) >= 2,
                     qPrintable(p->property("title").toString() + ": " +
                                QStringList(labels.begin(), labels.end()).join(' ')));
            for (int i = 1; i < ticks.size(); ++i) {
                const double gap = p->xAxis->coordToPixel(ticks[i]) - p->xAxis->coordToPixel(ticks[i - 1]);
                const int need = (fm.horizontalAdvance(labels[i]) + fm.horizontalAdvance(labels[i - 1])) / 2 + 4;
                QVERIFY2(gap >= need, qPrintable(QString("%1: x ticks %2 and %3 are %4 px apart, their labels need %5")
                                                     .arg(p->property("title").toString(), labels[i - 1], labels[i])
                                                     .arg(gap)
                                                     .arg(need)));
            }
            // The last label is inside the plot: one past its edge is not drawn (QCustomPlot drops it)
            const double end = p->xAxis->coordToPixel(ticks.last()) + fm.horizontalAdvance(labels.last()) / 2.0;
            QVERIFY2(end <= p->width(), qPrintable(QString("%1: '%2' ends at %3 of %4 px")
                                                       .arg(p->property("title").toString(), labels.last())
                                                       .arg(end)
                                                       .arg(p->width())));
        }
        QVERIFY2(std::abs(acc->width() - lr->width()) <= 2 && std::abs(lr->width() - speed->width()) <= 2,
                 qPrintable(QString("%1 %2 %3").arg(acc->width()).arg(lr->width()).arg(speed->width())));
        for (QCustomPlot* p : {acc, lr, speed}) {  // titles whole or in their short form, not cut with "…"
            const QString title = qobject_cast<QCPTextElement*>(p->plotLayout()->element(0, 0))->text();
            QVERIFY2(!title.contains(QChar(0x2026)) && p->yAxis->label().isEmpty(), qPrintable(title));
        }
        // The loss axis's label is whole, or short where the plot is too short for it; never cut.
        QCustomPlot* loss = plot.lossPlot();
        QTRY_VERIFY(loss->axisRect()->height() > 0);
        plot.loadRows(rows);  // a replot with the laid-out height
        QTRY_VERIFY2(QFontMetrics(loss->yAxis->labelFont()).horizontalAdvance(loss->yAxis->label()) <=
                         loss->axisRect()->height(),
                     qPrintable(QString("\"%1\" on %2 px").arg(loss->yAxis->label()).arg(loss->axisRect()->height())));
        // The loss plot, the one a person watches, has the most of the height: its axis at least twice a
        // small plot's (at 150% text it had 86 px beside their 48, with a row under the plots for the run's
        // name and a step axis title under each small plot).
        QVERIFY2(loss->axisRect()->height() >= 2 * acc->axisRect()->height(),
                 qPrintable(QString("loss %1 px, accuracy %2 px of %3")
                                .arg(loss->axisRect()->height())
                                .arg(acc->axisRect()->height())
                                .arg(plot.height())));
        // Thousands written short on the throughput plot ("12k"; a GPU's millions "1.5M", not "1.5E+06").
        const QStringList speedLabels = speed->yAxis->tickVectorLabels();
        QVERIFY2(speedLabels.join(' ').contains('k'), qPrintable(speedLabels.join(' ')));
        for (const QString& l : speedLabels)
            QVERIFY2(!l.contains('e', Qt::CaseInsensitive), qPrintable(l));
    }

    /// At 1280x720 and 150% text the loss plot's axis was a strip of 30 px under its title and legend, the
    /// three small plots taking the rest: where the column is that short they step aside, and come back in a
    /// taller one.
    void theLossPlotTakesTheRoomOfTheSmallOnes() {
        QCOMPARE(TextScale::apply(150), 150);
        const auto restore = qScopeGuard([] { TextScale::apply(100); });
        MetricsPlot plot;
        plot.resize(620, 330);  // the Training panel's plot at 1280x720 and 150% (a finished run's lines above)
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.loadRows(falling("train", 30, 10, 0.05));
        QCustomPlot* loss = plot.lossPlot();
        const int line = QFontMetrics(loss->yAxis->tickLabelFont()).height();
        QTRY_VERIFY(!plot.showsSmallPlots());
        QTRY_VERIFY2(loss->axisRect()->height() >= 6 * line,
                     qPrintable(QString("%1 px of %2").arg(loss->axisRect()->height()).arg(plot.height())));
        for (auto* p : plot.findChildren<QCustomPlot*>())
            QCOMPARE(p->isVisible(), p == loss);
        // The others are a tab away, each over the whole height (a teacher shows the learning rate).
        QTabBar* tabs = plot.plotTabs();
        QVERIFY(tabs->isVisible());
        QCOMPARE(tabs->count(), 4);
        tabs->setCurrentIndex(2);
        QCustomPlot* shown = nullptr;
        for (auto* p : plot.findChildren<QCustomPlot*>())
            if (p->isVisible())
                shown = shown ? nullptr : p;
        QVERIFY(shown && shown->property("title") == "Learning rate");
        QTRY_VERIFY2(shown->axisRect()->height() >= 6 * line, qPrintable(QString::number(shown->axisRect()->height())));
        QCOMPARE(shown->xAxis->label(), loss->xAxis->label());  // alone, its steps are named as the loss plot's
        tabs->setCurrentIndex(0);
        QVERIFY(loss->isVisible() && !shown->isVisible());
        plot.resize(620, 640);  // a taller window
        QTRY_VERIFY(plot.showsSmallPlots());
        QVERIFY(!tabs->isVisible());
        QTRY_VERIFY(loss->axisRect()->height() >= 6 * line);
        for (auto* p : plot.findChildren<QCustomPlot*>())
            QVERIFY(p->isVisible());
        QVERIFY(shown->xAxis->label().isEmpty());  // under the loss plot's titled axis again
    }

    /// In bits per character the note on the training loss has a line of its own: over the plot's top right it
    /// lay over the baselines' labels ("uniform 6.820") and was cut at the left.
    void theBitsPerCharNoteStaysClearOfTheBaselines() {
        MetricsPlot plot;
        plot.resize(700, 420);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.loadRows(falling("eval", 5, 100, 0.3));
        plot.setBaselines({{"uniform", 4.3}, {"unigram", 3.4}, {"bigram", 2.9}});
        plot.setBitsPerChar(true);
        QCustomPlot* loss = plot.lossPlot();
        loss->replot();
        auto* note = plot.findChild<QCPTextElement*>("bpcNote");
        QVERIFY(note);
        const QRect data = loss->axisRect()->rect();
        for (int i = 0; i < loss->itemCount(); ++i)  // the baselines' labels are inside the axis rect
            if (auto* label = qobject_cast<QCPItemText*>(loss->item(i)))
                QVERIFY2(!note->outerRect().intersects(QRect(label->topLeft->pixelPosition().toPoint(),
                                                             label->bottomRight->pixelPosition().toPoint())),
                         qPrintable(label->text()));
        QVERIFY(!note->outerRect().intersects(data));
        QVERIFY2(QFontMetrics(note->font()).horizontalAdvance(note->text()) <= loss->width(),
                 qPrintable(note->text()));  // whole
        plot.setBitsPerChar(false);          // and gone with its line
        QVERIFY(!plot.findChild<QCPTextElement*>("bpcNote"));
        loss->replot();
        QCOMPARE(loss->plotLayout()->rowCount(), 3);  // the title, the plot, the legend
    }
};

QTEST_MAIN(TestMetricsPlot)
#include "tst_metrics_plot.moc"
