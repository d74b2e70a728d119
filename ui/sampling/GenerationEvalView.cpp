#include "ui/sampling/GenerationEvalView.h"

#include "twb/text.h"
#include "ui/jobs/JobsService.h"
#include "ui/widgets/RunPicker.h"
#include "ui/workers/ModelThread.h"

#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

namespace {
constexpr int kOutputColumn = 1;  // the table's column of each setting's first output

QTableWidgetItem* number(double v, int decimals) {
    auto* it = new QTableWidgetItem(std::isfinite(v) ? QString::number(v, 'f', decimals) : QString());
    it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return it;
}
std::vector<std::string> lines(const QString& text) {
    std::vector<std::string> out;
    for (const auto& l : text.split('\n'))
        if (!l.trimmed().isEmpty())
            out.push_back(l.toStdString());
    return out;
}
}  // namespace

GenerationEvalView::GenerationEvalView(ModelThread* model, RunPicker* picker, JobsService* jobs, QWidget* parent)
    : QWidget(parent), m_model(model), m_picker(picker), m_jobs(jobs) {
    auto* v = new QVBoxLayout(this);
    addInputs(v);
    addControlsAndTable(v);
    connectButtons();
    connectWorker();
    connect(picker, &RunPicker::changed, this, [this] {
        if (m_running)
            return;
        // What was said of the last run's try (a refusal), and its table, are not this run's.
        m_status->clear();
        m_rows.clear();
        m_progress->reset();  // it said "3 / 3 generations" of the last run's
        showRows();
        m_md->setEnabled(false);
        m_csv->setEnabled(false);
    });
}

// The three text columns: prompts and references (each with "Load file…"), and the decoding settings.
void GenerationEvalView::addInputs(QVBoxLayout* v) {
    // a grid: the three boxes start on one line however the titles above them wrap
    auto* inputs = new QGridLayout;
    int col = 0;
    auto column = [&](const QString& title, QPlainTextEdit*& edit, const QString& name, const QString& placeholder) {
        auto* head = new QHBoxLayout;
        auto* label = new QLabel(title);
        label->setWordWrap(true);  // at 150% text "Prompts (o" was cut
        head->addWidget(label, 1);
        edit = new QPlainTextEdit;
        edit->setObjectName(name);
        edit->setPlaceholderText(placeholder);
        edit->setLineWrapMode(QPlainTextEdit::NoWrap);
        if (name != "settings") {
            // Under its box, not beside the title: at 150% text in Bokmål both were cut ("ast inn fil.")
            auto* load = new QPushButton(tr("Load file…"));
            inputs->addWidget(load, 2, col, Qt::AlignLeft);
            connect(load, &QPushButton::clicked, this, [this, edit, name] {
                const QString f = QFileDialog::getOpenFileName(this, tr("Text file, one per line"),
                                                               QSettings().value("genEval/lastDir").toString());
                if (f.isEmpty())
                    return;
                QSettings().setValue("genEval/lastDir", QFileInfo(f).path());
                QFile file(f);
                if (file.open(QIODevice::ReadOnly))
                    edit->setPlainText(QString::fromUtf8(file.readAll()));
                else
                    m_status->setText(tr("could not read %1").arg(f));
            });
        }
        inputs->addLayout(head, 0, col);
        inputs->addWidget(edit, 1, col);
        inputs->setColumnStretch(col++, 1);
    };
    // a model's prompts: not translated
    column(tr("Prompts (one per line)"), m_prompts, "prompts", QStringLiteral("You will\nThe meaning of life is"));
    column(tr("References (optional, one per prompt)"), m_refs, "references", tr("for BLEU"));
    column(tr("Decoding settings (one per line)"), m_settings, "settings",
           tr("greedy\ntemperature=0.8,top_k=40\nbeam=5"));
    m_settings->setToolTip(
        tr("'greedy', or key=value,... with temperature, top_k, top_p, beam, length_penalty, "
           "repetition_penalty, no_repeat_ngram, max_new_tokens, seed"));
    m_settings->setPlainText(QSettings().value("genEval/settings", "temperature=0.8\nbeam=5\nbeam=10").toString());
    inputs->setRowStretch(1, 1);
    v->addLayout(inputs, 1);
}

