// TrainingPanel, its widgets: the left column (run label, dataset, the config form, the buttons and the Run
// menu's actions) and the right one (progress, status, the plot options and the plots, with the dataset's
// baselines computed on the experiment worker). Only building and wiring; what the controls do is in
// TrainingPanel.cpp.
#include "ui/Workspace.h"
#include "ui/training/ConfigForm.h"
#include "ui/training/LrFindDialog.h"
#include "ui/training/MetricsPlot.h"
#include "ui/training/TrainingPanel.h"
#include "ui/widgets/ColumnScroll.h"
#include "ui/widgets/EnlargeToggle.h"
#include "ui/widgets/ErrorLabel.h"
#include "ui/widgets/SteadyLabel.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

QWidget* TrainingPanel::buildLeft() {
    // Left: dataset, config, controls.
    auto* left = new QWidget;
    auto* lv = new QVBoxLayout(left);
    m_runLabel = new QLabel;
    m_runLabel->setWordWrap(true);
    m_runLabel->setObjectName("runLabel");
    lv->addWidget(m_runLabel);
    auto* dsRow = new QHBoxLayout;
    m_dataset = new QComboBox;
    m_dataset->setObjectName("dataset");
    m_dataset->setToolTip(tr("A prepared dataset (twb prepare, or the Quick start's fortunes)"));
    auto* browse = m_browseData = new QPushButton(tr("Browse…"));
    dsRow->addWidget(new QLabel(tr("Dataset")));
    dsRow->addWidget(m_dataset, 1);
    dsRow->addWidget(browse);
    lv->addLayout(dsRow);
    m_datasetError = new ErrorLabel;
    m_datasetError->setObjectName("datasetError");
    m_datasetError->setTextFormat(Qt::RichText);
    m_datasetError->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse |
                                            Qt::LinksAccessibleByKeyboard);
    m_datasetError->hide();
    lv->addWidget(m_datasetError);
    connect(m_datasetError, &QLabel::linkActivated, this, &TrainingPanel::datasetsPanelRequested);
    m_kindNote = new QLabel;
    m_kindNote->setObjectName("kindNote");
    m_kindNote->setWordWrap(true);
    m_kindNote->setStyleSheet("background: #e8f0fe; padding: 3px;");
    m_kindNote->hide();
    lv->addWidget(m_kindNote);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString d =
            QFileDialog::getExistingDirectory(this, tr("Prepared dataset folder"),
                                              QSettings().value("lastDatasetDir", Workspace::datasetsDir()).toString());
        if (d.isEmpty())
            return;
        QSettings().setValue("lastDatasetDir", d);
        chooseDatasetFolder(d);
    });
    connect(m_dataset, &QComboBox::currentIndexChanged, this, &TrainingPanel::onDatasetChanged);
    connect(m_dataset, &QComboBox::currentIndexChanged, m_datasetError, &QWidget::hide);
    m_form = new ConfigForm;
    // Always with its bar: one that appeared and went as the model kind shows and hides rows would move
    // the fields.
    auto* scroll = new ColumnScroll(m_form);
    scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    lv->addWidget(scroll, 1);
    connect(m_form, &ConfigForm::changed, this, &TrainingPanel::updateStartEnabled);
    connect(m_form, &ConfigForm::changed, this, [this] {
        // The note says which kind the dataset chose; once the form shows another, it no longer holds.
        if (!m_kindNote->isHidden() && int(m_form->modelKind()) != m_kindNote->property("kind").toInt())
            m_kindNote->hide();
    });

    addControls(lv);
    return left;
}

