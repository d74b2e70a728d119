// The sweep's plots (SweepPlots) on their own: the y-axis titles shorten where the axis is short, a
// learning-rate axis is logarithmic over the cells' own range, the results table names the swept keys, the
// empty plots say what comes there (and show no numbers) before any sweep, and a running cell's first
// evaluation at step 0 puts the steps from 0.
#include "twb/experiments.h"
#include "ui/experiments/ResultsTable.h"
#include "ui/experiments/SweepPlots.h"
#include "ui_fixture.h"

#include <qcustomplot.h>
#include <QAbstractItemModel>
#include <QComboBox>
#include <QFont>
#include <QFontMetrics>
#include <QTest>

#include <cmath>

class TestSweepPlots : public QObject {
    Q_OBJECT

private slots:
    void plotTitlesShortenWhereTheAxisIsShort() {
        // At 150% text on 1280x720 "final validation loss" was longer than its axis and cut at the top.
        SweepPlots plots;
        plots.resize(560, 900);
        plots.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plots));
        auto* param = plots.findChild<QCustomPlot*>("parameterPlot");
        QVERIFY(param);
        std::vector<twb::RunSummary> cells(2);  // two cells' losses: the axes have their numbers
        for (int i = 0; i < 2; ++i) {
            cells[size_t(i)].dir = QString("/nonexistent/%1").arg(i).toStdString();
            cells[size_t(i)].config = {{"n_head", i == 0 ? "2" : "4"}};
            cells[size_t(i)].final_val_loss = 2.5 - 0.2 * i;
            cells[size_t(i)].status = "finished";
        }
        plots.setRuns(cells, {"n_head"});
        param->replot();
        QCOMPARE(param->yAxis->label(), QString("final validation loss"));
        plots.resize(560, 330);
        QCoreApplication::processEvents();
        param->replot();
        QVERIFY2(QFontMetrics(param->yAxis->labelFont()).horizontalAdvance("final validation loss") >
                     param->axisRect()->height(),
                 "the axis is long enough: the test needs a shorter one");
        QCOMPARE(param->yAxis->label(), QString("final loss"));
        plots.resize(560, 900);  // and back
        QCoreApplication::processEvents();
        param->replot();
        QCOMPARE(param->yAxis->label(), QString("final validation loss"));
    }
    void rateAxisIsLogarithmicOverTheCellsOwnRange() {
        // learning_rate 1e-3 and 3e-3 (a factor of 3): a log axis spanning the two cells, which sit well
        // apart; a linear parameter's axis is the cells' own range too (no padding of 0.5 around 0.1).
        auto summary = [](const char* key, const char* value, double loss) {
            twb::RunSummary r;
            r.dir = "/nonexistent/cell";
            r.config = {{key, value}, {"n_head", "2"}};
            r.final_val_loss = loss;
            r.status = "finished";
            return r;
        };
        SweepPlots plots;
        plots.resize(600, 500);
        plots.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plots));
        // Before any sweep: a word in each plot, no numbers on their axes, the field box off with its reason
        // (an empty box over axes running 0 to 5).
        for (QCustomPlot* p : {plots.curvesPlot(), plots.parameterPlot()}) {
            auto* note = p->findChild<QCPItemText*>("emptyNote");
            QVERIFY(note && !p->xAxis->tickLabels() && !p->yAxis->tickLabels());
        }
        {  // in lines no wider than the plot (one line ran past both sides of a narrow one, at 175% text)
            SweepPlots narrow;
            narrow.resize(280, 500);
            narrow.show();
            QVERIFY(QTest::qWaitForWindowExposed(&narrow));
            for (QCustomPlot* p : {narrow.curvesPlot(), narrow.parameterPlot()}) {
                auto* note = p->findChild<QCPItemText*>("emptyNote");
                p->replot();
                QVERIFY2(note->text().contains('\n'), qPrintable(note->text()));
                for (const QString& line : note->text().split('\n'))
                    QVERIFY2(QFontMetrics(note->font()).horizontalAdvance(line) <= p->axisRect()->width(),
                             qPrintable(line));
            }
        }
        auto* key = plots.findChild<QComboBox*>("parameterKey");
        QVERIFY(!key->isEnabled() && !key->placeholderText().isEmpty());
        plots.setRuns({summary("learning_rate", "0.001", 2.5), summary("learning_rate", "0.003", 2.3)});
        QVERIFY(plots.parameterAxisIsLog());
        QCPAxis* x = plots.parameterPlot()->xAxis;
        QVERIFY2(
            x->range().lower > 0 && x->range().lower < 0.001 && x->range().upper > 0.003 && x->range().upper < 0.01,
            qPrintable(QString("%1 .. %2").arg(x->range().lower).arg(x->range().upper)));
        QVERIFY(std::abs(x->coordToPixel(0.003) - x->coordToPixel(0.001)) > 0.3 * x->axisRect()->width());
        QCOMPARE(plots.parameterPlot()->graphCount(), 1);
        QVERIFY(!x->label().contains("not finished"));
        // A stopped cell's loss (its last evaluation) is drawn hollow and said to be unfinished.
        twb::RunSummary stopped = summary("learning_rate", "0.003", 2.3);
        stopped.status = "stopped";
        plots.setRuns({summary("learning_rate", "0.001", 2.5), stopped});
        QCOMPARE(plots.parameterPlot()->graphCount(), 2);
        QCOMPARE(plots.parameterPlot()->graph(1)->dataCount(), 1);
        QCOMPARE(plots.parameterPlot()->graph(1)->scatterStyle().shape(), QCPScatterStyle::ssCircle);
        QVERIFY2(x->label().startsWith("learning_rate") && x->label().contains("not finished"), qPrintable(x->label()));
        // The running cell's hollow circle comes with its first evaluation, not when the cell ends.
        twb::RunSummary inProgress = summary("learning_rate", "0.003", NAN);
        inProgress.dir = "/nonexistent/running";
        inProgress.status = "running";
        plots.setRuns({summary("learning_rate", "0.001", 2.5), inProgress}, {"learning_rate"});
        QCOMPARE(plots.parameterPlot()->graphCount(), 1);
        twb::EvalReport eval;
        eval.step = 100;
        eval.val_loss = 2.7;
        plots.addEval("/nonexistent/running", eval);
        QCOMPARE(plots.parameterPlot()->graphCount(), 2);
        QCOMPARE(plots.parameterPlot()->graph(1)->data()->at(0)->value, 2.7);
        plots.setRuns({summary("dropout", "0.1", 2.5), summary("dropout", "0.2", 2.4)});
        QVERIFY(!plots.parameterAxisIsLog());
        QVERIFY2(x->range().lower >= 0 && x->range().lower < 0.1 && x->range().upper > 0.2 && x->range().upper < 0.4,
                 qPrintable(QString("%1 .. %2").arg(x->range().lower).arg(x->range().upper)));
        // While a sweep runs, its first finished cell differs from nothing yet: the sweep's axes give the
        // plot its key and the table its column (both came only with the second cell).
        const std::vector<twb::RunSummary> first{summary("learning_rate", "0.001", 2.5)};
        plots.setRuns(first, {"learning_rate"});
        QCOMPARE(x->label(), QString("learning_rate"));
        // One cell's loss: the y axis around it, not down to -1
        const QCPRange y = plots.parameterPlot()->yAxis->range();
        QVERIFY2(y.lower >= 0 && y.lower < 2.5 && y.upper > 2.5 && y.upper < 3.5,
                 qPrintable(QString("%1 .. %2").arg(y.lower).arg(y.upper)));
        // The running cell's training loss: a line of its own beside the validation curves, kept through
        // a refresh of the finished cells, started again by the next cell, gone when the cells end.
        twb::StepReport step;
        step.step = 10;
        step.loss = 3.0;
        plots.addStep("/nonexistent/002_learning_rate=0.003", step);
        step.step = 20;
        step.loss = 2.8;
        plots.addStep("/nonexistent/002_learning_rate=0.003", step);
        QCOMPARE(plots.trainingPoints(), 2);
        plots.setRuns(first, {"learning_rate"});
        QCOMPARE(plots.trainingPoints(), 2);
        QCOMPARE(plots.curvesPlot()->graphCount(), plots.curveCount() + 1);
        const QCPGraph* line = plots.curvesPlot()->graph(plots.curvesPlot()->graphCount() - 1);
        QVERIFY2(line->name().endsWith("(training)") && line->name().startsWith("002: 0.003"),
                 qPrintable(line->name()));
        QCOMPARE(line->dataCount(), 2);
        plots.addStep("/nonexistent/003_learning_rate=0.01", step);
        QCOMPARE(plots.trainingPoints(), 1);
        QCOMPARE(plots.curvesPlot()->graphCount(), plots.curveCount() + 1);
        line = plots.curvesPlot()->graph(plots.curvesPlot()->graphCount() - 1);
        QVERIFY2(line->name().startsWith("003"), qPrintable(line->name()));  // not the last cell's line
        QCOMPARE(line->dataCount(), 1);
        plots.endTraining();
        QCOMPARE(plots.trainingPoints(), 0);
        QCOMPARE(plots.curvesPlot()->graphCount(), plots.curveCount());
        ResultsTable table;
        table.showRuns(first, {"learning_rate"});
        QStringList headers;
        for (int c = 0; c < table.model()->columnCount(); ++c)
            headers << table.model()->headerData(c, Qt::Horizontal).toString();
        QVERIFY2(headers.contains("learning_rate"), qPrintable(headers.join(", ")));
        // A running cell's figures are its last evaluation's, in italics and said so ("Final val loss 6.24"
        // read as a result at step 0); a finished cell's are upright.
        auto finalLoss = [&table](const twb::RunSummary& r) {
            table.showRuns({r}, {"learning_rate"});
            for (int c = 0; c < table.model()->columnCount(); ++c)
                if (table.model()->headerData(c, Qt::Horizontal).toString() == "Final val loss")
                    return table.model()->index(0, c);
            return QModelIndex();
        };
        twb::RunSummary cell = summary("learning_rate", "0.001", 6.24);
        QVERIFY(!finalLoss(cell).data(Qt::FontRole).value<QFont>().italic());
        cell.status = "running";
        const QModelIndex soFar = finalLoss(cell);
        QVERIFY(soFar.data(Qt::FontRole).value<QFont>().italic());
        QVERIFY(soFar.data(Qt::ToolTipRole).toString().startsWith("So far"));
        // Before any cell has a loss: a word in the plot and plain axes, not the last sweep's (log) ones.
        twb::RunSummary running = summary("learning_rate", "0.001", NAN);
        plots.setRuns({running}, {"learning_rate"});
        QVERIFY(!plots.parameterAxisIsLog());
        QCOMPARE(plots.parameterPlot()->graphCount(), 0);
        QCOMPARE(x->range().lower, 0.0);
        QCOMPARE(x->range().upper, 1.0);
        QVERIFY(plots.parameterPlot()->findChild<QCPItemText*>("emptyNote"));
        plots.setRuns(first, {"learning_rate"});
        QVERIFY(!plots.parameterPlot()->findChild<QCPItemText*>("emptyNote"));
        QVERIFY(!plots.curvesPlot()->findChild<QCPItemText*>("emptyNote") && plots.curvesPlot()->xAxis->tickLabels());
        QVERIFY(key->isEnabled());
        // A running cell's first evaluation, at step 0: the steps start at 0 (the axis ran from -25 to 25).
        twb::EvalReport e;
        e.step = 0;
        e.val_loss = 4.2;
        plots.addEval("/nonexistent/running", e);
        const QCPRange steps = plots.curvesPlot()->xAxis->range(), losses = plots.curvesPlot()->yAxis->range();
        QVERIFY2(steps.lower == 0 && steps.upper >= 1,
                 qPrintable(QString("%1 .. %2").arg(steps.lower).arg(steps.upper)));
        QVERIFY2(losses.contains(4.2) && losses.size() < 5,
                 qPrintable(QString("%1 .. %2").arg(losses.lower).arg(losses.upper)));
    }
};

QTEST_MAIN(TestSweepPlots)
#include "tst_sweep_plots.moc"
