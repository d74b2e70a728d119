#include "ui/runs/RunsPanel.h"
#include "ui/widgets/ConfirmDelete.h"

#include "twb/errors.h"
#include "twb/run_info.h"
#include "twb/tensorboard.h"
#include "ui/Workspace.h"
#include "ui/jobs/JobsService.h"
#include "ui/widgets/ButtonTitles.h"
#include "ui/widgets/RunsTable.h"
#include "ui/widgets/RunsTableModel.h"

#include <QApplication>
#include <QCheckBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <filesystem>

RunsPanel::RunsPanel(JobsService* jobs, QWidget* parent) : PanelBase(jobs, parent) {
    auto* v = new QVBoxLayout(this);
    m_summary = new QLabel;
    m_summary->setObjectName("runsSummary");
    m_summary->setWordWrap(true);
    m_filter = new QLineEdit;
    m_filter->setObjectName("runsFilter");
    m_filter->setClearButtonEnabled(true);
    m_filter->setPlaceholderText(tr("Filter runs (Ctrl+F)"));
    m_filter->setToolTip(
        tr("Show only the runs whose name, folder, dataset, notes or status hold every word "
           "typed here (Escape clears it)"));
    m_filter->setMinimumWidth(m_filter->fontMetrics().horizontalAdvance(QString(24, 'x')));
    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_filter);
    v->addLayout(top);
    auto* buttonRow = new QWidget;
    auto* buttons = new QHBoxLayout(buttonRow);
    buttons->setContentsMargins(0, 0, 0, 0);
    m_open = new QPushButton(tr("Open"));
    m_open->setToolTip(tr("Open the run in the Training panel (Enter or double click)"));
    m_duplicate = new QPushButton(tr("Duplicate config"));
    m_duplicate->setToolTip(tr("A new run in the Training panel with this run's settings (Ctrl+D)"));
    m_duplicate->setObjectName("duplicateConfig");
    m_compare = new QPushButton(tr("Compare selected"));
    m_compare->setObjectName("compareSelected");
    m_compare->setToolTip(tr("Overlay the selected runs' validation curves in the Training panel (Ctrl+M)"));
    m_delete = new QPushButton(tr("Delete…"));
    m_delete->setToolTip(tr("Delete the selected runs and their checkpoints (Delete); asks first"));
    m_tensorBoard = new QPushButton(tr("Export to TensorBoard"));
    m_tensorBoard->setObjectName("exportTensorBoard");
    m_tensorBoard->setToolTip(
        tr("Write the selected runs' curves and config as TensorBoard event files in each run's tb/ folder, "
           "from metrics.csv (runs write them as they train unless tensorboard=false); view them with "
           "tensorboard --logdir on the runs folder"));
    auto* refreshButton = new QPushButton(tr("Refresh"));
    refreshButton->setToolTip(tr("Read the workspace's runs again (Ctrl+Shift+L)"));
    for (QPushButton* b : {m_open, m_duplicate, m_compare, m_delete, m_tensorBoard, refreshButton})
        buttons->addWidget(b);
    m_cells = new QCheckBox(tr("Sweep cells"));
    m_cells->setObjectName("showSweepCells");
    m_cells->setToolTip(
        tr("List the Experiments panel's sweep cells too, each named after its sweep: "
           "\"sweep-… / 000_learning_rate=0.001\""));
    m_cells->setChecked(QSettings().value("runsView/sweepCells", false).toBool());
    buttons->addWidget(m_cells);
    buttons->addStretch(1);
    v->addWidget(buttonRow);
    // Short titles where the whole ones do not fit the row (175% text at 1280x720); the tooltips say the rest.
    fitButtonTitles(buttonRow,
                    {{m_duplicate, tr("Duplicate")}, {m_compare, tr("Compare")}, {m_tensorBoard, tr("TensorBoard…")}});
    // What an export wrote and the command that shows it, whole and selectable (in the status bar the
    // command was cut before its folder).
    m_exportNote = new QLabel;
    m_exportNote->setObjectName("tensorBoardNote");
    m_exportNote->setWordWrap(true);
    m_exportNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_exportNote->hide();
    v->addWidget(m_exportNote);

    m_table = new RunsTable;
    setFocusProxy(m_table);  // Alt+6: the list, where Enter opens and arrows choose
    m_table->setObjectName("runsTable");
    m_table->setSettingsKey("runsView/table");
    auto* details = new QGroupBox(tr("Selected run"));
    auto* form = new QFormLayout(details);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_name = new QLineEdit;
    m_name->setMaxLength(200);  // the engine's bound on a run's name (twb/run_info.h)
    m_name->setPlaceholderText(tr("a name to tell this run apart (F2)"));
    m_notes = new QPlainTextEdit;
    m_notes->setPlaceholderText(tr("what you tried, what you saw"));
    m_folder = new QLabel;
    m_folder->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_folder->setWordWrap(true);
    m_saveDetails = new QPushButton(tr("Save name and notes"));
    m_saveDetails->setToolTip(
        tr("Stored in the run folder's run.json (Ctrl+Return); twb label shows and sets them too"));
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Notes"), m_notes);
    form->addRow(tr("Folder"), m_folder);
    auto* saveRow = new QHBoxLayout;
    saveRow->addWidget(m_saveDetails);
    saveRow->addStretch(1);
    form->addRow(saveRow);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    v->addWidget(split, 1);
    v->addWidget(errorLabel());

    refreshButton->setObjectName("refreshRuns");
    // a name or notes typed and not saved are kept, not read over
    connect(refreshButton, &QPushButton::clicked, this, [this] {
        keepTypedDetails();
        refresh();
    });
    connect(m_cells, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue("runsView/sweepCells", on);
        keepTypedDetails();
        refresh();
    });
    connectControls();
}

