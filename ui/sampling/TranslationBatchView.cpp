#include "ui/sampling/TranslationBatchView.h"

#include "ui/sampling/TranslationForm.h"
#include "ui/widgets/RunPicker.h"
#include "ui/workers/ModelThread.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {
QString duration(double s) {
    const auto t = static_cast<qint64>(s + 0.5);
    return t >= 3600 ? QStringLiteral("%1 h %2 min").arg(t / 3600).arg((t % 3600) / 60)
           : t >= 60 ? QStringLiteral("%1 min %2 s").arg(t / 60).arg(t % 60)
                     : QStringLiteral("%1 s").arg(t);
}
}  // namespace

TranslationBatchView::TranslationBatchView(ModelThread* model, RunPicker* picker, TranslationForm* form,
                                           QWidget* parent)
    : QWidget(parent), m_model(model), m_picker(picker), m_form(form) {
    QFormLayout* files = makeFileRows();
    QHBoxLayout* buttons = makeButtons();
    makeScoreAndTable();

    auto* col = new QVBoxLayout(this);
    col->addLayout(files);
    col->addLayout(buttons);
    col->addWidget(m_score);
    col->addWidget(m_table, 1);

    connectWorker();
    connect(m_run, &QPushButton::clicked, this, &TranslationBatchView::run);
    connect(m_cancel, &QPushButton::clicked, this, &TranslationBatchView::cancel);
}

// Sources, Write to and References (each with Browse…), and how many rows the table shows.
QFormLayout* TranslationBatchView::makeFileRows() {
    QSettings st;
    auto fileRow = [this](QLineEdit*& edit, const char* name, const QString& placeholder, bool save) {
        edit = new QLineEdit;
        edit->setObjectName(name);
        edit->setPlaceholderText(placeholder);
        auto* browse = new QPushButton(tr("Browse…"));
        connect(browse, &QPushButton::clicked, this, [this, edit, save] {
            const QString f = save ? QFileDialog::getSaveFileName(this, tr("Write the translations to"), edit->text())
                                   : QFileDialog::getOpenFileName(this, tr("Choose a text file"), edit->text());
            if (!f.isEmpty())
                edit->setText(f);
        });
        auto* row = new QHBoxLayout;
        row->addWidget(edit, 1);
        row->addWidget(browse);
        return row;
    };
    auto* form2 = new QFormLayout;
    form2->addRow(tr("Sources"),
                  fileRow(m_input, "batchInput", tr("a text file, one source sentence per line"), false));
    form2->addRow(tr("Write to"),
                  fileRow(m_output, "batchOutput", tr("the translations, one per line (written at the end)"), true));
    form2->addRow(tr("References"), fileRow(m_reference, "batchReference",
                                            tr("optional: one reference translation per line, for BLEU"), false));
    m_input->setText(st.value("translation/batchInput").toString());
    m_output->setText(st.value("translation/batchOutput").toString());
    m_reference->setText(st.value("translation/batchReference").toString());
    m_rows = new QSpinBox;
    m_rows->setObjectName("batchRows");
    m_rows->setRange(0, 10000);
    m_rows->setValue(st.value("translation/batchRows", 50).toInt());
    m_rows->setSuffix(tr(" rows"));
    m_rows->setToolTip(tr("How many (source, translation, reference) rows the table shows"));
    auto* rowsRow = new QHBoxLayout;
    rowsRow->addWidget(m_rows);
    rowsRow->addStretch(1);
    form2->addRow(tr("Show first"), rowsRow);
    return form2;
}

