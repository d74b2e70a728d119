#include "ui/training/MetricsPlot.h"
#include "ui/widgets/TextScale.h"

#include <qcustomplot.h>
#include <QGridLayout>
#include <QTabBar>
#include <QToolTip>

#include <cmath>

namespace {
const QColor kTrain(31, 119, 180),
    kVal(214, 39, 40), kOther[] = {QColor(44, 160, 44),   QColor(148, 103, 189), QColor(140, 86, 75),
                                   QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34)};
}  // namespace

MetricsPlot::MetricsPlot(QWidget* parent) : QWidget(parent) {
    auto* grid = m_grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    m_loss = makePlot(tr("Loss"), tr("cross-entropy (nats)"));
    m_loss->xAxis->setLabel(tr("step"));
    // The labels placed for the axis rect the replot draws into (placed before it, a layout that moved
    // the rect left them cut or on each other until the next change).
    connect(m_loss, &QCustomPlot::afterLayout, this, &MetricsPlot::placeBaselineLabels);
    // The small plots: their titles name what they show, with a shorter form for a narrow plot; no y-axis
    // title, which at 150% text ran into the plot's title and narrowed the axis to one step label.
    m_acc = makePlot(tr("Validation accuracy"), {}, tr("Accuracy"));
    m_lr = makePlot(tr("Learning rate"), {}, tr("LR"));
    m_speed = makePlot(tr("Throughput (tokens/s)"), {}, tr("Tokens/s"));
    for (auto* p : {m_acc, m_lr, m_speed})
        useSmallTicks(p);
    for (auto* p : {m_loss, m_acc, m_lr, m_speed})
        followXRange(p);
    // The loss over the whole width and most of the height; the three small plots in one row under it
    // (throughput had a row of its own, and at a larger text size the loss plot kept only a strip).
    // Where the column is too short for both (fitSmallPlots), one plot at a time over the whole of it, chosen
    // by the tabs above it.
    m_tabs = new QTabBar;
    m_tabs->setObjectName("plotTabs");
    m_tabs->setDocumentMode(true);
    m_tabs->setExpanding(false);
    for (const QString& t : {tr("Loss"), tr("Accuracy"), tr("Learning rate"), tr("Tokens/s")})
        m_tabs->addTab(t);
    m_tabs->hide();
    connect(m_tabs, &QTabBar::currentChanged, this, [this] {
        if (!showsSmallPlots())
            showOnePlot();
    });
    grid->addWidget(m_tabs, 0, 0, 1, 3);
    grid->addWidget(m_loss, 1, 0, 1, 3);
    placeSmallPlots(true);
    // Three equal widths: a plot's own size hint is its whole title's width ("Throughput (tokens/s)" took
    // 230 px of 600 at 150% text, the learning rate's 155) although a narrow plot shows the short one.
    for (int c = 0; c < 3; ++c)
        grid->setColumnStretch(c, 1);
    for (auto* p : {m_acc, m_lr, m_speed}) {
        p->setSizePolicy(QSizePolicy::Ignored, p->sizePolicy().verticalPolicy());
        p->setMinimumWidth(80);
    }
    auto graph = [](QCustomPlot* p, const QColor& c, const QString& name, bool dots) {
        auto* g = p->addGraph();
        g->setName(name);
        g->setPen(QPen(c, 1.5));
        if (dots)
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
        return g;
    };
    m_train = graph(m_loss, kTrain.lighter(150), tr("train (step)"), false);
    m_trainSmooth = graph(m_loss, kTrain, tr("train (smoothed)"), false);
    m_val = graph(m_loss, kVal, tr("validation"), true);
    m_loss->legend->setVisible(true);
    m_loss->legend->setFont(TextScale::sized(font(), 8));
    // The legend sits in a row of its own under the loss plot, never over the curves.
    auto* legendRow = new QCPLayoutGrid;
    m_loss->plotLayout()->addElement(2, 0, legendRow);
    legendRow->setMargins(QMargins(4, 0, 4, 2));
    legendRow->addElement(0, 0, m_loss->legend);
    // Three entries a row (train, smoothed, validation; compared runs below): in one row, compared runs
    // cut every entry short ("train (ste", "validation (run-20261129-06").
    m_loss->legend->setWrap(3);
    m_loss->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_loss->legend->setBorderPen(Qt::NoPen);
    m_loss->plotLayout()->setRowStretchFactor(2, 0.001);
    m_bleu = m_loss->addGraph(m_loss->xAxis, m_loss->yAxis2);
    m_bleu->setName(tr("val BLEU (right axis)"));
    m_bleu->setPen(QPen(kOther[0], 1.5));
    m_bleu->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 5));
    m_loss->yAxis2->setLabel(tr("BLEU"));
    m_loss->yAxis2->setVisible(false);  // until a BLEU point arrives
    m_accGraph = graph(m_acc, kVal, tr("val accuracy"), true);
    m_lrGraph = graph(m_lr, QColor(255, 127, 14), tr("lr"), false);
    m_speedGraph = graph(m_speed, QColor(23, 190, 207), tr("tokens/s"), false);
    m_timer.setInterval(40);  // at most ~25 replots a second
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &MetricsPlot::replotIfDirty);
}