void RunsPanel::connectControls() {
    connect(m_filter, &QLineEdit::textChanged, this, &RunsPanel::applyFilter);
    connect(m_table, &RunsTable::runActivated, this, &RunsPanel::openRequested);
    connect(m_table, &RunsTable::selectedRunsChanged, this, [this] {
        showDetails();
        updateActions();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] {
        showDetails();
        updateActions();
    });
    connect(m_open, &QPushButton::clicked, this, [this] {
        if (!m_table->currentRun().isEmpty())
            emit openRequested(m_table->currentRun());
    });
    connect(m_duplicate, &QPushButton::clicked, this, [this] {
        if (!m_table->currentRun().isEmpty())
            emit duplicateRequested(m_table->currentRun());
    });
    connect(m_compare, &QPushButton::clicked, this, [this] {
        if (m_table->selectedRuns().size() >= 1)
            emit compareRequested(m_table->selectedRuns());
    });
    connect(m_delete, &QPushButton::clicked, this, &RunsPanel::deleteSelected);
    connect(m_tensorBoard, &QPushButton::clicked, this, [this] { exportTensorBoard(m_table->selectedRuns()); });
    connect(m_saveDetails, &QPushButton::clicked, this, &RunsPanel::saveDetails);
    connect(m_name, &QLineEdit::returnPressed, this, &RunsPanel::saveDetails);
    // Each key says what it does (whatsThis): Help → Keyboard shortcuts lists it from there.
    auto key = [this](const QKeySequence& k, const QString& what, auto slot) {
        auto* s = new QShortcut(k, this);
        s->setContext(Qt::WidgetWithChildrenShortcut);
        s->setWhatsThis(what);
        connect(s, &QShortcut::activated, this, slot);
    };
    key(QKeySequence(Qt::Key_F2), tr("Rename the selected run"), [this] {
        m_name->setFocus();
        m_name->selectAll();
    });
    key(QKeySequence(Qt::CTRL | Qt::Key_D), tr("Duplicate"), [this] { m_duplicate->click(); });
    key(QKeySequence(Qt::CTRL | Qt::Key_M), tr("Compare selected"), [this] { m_compare->click(); });
    // Not Ctrl+S nor Ctrl+Shift+R: the Run menu's (save a checkpoint, start a sweep) hold them in every panel,
    // and a key bound twice does nothing ("ambiguous shortcut").
    key(QKeySequence(Qt::CTRL | Qt::Key_Return), tr("Save name and notes"), [this] { saveDetails(); });
    key(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L), tr("Refresh the list"), [this] {
        keepTypedDetails();
        refresh();
    });
    key(QKeySequence::Find, tr("Filter the runs"), [this] {
        m_filter->setFocus(Qt::ShortcutFocusReason);
        m_filter->selectAll();
    });
    // Anywhere in the panel: from the table the filter field is out of the way, and the line still said "1 of 3 shown"
    key(QKeySequence(Qt::Key_Escape), tr("Clear the filter"), [this] { m_filter->clear(); });
    auto* del = new QShortcut(QKeySequence::Delete, m_table);
    del->setWhatsThis(tr("Delete the selected runs (in the list)"));
    del->setContext(Qt::WidgetShortcut);
    connect(del, &QShortcut::activated, this, &RunsPanel::deleteSelected);

    updateActions();
}

