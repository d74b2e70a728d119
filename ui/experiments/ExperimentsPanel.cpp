#include "ui/experiments/ExperimentsPanel.h"
#include "ui/widgets/ConfirmDelete.h"

#include "twb/dataset.h"
#include "twb/errors.h"
#include "twb/run_folder.h"
#include "ui/Workspace.h"
#include "ui/experiments/AxesEditor.h"
#include "ui/experiments/CompareTokenizersDialog.h"
#include "ui/experiments/ResultsTable.h"
#include "ui/experiments/SweepPlots.h"
#include "ui/jobs/JobsService.h"
#include "ui/training/ConfigProblemText.h"
#include "ui/widgets/ColumnScroll.h"
#include "ui/widgets/Duration.h"

#include <QAction>
#include <QButtonGroup>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>
#include <filesystem>

namespace {
/// Cells of a sweep folder with a finished run (its last checkpoint at max_iters).
int finishedCells(const QString& dir, const twb::SweepSpec& spec, const std::vector<twb::SweepCell>& cells) {
    int done = 0;
    for (size_t i = 0; i < cells.size(); ++i) {
        const auto steps =
            twb::list_checkpoints(std::filesystem::path(dir.toStdString()) / twb::cell_name(i, cells[i]));
        done += !steps.empty() && steps.back() >= twb::cell_config(spec, cells[i]).max_iters;
    }
    return done;
}
}  // namespace

ExperimentsPanel::ExperimentsPanel(JobsService* jobs, QWidget* parent) : PanelBase(jobs, parent) {
    m_worker = new ExperimentWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(this, &ExperimentsPanel::sweepRequested, m_worker, &ExperimentWorker::runSweep, Qt::QueuedConnection);
    connect(this, &ExperimentsPanel::prepareRequested, m_worker, &ExperimentWorker::prepareSet, Qt::QueuedConnection);
    m_thread.setObjectName("experiments");
    m_thread.start();

    // Right: the results table over the plots.
    auto* right = new QSplitter(Qt::Vertical);
    m_results = new ResultsTable;
    m_plots = new SweepPlots;
    right->addWidget(m_results);
    right->addWidget(m_plots);
    right->setStretchFactor(1, 2);
    auto* split = new QSplitter;
    // Scrolls when its controls do not fit (larger text on a small screen: the axes table was squeezed
    // under its own buttons)
    auto* leftScroll = new ColumnScroll(buildLeft());
    leftScroll->setFrameShape(QFrame::NoFrame);
    split->addWidget(leftScroll);
    split->addWidget(right);
    split->setStretchFactor(1, 2);
    split->setSizes({340, 900});
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(split);

    connectControls();
    connectWorker();
    m_axes->setTexts(QSettings().value("experiments/axes").toStringList());
    if (m_axes->count() == 0)
        m_axes->addAxis("learning_rate", "1e-3..1e-2 log 3");
    m_autoFolder = timedSweepFolder();
    m_folder->setText(m_autoFolder);
    busyChanged(false);
    offerInterruptedSweep();
}

ExperimentsPanel::~ExperimentsPanel() {
    if (m_job)
        m_job->abandon();
    if (m_control)
        m_control->request_stop();
    m_thread.quit();
    m_thread.wait();
}

void ExperimentsPanel::setBaseConfigProvider(std::function<twb::RunConfig()> provider) {
    m_provider = std::move(provider);
    updateEstimate();
}

void ExperimentsPanel::setBaseConfig(const twb::RunConfig& c) {
    m_base = c;
    updateEstimate();
}

twb::RunConfig ExperimentsPanel::baseConfig() const {
    return m_provider ? m_provider() : m_base;
}

QString ExperimentsPanel::sweepFolder() const {
    return m_folder->text().trimmed();
}

void ExperimentsPanel::setSweepFolder(const QString& dir) {
    m_folder->setText(dir);
}

