#include "ui/experiments/SweepPlots.h"
#include "ui/widgets/AxisTitle.h"
#include "ui/widgets/TextScale.h"

#include "ui/widgets/RunsTableModel.h"

#include "twb/metrics.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <filesystem>

namespace {
QColor colour(size_t i) {
    static const QColor c[] = {
        QColor(31, 119, 180), QColor(255, 127, 14),  QColor(44, 160, 44),   QColor(214, 39, 40),  QColor(148, 103, 189),
        QColor(140, 86, 75),  QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34), QColor(23, 190, 207)};
    return c[i % 10];
}
/// Text in lines no wider than `width` pixels, broken between words (a word wider than that on its own line).
QString wrapped(const QString& text, const QFontMetrics& fm, int width) {
    QStringList lines;
    QString line;
    for (const QString& word : text.split(' ', Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + ' ' + word;
        if (!line.isEmpty() && fm.horizontalAdvance(longer) > width) {
            lines << line;
            line = word;
        } else {
            line = longer;
        }
    }
    if (!line.isEmpty())
        lines << line;
    return lines.join('\n');
}
QCustomPlot* makePlot(QWidget* parent, const QString& x, const QString& y) {
    auto* p = new QCustomPlot(parent);
    p->xAxis->setLabel(x);
    p->yAxis->setLabel(y);
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->setMinimumHeight(150);
    // An empty plot's note (setEmptyNote) in lines as wide as the plot, each time it is laid out: one line ran
    // past both sides at 175% text ("ach cell's validation loss is drawn here as the sweep trai").
    QObject::connect(p, &QCustomPlot::afterLayout, p, [p] {
        for (int i = 0; i < p->itemCount(); ++i)
            if (auto* n = qobject_cast<QCPItemText*>(p->item(i)); n && n->objectName() == "emptyNote")
                n->setText(
                    wrapped(n->property("whole").toString(), QFontMetrics(n->font()), p->axisRect()->width() - 12));
    });
    return p;
}
/// A word in the middle of an empty plot, and no numbers on its axes (an empty plot ran 0 to 5 on both,
/// as if it had data); an empty text takes the word away and gives the numbers back. The numbers are
/// shown exactly while there is no word: with them shown there is nothing to take away (each step of a
/// running cell asks).
void setEmptyNote(QCustomPlot* p, const QString& text) {
    if (text.isEmpty() && p->xAxis->tickLabels())
        return;
    for (int i = p->itemCount() - 1; i >= 0; --i)
        if (p->item(i)->objectName() == "emptyNote")
            p->removeItem(i);
    p->xAxis->setTickLabels(text.isEmpty());
    p->yAxis->setTickLabels(text.isEmpty());
    if (text.isEmpty())
        return;
    auto* note = new QCPItemText(p);
    note->setObjectName("emptyNote");
    note->position->setType(QCPItemPosition::ptAxisRectRatio);
    note->position->setCoords(0.5, 0.5);
    note->setProperty("whole", text);  // makePlot's plots wrap it to their width
    note->setText(text);
    note->setColor(p->palette().color(QPalette::PlaceholderText));
}
/// Keys whose values are rates or coefficients tried a factor apart (1e-3, 3e-3): a log axis even when
/// the cells span less than a factor of 10.
bool isRateKey(const std::string& key) {
    return key.find("learning_rate") != std::string::npos || key == "min_lr" || key == "weight_decay";
}
/// A log axis's ticks: at the cells' own values when there are a few (1e-3 and 3e-3 read as such), at
/// powers of ten otherwise.
QSharedPointer<QCPAxisTicker> valueTicker(QVector<double> xs) {
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    if (xs.size() > 6)
        return QSharedPointer<QCPAxisTickerLog>::create();
    auto t = QSharedPointer<QCPAxisTickerText>::create();
    for (double v : xs)
        t->addTick(v, QString::number(v, 'g', 3));
    return t;
}
}  // namespace