QCustomPlot* MetricsPlot::makePlot(const QString& title, const QString& yLabel, const QString& shortTitle) {
    auto* p = new QCustomPlot(this);
    p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    p->setProperty("title", title);  // whole, where the plot shows it shortened (fitTitle)
    p->setProperty("shortTitle", shortTitle);
    p->plotLayout()->insertRow(0);
    p->plotLayout()->addElement(0, 0, new QCPTextElement(p, title, [this] {
                                    QFont f = TextScale::sized(font(), 9);
                                    f.setBold(true);
                                    return f;
                                }()));
    // steps are whole numbers: ticks at multiples of 1, 2, 5, 10, ... (never at 2.5)
    auto steps = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
    steps->setTickStep(1);
    steps->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    p->xAxis->setTicker(steps);
    p->yAxis->setLabel(yLabel);
    p->setMinimumHeight(120);
    p->setNoAntialiasingOnDrag(true);
    connect(p, &QCustomPlot::mouseDoubleClick, this, &MetricsPlot::doubleClicked);
    // Hover read-out: the nearest point of each graph under the cursor.
    connect(p, &QCustomPlot::mouseMove, this, [this, p](QMouseEvent* e) {
        const QString unit = m_loss->xAxis->label();  // the small plots' axes have no title
        QString text;
        const double x = p->xAxis->pixelToCoord(e->pos().x());
        for (int i = 0; i < p->graphCount(); ++i) {
            auto* g = p->graph(i);
            if (g->data()->isEmpty() || !g->visible())
                continue;
            auto it = g->data()->findBegin(x);
            if (it == g->data()->constEnd())
                continue;
            text += QString("%1: %2 %3, %4\n").arg(g->name(), unit).arg(it->key, 0, 'g', 5).arg(it->value, 0, 'g', 5);
        }
        if (!text.isEmpty())
            QToolTip::showText(e->globalPosition().toPoint(), text.trimmed(), p);
    });
    return p;
}

void MetricsPlot::clear() {
    for (auto* g : {m_train, m_trainSmooth, m_val, m_bleu, m_accGraph, m_lrGraph, m_speedGraph})
        g->data()->clear();
    m_steps.clear();
    m_losses.clear();
    m_rows.clear();
    m_hasEpochs = false;
    updateAxisLabels();
    markDirty();
}

double MetricsPlot::xOf(const twb::MetricsRow& row) const {
    return m_epochAxis && !std::isnan(row.epoch) ? row.epoch : static_cast<double>(row.step);
}

void MetricsPlot::addStep(const twb::StepReport& r) {
    const twb::MetricsRow row = twb::metrics_row(r);
    m_rows.push_back(row);
    plotStep(row);
    markDirty();
}

void MetricsPlot::addEval(const twb::EvalReport& r) {
    const twb::MetricsRow row = twb::metrics_row(r);
    m_rows.push_back(row);
    plotEval(row);
    markDirty();
}

void MetricsPlot::plotStep(const twb::MetricsRow& row) {
    if (!std::isnan(row.epoch) && !m_hasEpochs) {
        m_hasEpochs = true;
        updateAxisLabels();
    }
    const double x = xOf(row);
    m_train->addData(x, row.train_loss);
    m_steps.push_back(x);
    m_losses.push_back(row.train_loss);
    const double prev =
        m_trainSmooth->data()->isEmpty() ? row.train_loss : (m_trainSmooth->data()->constEnd() - 1)->value;
    m_trainSmooth->addData(x, m_alpha * prev + (1 - m_alpha) * row.train_loss);
    m_lrGraph->addData(x, row.lr);
    m_speedGraph->addData(x, row.tokens_per_s);
}