void TrainingPanel::addControls(QVBoxLayout* lv) {
    m_quick = new QPushButton(tr("Quick start: train on fortunes"));
    m_quick->setObjectName("quickStart");
    m_quick->setToolTip(
        tr("Prepares Debian's fortune cookies (char tokenizer) and trains the tiny preset: "
           "under a minute on two cores"));
    lv->addWidget(m_quick);
    auto* buttons = new QHBoxLayout;
    m_start = new QPushButton(tr("Start"));
    m_pause = new QPushButton(tr("Pause"));
    m_stop = new QPushButton(tr("Stop"));
    m_save = new QPushButton(tr("Checkpoint"));
    m_start->setObjectName("start");
    m_pause->setObjectName("pause");
    m_stop->setObjectName("stop");
    m_save->setObjectName("saveCheckpoint");
    m_start->setToolTip(tr("Start training (F5)"));
    m_pause->setToolTip(tr("Pause or resume (F6)"));
    m_stop->setToolTip(tr("Stop after writing a checkpoint (Shift+F5)"));
    m_save->setToolTip(tr("Write a checkpoint now (Ctrl+S)"));
    for (auto* b : {m_start, m_pause, m_stop, m_save})
        buttons->addWidget(b);
    lv->addLayout(buttons);
    // Why Start is off: placed under the status line (buildRight), where it moves no button when it comes.
    m_startWhy = new QLabel(this);
    m_startWhy->setObjectName("startWhy");
    m_startWhy->setWordWrap(true);
    m_startWhy->hide();
    auto* lrFind = new QPushButton(tr("Find learning rate…"));
    lrFind->setObjectName("findLearningRate");
    lrFind->setToolTip(tr("The range finder on a fresh model of this config; the open run is not touched (Ctrl+L)"));
    lv->addWidget(lrFind);
    connect(lrFind, &QPushButton::clicked, this, &TrainingPanel::findLearningRate);
    m_moreRow = new QWidget;
    auto* more = new QHBoxLayout(m_moreRow);
    more->setContentsMargins(0, 0, 0, 0);
    auto* moreButton = new QPushButton(tr("Train more"));
    moreButton->setObjectName("trainMore");
    moreButton->setToolTip(tr("Continue this finished run for more steps, at its minimum learning rate"));
    m_moreSteps = new QSpinBox;
    m_moreSteps->setObjectName("moreSteps");
    m_moreSteps->setRange(1, 1000000);
    m_moreSteps->setSingleStep(100);
    m_moreSteps->setValue(QSettings().value("trainMoreSteps", 500).toInt());
    m_moreSteps->setSuffix(tr(" steps"));
    more->addWidget(moreButton);
    more->addWidget(m_moreSteps, 1);
    lv->addWidget(m_moreRow);
    // Its room is kept while hidden: Start, Pause and the rest stay where they are when a finished run
    // brings it (they moved up 29 px, a click landing elsewhere)
    QSizePolicy keep = m_moreRow->sizePolicy();
    keep.setRetainSizeWhenHidden(true);
    m_moreRow->setSizePolicy(keep);
    m_moreRow->hide();
    connect(moreButton, &QPushButton::clicked, this, [this] {
        QSettings().setValue("trainMoreSteps", m_moreSteps->value());
        trainMore(m_moreSteps->value());
    });
    connect(m_quick, &QPushButton::clicked, this, &TrainingPanel::quickStart);
    connect(m_start, &QPushButton::clicked, this, &TrainingPanel::start);
    connect(m_pause, &QPushButton::clicked, this, &TrainingPanel::togglePause);
    connect(m_stop, &QPushButton::clicked, this, &TrainingPanel::stop);
    connect(m_save, &QPushButton::clicked, this, &TrainingPanel::saveCheckpointNow);
}