void RunsPanel::showRuns(std::vector<twb::RunSummary> runs) {
    if (m_refreshAgain) {
        // A refresh was asked for while this listing was read (a name just saved, a run just deleted): it may
        // be older than what the table shows, so the next listing takes its place (this one put a saved name
        // back to the one before until then).
        m_refreshAgain = false;
        refresh();
        return;
    }
    int running = 0;
    for (const auto& r : runs)
        running += r.status == "running" ? 1 : 0;
    const QString sweeps = QDir(Workspace::sweepsDir()).absolutePath() + "/";
    const auto cells = std::count_if(runs.begin(), runs.end(), [&sweeps](const twb::RunSummary& r) {
        return QDir(QString::fromStdString(r.dir)).absolutePath().startsWith(sweeps);
    });
    const auto own = static_cast<qsizetype>(runs.size()) - cells;
    m_listed =
        (own == 0 && cells == 0
             ? tr("No runs yet in %1. Quick start (Ctrl+R) in the Training panel makes one.").arg(Workspace::runsDir())
             : (own == 1 ? tr("1 run in %1") : tr("%1 runs in %2").arg(own)).arg(Workspace::runsDir()) +
                   (cells == 1  ? tr(" · 1 sweep cell")
                    : cells > 1 ? tr(" · %1 sweep cells").arg(cells)
                                : QString()) +
                   (running > 0 ? tr(" · %1 running").arg(running) : QString()));
    if (!m_refusedBusy.isEmpty()) {  // the refusal to delete a run in training goes once it has stopped
        const auto it = std::find_if(runs.begin(), runs.end(), [&](const twb::RunSummary& r) {
            return QString::fromStdString(r.dir) == m_refusedBusy;
        });
        if (it == runs.end() || it->status != "running") {
            showError({});
            m_refusedBusy.clear();
        }
    }
    // A refresh (after Ctrl+Return saved the name) left the focus on the side bar: the name field, disabled
    // while the table was refilled, lost it.
    QWidget* focused = QApplication::focusWidget();
    const bool inDetails = focused == m_name || focused == m_notes;
    m_table->setRuns(std::move(runs));
    updateSummary();
    if (m_table->selectedRuns().isEmpty() && m_table->shownRuns() > 0) {
        // After a delete, the run that took the deleted one's row (the one after it), else the first.
        const int rows = m_table->model()->rowCount();
        const int row = m_rowAfterDelete >= 0 ? std::min(m_rowAfterDelete, rows - 1) : 0;
        m_table->selectRun(m_table->model()->index(row, 0).data(RunsTableModel::DirRole).toString());
    }
    m_rowAfterDelete = -1;
    showDetails();
    updateActions();
    if (inDetails && focused->isEnabled() && QApplication::focusWidget() != focused)
        focused->setFocus(Qt::OtherFocusReason);
    emit refreshed();
    if (m_refreshAgain) {
        m_refreshAgain = false;
        refresh();
    }
}

RunsPanel::~RunsPanel() = default;

void RunsPanel::updateSummary() {
    const QString filter = m_filter->text().trimmed();
    const int total = static_cast<int>(m_table->runs().size());
    if (filter.isEmpty() || total == 0)
        m_summary->setText(m_listed);
    else if (m_table->shownRuns() == 0)
        m_summary->setText(m_listed + tr(" · none matches “%1”").arg(filter));
    else
        m_summary->setText(m_listed + tr(" · %1 of %2 shown").arg(m_table->shownRuns()).arg(total));
}

void RunsPanel::applyFilter() {
    const QString before = m_table->currentRun();
    m_table->setFilterText(m_filter->text());
    updateSummary();
    // The selection went with the rows hidden (the current row moves to a neighbour, unselected): the first
    // run shown is selected, so the details and the buttons speak of a run in sight.
    if (m_table->selectedRuns().isEmpty() && m_table->shownRuns() > 0)
        m_table->selectRun(m_table->runAt(0));
    else if (m_table->currentRun() == before && !before.isEmpty())
        m_table->scrollTo(m_table->currentIndex());
    showDetails();
    updateActions();
}

void RunsPanel::setShowSweepCells(bool on) {
    m_cells->setChecked(on);
}