// New tokens, Evaluate/Cancel, the progress, the exports, the status line and the results table.
void GenerationEvalView::addControlsAndTable(QVBoxLayout* v) {
    auto* controls = new QHBoxLayout;
    m_maxTokens = new QSpinBox;
    m_maxTokens->setObjectName("evalMaxTokens");
    m_maxTokens->setRange(1, 10000);
    m_maxTokens->setValue(QSettings().value("genEval/maxTokens", 60).toInt());
    controls->addWidget(new QLabel(tr("New tokens")));
    controls->addWidget(m_maxTokens);
    m_run = new QPushButton(tr("Evaluate"));
    m_run->setObjectName("evaluate");
    m_run->setToolTip(tr("Generate every prompt with every setting and score them (Ctrl+E)"));
    m_run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName("cancelEvaluate");
    m_md = new QPushButton(tr("Export Markdown…"));
    m_csv = new QPushButton(tr("Export CSV…"));
    m_progress = new QProgressBar;
    m_progress->setObjectName("evalProgress");
    m_progress->setFormat(tr("%v / %m generations"));
    for (auto* b : {m_run, m_cancel})
        controls->addWidget(b);
    controls->addWidget(m_progress, 1);
    v->addLayout(controls);
    // The exports beside the status line, not after the progress: at 150% text they were cut ("rt Markdo")
    auto* statusRow = new QHBoxLayout;
    m_status = new QLabel;
    m_status->setObjectName("evalStatus");
    m_status->setWordWrap(true);
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_md);
    statusRow->addWidget(m_csv);
    v->addLayout(statusRow);
    m_table = new QTableWidget(0, 10);
    m_table->setObjectName("evalTable");
    // The text beside its setting, wide enough to read (the figures after it scroll on a narrow window; last,
    // it was pushed out of sight at 1280x720 in Bokmål); the whole of every output is its tooltip.
    m_table->setHorizontalHeaderLabels({tr("setting"), tr("first output"), tr("tokens"), tr("tokens/s"),
                                        tr("mean log-prob"), tr("perplexity"), tr("distinct-1"), tr("distinct-2"),
                                        tr("repetition"), tr("BLEU")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(kOutputColumn, QHeaderView::Interactive);
    m_table->setColumnWidth(kOutputColumn, 24 * fontMetrics().averageCharWidth() + 60);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    v->addWidget(m_table, 2);
    setRunning(false);
}

void GenerationEvalView::connectButtons() {
    connect(m_run, &QPushButton::clicked, this, &GenerationEvalView::run);
    connect(m_cancel, &QPushButton::clicked, this, &GenerationEvalView::cancel);
    connect(m_md, &QPushButton::clicked, this, [this] { exportTo(true); });
    connect(m_csv, &QPushButton::clicked, this, [this] { exportTo(false); });
}

// The model worker's progress, rows and failure for this view's request (m_id).
void GenerationEvalView::connectWorker() {
    auto* w = m_model->worker();
    connect(this, &GenerationEvalView::evaluateRequested, w, &ModelWorker::evaluateGenerations, Qt::QueuedConnection);
    connect(w, &ModelWorker::generationEvalProgress, this, [this](quint64 id, int done, int total) {
        if (id != m_id)
            return;
        m_progress->setRange(0, total);
        m_progress->setValue(done);
        if (m_job)
            m_job->setProgress(total > 0 ? double(done) / total : -1.0, tr("%1 / %2 generations").arg(done).arg(total));
    });
    connect(w, &ModelWorker::generationEvalFinished, this,
            [this](quint64 id, const std::vector<twb::GenerationEvalRow>& rows, bool cancelled) {
                if (id != m_id)
                    return;
                m_rows = rows;
                showRows();
                setRunning(false);
                m_status->setText(cancelled ? tr("cancelled: %1 of the settings finished").arg(rows.size())
                                            : tr("%1 settings evaluated").arg(rows.size()));
                if (m_job && cancelled)
                    m_job->fail(m_status->text(), true);
                else if (m_job)
                    m_job->succeed();
                emit finished();
            });
    connect(w, &ModelWorker::failed, this, [this](quint64 id, const QString& e) {
        if (id != m_id)
            return;
        setRunning(false);
        m_status->setText(tr("<span style='color:#b00'>%1</span>").arg(e.toHtmlEscaped()));
        if (m_job)
            m_job->fail(e);
        emit finished();
    });
}

GenerationEvalView::~GenerationEvalView() {
    if (m_job)
        m_job->abandon();
    cancel();
}

void GenerationEvalView::setPrompts(const QString& text) {
    m_prompts->setPlainText(text);
}
void GenerationEvalView::setReferences(const QString& text) {
    m_refs->setPlainText(text);
}
void GenerationEvalView::setSettings(const QStringList& settings) {
    m_settings->setPlainText(settings.join('\n'));
}
void GenerationEvalView::setMaxTokens(int n) {
    m_maxTokens->setValue(n);
}

void GenerationEvalView::setRunning(bool on) {
    m_running = on;
    m_run->setEnabled(!on);
    m_cancel->setEnabled(on);
    m_md->setEnabled(!on && !m_rows.empty());
    m_csv->setEnabled(!on && !m_rows.empty());
}

void GenerationEvalView::run() {
    if (m_running)
        return;
    GenerationEvalRequest r;
    r.run = m_picker->run();
    r.checkpoint = m_picker->checkpoint();
    r.prompts = lines(m_prompts->toPlainText());
    r.references = lines(m_refs->toPlainText());
    auto fail = [this](const QString& e) { m_status->setText(tr("<span style='color:#b00'>%1</span>").arg(e)); };
    if (r.run.isEmpty())
        return fail(tr("choose a run above first"));
    if (r.prompts.empty())
        return fail(tr("type at least one prompt (one per line) or load a file"));
    if (!r.references.empty() && r.references.size() != r.prompts.size())
        return fail(tr("references: %1 lines, prompts: %2 lines; give one reference per prompt, or none")
                        .arg(r.references.size())
                        .arg(r.prompts.size()));
    twb::SamplingOptions base;
    base.max_new_tokens = m_maxTokens->value();
    try {
        for (const auto& s : lines(m_settings->toPlainText()))
            r.settings.push_back(twb::parse_decoding_setting(s, base));
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()).toHtmlEscaped());
    }
    if (r.settings.empty())
        return fail(tr("give at least one decoding setting, e.g. greedy"));
    QSettings().setValue("genEval/settings", m_settings->toPlainText());
    QSettings().setValue("genEval/maxTokens", m_maxTokens->value());
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    r.cancel = m_cancelFlag;
    r.id = m_id = m_model->nextRequestId();
    m_progress->setRange(0, int(r.prompts.size() * r.settings.size()));
    m_progress->setValue(0);
    m_status->setText(tr("generating %1 × %2…")
                          .arg(r.prompts.size() == 1 ? tr("1 prompt") : tr("%1 prompts").arg(r.prompts.size()),
                               r.settings.size() == 1 ? tr("1 setting") : tr("%1 settings").arg(r.settings.size())));
    setRunning(true);
    m_job = m_jobs->track(tr("Evaluating %1 decoding settings").arg(r.settings.size()), [this] { cancel(); });
    emit evaluateRequested(r);
}

