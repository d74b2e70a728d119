#include "ui/training/LrFindDialog.h"
#include "ui/widgets/AxisTitle.h"
#include "ui/widgets/SciSpinBox.h"

#include "ui/jobs/JobsService.h"
#include "ui/workers/ExperimentWorker.h"

#include <qcustomplot.h>
#include <algorithm>

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

LrFindDialog::LrFindDialog(ExperimentWorker* worker, JobsService* jobs, const twb::RunConfig& config, QWidget* parent)
    : QDialog(parent), m_config(config), m_jobs(jobs) {
    setWindowTitle(tr("Find learning rate"));
    resize(640, 480);
    auto* v = new QVBoxLayout(this);
    addBoundsAndPlot(v);
    connectButtons(addChoiceAndButtons(v));
    connectWorker(worker);
}

// The explanation, the bounds and steps, the progress, the status line and the plot.
void LrFindDialog::addBoundsAndPlot(QVBoxLayout* v) {
    auto* what =
        new QLabel(tr("Trains a fresh model of this config for a few steps with the learning rate "
                      "growing exponentially, and stops when the loss runs away. The open run is not "
                      "touched."));
    what->setWordWrap(true);
    v->addWidget(what);
    auto* form = new QHBoxLayout;
    QSettings s;
    m_lo = new SciSpinBox;  // "1e-07", not "0.000000100"
    m_lo->setObjectName("minLr");
    m_lo->setDecimals(12);
    m_lo->setRange(1e-9, 10);
    m_lo->setValue(s.value("lrFind/min", 1e-7).toDouble());
    m_hi = new SciSpinBox;
    m_hi->setObjectName("maxLr");
    m_hi->setDecimals(12);
    m_hi->setRange(1e-6, 100);
    m_hi->setValue(s.value("lrFind/max", 1.0).toDouble());
    m_steps = new QSpinBox;
    m_steps->setObjectName("lrSteps");
    m_steps->setRange(5, 10000);
    m_steps->setValue(s.value("lrFind/steps", 100).toInt());
    form->addWidget(new QLabel(tr("from")));
    form->addWidget(m_lo);
    form->addWidget(new QLabel(tr("to")));
    form->addWidget(m_hi);
    form->addWidget(new QLabel(tr("over")));
    form->addWidget(m_steps);
    form->addWidget(new QLabel(tr("steps")));
    form->addStretch();
    v->addLayout(form);
    m_progress = new QProgressBar;
    m_progress->setObjectName("lrProgress");
    m_progress->setRange(0, m_steps->value());
    m_progress->setValue(0);
    v->addWidget(m_progress);
    m_status = new QLabel;
    m_status->setObjectName("lrStatus");
    m_status->setWordWrap(true);
    v->addWidget(m_status);
    m_plot = new QCustomPlot;
    m_plot->setObjectName("lrPlot");
    m_plot->xAxis->setLabel(tr("learning rate"));
    setFittedYLabel(m_plot, tr("smoothed training loss"), tr("loss"));  // "smoothed training los" at 150%
    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    m_plot->addGraph()->setPen(QPen(QColor(31, 119, 180), 1.5));
    m_plot->setMinimumHeight(220);
    v->addWidget(m_plot, 1);
    // Before a search the axis spans the rates asked for (it showed QCustomPlot's 0.001 to 5).
    auto showRange = [this] {
        // A range upside down is said at once (it was only when Start was pressed; the axis kept the last)
        const QString upsideDown = tr("<span style='color:#b00'>the first rate must be below the last</span>");
        if (!m_running && m_lo->value() >= m_hi->value())
            m_status->setText(upsideDown);
        else if (m_status->text() == upsideDown)
            m_status->clear();
        if (m_plot->graph(0)->dataCount() > 0 || m_lo->value() >= m_hi->value())
            return;
        m_plot->xAxis->setRange(m_lo->value(), m_hi->value());
        m_plot->replot();
    };
    connect(m_lo, &QDoubleSpinBox::valueChanged, m_plot, showRange);
    connect(m_hi, &QDoubleSpinBox::valueChanged, m_plot, showRange);
    showRange();
}