SweepPlots::SweepPlots(QWidget* parent) : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    m_curves = makePlot(this, tr("step"), QString());
    setFittedYLabel(m_curves, tr("validation loss"), tr("val. loss"));
    m_curves->setObjectName("sweepCurves");
    m_curves->legend->setVisible(false);  // until there is a curve
    m_curves->legend->setFont(TextScale::sized(font(), 7));
    v->addWidget(m_curves, 1);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Final loss against")));
    m_key = new QComboBox;
    m_key->setObjectName("parameterKey");
    m_key->setPlaceholderText(tr("a swept field, once a sweep has cells"));  // an empty box, before
    row->addWidget(m_key, 1);
    v->addLayout(row);
    m_param = makePlot(this, QString(), QString());
    setFittedYLabel(m_param, tr("final validation loss"), tr("final loss"));
    m_param->setObjectName("parameterPlot");
    v->addWidget(m_param, 1);
    connect(m_key, &QComboBox::currentTextChanged, this, [this] { refreshParameterPlot(); });
    setRuns({});  // the empty plots say what comes there
}

namespace {
/// A running cell's curve named as a finished cell's ("001: 3e-3, 30"), from its folder's name
/// ("001_learning_rate=3e-3_max_iters=30"); the folder's name when it does not read so.
QString runningCellLabel(const QString& folder, const QStringList& swept) {
    const int cut = folder.indexOf('_');
    if (cut <= 0 || swept.isEmpty())
        return folder;
    QStringList values;
    for (const QString& key : swept) {
        const int at = folder.indexOf("_" + key + "=", cut - 1);
        if (at < 0)
            return folder;
        const int from = at + int(key.size()) + 2;
        int end = int(folder.size());
        for (const QString& other : swept)
            if (const int o = folder.indexOf("_" + other + "=", from); o >= 0 && o < end)
                end = o;
        values << folder.mid(from, end - from);
    }
    return folder.left(cut) + ": " + values.join(", ");
}
}  // namespace

QCPGraph* SweepPlots::curve(const QString& runDir) {
    auto it = m_graphs.find(runDir);
    if (it != m_graphs.end())
        return it->second;
    auto* g = m_curves->addGraph();
    g->setPen(QPen(colour(m_graphs.size()), 1.5));
    g->setName(runningCellLabel(QFileInfo(runDir).fileName(), m_swept));
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 3));
    m_graphs[runDir] = g;
    return g;
}

int SweepPlots::curveCount() const {
    return int(m_graphs.size());
}

bool SweepPlots::parameterAxisIsLog() const {
    return m_log;
}

void SweepPlots::fitCurves() {
    // Steps from 0 (one point at step 0 made an axis from -25 to 25), the losses with a margin.
    bool any = false;
    QCPRange x, y;
    for (int i = 0; i < m_curves->graphCount(); ++i) {
        bool found = false;
        const QCPRange gx = m_curves->graph(i)->getKeyRange(found);
        if (!found)
            continue;
        const QCPRange gy = m_curves->graph(i)->getValueRange(found);
        x = any ? QCPRange(std::min(x.lower, gx.lower), std::max(x.upper, gx.upper)) : gx;
        y = any ? QCPRange(std::min(y.lower, gy.lower), std::max(y.upper, gy.upper)) : gy;
        any = true;
    }
    if (!any)
        return;
    m_curves->xAxis->setRange(0, std::max(1.0, x.upper));
    const double pad = y.size() > 0 ? 0.05 * y.size() : std::max(0.05, 0.05 * std::abs(y.center()));
    m_curves->yAxis->setRange(y.lower - pad, y.upper + pad);
}

void SweepPlots::addEval(const QString& runDir, const twb::EvalReport& e) {
    setEmptyNote(m_curves, QString());
    curve(runDir)->addData(double(e.step), e.val_loss);
    // The running cell's hollow circle at its last evaluation (it appeared only when the cell ended).
    for (auto& r : m_runs)
        if (QString::fromStdString(r.dir) == runDir && std::isfinite(e.val_loss)) {
            r.final_val_loss = e.val_loss;
            refreshParameterPlot();
            break;
        }
    m_curves->legend->setVisible(true);
    fitCurves();
    m_curves->replot(QCustomPlot::rpQueuedReplot);
}