void TrainingPanel::createActions() {
    // The menu's actions mirror the buttons: busyChanged and updateStartEnabled set both.
    auto action = [this](const QString& text, const QKeySequence& key, void (TrainingPanel::*slot)()) {
        auto* a = new QAction(text, this);
        a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    m_quickAct = action(tr("&Quick start on fortunes"), QKeySequence(Qt::CTRL | Qt::Key_R), &TrainingPanel::quickStart);
    m_startAct = action(tr("&Start / continue"), QKeySequence(Qt::Key_F5), &TrainingPanel::start);
    m_pauseAct = action(tr("&Pause / resume"), QKeySequence(Qt::Key_F6), &TrainingPanel::togglePause);
    m_stopAct = action(tr("S&top"), QKeySequence(Qt::SHIFT | Qt::Key_F5), &TrainingPanel::stop);
    m_saveAct = action(tr("Save &checkpoint now"), QKeySequence::Save, &TrainingPanel::saveCheckpointNow);
    m_lrFindAct = new QAction(tr("Find &learning rate…"), this);
    m_lrFindAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(m_lrFindAct, &QAction::triggered, this, [this] { findLearningRate(); });
}

QWidget* TrainingPanel::buildRight() {
    // Right: progress and plots.
    auto* right = new QWidget;
    auto* rv = new QVBoxLayout(right);
    m_progress = new QProgressBar;
    m_progress->setObjectName("progress");
    m_progress->setFormat(tr("step %v / %m"));
    m_status = new SteadyLabel(tr("Idle"));
    m_status->setObjectName("status");
    m_status->setWordWrap(true);  // long messages must not widen the window
    m_offer = new QLabel;
    m_offer->setObjectName("resumeOffer");
    m_offer->setWordWrap(true);
    m_offer->setStyleSheet("background: #fff4ce; padding: 4px;");
    // Its links (Resume it · Train another · Dismiss) in the Tab order, Enter following one: only a mouse
    // could use them.
    m_offer->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    m_offer->hide();
    connect(m_offer, &QLabel::linkActivated, this, [this](const QString& link) {
        m_offer->hide();
        if ((link == "resume" || link == "open") && openRun(m_offerRun) && link == "resume")
            start();
        if (link == "again")
            quickStartAgain();
    });
    rv->addWidget(m_offer);
    rv->addWidget(m_progress);
    rv->addWidget(m_status);
    rv->addWidget(m_startWhy);
    m_evalLabel = new SteadyLabel;
    m_evalLabel->setObjectName("evalReadout");
    m_evalLabel->setWordWrap(true);
    m_evalLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rv->addWidget(m_evalLabel);
    rv->addWidget(errorLabel());
    addPlotOptions(rv);
    addPlot(rv);
    return right;
}

void TrainingPanel::addPlotOptions(QVBoxLayout* rv) {
    auto* opts = new QHBoxLayout;
    m_logScale = new QCheckBox(tr("Log-scale loss"));
    m_smooth = new QSlider(Qt::Horizontal);
    m_smooth->setRange(0, 99);
    m_smooth->setValue(QSettings().value("plotSmoothing", 60).toInt());
    m_smooth->setToolTip(tr("Smoothing of the training loss curve"));
    m_lossUnit = new QComboBox;
    m_lossUnit->setObjectName("lossUnit");
    m_lossUnit->addItem(tr("nats per token"));
    m_lossUnit->addItem(tr("bits per character"));
    m_lossUnit->setToolTip(
        tr("The validation loss's unit. Bits per character compares runs with different tokenizers fairly: a "
           "BPE token spans several characters, so its loss per token is larger for the same text."));
    opts->addWidget(m_logScale);
    m_baselines = new QCheckBox(tr("Baselines"));
    m_baselines->setObjectName("baselines");
    m_baselines->setToolTip(
        tr("The dataset's uniform, unigram and bigram validation losses as reference lines on the loss plot"));
    m_baselines->setChecked(QSettings().value("plotBaselines", false).toBool());
    opts->addWidget(m_baselines);
    opts->addWidget(new QLabel(tr("Smoothing")));
    opts->addWidget(m_smooth);
    // The units get a row of their own: beside the toggles they squeezed the smoothing slider away.
    auto* units = new QHBoxLayout;
    units->addWidget(new QLabel(tr("Loss in")));
    units->addWidget(m_lossUnit);
    m_xAxis = new QComboBox;
    m_xAxis->setObjectName("xAxis");
    m_xAxis->addItem(tr("steps"));
    m_xAxis->addItem(tr("epochs"));
    m_xAxis->setToolTip(
        tr("The plots' x-axis: optimiser steps, or passes over the training pairs (epochs) for an "
           "encoder-decoder run; a decoder LM's curves stay in steps"));
    units->addSpacing(12);
    auto* xLabel = new QLabel(tr("x in"));
    units->addWidget(xLabel);
    units->addWidget(m_xAxis);
    // Epochs are an encoder-decoder's (a decoder LM's curves stay in steps, and the choice did nothing):
    // the choice shows for such a run only.
    auto showXChoice = [this, xLabel] {
        const bool pairs = m_form->modelKind() == twb::ModelKind::EncoderDecoder;
        xLabel->setVisible(pairs);
        m_xAxis->setVisible(pairs);
    };
    connect(m_form, &ConfigForm::changed, this, showXChoice);  // the form is built first (buildLeft)
    showXChoice();
    units->addStretch();
    m_enlargePlot = new EnlargeToggle(
        this, tr("Show the plots over the whole panel, the settings set aside (or double-click a plot; Esc returns)"),
        tr("Back from the enlarged plots"), [this](bool on) {
            m_left->setVisible(!on);
            updateStartEnabled();  // the line on why Start is off points into the form: not while it is set aside
        });
    m_enlargePlot->button()->setObjectName("enlargePlot");
    units->addWidget(m_enlargePlot->button());
    opts->addStretch();
    rv->addLayout(opts);
    rv->addLayout(units);
}

void TrainingPanel::addPlot(QVBoxLayout* rv) {
    m_compareNote = new QLabel;
    m_compareNote->setObjectName("compareNote");
    m_compareNote->setWordWrap(true);
    m_compareNote->setTextFormat(Qt::RichText);
    m_compareNote->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(m_compareNote, &QLabel::linkActivated, this, [this] { endComparison(); });
    m_compareNote->hide();
    rv->addWidget(m_compareNote);
    m_plot = new MetricsPlot;
    rv->addWidget(m_plot, 1);
    connect(m_plot, &MetricsPlot::doubleClicked, m_enlargePlot, &EnlargeToggle::toggle);
    m_plot->setSmoothing(m_smooth->value() / 100.0);
    connect(m_logScale, &QCheckBox::toggled, this, [this](bool on) {
        m_plot->setLogScale(on);
        QSettings().setValue("plotLogScale", on);
    });
    m_logScale->setChecked(QSettings().value("plotLogScale", false).toBool());
    connect(m_lossUnit, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_plot->setBitsPerChar(i == 1);
        if (!m_comparisonUnit) {  // the user's choice: remembered, and kept after the comparison
            QSettings().setValue("plotLossUnit", i);
            m_unitBeforeCompare = -1;
        }
        updateBaselines();
    });
    m_lossUnit->setCurrentIndex(QSettings().value("plotLossUnit", 0).toInt() == 1 ? 1 : 0);
    connect(m_xAxis, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_plot->setEpochAxis(i == 1);
        QSettings().setValue("plotXEpochs", i == 1);
    });
    m_xAxis->setCurrentIndex(QSettings().value("plotXEpochs", false).toBool() ? 1 : 0);
    connect(m_baselines, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue("plotBaselines", on);
        updateBaselines();
    });
    connect(m_smooth, &QSlider::valueChanged, this, [this](int v) {
        m_plot->setSmoothing(v / 100.0);
        QSettings().setValue("plotSmoothing", v);
    });
    connectBaselines();
}