// Translate file, Cancel, the progress and the time left.
QHBoxLayout* TranslationBatchView::makeButtons() {
    m_run = new QPushButton(tr("Translate file"));
    m_run->setObjectName("translateFile");
    m_run->setToolTip(
        tr("Translate every line of the sources with the decoding settings on the left "
           "(twb translate --input FILE)"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName("cancelBatch");
    m_cancel->setToolTip(tr("Cancel (Esc): nothing is written"));
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar;
    m_progress->setObjectName("batchProgress");
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(QString());  // nothing run yet
    m_eta = new QLabel;
    m_eta->setObjectName("batchEta");
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_eta);
    return buttons;
}

void TranslationBatchView::makeScoreAndTable() {
    m_score = new QLabel;
    m_score->setObjectName("batchScore");
    m_score->setWordWrap(true);
    m_score->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table = new QTableWidget(0, 3);
    m_table->setObjectName("batchTable");
    m_table->setHorizontalHeaderLabels({tr("Source"), tr("Translation"), tr("Reference")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(true);
}

// The translation worker's progress, result and failure for this view's request (m_id).
void TranslationBatchView::connectWorker() {
    auto* worker = m_model->translationWorker();
    connect(this, &TranslationBatchView::translateFileRequested, worker, &TranslationWorker::translateFile);
    connect(worker, &TranslationWorker::batchProgress, this, [this](quint64 id, qint64 done, qint64 total) {
        if (id != m_id)
            return;
        m_progress->setRange(0, static_cast<int>(std::max<qint64>(1, total)));
        m_progress->setValue(static_cast<int>(done));
        m_progress->setFormat(tr("%1 / %2 lines").arg(done).arg(total));
        const double sec = m_clock.elapsed() / 1000.0;
        m_eta->setText(
            done > 0 && done < total
                ? tr("about %1 left").arg(duration(sec / static_cast<double>(done) * static_cast<double>(total - done)))
                : QString());
    });
    connect(worker, &TranslationWorker::batchFinished, this, [this](const BatchTranslateResult& r) {
        if (r.id != m_id)
            return;
        m_result = r;
        setRunning(false);
        showResult();
        emit finished();
    });
    connect(worker, &TranslationWorker::failed, this, [this](quint64 id, const QString& e) {
        if (id != m_id)
            return;
        setRunning(false);
        m_progress->setRange(0, 1);  // not busy any more (it kept moving after a refusal)
        m_progress->setValue(0);
        m_progress->setFormat(QString());
        fail(e);
        emit finished();
    });
}

TranslationBatchView::~TranslationBatchView() {
    cancel();
    QSettings st;
    st.setValue("translation/batchInput", m_input->text());
    st.setValue("translation/batchOutput", m_output->text());
    st.setValue("translation/batchReference", m_reference->text());
    st.setValue("translation/batchRows", m_rows->value());
}

void TranslationBatchView::setFiles(const QString& input, const QString& output, const QString& reference) {
    m_input->setText(input);
    m_output->setText(output);
    m_reference->setText(reference);
}

void TranslationBatchView::setPreviewRows(int n) {
    m_rows->setValue(n);
}

QString TranslationBatchView::scoreText() const {
    return m_score->text();
}

void TranslationBatchView::setRunning(bool on) {
    m_running = on;
    m_run->setEnabled(!on);
    m_cancel->setEnabled(on);
    for (auto* e : {m_input, m_output, m_reference})
        e->setEnabled(!on);
    if (!on)
        m_eta->clear();
}

void TranslationBatchView::fail(const QString& error) {
    m_error = error;
    m_score->setStyleSheet("color:#b00020");
    m_score->setText(error);
    if (!error.isEmpty())
        emit statusMessage(error);
}

QString TranslationBatchView::filesProblem(const QString& in, const QString& out, const QString& ref) {
    if (in.isEmpty() || !QFileInfo(in).isFile())
        return in.isEmpty() ? tr("Choose the file to translate: one source sentence per line.")
                            : tr("%1 does not exist: choose the file to translate.").arg(in);
    if (out.isEmpty())
        return tr("Choose where to write the translations.");
    if (QFileInfo(out).absoluteFilePath() == QFileInfo(in).absoluteFilePath() ||
        (!ref.isEmpty() && QFileInfo(out).absoluteFilePath() == QFileInfo(ref).absoluteFilePath()))
        return tr("The translations would overwrite an input file: choose another output file.");
    if (!ref.isEmpty() && !QFileInfo(ref).isFile())
        return tr("%1 does not exist: choose the reference file, or leave it empty.").arg(ref);
    // Where the translations go is checked now, not found unwritable after every line was translated.
    if (const QFileInfo dir(QFileInfo(out).absolutePath()); !dir.isDir() || !dir.isWritable())
        return tr("%1 cannot be written (its folder %2 %3): choose another output file.")
            .arg(out, dir.absoluteFilePath(), dir.isDir() ? tr("is not writable") : tr("does not exist"));
    if (QFileInfo(out).isDir())
        return tr("%1 is a folder: choose a file to write the translations to.").arg(out);
    return {};
}

void TranslationBatchView::run() {
    if (m_running)
        return;
    const QString in = m_input->text().trimmed(), out = m_output->text().trimmed(), ref = m_reference->text().trimmed();
    if (m_picker->run().isEmpty())
        return fail(tr("No run to translate with: train an encoder-decoder run or open a run folder (…)."));
    if (const QString why = filesProblem(in, out, ref); !why.isEmpty())
        return fail(why);
    // The output remembered from an earlier session was replaced without a word: another file of that name
    // (an earlier result, or anything) is replaced only when asked. What this view wrote it replaces again.
    const QString outPath = QFileInfo(out).absoluteFilePath();
    if (QFileInfo::exists(outPath) && !m_written.contains(outPath) &&
        QMessageBox::question(this, tr("Replace the file?"),
                              tr("%1 already exists. Replace it with the translations?").arg(out),
                              QMessageBox::Yes | QMessageBox::No, QMessageBox::No) != QMessageBox::Yes)
        return;
    fail({});
    QSettings st;  // now, not only at exit
    st.setValue("translation/batchInput", in);
    st.setValue("translation/batchOutput", out);
    st.setValue("translation/batchReference", ref);
    m_score->setStyleSheet({});
    m_score->setText(tr("translating…"));
    m_table->setRowCount(0);
    m_result = BatchTranslateResult{};
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    BatchTranslateRequest r;
    r.id = m_id = m_model->nextRequestId();
    r.run = m_picker->run();
    r.checkpoint = m_picker->checkpoint();
    r.input = in;
    r.output = out;
    r.reference = ref;
    r.options = m_form->options();
    r.previewRows = m_rows->value();
    r.cancel = m_cancelFlag;
    m_progress->setRange(0, 0);  // busy until the first progress report (loading the checkpoint)
    m_clock.start();
    setRunning(true);
    emit translateFileRequested(r);
}

void TranslationBatchView::cancel() {
    if (m_cancelFlag)
        *m_cancelFlag = true;
}

void TranslationBatchView::showResult() {
    const auto& r = m_result;
    m_progress->setRange(0, 1);
    m_progress->setValue(r.cancelled ? 0 : 1);
    m_progress->setFormat(r.cancelled ? tr("cancelled") : tr("%1 lines").arg(r.lines));
    if (r.cancelled) {
        m_score->setText(tr("Cancelled: nothing was written."));
        return;
    }
    m_written << QFileInfo(r.output).absoluteFilePath();
    QString text = tr("%1 lines translated in %2 (step %3), written to %4.")
                       .arg(r.lines)
                       .arg(duration(r.seconds))
                       .arg(r.step)
                       .arg(r.output.toHtmlEscaped());
    if (r.cropped > 0)
        text += tr("<br><b>Lines longer than the model's %1 source tokens were translated from their start only: "
                   "%2</b> (the first: line %3); split long sentences.")
                    .arg(r.maxSourceTokens)
                    .arg(r.cropped)
                    .arg(r.firstCropped);
    if (r.limited > 0)
        text += tr("<br><b>Translations that stopped at the length limit before the model ended them: %1</b> (the "
                   "first: line %2); they may be unfinished.")
                    .arg(r.limited)
                    .arg(r.firstLimited);
    if (r.scored) {
        const auto& b = r.bleu;
        text += tr("<br><b>BLEU = %1</b> %2/%3/%4/%5 (BP = %6, ratio = %7, hyp_len = %8, ref_len = %9)")
                    .arg(QLocale().toString(b.score, 'f', 2))
                    .arg(b.precisions.size() > 0 ? b.precisions[0] : 0, 0, 'f', 1)
                    .arg(b.precisions.size() > 1 ? b.precisions[1] : 0, 0, 'f', 1)
                    .arg(b.precisions.size() > 2 ? b.precisions[2] : 0, 0, 'f', 1)
                    .arg(b.precisions.size() > 3 ? b.precisions[3] : 0, 0, 'f', 1)
                    .arg(QLocale().toString(b.brevity_penalty, 'f', 3))
                    .arg(b.ref_length ? static_cast<double>(b.hyp_length) / static_cast<double>(b.ref_length) : 0.0, 0,
                         'f', 3)
                    .arg(b.hyp_length)
                    .arg(b.ref_length);
        text += tr("<br><span style=\"color:#555\">signature: %1</span>")
                    .arg(QString::fromStdString(b.signature).toHtmlEscaped());
        text += tr("<br><b>chrF2 = %1</b> <span style=\"color:#555\">signature: %2</span>")
                    .arg(QLocale().toString(r.chrf.score, 'f', 2))
                    .arg(QString::fromStdString(r.chrf.signature).toHtmlEscaped());
    } else {
        text += tr("<br>No reference file: no BLEU.");
    }
    m_score->setText(text);
    m_table->setColumnHidden(2, !r.scored);
    m_table->setRowCount(static_cast<int>(r.rows.size()));
    for (int i = 0; i < r.rows.size(); ++i)
        for (int c = 0; c < 3; ++c)
            m_table->setItem(i, c, new QTableWidgetItem(r.rows[i].value(c)));
    m_table->resizeRowsToContents();
    emit statusMessage(r.scored ? tr("BLEU %1 on %2 lines").arg(QLocale().toString(r.bleu.score, 'f', 2)).arg(r.lines)
                                : tr("%1 lines translated").arg(r.lines));
}