void ExperimentsPanel::setRandomSamples(int n) {
    (n > 0 ? m_random : m_grid)->setChecked(true);
    if (n > 0)
        m_samples->setValue(n);
}

twb::SweepSpec ExperimentsPanel::spec() const {
    twb::SweepSpec s;
    s.base = baseConfig();
    s.axes = m_axes->axes();
    const bool dataAxis = std::any_of(s.axes.begin(), s.axes.end(), [](const auto& a) { return a.key == "data_dir"; });
    if (s.base.data_dir.empty() && !dataAxis)
        throw twb::ConfigError(tr("no dataset: choose one in the Training panel first").toStdString());
    s.random_samples = m_random->isChecked() ? m_samples->value() : 0;
    return s;
}

void ExperimentsPanel::busyChanged(bool busy) {
    m_start->setEnabled(!busy);
    m_startAct->setEnabled(!busy);
    m_resume->setEnabled(!busy);
    m_stop->setEnabled(busy);
    m_stopAct->setEnabled(busy);
    m_axes->setEnabled(!busy);
    if (!busy)
        updateEstimate();
}

void ExperimentsPanel::fillQueue(const twb::SweepSpec& s) {
    m_queue->clear();
    m_cellConfigs.clear();
    const auto cells = twb::sweep_cells(s);
    for (size_t i = 0; i < cells.size(); ++i) {
        auto c = twb::cell_config(s, cells[i]);
        c.vocab_size = vocabOf(c.data_dir);
        m_cellConfigs.push_back(c);
        auto* it = new QListWidgetItem(m_queue);
        it->setData(Qt::UserRole, QString::fromStdString(twb::cell_name(i, cells[i])));
        setCellState(int(i), tr("pending"));
    }
}

void ExperimentsPanel::setCellState(int index, const QString& state) {
    auto* it = m_queue->item(index);
    if (!it)
        return;
    it->setData(Qt::UserRole + 1, state);
    it->setText(
        QString("%1 — %2").arg(state, it->data(Qt::UserRole).toString()));  // the state first: it is what changes
    it->setToolTip(it->text());
}

QString ExperimentsPanel::timedSweepFolder() {
    const QString base =
        QString("%1/sweep-%2").arg(Workspace::sweepsDir(), QDateTime::currentDateTime().toString("yyyyMMdd-HHmmss"));
    QString dir = base;
    for (int n = 2; QFileInfo::exists(dir); ++n)  // two sweeps in one second
        dir = QString("%1-%2").arg(base).arg(n);
    return dir;
}

void ExperimentsPanel::renewTakenFolder() {
    if (m_folder->text() == m_autoFolder && QFileInfo::exists(m_autoFolder)) {
        m_autoFolder = timedSweepFolder();
        m_folder->setText(m_autoFolder);
    }
}

void ExperimentsPanel::workspaceChanged() {
    if (m_folder->text() == m_autoFolder && !isBusy()) {
        m_autoFolder = timedSweepFolder();
        m_folder->setText(m_autoFolder);
    }
}

void ExperimentsPanel::start() {
    if (isBusy())
        return;
    showError({});
    twb::SweepSpec s;
    try {
        s = spec();
        twb::sweep_cells(s);
    } catch (const std::exception& e) {  // a cell that is no valid config: in the interface's language
        showError(configProblemText(QString::fromStdString(e.what())));
        return;
    }
    // The folder shown is the one written (it was renamed to the start's time behind the user); a
    // proposed name already taken (the last sweep's) gives way to a new one.
    renewTakenFolder();
    const QString dir = sweepFolder();
    if (dir.isEmpty()) {
        showError(tr("choose a sweep folder"));
        return;
    }
    if (QFileInfo::exists(dir + "/sweep.json")) {
        showError(tr("%1 already holds a sweep; use Resume to continue it, or choose another folder").arg(dir));
        return;
    }
    run(s, dir);
}