// The choice between the two suggestions and the buttons; returns Close.
QPushButton* LrFindDialog::addChoiceAndButtons(QVBoxLayout* v) {
    auto* pick = new QHBoxLayout;
    m_minRule = new QRadioButton;
    m_minRule->setObjectName("minRule");
    m_minRule->setChecked(true);
    m_steepest = new QRadioButton;
    m_steepest->setObjectName("steepest");
    pick->addWidget(m_minRule);
    pick->addWidget(m_steepest);
    pick->addStretch();
    v->addLayout(pick);
    auto* buttons = new QHBoxLayout;
    m_start = new QPushButton(tr("Start"));
    m_start->setObjectName("lrStart");
    m_cancelButton = new QPushButton(tr("Cancel"));
    m_cancelButton->setObjectName("lrCancel");
    m_use = new QPushButton(tr("Use this rate"));
    m_use->setObjectName("useRate");
    m_use->setToolTip(tr("Put the chosen rate into the config form's learning rate"));
    auto* close = new QPushButton(tr("Close"));
    buttons->addWidget(m_start);
    buttons->addWidget(m_cancelButton);
    buttons->addStretch();
    buttons->addWidget(m_use);
    buttons->addWidget(close);
    v->addLayout(buttons);
    m_cancelButton->setEnabled(false);
    m_use->setEnabled(false);
    m_minRule->setEnabled(false);
    m_steepest->setEnabled(false);
    m_minRule->setText(tr("lowest loss / 10"));
    m_steepest->setText(tr("steepest fall"));
    return close;
}

void LrFindDialog::connectButtons(QPushButton* close) {
    connect(m_start, &QPushButton::clicked, this, &LrFindDialog::start);
    connect(m_cancelButton, &QPushButton::clicked, this, &LrFindDialog::cancel);
    connect(m_use, &QPushButton::clicked, this, &LrFindDialog::useRate);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);
}

// The worker's points, result and failure; a report that arrives when no search runs is ignored.
void LrFindDialog::connectWorker(ExperimentWorker* worker) {
    connect(this, &LrFindDialog::findRequested, worker, &ExperimentWorker::findLearningRate, Qt::QueuedConnection);
    connect(worker, &ExperimentWorker::lrPoint, this, [this](const twb::LrFindPoint& p) {
        if (!m_running)
            return;
        m_plot->graph(0)->addData(p.lr, p.smoothed);
        // The x axis stays the search's whole range, in decades: fitted to the first points it spanned a
        // fraction of one, its labels run together ("10⁻⁶1.25·11.5·10⁻⁶")
        m_plot->xAxis->setRange(m_lo->value(), m_hi->value());
        m_plot->yAxis->rescale();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        m_progress->setValue(p.step);
        if (m_job)
            m_job->setProgress(double(p.step) / std::max(1, m_progress->maximum()), tr("step %1").arg(p.step));
        m_status->setText(tr("step %1 · lr %2 · loss %3")
                              .arg(p.step)
                              .arg(p.lr, 0, 'g', 3)
                              .arg(QLocale().toString(p.smoothed, 'f', 4)));
    });
    connect(worker, &ExperimentWorker::lrFound, this, [this](const twb::LrFindResult& r, bool cancelled) {
        if (!m_running)
            return;
        m_running = false;
        m_result = r;
        m_start->setEnabled(true);
        m_cancelButton->setEnabled(false);
        if (cancelled) {
            m_status->setText(tr("cancelled"));
            if (m_job)
                m_job->fail(tr("cancelled"), true);
            return;
        }
        if (m_job)
            m_job->succeed();
        showResult();
    });
    connect(worker, &ExperimentWorker::failed, this, [this](const QString& e) {
        if (!m_running)
            return;
        m_running = false;
        m_start->setEnabled(true);
        m_cancelButton->setEnabled(false);
        m_status->setText(tr("<span style='color:#b00'>%1</span>").arg(e.toHtmlEscaped()));
        if (m_job)
            m_job->fail(e);
    });
}

LrFindDialog::~LrFindDialog() {
    if (m_job)
        m_job->abandon();
    cancel();
}

void LrFindDialog::setSteps(int steps) {
    m_steps->setValue(steps);
}

void LrFindDialog::setBounds(double lo, double hi) {
    m_lo->setValue(lo);
    m_hi->setValue(hi);
}

double LrFindDialog::chosenRate() const {
    return m_steepest->isChecked() ? m_result.steepest_lr : m_result.suggested_lr;
}