void RunsPanel::refresh() {
    if (isRunning(m_loader)) {
        m_refreshAgain = true;
        return;
    }
    const std::string dir = Workspace::runsDir().toStdString();
    const std::string sweeps = m_cells->isChecked() ? Workspace::sweepsDir().toStdString() : std::string();
    // Quiet: the listing is quick and runs on every visit to the panel.
    m_loader = jobs()->run(
        QString(),
        [dir, sweeps](JobContext&) {
            std::vector<twb::RunSummary> runs;
            try {
                runs = twb::collect_runs(dir);
                std::error_code ec;
                if (!sweeps.empty())  // each sweep's cells, named after it: "sweep-… / 000_learning_rate=0.001"
                    for (const auto& s : std::filesystem::directory_iterator(sweeps, ec))
                        if (s.is_directory(ec) && !std::filesystem::exists(s.path() / "config.json"))
                            for (auto& cell : twb::collect_runs(s.path())) {
                                const std::string named = s.path().filename().string() + " / " + cell.name;
                                if (cell.display_name.empty() || cell.display_name == cell.name)
                                    cell.display_name = named;  // a name given to the cell is kept
                                cell.name = named;
                                runs.push_back(std::move(cell));
                            }
            } catch (const std::exception&) {
            }
            return runs;
        },
        this, [this](std::vector<twb::RunSummary> runs) { showRuns(std::move(runs)); });
}

void RunsPanel::refuseWhileTraining(const QString& run, const QString& text) {
    showError(text);
    m_refusedBusy = run;
}

void RunsPanel::showEvent(QShowEvent* e) {
    PanelBase::showEvent(e);
    refresh();
}

void RunsPanel::hideEvent(QHideEvent* e) {
    keepTypedDetails();
    PanelBase::hideEvent(e);
}

void RunsPanel::keepTypedDetails() {
    // not into a run deleted meanwhile (writing would make its folder again)
    if (!m_shownRun.isEmpty() && (m_name->isModified() || m_notes->document()->isModified()) &&
        QFileInfo::exists(m_shownRun + "/config.json"))
        writeDetails(m_shownRun);
}

void RunsPanel::showDetails() {
    const QString dir = m_table->currentRun();
    const twb::RunSummary* r = m_table->summary(dir);
    if (dir == m_shownRun && r)
        return;  // a refresh keeps what is being typed
    keepTypedDetails();
    if (!m_shownRun.isEmpty())
        showError({});  // a refusal was about the run selected before ("... is being trained")
    m_shownRun = r ? dir : QString();
    m_name->setText(r && r->display_name != r->name ? QString::fromStdString(r->display_name) : QString());
    m_name->setPlaceholderText(
        !r                       ? QString()
        : r->info_damage.empty() ? tr("unnamed (%1); a name to tell it apart (F2)").arg(QString::fromStdString(r->name))
                                 : tr("name unreadable: run.json is damaged"));
    m_notes->setPlainText(r ? QString::fromStdString(r->notes) : QString());
    m_notes->document()->setModified(false);
    m_folder->setText(r ? dir : QString());
    // A damaged run.json read as "unnamed" without a word; Save then refused only after a name was typed.
    if (r && !r->info_damage.empty())
        showError(tr("%1/run.json is damaged (%2), so the run's name and notes cannot be shown or saved: fix the "
                     "file by hand or delete it (it holds only the name, notes and creation date).")
                      .arg(dir, QString::fromStdString(r->info_damage)));
}

void RunsPanel::updateActions() {
    const QStringList sel = m_table->selectedRuns();
    const bool one = !m_table->currentRun().isEmpty() && m_table->summary(m_table->currentRun());
    m_open->setEnabled(one);
    m_duplicate->setEnabled(one);
    m_compare->setEnabled(sel.size() >= 2);
    m_delete->setEnabled(!sel.isEmpty());
    m_tensorBoard->setEnabled(!sel.isEmpty() && !isRunning(m_exporter));
    // A damaged run.json is not rewritten (its name and notes would be lost): nothing to type into.
    const bool labelled = one && m_table->summary(m_table->currentRun())->info_damage.empty();
    m_name->setEnabled(labelled);
    m_notes->setEnabled(labelled);
    m_saveDetails->setEnabled(labelled);
}