void SweepPlots::addStep(const QString& runDir, const twb::StepReport& r) {
    if (!std::isfinite(r.loss))
        return;
    setEmptyNote(m_curves, QString());
    const bool drawn = m_training && runDir == m_trainingRun;
    if (runDir != m_trainingRun) {  // the next cell: its own line, in its own colour
        if (m_training)
            m_curves->removeGraph(m_training);
        m_training = nullptr;
        m_trainingRun = runDir;
        m_trainingKeys.clear();
        m_trainingLosses.clear();
    }
    m_trainingKeys << double(r.step);  // kept to draw the line again when the curves are made anew
    m_trainingLosses << r.loss;
    if (drawn) {
        m_training->addData(double(r.step), r.loss);
        fitCurves();
    } else {
        showTraining();
    }
    m_curves->replot(QCustomPlot::rpQueuedReplot);
}

void SweepPlots::endTraining() {
    m_trainingRun.clear();
    m_trainingKeys.clear();
    m_trainingLosses.clear();
    showTraining();
    m_curves->replot(QCustomPlot::rpQueuedReplot);
}

void SweepPlots::showTraining() {
    // "validation loss (thin: training)" was cut at the plot's height; the legend names the training line
    if (m_trainingRun.isEmpty())
        setFittedYLabel(m_curves, tr("validation loss"), tr("val. loss"));
    else
        setFittedYLabel(m_curves, tr("loss"), tr("loss"));
    if (m_trainingRun.isEmpty()) {
        if (m_training)
            m_curves->removeGraph(m_training);
        m_training = nullptr;
        return;
    }
    QCPGraph* cell = curve(m_trainingRun);  // the colour of the cell's validation curve
    if (!m_training) {
        m_training = m_curves->addGraph();
        QColor c = cell->pen().color();
        c.setAlpha(120);
        m_training->setPen(QPen(c, 1));
        m_training->setName(tr("%1 (training)").arg(cell->name()));
    }
    m_training->setData(m_trainingKeys, m_trainingLosses, true);
    m_curves->legend->setVisible(true);
    fitCurves();
}

void SweepPlots::setRuns(const std::vector<twb::RunSummary>& runs, const QStringList& swept) {
    m_runs = runs;
    m_swept = swept;
    m_curves->clearGraphs();
    m_graphs.clear();
    m_training = nullptr;  // cleared with the rest: made again below while its cell runs
    for (const auto& r : runs) {
        auto* g = curve(QString::fromStdString(r.dir));
        g->setName(RunsTableModel::cellLabel(r, swept));
        try {
            for (const auto& row : twb::read_metrics(std::filesystem::path(r.dir) / "metrics.csv"))
                if (row.kind == "eval" && std::isfinite(row.val_loss))
                    g->addData(double(row.step), row.val_loss);
        } catch (const std::exception&) {
            // a cell killed before its first row: no curve yet
        }
    }
    m_curves->legend->setVisible(!m_graphs.empty());
    setEmptyNote(m_curves,
                 m_graphs.empty() ? tr("Each cell's validation loss is drawn here as the sweep trains") : QString());
    showTraining();
    fitCurves();
    m_curves->replot();
    const QString keep = m_key->currentText();
    QSignalBlocker block(m_key);
    m_key->clear();
    m_key->addItems(swept);
    for (const auto& k : twb::varied_keys(runs))
        if (m_key->findText(QString::fromStdString(k)) < 0)
            m_key->addItem(QString::fromStdString(k));
    if (m_key->findText(keep) >= 0)
        m_key->setCurrentText(keep);
    else if (m_key->count() > 0)
        m_key->setCurrentIndex(0);  // a box with a placeholder chooses none of the items added
    m_key->setEnabled(m_key->count() > 0);
    refreshParameterPlot();
}