void TrainingPanel::connectBaselines() {
    connect(m_expWorker, &ExperimentWorker::baselinesReady, this,
            [this](const QString& dir, const std::vector<twb::BaselineResult>& rows) {
                QVector<QPair<QString, double>> lines, bpc;
                for (const auto& b : rows) {
                    lines.append({QString::fromStdString(b.name), b.loss});
                    if (!std::isnan(b.bits_per_char))  // a parallel dataset's have none
                        bpc.append({QString::fromStdString(b.name), b.bits_per_char});
                }
                m_baselineCache[dir] = lines;
                m_baselineBpcCache[dir] = bpc;
                if (m_baselinesPending == dir)
                    m_baselinesPending.clear();
                updateBaselines();
            });
    connect(m_expWorker, &ExperimentWorker::failed, this, [this](const QString& e) {
        if (m_baselinesPending.isEmpty())
            return;                                // the range finder's errors are the dialog's
        m_baselineCache[m_baselinesPending] = {};  // not retried for this dataset in this session
        m_baselineBpcCache[m_baselinesPending] = {};
        m_baselinesPending.clear();
        showError(tr("baselines: %1").arg(e));
    });
}

void TrainingPanel::setPlotEnlarged(bool on) {
    m_enlargePlot->setEnlarged(on);
}

bool TrainingPanel::plotEnlarged() const {
    return m_enlargePlot && m_enlargePlot->enlarged();
}