bool ExperimentsPanel::resumeSweep(const QString& dir) {
    if (isBusy())
        return false;
    showError({});
    try {
        const auto s = twb::read_sweep(dir.toStdString());
        QStringList axes;
        for (const auto& a : s.axes) {
            QStringList v;
            for (const auto& x : a.values)
                v << QString::fromStdString(x);
            axes << QString::fromStdString(a.key) + "=" + v.join(',');
        }
        m_axes->setTexts(axes);
        m_folder->setText(dir);
        run(s, dir);
        return true;
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
}

void ExperimentsPanel::run(const twb::SweepSpec& s, const QString& dir) {
    if (!QDir().mkpath(dir))  // before anything looks started (it said "filesystem error: ..." under a queue)
        return showError(tr("Cannot create the folder %1; choose another place.").arg(dir));
    try {
        fillQueue(s);
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        return;
    }
    m_dir = dir;
    m_current = -1;
    m_progress->setFormat(tr("%v / %m cells"));
    m_progress->setRange(0, int(m_cellConfigs.size()));
    m_progress->setValue(0);
    m_status->setText(tr("starting %1").arg(dir));
    m_control = std::make_shared<twb::TrainControl>();
    m_skipped = std::make_shared<SkippedCells>();
    SweepRequest r;
    r.dir = dir;
    r.spec = s;
    r.control = m_control;
    r.skipped = m_skipped;
    setBusy(true);
    m_job = jobs()->track(tr("Sweep %1").arg(QFileInfo(dir).fileName()), [this] { stop(); });
    m_job->setCancelQuestion(tr("Stop the sweep? The running cell writes a checkpoint; Resume continues it."));
    refreshResults();
    emit sweepRequested(r);
}

void ExperimentsPanel::stop() {
    if (m_control)
        m_control->request_stop();
    m_status->setText(tr("stopping after a checkpoint…"));
}

void ExperimentsPanel::removeSelectedCell() {
    const int i = m_queue->currentRow();
    if (i < 0)
        return;
    const QString state = m_queue->item(i)->data(Qt::UserRole + 1).toString();
    if (state == tr("pending") && isBusy() && m_skipped) {
        m_skipped->insert(size_t(i));
        setCellState(i, tr("removed"));
        return;
    }
    if (state.startsWith(tr("running"))) {
        showError(tr("the running cell cannot be removed; Stop the sweep first"));
        return;
    }
    removeCellFolder(m_dir + "/" + m_queue->item(i)->data(Qt::UserRole).toString());
}

void ExperimentsPanel::removeCellFolder(const QString& runDir) {
    if (isBusy() && runDir == m_currentDir) {
        showError(tr("the running cell cannot be removed; Stop the sweep first"));
        return;
    }
    if (!QFileInfo::exists(runDir + "/config.json"))
        return;
    if (!confirmDelete(this, tr("Remove cell"),
                       tr("Delete the run folder %1? A resumed sweep trains this cell again.").arg(runDir),
                       tr("Delete")))
        return;
    QDir(runDir).removeRecursively();
    for (int i = 0; i < m_queue->count(); ++i)
        if (m_dir + "/" + m_queue->item(i)->data(Qt::UserRole).toString() == runDir)
            setCellState(i, tr("removed"));
    refreshResults();
}

void ExperimentsPanel::runDeleted(const QString& dir) {
    if (m_dir.isEmpty() ||
        QDir::cleanPath(QFileInfo(dir).absolutePath()) != QDir::cleanPath(QFileInfo(m_dir).absoluteFilePath()))
        return;
    const QString name = QFileInfo(dir).fileName();
    for (int i = 0; i < m_queue->count(); ++i)
        if (m_queue->item(i)->data(Qt::UserRole).toString() == name)
            setCellState(i, tr("removed"));
    refreshResults();
}

void ExperimentsPanel::refreshResults() {
    if (m_dir.isEmpty() || !QFileInfo::exists(m_dir))
        return;
    try {
        const auto runs = twb::collect_runs(m_dir.toStdString());
        QStringList swept;  // the sweep's axes: columns from its first finished cell on, not from its second
        try {
            for (const auto& a : twb::read_sweep(m_dir.toStdString()).axes)
                swept << QString::fromStdString(a.key);
        } catch (const std::exception&) {  // a folder of runs without sweep.json: the keys that differ
        }
        m_swept = swept;
        m_results->showRuns(runs, swept);
        m_plots->setRuns(runs, swept);
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
    }
}

void ExperimentsPanel::refreshRowsLater() {
    if (m_dir.isEmpty())
        return;
    if (isRunning(m_rowsJob)) {
        m_rowsAgain = true;
        return;
    }
    const std::string dir = m_dir.toStdString();
    m_rowsJob = jobs()->run(
        QString(), [dir](JobContext&) { return twb::collect_runs(dir); }, this,
        [this, dir](std::vector<twb::RunSummary> runs) {
            if (dir == m_dir.toStdString())  // not a sweep left meanwhile
                m_results->showRuns(runs, m_swept);
            if (std::exchange(m_rowsAgain, false))
                refreshRowsLater();
        },
        [this](const QString&) { m_rowsAgain = false; });  // the cell boundary's refresh says what is wrong
}

void ExperimentsPanel::offerInterruptedSweep() {
    // The newest sweep folder of the workspace whose cells are not all finished.
    QDir d(Workspace::sweepsDir());
    for (const auto& fi : d.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time)) {
        if (!QFileInfo::exists(fi.filePath() + "/sweep.json"))
            continue;
        try {
            const auto s = twb::read_sweep(fi.filePath().toStdString());
            const auto cells = twb::sweep_cells(s);
            const int done = finishedCells(fi.filePath(), s, cells);
            if (done < int(cells.size())) {
                m_offerDir = fi.filePath();
                m_offer->setText(tr("Sweep %1 was interrupted (%2 of %3 cells finished): "
                                    "<a href='resume'>Resume</a> · <a href='dismiss'>Dismiss</a>")
                                     .arg(fi.fileName())
                                     .arg(done)
                                     .arg(cells.size()));
                m_offer->show();
            }
        } catch (const std::exception&) {
        }
        return;
    }
}

