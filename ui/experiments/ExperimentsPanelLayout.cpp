// ExperimentsPanel, its left column: the axes, grid or random cells, the sweep folder, the estimate, the
// buttons, the progress and the queue; and the wiring of its controls. What they do is in
// ExperimentsPanel.cpp.
#include "ui/Workspace.h"
#include "ui/experiments/AxesEditor.h"
#include "ui/experiments/ExperimentsPanel.h"
#include "ui/experiments/ResultsTable.h"
#include "ui/experiments/SweepPlots.h"
#include "ui/widgets/SteadyLabel.h"

#include <QAction>
#include <QButtonGroup>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

QWidget* ExperimentsPanel::buildLeft() {
    // Left: what to sweep, the estimate, the controls and the queue.
    auto* left = new QWidget;
    auto* lv = new QVBoxLayout(left);
    m_baseNote =
        new QLabel(tr("Every cell starts from the Training panel's config and dataset; each axis "
                      "replaces one field."));
    m_baseNote->setObjectName("sweepBase");
    m_baseNote->setWordWrap(true);
    lv->addWidget(m_baseNote);
    m_axes = new AxesEditor;
    lv->addWidget(m_axes);
    auto* mode = new QHBoxLayout;
    m_grid = new QRadioButton(tr("Full grid"));
    m_grid->setObjectName("grid");
    m_random = new QRadioButton(tr("Random"));
    m_random->setObjectName("random");
    m_samples = new QSpinBox;
    m_samples->setObjectName("samples");
    m_samples->setRange(1, 10000);
    m_samples->setValue(QSettings().value("experiments/samples", 8).toInt());
    m_samples->setSuffix(tr(" cells"));
    auto* group = new QButtonGroup(this);
    group->addButton(m_grid);
    group->addButton(m_random);
    (QSettings().value("experiments/random", false).toBool() ? m_random : m_grid)->setChecked(true);
    mode->addWidget(m_grid);
    mode->addWidget(m_random);
    mode->addWidget(m_samples);
    mode->addStretch();
    lv->addLayout(mode);
    auto* folderRow = new QHBoxLayout;
    m_folder = new QLineEdit;
    m_folder->setObjectName("sweepFolder");
    m_folder->setToolTip(tr("The sweep folder: sweep.json, results.md/.csv and one run folder per cell"));
    auto* browse = new QPushButton(tr("Browse…"));
    folderRow->addWidget(new QLabel(tr("Folder")));
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browse);
    lv->addLayout(folderRow);
    m_estimate = new SteadyLabel;  // an error a line shorter than the estimate moved the buttons under it up
    m_estimate->setObjectName("estimate");
    m_estimate->setWordWrap(true);
    lv->addWidget(m_estimate);
    auto* buttons = new QHBoxLayout;
    m_start = new QPushButton(tr("Start sweep"));
    m_start->setObjectName("startSweep");
    m_start->setToolTip(tr("Run every cell, one after another (Ctrl+Shift+R)"));
    m_stop = new QPushButton(tr("Stop"));
    m_stop->setObjectName("stopSweep");
    m_stop->setToolTip(tr("Stop after a checkpoint of the running cell; Resume continues it"));
    m_resume = new QPushButton(tr("Resume…"));
    m_resume->setObjectName("resumeSweep");
    m_resume->setToolTip(tr("Continue an interrupted sweep folder: finished cells are kept"));
    for (auto* b : {m_start, m_stop, m_resume})
        buttons->addWidget(b);
    lv->addLayout(buttons);
    auto* compare = new QPushButton(tr("Compare tokenizers…"));
    compare->setObjectName("compareTokenizers");
    compare->setToolTip(
        tr("The same text prepared with char and BPE tokenizers, the same model, a table in bits "
           "per character"));
    lv->addWidget(compare);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Sweep folder"), Workspace::sweepsDir());
        if (!d.isEmpty())
            m_folder->setText(d);
    });
    connect(compare, &QPushButton::clicked, this, &ExperimentsPanel::compareTokenizersDialog);
    addQueue(lv);
    return left;
}

void ExperimentsPanel::addQueue(QVBoxLayout* lv) {
    m_offer = new QLabel;
    m_offer->setObjectName("sweepOffer");
    m_offer->setWordWrap(true);
    m_offer->setStyleSheet("background: #fff4ce; padding: 4px;");
    m_offer->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);  // Tab, Enter
    m_offer->hide();
    lv->addWidget(m_offer);
    m_progress = new QProgressBar;
    m_progress->setObjectName("sweepProgress");
    m_progress->setFormat(tr("no sweep running"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    lv->addWidget(m_progress);
    m_status = new QLabel(tr("Idle"));
    m_status->setObjectName("sweepStatus");
    m_status->setWordWrap(true);
    lv->addWidget(m_status);
    lv->addWidget(errorLabel());
    lv->addWidget(new QLabel(tr("Queue")));
    m_queue = new QListWidget;
    m_queue->setObjectName("queue");
    // A row wraps rather than run past the column's edge ("stopped (resumable) — 000_learning_rate=0.0…")
    m_queue->setWordWrap(true);
    m_queue->setTextElideMode(Qt::ElideMiddle);
    // The queue takes what an error line needs on a small screen, so the buttons above stay put.
    m_queue->setMinimumHeight(m_queue->fontMetrics().height() * 2);
    lv->addWidget(m_queue, 1);
    m_remove = new QPushButton(tr("Remove cell"));
    m_remove->setObjectName("removeCell");
    m_remove->setToolTip(tr("Leave the selected pending cell out, or delete a finished cell's run folder (Del)"));
    m_remove->setShortcut(QKeySequence::Delete);
    lv->addWidget(m_remove);
}

void ExperimentsPanel::connectControls() {
    m_startAct = new QAction(tr("Start s&weep"), this);
    m_startAct->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_stopAct = new QAction(tr("St&op sweep"), this);
    connect(m_startAct, &QAction::triggered, this, &ExperimentsPanel::start);
    connect(m_stopAct, &QAction::triggered, this, &ExperimentsPanel::stop);
    connect(m_start, &QPushButton::clicked, this, &ExperimentsPanel::start);
    connect(m_stop, &QPushButton::clicked, this, &ExperimentsPanel::stop);
    connect(m_remove, &QPushButton::clicked, this, &ExperimentsPanel::removeSelectedCell);
    connect(m_resume, &QPushButton::clicked, this, [this] {
        // At the sweep this panel ran last (stopped, most likely: the one to continue), else among the sweeps
        const QString at =
            !m_dir.isEmpty() && QFileInfo::exists(m_dir + "/sweep.json") ? m_dir : Workspace::sweepsDir();
        const QString d = QFileDialog::getExistingDirectory(this, tr("Sweep folder to continue"), at);
        if (!d.isEmpty())
            resumeSweep(d);
    });
    connect(m_offer, &QLabel::linkActivated, this, [this](const QString& link) {
        m_offer->hide();
        if (link == "resume")
            resumeSweep(m_offerDir);
    });
    connect(m_axes, &AxesEditor::changed, this, &ExperimentsPanel::updateEstimate);
    connect(m_grid, &QRadioButton::toggled, this, &ExperimentsPanel::updateEstimate);
    connect(m_samples, &QSpinBox::valueChanged, this, &ExperimentsPanel::updateEstimate);
    connect(m_results, &ResultsTable::openRequested, this, &ExperimentsPanel::openRunRequested);
    connect(m_results, &ResultsTable::removeRequested, this, &ExperimentsPanel::removeCellFolder);
}
