#include "ui/widgets/ExportDialog.h"

#include "ui/Workspace.h"
#include "ui/jobs/JobsService.h"
#include "ui/widgets/ErrorLabel.h"
#include "ui/widgets/ExportFormats.h"
#include "ui/widgets/ExportReasonText.h"
#include "ui/widgets/RunPicker.h"

#include "twb/config_options.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardItemModel>
#include <QVBoxLayout>

ExportDialog::ExportDialog(const QString& run, JobsService* jobs, QWidget* parent)
    : JobDialog(parent), m_jobs(jobs ? jobs : new JobsService(this)) {
    setWindowTitle(tr("Export model"));
    build();
    connectControls();
    const int remembered = m_format->findData(QSettings().value("export/format").toString());
    m_format->setCurrentIndex(std::max(0, remembered));
    if (!run.isEmpty())
        m_picker->setRun(run);
    recheck();
}

void ExportDialog::build() {
    m_picker = new RunPicker;
    m_format = new QComboBox;
    m_format->setObjectName("exportFormat");
    for (const auto& f : exportFormats())
        m_format->addItem(QObject::tr(f.label), f.id);
    m_reasons = new QLabel;
    m_reasons->setObjectName("exportReasons");
    m_reasons->setWordWrap(true);
    m_reasons->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_out = new QLineEdit;
    m_out->setObjectName("exportOutput");
    m_browse = new QPushButton(tr("Browse…"));
    m_progress = new QProgressBar;
    m_progress->setRange(0, 0);  // busy: the engine reports no fraction
    // Its room kept while hidden: shown during the export, it grew the dialog and moved the buttons down
    QSizePolicy keep = m_progress->sizePolicy();
    keep.setRetainSizeWhenHidden(true);
    m_progress->setSizePolicy(keep);
    m_progress->setVisible(false);
    m_status = new QLabel;
    m_status->setObjectName("exportStatus");
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Room for the result's two lines from the start: when "Wrote …" came, the dialog grew and Export and
    // Close moved down under the mouse (as they did when the progress bar came)
    m_status->setMinimumHeight(2 * m_status->fontMetrics().lineSpacing());
    m_status->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_error = new ErrorLabel;
    m_export = new QPushButton(tr("&Export"));
    m_export->setObjectName("exportButton");
    m_export->setDefault(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_buttons->addButton(m_export, QDialogButtonBox::AcceptRole);

    auto* out = new QHBoxLayout;
    out->addWidget(m_out, 1);
    out->addWidget(m_browse);
    auto* form = new QFormLayout;
    form->addRow(m_picker);
    form->addRow(tr("Format"), m_format);
    form->addRow(QString(), m_reasons);
    form->addRow(tr("Save to"), out);
    auto* v = new QVBoxLayout(this);
    v->addLayout(form);
    v->addWidget(m_progress);
    v->addWidget(m_status);
    v->addWidget(m_error);
    v->addWidget(m_buttons);
    resize(640, sizeHint().height());
}

void ExportDialog::connectControls() {
    connect(m_picker, &RunPicker::changed, this, &ExportDialog::recheck);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::suggestOutput);
    connect(m_browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(m_export, &QPushButton::clicked, this, &ExportDialog::startExport);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

void ExportDialog::exportEnded(quint64 id, const QString& file, const QString& summary, const QString& error) {
    if (id != m_exportId || !isBusy())
        return;
    setBusy(false);
    if (error.isEmpty()) {
        m_status->setText(tr("Wrote %1 (%2)").arg(QDir::toNativeSeparators(file), summary));
        growToFit();
        emit exported(file);
    } else {
        m_status->clear();  // "Exporting … to …" did not happen
        m_error->setText(error);
        growToFit();
        emit failed(error);
    }
}

ExportDialog::~ExportDialog() = default;

QString ExportDialog::reasons() const {
    return m_reasons->text();
}

QString ExportDialog::status() const {
    return m_status->text();
}

QString ExportDialog::error() const {
    return m_error->error();
}

bool ExportDialog::selectFormat(const QString& id) {
    const int i = m_format->findData(id);
    auto* model = qobject_cast<QStandardItemModel*>(m_format->model());
    if (i < 0 || !model->item(i)->isEnabled())
        return false;
    m_format->setCurrentIndex(i);
    return true;
}

void ExportDialog::recheck() {
    m_error->clear();
    m_status->clear();
    suggestOutput();
    if (m_picker->run().isEmpty()) {
        m_reasons->setText(tr("Choose a run to export."));
        return;
    }
    const quint64 id = m_checkId = ++m_lastId;
    m_reasons->setText(tr("Checking what this run's architecture allows…"));
    m_jobs->run(
        QString(),
        [run = m_picker->run(), checkpoint = m_picker->checkpoint()](JobContext&) {
            return exportBlockers(run, checkpoint);
        },
        this,
        [this, id](const QStringList& reasons) {
            if (id == m_checkId)
                applyReasons(reasons);
        },
        [this, id](const QString& error) {
            if (id != m_checkId)
                return;
            m_reasons->setText(error);
            growToFit();
            emit checked();
        });
}

namespace {
/// A reason's settings in the training form's words: "train with position=learned" reads "train with
/// Positions = learned" (in Bokmål "Posisjoner = lært"); the engine's spelling stays in the format's tooltip.
QString inFormWords(QString reason) {
    static const QRegularExpression setting("\\b([a-z_]+)=([A-Za-z0-9_.]+)");
    for (auto m = setting.globalMatch(reason); m.hasNext();) {
        const auto match = m.next();
        for (const auto& o : twb::config_options())
            if (o.key == match.captured(1).toStdString() && !o.label.empty()) {
                const QString value =
                    QCoreApplication::translate("ConfigChoices", match.captured(2).toUtf8().constData());
                reason.replace(match.captured(0),
                               QCoreApplication::translate("ConfigOptions", o.label.c_str()) + " = " + value);
                break;
            }
    }
    return reason;
}
}  // namespace

void ExportDialog::applyReasons(const QStringList& reasons) {
    auto* model = qobject_cast<QStandardItemModel*>(m_format->model());
    QStringList why;         // each reason once, in the order of the formats
    QList<QStringList> who;  // the formats each reason blocks
    for (int i = 0; i < reasons.size() && i < m_format->count(); ++i) {
        QStandardItem* item = model->item(i);
        item->setEnabled(reasons[i].isEmpty());
        item->setToolTip(reasons[i].isEmpty() ? QString() : tr("Not available: %1").arg(exportReasonText(reasons[i])));
        if (reasons[i].isEmpty())
            continue;
        if (!why.contains(reasons[i])) {
            why << reasons[i];
            who << QStringList();
        }
        who[why.indexOf(reasons[i])] << QObject::tr(exportFormats()[i].label);
    }
    // "Not available for this run:", then per reason the formats it blocks and why (the formats inside
    // brackets, among the formats' own brackets, were hard to read)
    QStringList lines;
    if (!why.empty())
        lines << tr("Not available for this run:");
    for (int k = 0; k < why.size(); ++k)
        lines << tr("• %1: %2").arg(who[k].join(tr(" and ")), inFormWords(exportReasonText(why[k])));
    if (!model->item(m_format->currentIndex())->isEnabled())
        for (int i = 0; i < m_format->count(); ++i)
            if (model->item(i)->isEnabled()) {
                m_format->setCurrentIndex(i);
                break;
            }
    m_reasons->setText(lines.join('\n'));
    m_export->setEnabled(!isBusy() && model->item(m_format->currentIndex())->isEnabled());
    growToFit();  // the reasons may need more lines
    emit checked();
}

void ExportDialog::suggestOutput() {
    const QString run = m_picker->run();
    if (run.isEmpty() || m_format->currentIndex() < 0)
        return;
    const ExportFormat& f = exportFormats()[m_format->currentIndex()];
    QString dir = QSettings().value("export/dir").toString();
    if (dir.isEmpty())
        dir = QDir(Workspace::root()).filePath("exports");
    QString name = QFileInfo(run).fileName();
    if (m_picker->checkpoint() != "best")
        name += "-" + m_picker->checkpoint();
    if (f.id.endsWith("f16"))
        name += "-f16";
    m_out->setText(QDir(dir).filePath(f.suffix.isEmpty() ? name : name + "." + f.suffix));
}

void ExportDialog::browse() {
    const ExportFormat& f = exportFormats()[std::max(0, m_format->currentIndex())];
    const QString file =
        f.suffix.isEmpty()
            ? QFileDialog::getExistingDirectory(this, tr("Export to folder"), QFileInfo(m_out->text()).path())
            : QFileDialog::getSaveFileName(this, tr("Export to"), m_out->text(),
                                           tr("%1 (*.%2)").arg(QObject::tr(f.label), f.suffix));
    if (!file.isEmpty())
        m_out->setText(file);
}

void ExportDialog::setBusy(bool busy) {
    setJobRunning(busy);
    m_progress->setVisible(busy);
    m_export->setEnabled(!busy);
    m_picker->setEnabled(!busy);
    m_format->setEnabled(!busy);
}

void ExportDialog::startExport() {
    if (isBusy())
        return;
    m_error->clear();
    m_status->clear();
    const QString out = m_out->text().trimmed();
    auto* model = qobject_cast<QStandardItemModel*>(m_format->model());
    const int format = m_format->currentIndex();
    if (m_picker->run().isEmpty())
        return m_error->setText(tr("Choose a run to export."));
    if (format < 0 || !model->item(format)->isEnabled())
        return m_error->setText(
            tr("This run cannot be exported in that format: %1").arg(model->item(format)->toolTip()));
    if (out.isEmpty())
        return m_error->setText(tr("Choose where to save the export (Browse…)."));
    const QFileInfo info(out);
    if (!QDir().mkpath(info.absolutePath()))
        return m_error->setText(tr("Cannot create the folder %1; choose another place.").arg(info.absolutePath()));
    QSettings().setValue("export/dir", info.absolutePath());
    QSettings().setValue("export/format", exportFormats()[format].id);
    m_exportId = ++m_lastId;
    setBusy(true);
    m_status->setText(tr("Exporting %1 to %2…").arg(QFileInfo(m_picker->run()).fileName(), out));
    growToFit();
    const quint64 id = m_exportId;
    Job* job = m_jobs->run(
        tr("Exporting %1").arg(QFileInfo(m_picker->run()).fileName()),
        [format, run = m_picker->run(), checkpoint = m_picker->checkpoint(), out](JobContext&) {
            return exportRun(format, run, checkpoint, out);
        },
        this, [this, id, out](const QString& summary) { exportEnded(id, out, summary, QString()); },
        [this, id, out](const QString& error) { exportEnded(id, out, QString(), error); });
    // The engine's writers take no cancel (each writes a temporary renamed at the end): no Cancel offered.
    job->setCancellable(false);
}