void MetricsPlot::plotEval(const twb::MetricsRow& row) {
    if (!std::isnan(row.epoch) && !m_hasEpochs) {
        m_hasEpochs = true;
        updateAxisLabels();
    }
    const double x = xOf(row);
    m_val->addData(x, m_bpc ? row.val_bpc : row.val_loss);
    m_accGraph->addData(x, row.val_accuracy);
    if (!std::isnan(row.val_bleu))
        m_bleu->addData(x, row.val_bleu);
}

void MetricsPlot::replotRows() {
    for (auto* g : {m_train, m_trainSmooth, m_val, m_bleu, m_accGraph, m_lrGraph, m_speedGraph})
        g->data()->clear();
    m_steps.clear();
    m_losses.clear();
    for (const auto& row : m_rows)
        row.kind == "eval" ? plotEval(row) : plotStep(row);
    rebuildSmoothed();
    fillValidation();
}

void MetricsPlot::setEpochAxis(bool on) {
    if (on == m_epochAxis)
        return;
    m_epochAxis = on;
    updateAxisLabels();
    replotRows();
}

void MetricsPlot::updateAxisLabels() {
    const bool epochs = showingEpochs();
    // The loss plot's x axis alone is titled: the small plots stand under it on the same steps, and a
    // title of their own took a line of the height the loss plot lacked at 150% text. One shown alone (the
    // tabs) has the whole height and is titled too.
    m_loss->xAxis->setLabel(epochs ? tr("epoch") : tr("step"));
    for (auto* p : {m_acc, m_lr, m_speed})
        p->xAxis->setLabel(showsSmallPlots() ? QString() : m_loss->xAxis->label());
    for (auto* p : {m_loss, m_acc, m_lr, m_speed}) {
        if (epochs) {
            p->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));  // fractions of an epoch
        } else {
            // steps are whole numbers: ticks at multiples of 1, 2, 5, 10, ... (never at 2.5)
            auto steps = QSharedPointer<QCPAxisTickerFixed>(new QCPAxisTickerFixed);
            steps->setTickStep(1);
            steps->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
            p->xAxis->setTicker(steps);
        }
    }
    markDirty();
}

int MetricsPlot::bleuPoints() const {
    return m_bleu->data()->size();
}

QPointF MetricsPlot::bleuPoint(int i) const {
    if (i < 0 || i >= bleuPoints())
        return {NAN, NAN};
    const auto it = m_bleu->data()->constBegin() + i;
    return {it->key, it->value};
}

void MetricsPlot::loadRows(const std::vector<twb::MetricsRow>& rows) {
    clear();
    for (const auto& row : rows) {
        if (row.kind == "eval")
            addEval(twb::eval_report(row));
        else
            addStep(twb::step_report(row));
    }
}

namespace {
/// A run's name as a legend entry: a 300-character label left the other entries a letter each.
QString legendName(const QString& name) {
    constexpr int kMax = 32;
    return name.size() <= kMax ? name : name.left(kMax - 1).trimmed() + QChar(0x2026);
}
}  // namespace

void MetricsPlot::addComparison(const QString& name, const std::vector<twb::MetricsRow>& rows) {
    auto* g = m_loss->addGraph();
    g->setName(legendName(name));
    g->setPen(QPen(kOther[m_compare.size() % 6], 1.5, Qt::DashLine));
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
    m_compare.push_back(g);
    m_compareRows.push_back(rows);
    nameOwnValidation();
    fillValidation();
}

void MetricsPlot::nameOwnValidation() {
    // Beside other runs' curves, "validation" alone did not say whose it is.
    m_val->setName(m_compare.empty() || m_runName.isEmpty() ? tr("validation")
                                                            : tr("validation (%1)").arg(legendName(m_runName)));
}

void MetricsPlot::setBaselines(const QVector<QPair<QString, double>>& lines) {
    for (auto* it : m_baselineItems)
        m_loss->removeItem(it);
    m_baselineItems.clear();
    m_baselines = lines;
    for (const auto& [name, value] : lines) {
        auto* line = new QCPItemStraightLine(m_loss);
        line->point1->setCoords(0, value);
        line->point2->setCoords(1, value);
        line->setPen(QPen(QColor(120, 120, 120), 1, Qt::DotLine));
        auto* label = new QCPItemText(m_loss);
        label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        label->position->setTypeY(QCPItemPosition::ptPlotCoords);
        label->position->setCoords(0.99, value);
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        label->setText(QString("%1 %2").arg(name).arg(QLocale().toString(value, 'f', 3)));
        label->setColor(QColor(100, 100, 100));
        label->setFont(TextScale::sized(font(), 7));
        label->setBrush(QColor(255, 255, 255, 210));  // readable where it crosses a curve
        label->setPadding(QMargins(2, 0, 2, 0));
        m_baselineItems.push_back(line);
        m_baselineItems.push_back(label);
    }
    markDirty();
}