bool RunsPanel::renameRun(const QString& dir, const QString& name) {
    try {
        auto info = twb::read_run_info(dir.toStdString());
        info.name = name.toStdString();
        twb::write_run_info(dir.toStdString(), info);
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
    showError({});
    m_shownRun.clear();  // show what was stored
    emit runEdited(dir);
    refresh();
    return true;
}

bool RunsPanel::setNotes(const QString& dir, const QString& notes) {
    try {
        auto info = twb::read_run_info(dir.toStdString());
        info.notes = notes.toStdString();
        twb::write_run_info(dir.toStdString(), info);
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
    showError({});
    m_shownRun.clear();
    emit runEdited(dir);
    refresh();
    return true;
}

bool RunsPanel::writeDetails(QString dir) {
    try {
        auto info = twb::read_run_info(dir.toStdString());
        info.name = m_name->text().toStdString();
        info.notes = m_notes->toPlainText().toStdString();
        twb::write_run_info(dir.toStdString(), info);
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
    m_name->setModified(false);
    m_notes->document()->setModified(false);
    // The listing holds them too: back on this run before a refresh, its fields showed the old name, and a
    // save then wrote that over the one kept here
    m_table->tableModel()->setDetails(dir, m_name->text(), m_notes->toPlainText());
    showError({});
    emit statusMessage(tr("saved the name and notes of %1").arg(QFileInfo(dir).fileName()));
    emit runEdited(dir);
    return true;
}

void RunsPanel::saveDetails() {
    if (m_shownRun.isEmpty() || !writeDetails(m_shownRun))
        return;
    m_shownRun.clear();  // show what was stored
    refresh();
}

bool RunsPanel::deleteRun(const QString& dir, bool ask) {
    const twb::RunSummary* r = m_table->summary(dir);
    const QString shown = r ? QString::fromStdString(r->display_name) : QFileInfo(dir).fileName();
    const std::string holder = twb::run_holder(dir.toStdString());
    if (!holder.empty()) {
        const QString who = QString::fromStdString(holder);
        showError(who.startsWith(QString("process %1 ").arg(QCoreApplication::applicationPid()))
                      ? tr("%1 is being trained in this window: stop it in the Training panel (Shift+F5) before "
                           "deleting it.")
                            .arg(shown)
                      : tr("%1 is being trained (by %2): stop its training before deleting it.").arg(shown, who));
        m_refusedBusy = dir;
        return false;
    }
    if (ask) {
        if (!confirmDelete(this, tr("Delete run"),
                           tr("Delete the run “%1” with its checkpoints, curves and samples?\n\n%2").arg(shown, dir),
                           tr("Delete")))
            return false;
    }
    if (const int row = m_table->rowOf(dir); row >= 0 && (m_rowAfterDelete < 0 || row < m_rowAfterDelete))
        m_rowAfterDelete = row;
    try {
        twb::delete_run(dir.toStdString());
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
    showError({});
    emit statusMessage(tr("deleted %1").arg(dir));
    emit runDeleted(dir);
    refresh();
    return true;
}

void RunsPanel::exportTensorBoard(const QStringList& dirs) {
    if (dirs.isEmpty() || isRunning(m_exporter))
        return;
    std::vector<std::string> runs;
    for (const QString& d : dirs)
        runs.push_back(d.toStdString());
    m_exporter = jobs()->run(
        tr("Exporting to TensorBoard"),
        [runs](JobContext& ctx) {
            QStringList files;
            for (size_t i = 0; i < runs.size(); ++i) {
                if (ctx.cancelled())
                    throw twb::Cancelled();
                ctx.setProgress(static_cast<double>(i) / static_cast<double>(runs.size()),
                                QString::fromStdString(runs[i]));
                files << QString::fromStdString(twb::export_tensorboard(runs[i]).event_file.string());
            }
            return files;
        },
        this,
        [this](QStringList files) {
            showError({});
            const QString said =
                files.size() == 1 ? tr("wrote TensorBoard files for 1 run; view them with: tensorboard --logdir %1")
                                        .arg(QFileInfo(files[0]).path())
                                  : tr("wrote TensorBoard files for %1 runs; view them with: tensorboard --logdir %2")
                                        .arg(files.size())
                                        .arg(Workspace::runsDir());
            m_exportNote->setText(said);
            m_exportNote->show();
            emit statusMessage(said);
            updateActions();
            emit tensorBoardExported(files);
        },
        [this](const QString& error) {
            showError(error);
            updateActions();
        });
    updateActions();
}

void RunsPanel::deleteSelected() {
    const QStringList sel = m_table->selectedRuns();
    if (sel.isEmpty())
        return;
    if (sel.size() == 1) {
        deleteRun(sel.first());
        return;
    }
    for (const QString& d : sel)
        if (!twb::run_holder(d.toStdString()).empty()) {
            showError(tr("%1 is being trained: stop its training before deleting it.").arg(QFileInfo(d).fileName()));
            return;
        }
    if (!confirmDelete(this, tr("Delete runs"),
                       tr("Delete these %1 runs with their checkpoints, curves and samples?\n\n%2")
                           .arg(sel.size())
                           .arg(sel.join('\n')),
                       tr("Delete")))
        return;
    for (const QString& d : sel)
        if (!deleteRun(d, false))
            return;
}