void ExperimentsPanel::compareTokenizersDialog() {
    CompareTokenizersDialog dlg(this);
    if (dlg.exec() == QDialog::Accepted)
        compareTokenizers(dlg.inputs(), dlg.tokenizers());
}

void ExperimentsPanel::compareTokenizers(const QStringList& inputs, const std::vector<twb::TokenizerSpec>& tokenizers) {
    if (isBusy())
        return;
    showError({});
    if (inputs.isEmpty() || tokenizers.empty()) {
        showError(tr("choose a text file and at least one tokenizer"));
        return;
    }
    PrepareSetRequest r;
    const QString stem = QFileInfo(inputs.first()).completeBaseName();
    for (const auto& t : tokenizers) {
        twb::PrepareOptions o;
        for (const auto& i : inputs)
            o.corpus.inputs.push_back(i.toStdString());
        o.tokenizer = t;
        const QString name = t.kind == twb::TokenizerKind::Char
                                 ? QString("%1-char").arg(stem)
                                 : QString("%1-%2%3")
                                       .arg(stem, QString::fromStdString(std::string(twb::to_string(t.kind))))
                                       .arg(t.vocab_size);
        o.out = (Workspace::datasetsDir() + "/" + name).toStdString();
        r.datasets.push_back(o);
    }
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    r.cancel = cancel;
    setBusy(true);
    m_job = jobs()->track(tr("Preparing %1 datasets to compare").arg(r.datasets.size()), [cancel] { *cancel = true; });
    m_status->setText(tr("preparing %1 datasets…").arg(r.datasets.size()));
    emit prepareRequested(r);
}