void MetricsPlot::clearComparisons() {
    for (auto* g : m_compare)
        m_loss->removeGraph(g);
    m_compare.clear();
    m_compareRows.clear();
    nameOwnValidation();
    markDirty();
}

void MetricsPlot::setBitsPerChar(bool on) {
    m_bpc = on;
    // The training loss is per token, with no characters counted: it is not shown in bits per character,
    // and the plot says so rather than lose its curves without a word.
    // A line of its own under the title: inside the plot, at its top right, it lay over the baselines' labels
    // ("uniform 6.820") and was cut at the left.
    if (on && !m_bpcNote) {
        m_bpcNote = new QCPTextElement(m_loss);
        m_bpcNote->setObjectName("bpcNote");
        m_bpcNote->setText(tr("Validation only: the training loss is per token (Loss in: nats per token shows it)"));
        m_bpcNote->setTextColor(QColor(100, 100, 100));
        m_bpcNote->setFont(TextScale::sized(font(), 7));
        m_bpcNote->setMargins(QMargins(4, 0, 4, 2));
        m_loss->plotLayout()->insertRow(1);
        m_loss->plotLayout()->addElement(1, 0, m_bpcNote);
        m_loss->plotLayout()->setRowStretchFactor(1, 0.001);
    } else if (!on && m_bpcNote) {
        m_loss->plotLayout()->remove(m_bpcNote);
        m_loss->plotLayout()->simplify();  // its row goes too
        m_bpcNote = nullptr;
    }
    for (auto* g : {m_train, m_trainSmooth}) {
        g->setVisible(!on);
        if (on)
            g->removeFromLegend();
        else if (!m_loss->legend->hasItemWithPlottable(g))
            g->addToLegend();
    }
    // Keep the legend's order: train, smoothed, validation, then the compared runs.
    if (!on) {
        std::vector<QCPGraph*> after{m_val, m_bleu};
        after.insert(after.end(), m_compare.begin(), m_compare.end());
        for (auto* g : after) {
            g->removeFromLegend();
            if (g != m_bleu || !g->data()->isEmpty())
                g->addToLegend();
        }
    }
    fillValidation();  // the replot names the unit (fitLossLabel)
}

void MetricsPlot::fillValidation() {
    auto fill = [this](QCPGraph* g, const std::vector<twb::MetricsRow>& rows) {
        g->data()->clear();
        for (const auto& r : rows) {
            const double v = m_bpc ? r.val_bpc : r.val_loss;
            if (r.kind == "eval" && !std::isnan(v))
                g->addData(xOf(r), v);
        }
    };
    fill(m_val, m_rows);
    for (size_t i = 0; i < m_compare.size(); ++i)
        fill(m_compare[i], m_compareRows[i]);
    markDirty();
}

int MetricsPlot::comparisonPoints(int index) const {
    return index >= 0 && index < static_cast<int>(m_compare.size()) ? m_compare[index]->data()->size() : 0;
}

double MetricsPlot::comparisonValue(int index, int point) const {
    if (point < 0 || point >= comparisonPoints(index))
        return NAN;
    return (m_compare[index]->data()->constBegin() + point)->value;
}

void MetricsPlot::setLogScale(bool on) {
    m_loss->yAxis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (on)
        m_loss->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    else
        m_loss->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    markDirty();
}

void MetricsPlot::setSmoothing(double alpha) {
    m_alpha = std::clamp(alpha, 0.0, 0.99);
    rebuildSmoothed();
}

void MetricsPlot::setRunName(const QString& name) {
    m_runName = name;
    // The loss plot's title names the run, on screen and in the exports (a line of its own under the plots
    // took a row the loss plot lacked at 150% text).
    m_loss->setProperty("title", name.isEmpty() ? tr("Loss") : tr("Loss · %1").arg(name));
    markDirty();
    nameOwnValidation();
}

QString MetricsPlot::runName() const {
    return m_runName;
}

int MetricsPlot::trainPoints() const {
    return m_train->data()->size();
}
int MetricsPlot::evalPoints() const {
    return m_val->data()->size();
}
