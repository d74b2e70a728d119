#include "ui/widgets/RunPicker.h"

#include "twb/run_folder.h"
#include "ui/Workspace.h"
#include "ui/widgets/ElidingComboBox.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QSet>
#include <QSettings>
#include <QToolButton>

RunPicker::RunPicker(QWidget* parent) : QWidget(parent) {
    m_run = new ElidingComboBox;  // a long label keeps its start and end, and its tooltip names it whole
    m_run->setObjectName("runCombo");
    m_run->setMinimumContentsLength(18);
    m_run->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_ck = new QComboBox;
    m_ck->setObjectName("checkpointCombo");
    m_ck->setSizeAdjustPolicy(QComboBox::AdjustToContents);  // sized at first show, "best (step 3050" was cut
    m_ck->setToolTip(tr("Checkpoint: best (lowest validation loss), last, or any saved step"));
    auto* browse = new QToolButton;
    browse->setText(tr("…"));
    browse->setToolTip(tr("Open a run folder from anywhere (CLI runs too)"));
    auto* reload = new QToolButton;
    reload->setText(tr("⟳"));
    reload->setToolTip(tr("Re-read runs and checkpoints"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Run")));
    row->addWidget(m_run, 1);
    row->addWidget(browse);
    row->addWidget(reload);
    row->addWidget(new QLabel(tr("Checkpoint")));
    row->addWidget(m_ck);
    connect(browse, &QToolButton::clicked, this, [this] {
        const QString d = QFileDialog::getExistingDirectory(this, tr("Open run folder"), Workspace::runsDir());
        if (!d.isEmpty())
            setRun(d);
    });
    connect(reload, &QToolButton::clicked, this, &RunPicker::refresh);
    connect(m_run, &QComboBox::currentIndexChanged, this, [this] {
        fillCheckpoints();
        emit changed();
    });
    connect(m_ck, &QComboBox::currentIndexChanged, this, &RunPicker::changed);
    refresh();
}

QString RunPicker::run() const {
    return m_run->currentData().toString();
}

QString RunPicker::checkpoint() const {
    const QVariant v = m_ck->currentData();
    return v.isValid() ? v.toString() : QStringLiteral("best");
}

QList<qint64> RunPicker::steps() const {
    QList<qint64> out;
    if (run().isEmpty())
        return out;
    for (int64_t s : twb::list_checkpoints(run().toStdString()))
        out << s;
    return out;
}

namespace {
/// Run folders outside the workspace opened in any picker: every picker lists them (a run opened in
/// Sampling had to be looked for again in Attention).
QStringList& openedByHand() {
    static QStringList runs;
    return runs;
}
}  // namespace

void RunPicker::refresh() {
    const QString keep = run(), keepCk = checkpoint();
    QSignalBlocker b(m_run);
    m_run->clear();
    QStringList all = Workspace::runs();
    QSet<QString> listed;
    for (const QString& r : all)
        listed << QFileInfo(r).canonicalFilePath();
    // Then the runs opened by hand, in this session and before it (File → Recent runs): a run outside the
    // workspace opened before a restart (View → Language's) had to be looked for again.
    for (const QStringList& more : {openedByHand(), Workspace::recentRuns()})
        for (const QString& e : more) {
            const QString same = QFileInfo(e).canonicalFilePath();
            if (QFileInfo::exists(e + "/config.json") && !listed.contains(same)) {  // not one deleted since
                listed << same;
                all << QFileInfo(e).absoluteFilePath();
            }
        }
    m_seenOpened = openedByHand().size();
    for (const QString& r : all)
        m_run->addItem(Workspace::runLabel(r), r);
    // The chosen run's folder went away (moved, deleted): it stays chosen and says so, and what it is asked
    // for says the folder is gone; another run was chosen silently, and sampled into.
    if (!keep.isEmpty() && m_run->findData(keep) < 0)
        m_run->addItem(tr("%1 (folder gone)").arg(QFileInfo(keep).fileName()), keep);
    tellApart();
    const int i = m_run->findData(keep);
    m_run->setCurrentIndex(i >= 0 ? i : (m_run->count() ? 0 : -1));
    b.unblock();
    fillCheckpoints();
    setCheckpoint(keepCk);
    emit changed();
}

void RunPicker::setRun(const QString& dir) {
    if (dir.isEmpty())
        return;
    const QString clean = QFileInfo(dir).absoluteFilePath();
    if (m_run->findData(clean) < 0) {
        if (!openedByHand().contains(clean)) {
            openedByHand() << clean;
            Workspace::addRecentRun(clean);
        }
        m_run->addItem(Workspace::runLabel(clean), clean);
        tellApart();
    }
    m_run->setCurrentIndex(m_run->findData(clean));
}

void RunPicker::tellApart() {
    QHash<QString, int> seen;
    for (int i = 0; i < m_run->count(); ++i)
        ++seen[m_run->itemText(i)];
    for (int i = 0; i < m_run->count(); ++i)
        if (seen.value(m_run->itemText(i)) > 1)
            m_run->setItemText(i, tr("%1 (in %2)")
                                      .arg(m_run->itemText(i),
                                           QDir::toNativeSeparators(QFileInfo(m_run->itemData(i).toString()).path())));
}

void RunPicker::setCheckpoint(const QString& which) {
    const int i = m_ck->findData(which);
    if (i >= 0)
        m_ck->setCurrentIndex(i);
}

void RunPicker::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    if (m_seenOpened != openedByHand().size()) {  // another picker opened a run by hand
        refresh();
        return;
    }
    const bool hadNone = m_ck->count() == 0;
    const QString keep = checkpoint();
    fillCheckpoints();
    if ((hadNone && m_ck->count() > 0) || checkpoint() != keep)
        emit changed();
}

void RunPicker::fillCheckpoints() {
    QSignalBlocker b(m_ck);
    const QString keep = checkpoint();
    m_ck->clear();
    const auto s = steps();
    if (!s.isEmpty()) {
        // "best" only once an evaluation has recorded one (a run stopped before its first evaluation at a
        // checkpoint has none): else the first choice, "last", is taken
        try {
            const auto best = twb::find_checkpoint(run().toStdString(), "best").filename().string();
            m_ck->addItem(
                tr("best (step %1)").arg(QString::fromStdString(best.substr(best.find('_') + 1)).toLongLong()), "best");
        } catch (const std::exception&) {
        }
        m_ck->addItem(tr("last (%1)").arg(s.back()), "last");
        for (qint64 step : s)
            m_ck->addItem(tr("step %1").arg(step), QString::number(step));
    }
    const int i = m_ck->findData(keep);
    m_ck->setCurrentIndex(i >= 0 ? i : 0);
}