void LrFindDialog::start() {
    if (m_running)
        return;
    if (m_lo->value() >= m_hi->value()) {
        m_status->setText(tr("<span style='color:#b00'>the first rate must be below the last</span>"));
        return;
    }
    QSettings s;
    s.setValue("lrFind/min", m_lo->value());
    s.setValue("lrFind/max", m_hi->value());
    s.setValue("lrFind/steps", m_steps->value());
    LrFindRequest r;
    r.options.config = m_config;
    r.options.min_lr = m_lo->value();
    r.options.max_lr = m_hi->value();
    r.options.steps = m_steps->value();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    r.cancel = m_cancel;
    m_result = {};
    m_plot->graph(0)->data()->clear();
    m_plot->clearItems();
    m_progress->setRange(0, m_steps->value());
    m_progress->setValue(0);
    m_status->setText(tr("training a fresh model…"));
    m_running = true;
    m_start->setEnabled(false);
    m_cancelButton->setEnabled(true);
    m_use->setEnabled(false);
    m_job = m_jobs->track(tr("Finding the learning rate"), [this] { cancel(); });
    emit findRequested(r);
}

void LrFindDialog::cancel() {
    if (m_cancel)
        *m_cancel = true;
}

void LrFindDialog::useRate() {
    if (chosenRate() <= 0)
        return;
    emit rateChosen(chosenRate());
    accept();
}

bool LrFindDialog::labelGoesLeft(double x, double width, double other, double left, double right) {
    const bool fitsRight = x + width <= right, fitsLeft = x - width >= left;
    const bool crossesRight = other > x && other < x + width, crossesLeft = other < x && other > x - width;
    return !fitsRight || (crossesRight && fitsLeft && !crossesLeft);
}

void LrFindDialog::showResult() {
    // Each mark's label a line below the one before, whatever the text size (at 150% they lay on each
    // other), and left of its line where it would run past the plot's right edge (it was cut there).
    m_plot->replot();  // the axis rect's size, for the labels' places
    const QRect area = m_plot->axisRect()->rect();
    int row = 0;
    auto mark = [&](double lr, double other, const QColor& c, const QString& text) {
        auto* line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(lr, 0);
        line->point2->setCoords(lr, 1);
        line->setPen(QPen(c, 1.5, Qt::DashLine));
        auto* label = new QCPItemText(m_plot);
        const QFontMetrics fm(label->font());
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        const double top = area.height() > 0 ? (4.0 + row * (fm.height() + 2.0)) / area.height() : 0.04 + 0.08 * row;
        label->position->setCoords(lr, top);
        const bool leftOfLine = labelGoesLeft(m_plot->xAxis->coordToPixel(lr), fm.horizontalAdvance(text) + 8,
                                              m_plot->xAxis->coordToPixel(other), area.left(), area.right());
        label->setPositionAlignment((leftOfLine ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        label->setText(leftOfLine ? text.trimmed() + " " : text);
        label->setColor(c);
        ++row;
    };
    mark(m_result.suggested_lr, m_result.steepest_lr, QColor(44, 160, 44),
         tr(" lowest / 10: %1").arg(m_result.suggested_lr, 0, 'g', 2));
    mark(m_result.steepest_lr, m_result.suggested_lr, QColor(214, 39, 40),
         tr(" steepest: %1").arg(m_result.steepest_lr, 0, 'g', 2));
    m_plot->replot();
    m_minRule->setText(tr("lowest loss / 10: %1").arg(m_result.suggested_lr, 0, 'g', 2));
    m_steepest->setText(tr("steepest fall: %1").arg(m_result.steepest_lr, 0, 'g', 2));
    m_minRule->setEnabled(true);
    m_steepest->setEnabled(true);
    m_use->setEnabled(m_result.suggested_lr > 0);
    m_progress->setValue(m_progress->maximum());
    const double last = m_result.curve.empty() ? 0.0 : m_result.curve.back().lr;
    m_status->setText(m_result.diverged
                          ? tr("The loss ran away at learning rate %1; the suggestions are below it")
                                .arg(QLocale().toString(last, 'g', 2))
                          : tr("Went up to the last rate, %1, and the loss never ran away (rose to %2 times its "
                               "lowest)")
                                .arg(QLocale().toString(last, 'g', 2))
                                .arg(twb::LrFindOptions{}.diverge_factor));
}