void GenerationEvalView::cancel() {
    if (m_cancelFlag)
        *m_cancelFlag = true;
}

void GenerationEvalView::showRows() {
    m_table->setRowCount(int(m_rows.size()));
    for (int i = 0; i < int(m_rows.size()); ++i) {
        const auto& r = m_rows[size_t(i)];
        m_table->setItem(i, 0, new QTableWidgetItem(QString::fromStdString(r.setting)));
        m_table->setItem(i, 2, number(double(r.tokens), 0));
        m_table->setItem(i, 3, number(r.tokens_per_s, 0));
        m_table->setItem(i, 4, number(r.mean_logprob, 3));
        m_table->setItem(i, 5, number(r.perplexity, 2));
        m_table->setItem(i, 6, number(r.distinct_1, 3));
        m_table->setItem(i, 7, number(r.distinct_2, 3));
        m_table->setItem(i, 8, number(r.repetition, 3));
        m_table->setItem(i, 9, number(r.bleu, 2));
        QString all;
        for (size_t k = 0; k < r.outputs.size(); ++k)
            all += QString("%1. %2\n").arg(k + 1).arg(QString::fromStdString(r.outputs[k]));
        auto* out = new QTableWidgetItem(r.outputs.empty() ? QString()
                                                           : QString::fromStdString(r.outputs.front()).simplified());
        out->setToolTip(all.trimmed().toHtmlEscaped().replace('\n', "<br>"));
        m_table->setItem(i, kOutputColumn, out);
    }
}

QString GenerationEvalView::markdown() const {
    return QString::fromStdString(twb::generation_eval_markdown(m_rows));
}

QString GenerationEvalView::csv() const {
    return QString::fromStdString(twb::generation_eval_csv(m_rows));
}

void GenerationEvalView::exportTo(bool md) {
    const QString f =
        QFileDialog::getSaveFileName(this, tr("Export the table"), QSettings().value("genEval/export").toString(),
                                     md ? tr("Markdown (*.md)") : tr("CSV (*.csv)"));
    if (f.isEmpty())
        return;
    QSettings().setValue("genEval/export", f);
    try {
        twb::write_file_atomic(f.toStdString(), (md ? markdown() : csv()).toStdString());
        m_status->setText(tr("exported %1").arg(f));
    } catch (const std::exception& e) {
        m_status->setText(
            tr("<span style='color:#b00'>%1</span>").arg(QString::fromStdString(e.what()).toHtmlEscaped()));
    }
}