void SweepPlots::refreshParameterPlot() {
    m_param->clearGraphs();
    m_param->clearItems();
    const std::string key = m_key->currentText().toStdString();
    m_param->xAxis->setLabel(m_key->currentText());
    QVector<double> xs, ys;
    QVector<bool> finished;  // a stopped or running cell's loss is its last evaluation's, not its final one
    bool numeric = true;
    QStringList labels;  // text values (a dataset, a position kind): placed at 1, 2, 3, ...
    for (const auto& r : m_runs) {
        if (!std::isfinite(r.final_val_loss))
            continue;
        const auto it = r.config.find(key);
        const QString text = it == r.config.end() ? QString() : QString::fromStdString(it->second);
        bool ok = false;
        const double v = text.toDouble(&ok);
        numeric = numeric && ok;
        if (!labels.contains(text))
            labels << text;
        xs << (ok ? v : 0.0);
        ys << r.final_val_loss;
        finished << (r.status == "finished");
    }
    if (!numeric)
        for (int i = 0, k = 0; i < int(m_runs.size()); ++i) {
            const auto& r = m_runs[size_t(i)];
            if (!std::isfinite(r.final_val_loss))
                continue;
            const auto it = r.config.find(key);
            xs[k++] = labels.indexOf(it == r.config.end() ? QString() : QString::fromStdString(it->second)) + 1;
        }
    if (xs.isEmpty()) {  // no cell has a loss yet: a word in the middle, not the last sweep's (or odd) axes
        m_log = false;
        m_param->xAxis->setScaleType(QCPAxis::stLinear);
        m_param->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        m_param->xAxis->setRange(0, 1);
        m_param->yAxis->setRange(0, 1);
        setEmptyNote(m_param, tr("Each cell's final validation loss appears here when it has one"));
        m_param->replot();
        return;
    }
    setEmptyNote(m_param, QString());
    const double lo = *std::min_element(xs.begin(), xs.end());
    const double hi = *std::max_element(xs.begin(), xs.end());
    m_log = numeric && lo > 0 && (hi / lo >= 10.0 || isRateKey(key));
    m_param->xAxis->setScaleType(m_log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (m_log)
        m_param->xAxis->setTicker(valueTicker(xs));
    else if (!numeric) {
        auto t = QSharedPointer<QCPAxisTickerText>::create();
        for (int i = 0; i < labels.size(); ++i)
            t->addTick(i + 1, QFileInfo(labels[i]).fileName());
        m_param->xAxis->setTicker(t);
    } else
        m_param->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    // Finished cells as discs; the others hollow, and said so (plotted alike, a cell stopped at step 250
    // read as a finished one's result).
    for (const bool done : {true, false}) {
        QVector<double> gx, gy;
        for (int i = 0; i < xs.size(); ++i)
            if (finished[i] == done) {
                gx << xs[i];
                gy << ys[i];
            }
        if (gx.isEmpty())
            continue;
        auto* g = m_param->addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(
            done ? QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(31, 119, 180), 7)
                 : QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(31, 119, 180), 1.5), Qt::white, 8));
        g->setData(gx, gy);
        if (!done)  // said under the axis, where it covers no point (inside, it lay over the first cell's)
            m_param->xAxis->setLabel(tr("%1   (○ not finished: its last evaluation so far)").arg(m_key->currentText()));
    }
    if (m_log) {
        const double pad = hi > lo ? std::pow(hi / lo, 0.1) : 1.5;  // a tenth of the span, in decades
        m_param->xAxis->setRange(lo / pad, hi * pad);
    } else {
        // The cells' own range: a tenth of it either side (half a unit around labels and whole numbers,
        // a tenth of the value around a single number).
        const bool whole = std::all_of(xs.begin(), xs.end(), [](double v) { return v == std::round(v); });
        double pad = (hi - lo) * 0.1;
        if (!numeric || whole)
            pad = std::max(pad, 0.5);
        else if (pad == 0)
            pad = lo != 0 ? std::abs(lo) * 0.1 : 0.5;
        m_param->xAxis->setRange(lo - pad, hi + pad);
    }
    // The losses' own range and a tenth of it either side (scaleRange around one loss reached below 0)
    const auto [ylo, yhi] = std::minmax_element(ys.begin(), ys.end());
    const double ypad = *yhi > *ylo ? (*yhi - *ylo) * 0.1 : std::max(std::abs(*ylo) * 0.1, 0.05);
    m_param->yAxis->setRange(*ylo >= 0 ? std::max(0.0, *ylo - ypad) : *ylo - ypad, *yhi + ypad);
    m_param->replot();
}
