#include "ui/datasets/CatalogueTab.h"

#include "ui/datasets/TokenizerKindLabel.h"

#include "ui/Workspace.h"
#include "ui/jobs/JobsService.h"
#include "ui/workers/Downloader.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace {
/// A catalogue text (title, description, licence) in the interface's language
/// (resources/translations/catalogue_strings.h lists them).
QString catalogueText(const std::string& s) {
    return QCoreApplication::translate("Catalogue", s.c_str());
}

QString q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString human_bytes(uint64_t b) {
    if (b >= 1000000)
        return QStringLiteral("%1 MB").arg(QLocale().toString(b / 1e6, 'f', 1));
    if (b >= 1000)
        return QStringLiteral("%1 kB").arg(QLocale().toString(b / 1e3, 'f', 0));
    return QStringLiteral("%1 B").arg(b);
}
}  // namespace

CatalogueTab::CatalogueTab(JobsService* jobs, QWidget* parent) : QWidget(parent), m_jobs(jobs) {
    m_table = new QTableWidget(0, 4);
    m_table->setObjectName("catalogue");
    m_table->setHorizontalHeaderLabels({tr("Dataset"), tr("Size"), tr("Licence"), tr("Status")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(3, QHeaderView::ResizeToContents);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_info = new QLabel;
    m_info->setWordWrap(true);
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new QProgressBar;
    m_progress->setObjectName("downloadProgress");
    m_download = new QPushButton(tr("Download"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setEnabled(false);
    m_use = new QPushButton(tr("Use for import"));
    m_use->setObjectName("useCatalogueEntry");
    m_use->setEnabled(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_download);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_use);
    // The buttons above the table: under it they moved up by a line when an error came under the tabs
    // ("Choose a dataset in the catalogue first."), and a second click on Download missed it.
    auto* col = new QVBoxLayout(this);
    col->addLayout(buttons);
    col->addWidget(m_table, 1);
    col->addWidget(m_info);
    m_downloader = new Downloader(this);
    m_watcher = new QFileSystemWatcher(this);
    m_rescan = new QTimer(this);
    m_rescan->setSingleShot(true);
    m_rescan->setInterval(700);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, m_rescan, qOverload<>(&QTimer::start));
    connect(m_rescan, &QTimer::timeout, this, [this] {
        // A download's own part files change the folder: its end reads the statuses anyway.
        if (!isVisible() || m_entries.empty() || m_downloader->isRunning())
            return;
        const int row = m_table->currentRow();
        reload();
        if (row >= 0)
            m_table->setCurrentCell(row, 0);
    });

    connect(m_table, &QTableWidget::currentCellChanged, this, &CatalogueTab::showEntry);
    connect(m_download, &QPushButton::clicked, this, &CatalogueTab::download);
    connect(m_cancel, &QPushButton::clicked, m_downloader, &Downloader::cancel);
    connect(m_use, &QPushButton::clicked, this, &CatalogueTab::useClicked);
    connect(m_downloader, &Downloader::progress, this, &CatalogueTab::showProgress);
    connect(m_downloader, &Downloader::finished, this, [this](const QString& dir) {
        m_download->setEnabled(true);
        m_cancel->setEnabled(false);
        m_progress->setFormat(tr("downloaded and checked"));
        if (m_downloadJob)
            m_downloadJob->succeed();
        emit statusMessage(tr("Downloaded into %1").arg(dir));
        const int row = m_table->currentRow();
        select(QString());  // refresh statuses
        m_table->setCurrentCell(row, 0);
    });
    connect(m_downloader, &Downloader::failed, this, [this](const QString& e) {
        m_download->setEnabled(true);
        m_cancel->setEnabled(false);
        m_progress->setFormat(tr("failed"));
        m_failed = m_downloading;
        if (m_downloadJob)
            m_downloadJob->fail(e);
        emit errorChanged(e);
    });
}

CatalogueTab::~CatalogueTab() {
    if (m_downloadJob)
        m_downloadJob->abandon();
    m_downloader->cancel();
    if (m_statusJob)
        m_statusJob->cancel();
}

void CatalogueTab::askForEntry() {
    m_askedForEntry = true;
    emit errorChanged(tr("Choose a dataset in the catalogue first."));
}

void CatalogueTab::showEntry(int row) {
    if (row < 0 || row >= static_cast<int>(m_entries.size()))
        return;
    if (m_askedForEntry) {  // the request is met: it no longer stands above the panel
        m_askedForEntry = false;
        emit errorChanged({});
    }
    const auto& e = m_entries[static_cast<size_t>(row)];
    QString files;
    for (const auto& f : e.files)
        files += QStringLiteral("<br>%1 (%2) — <code>%3</code>").arg(q(f.path), human_bytes(f.bytes), q(f.url));
    // Where its files are read from, whether or not they are there yet ("Cached in" named a folder for an
    // entry never downloaded)
    const QString where = e.files.empty() ? tr("Read from %1").arg(q(e.local_path))
                                          : tr("Download folder: %1").arg(Downloader::cacheDir(q(e.name)));
    m_info->setText(
        tr("<b>%1</b>: %2<br>Licence: %3. Suggested: %4 tokenizer%5, %6 model.%7<br>%8")
            .arg(catalogueText(e.title), catalogueText(e.description).toHtmlEscaped(),
                 catalogueText(e.licence).toHtmlEscaped(), tokenizerKindLabel(e.tokenizer))
            .arg(e.vocab_size ? tr(" (%1)").arg(e.vocab_size) : QString(), q(e.model_preset), files, where));
    m_download->setEnabled(!e.files.empty() && !m_downloader->isRunning());
    if (!m_downloader->isRunning()) {  // "failed" or "downloaded" spoke of the entry chosen before
        m_progress->setFormat(QString());
        m_progress->setValue(0);
    }
    updateUse();
}

void CatalogueTab::updateUse() {
    const int r = m_table->currentRow();
    const bool ready = r >= 0 && m_table->item(r, 3) && m_table->item(r, 3)->data(Qt::UserRole).toBool();
    const bool pairs = r >= 0 && r < static_cast<int>(m_entries.size()) && m_entries[static_cast<size_t>(r)].pairs;
    m_use->setEnabled(ready);
    m_use->setToolTip(!ready ? tr("Download it first (its files are not in the cache yet)")
                      : pairs
                          ? tr("Take these translation pairs, their official splits, languages and suggested "
                               "tokenizer into Translation pairs")
                          : tr("Take this corpus's files, format and suggested tokenizer into Import and Tokenize"));
}

void CatalogueTab::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    if (m_entries.empty() || m_downloader->isRunning())
        return;
    const int row = m_table->currentRow();
    reload();
    if (row >= 0)
        m_table->setCurrentCell(row, 0);
}

void CatalogueTab::showProgress(qint64 done, qint64 total, const QString& file) {
    if (m_downloadJob)
        m_downloadJob->setProgress(total > 0 ? double(done) / double(total) : -1.0, file);
    m_progress->setMaximum(total > 0 ? 1000 : 0);
    if (total > 0)
        m_progress->setValue(static_cast<int>(1000.0 * done / total));
    const double s = m_clock.elapsed() / 1000.0;
    const double rate = s > 0 ? done / s : 0;
    m_progress->setFormat(total > 0 && rate > 0 ? tr("%1 · %2 of %3 · %4 s left")
                                                      .arg(file, human_bytes(done), human_bytes(total))
                                                      .arg(qRound((total - done) / rate))
                                                : file);
}

void CatalogueTab::reload() {
    try {
        m_entries = twb::load_catalogue();
    } catch (const std::exception& e) {
        m_entries.clear();
        emit errorChanged(q(e.what()));
    }
    m_table->setRowCount(static_cast<int>(m_entries.size()));
    for (int r = 0; r < static_cast<int>(m_entries.size()); ++r) {
        const auto& e = m_entries[static_cast<size_t>(r)];
        const bool local = e.files.empty();
        m_table->setItem(r, 0, new QTableWidgetItem(catalogueText(e.title)));
        m_table->setItem(r, 1, new QTableWidgetItem(local ? tr("local") : human_bytes(e.total_bytes())));
        m_table->setItem(r, 2, new QTableWidgetItem(catalogueText(e.licence)));
        m_table->setItem(r, 3, new QTableWidgetItem(tr("checking…")));
    }
    watchCache();
    // Whether cached files are intact means hashing them: off the UI thread.
    if (m_statusJob)
        m_statusJob->cancel();  // a newer listing's statuses replace it
    // Each entry's status and whether its files are there to import (Use for import follows the latter)
    auto work = [entries = m_entries](JobContext&) {
        std::vector<std::pair<QString, bool>> statuses;
        for (const auto& e : entries) {
            if (e.files.empty()) {
                const bool there = QFileInfo::exists(q(e.local_path));
                statuses.emplace_back(there ? QObject::tr("installed") : QObject::tr("missing"), there);
            } else {
                const bool cached = twb::entry_cached(Downloader::cacheDir(q(e.name)).toStdString(), e);
                statuses.emplace_back(cached ? QObject::tr("downloaded") : QObject::tr("not downloaded"), cached);
            }
        }
        return statuses;
    };
    m_statusJob = m_jobs->run(tr("Checking the catalogue's cache"), work, this,
                              [this](const std::vector<std::pair<QString, bool>>& st) {
                                  for (int r = 0; r < int(st.size()) && r < m_table->rowCount(); ++r) {
                                      m_table->item(r, 3)->setText(st[size_t(r)].first);
                                      m_table->item(r, 3)->setData(Qt::UserRole, st[size_t(r)].second);
                                      // Files of a failed download put there by hand (as the offline message
                                      // says): "failed" and the error went on standing beside "downloaded"
                                      if (st[size_t(r)].second && !m_failed.isEmpty() &&
                                          q(m_entries[size_t(r)].name) == m_failed && !m_downloader->isRunning()) {
                                          m_failed.clear();
                                          m_progress->setFormat(QString());
                                          m_progress->setValue(0);
                                          emit errorChanged({});
                                      }
                                  }
                                  updateUse();
                              });
}

void CatalogueTab::watchCache() {
    const QString root = Workspace::root() + "/downloads";
    QStringList dirs{Workspace::root(), root};  // the first for a downloads folder made by hand
    for (const auto& e : m_entries)
        if (!e.files.empty())
            dirs << Downloader::cacheDir(q(e.name));
    QStringList there;
    for (const QString& d : dirs)
        if (QFileInfo(d).isDir() && !m_watcher->directories().contains(d))
            there << d;
    if (!there.isEmpty())
        m_watcher->addPaths(there);
}

void CatalogueTab::select(const QString& name) {
    if (name.isEmpty() || m_entries.empty())
        reload();
    for (int r = 0; r < static_cast<int>(m_entries.size()); ++r)
        if (q(m_entries[static_cast<size_t>(r)].name) == name)
            m_table->setCurrentCell(r, 0);
}

QStringList CatalogueTab::names() const {
    QStringList out;
    for (const auto& e : m_entries)
        out << q(e.name);
    return out;
}

QString CatalogueTab::status() const {
    const int r = m_table->currentRow();
    return r >= 0 && m_table->item(r, 3) ? m_table->item(r, 3)->text() : QString();
}

void CatalogueTab::download() {
    const int r = m_table->currentRow();
    if (r < 0 || r >= static_cast<int>(m_entries.size()))
        return askForEntry();
    if (m_downloader->isRunning())
        return;
    const auto& e = m_entries[static_cast<size_t>(r)];
    emit errorChanged({});
    m_download->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setValue(0);
    m_clock.start();
    // Listed in the status bar too, whose Cancel cancels the download as the tab's own button does.
    m_downloadJob = m_jobs->track(tr("Downloading %1").arg(q(e.title)), [this] { m_downloader->cancel(); });
    m_downloading = q(e.name);
    m_failed.clear();
    m_downloader->start(e, Downloader::cacheDir(q(e.name)));
}

std::optional<CatalogueTab::Preset> CatalogueTab::chosenPreset() {
    const int r = m_table->currentRow();
    if (r < 0 || r >= static_cast<int>(m_entries.size())) {
        askForEntry();
        return std::nullopt;
    }
    const auto& e = m_entries[static_cast<size_t>(r)];
    try {
        const auto cache = e.files.empty() ? std::filesystem::path()
                                           : std::filesystem::path(Downloader::cacheDir(q(e.name)).toStdString());
        return Preset{twb::preset_options(e.name, {}, cache), q(e.name), twb::pairs_preset_options(e.name, {}, cache)};
    } catch (const std::exception& ex) {
        emit errorChanged(q(ex.what()));
        return std::nullopt;
    }
}
