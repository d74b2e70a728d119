#include "ui/inspection/HeadAblationView.h"

#include "twb/config.h"
#include "twb/errors.h"
#include "twb/session.h"
#include "twb/translation.h"
#include "ui/inspection/InspectedRun.h"
#include "ui/jobs/JobsService.h"
#include "ui/widgets/FigureFile.h"
#include "ui/widgets/NumberItem.h"

#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <memory>
#include <optional>

namespace {
/// A source sentence translated greedily with every head and with `heads` off; the translator's heads on
/// again after.
std::pair<std::string, std::string> translatedWithAndWithout(twb::Translator& t, const std::string& run,
                                                             const std::string& checkpoint,
                                                             const std::vector<twb::HeadRef>& heads,
                                                             const std::string& source) {
    t.open(run, checkpoint);
    t.set_ablated_heads({});
    std::pair<std::string, std::string> texts;
    texts.first = t.translate({source}).front();
    t.set_ablated_heads(heads);
    try {
        texts.second = t.translate({source}).front();
    } catch (...) {
        t.set_ablated_heads({});
        throw;
    }
    t.set_ablated_heads({});
    return texts;
}
}  // namespace

HeadAblationView::HeadAblationView(JobsService* jobs, QWidget* parent)
    : PanelBase(jobs, parent),
      m_session(std::make_shared<twb::ModelSession>()),
      m_translator(std::make_shared<twb::Translator>()) {
    createControls();
    layOut();
    showKindOfRun();
    connect(m_measure, &QPushButton::clicked, this, &HeadAblationView::measureSet);
    connect(m_heads, &QLineEdit::returnPressed, this, &HeadAblationView::measureSet);
    connect(m_every, &QPushButton::clicked, this, &HeadAblationView::measureEveryHead);
    connect(m_cancel, &QPushButton::clicked, this, &HeadAblationView::cancel);
    connect(m_generate, &QPushButton::clicked, this, &HeadAblationView::compareText);
    connect(m_figure, &QPushButton::clicked, this, [this] {
        const QString e = exportFigure(m_table, this, tr("Export the ablation table"));
        if (!e.isEmpty())
            showError(e);
    });
    connect(m_numbers, &QPushButton::clicked, this, &HeadAblationView::exportNumbersAsked);
}

HeadAblationView::~HeadAblationView() {
    if (m_job)
        m_job->cancel();
    QSettings st;
    st.setValue("ablation/heads", m_heads->text());
    st.setValue("ablation/tokens", m_tokens->value());
    // the box holds the kind of run's text shown last; the other kind's is kept aside
    st.setValue("ablation/prompt", (m_translationShown ? m_otherPrompt : m_prompt->text()).left(4000));
    st.setValue("ablation/source", (m_translationShown ? m_prompt->text() : m_otherPrompt).left(4000));
    st.setValue("ablation/seed", m_seed->value());
    st.setValue("ablation/newTokens", m_newTokens->value());
}

void HeadAblationView::createControls() {
    QSettings st;
    m_heads = new QLineEdit(st.value("ablation/heads", "0.0").toString());
    m_heads->setObjectName("ablationHeads");
    m_tokens = new QSpinBox;
    m_tokens->setRange(256, 10'000'000);
    m_tokens->setSingleStep(4096);
    m_tokens->setValue(st.value("ablation/tokens", 16384).toInt());
    m_tokens->setSuffix(tr(" tokens"));
    m_tokens->setToolTip(tr("Validation tokens scored per evaluation: more is steadier, and slower"));
    m_measure = new QPushButton(tr("Loss with these off"));
    m_measure->setObjectName("ablationMeasure");
    m_every = new QPushButton(tr("Cost of every head"));
    m_every->setObjectName("ablationEvery");
    m_every->setToolTip(tr("Switch each head off alone and measure the loss: one evaluation per head"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setEnabled(false);
    m_cancel->setToolTip(tr("Stop: the rows computed so far stay"));
    m_progress = new QProgressBar;
    m_progress->setObjectName("ablationProgress");
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    // Shown from the first table on: idle and empty it looked like a text field to type into. Its room is kept,
    // so the export buttons beside it stay put.
    QSizePolicy keep = m_progress->sizePolicy();
    keep.setRetainSizeWhenHidden(true);
    m_progress->setSizePolicy(keep);
    m_progress->hide();
    m_table = new QTableWidget(0, 3);
    m_table->setObjectName("ablationTable");
    m_table->setHorizontalHeaderLabels({tr("Heads off"), tr("Loss"), tr("Cost")});
    m_table->horizontalHeaderItem(0)->setToolTip(tr("Heads as layer.head, counted from 0: 0.3 is layer 0, head 3"));
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSortingEnabled(true);
    m_summary = new QLabel(introText());
    m_summary->setWordWrap(true);
    m_prompt = new QLineEdit(st.value("ablation/prompt", "The meaning of life is").toString());
    m_otherPrompt = st.value("ablation/source").toString();  // a translation run's source sentence
    m_prompt->setObjectName("ablationPrompt");
    m_seed = new QSpinBox;
    m_seed->setRange(0, 1'000'000);
    m_seed->setValue(st.value("ablation/seed", 1).toInt());
    m_seed->setPrefix(tr("seed "));
    m_newTokens = new QSpinBox;
    m_newTokens->setRange(1, 2000);
    m_newTokens->setValue(st.value("ablation/newTokens", 120).toInt());
    m_newTokens->setSuffix(tr(" tokens"));
    m_generate = new QPushButton;
    m_generate->setObjectName("ablationGenerate");
    m_with = new QPlainTextEdit;
    m_without = new QPlainTextEdit;
    for (auto* e : {m_with, m_without}) {
        e->setReadOnly(true);
        e->setMinimumHeight(60);
    }
    m_figure = new QPushButton(tr("Export figure…"));
    m_numbers = new QPushButton(tr("Export numbers…"));
    m_figure->setEnabled(false);
    m_numbers->setEnabled(false);
}

void HeadAblationView::layOut() {
    auto* row = new QHBoxLayout;
    // Named, since the field is never empty for its placeholder to say what "0.0" is (layer 0, head 0).
    auto* headsLabel = new QLabel(tr("Heads off (layer.head):"));
    headsLabel->setBuddy(m_heads);
    row->addWidget(headsLabel);
    row->addWidget(m_heads, 1);
    row->addWidget(m_tokens);
    row->addWidget(m_measure);
    row->addWidget(m_every);
    row->addWidget(m_cancel);
    auto* exportRow = new QHBoxLayout;
    exportRow->addWidget(m_progress, 1);
    exportRow->addWidget(m_figure);
    exportRow->addWidget(m_numbers);
    auto* textBox = m_textBox = new QGroupBox;
    auto* textCol = new QVBoxLayout(textBox);
    auto* genRow = new QHBoxLayout;
    genRow->addWidget(m_prompt, 1);
    genRow->addWidget(m_seed);
    genRow->addWidget(m_newTokens);
    genRow->addWidget(m_generate);
    textCol->addLayout(genRow);
    auto* texts = new QHBoxLayout;
    texts->addWidget(m_with);
    texts->addWidget(m_without);
    textCol->addLayout(texts);
    m_runNote = new QLabel(inspectedRunText({}, {}));
    m_runNote->setObjectName("ablationRun");
    auto* col = new QVBoxLayout(this);
    col->addWidget(m_runNote);
    col->addLayout(row);
    col->addWidget(errorLabel());
    col->addLayout(exportRow);
    col->addWidget(m_summary);
    // Only the table stretches: an error shown above takes its room from the table, and the generated
    // texts' row stays put (sharing the stretch, it moved 7 px)
    m_split = new QSplitter(Qt::Vertical);
    m_split->addWidget(m_table);
    m_split->addWidget(textBox);
    m_split->setStretchFactor(0, 1);
    m_split->setStretchFactor(1, 0);
    m_split->setChildrenCollapsible(false);
    col->addWidget(m_split, 1);
}

void HeadAblationView::showEvent(QShowEvent* e) {
    PanelBase::showEvent(e);
    if (m_splitSized)
        return;
    m_splitSized = true;
    const int total = m_split->height() - m_split->handleWidth();
    // the box at its least, its texts' 60 px floor given three lines instead
    const int texts =
        std::min(m_textBox->sizeHint().height(), m_textBox->minimumSizeHint().height() - m_with->minimumHeight() +
                                                     3 * m_with->fontMetrics().lineSpacing() + 12);
    m_split->setSizes({std::max(total - texts, 0), texts});
}

QString HeadAblationView::withText() const {
    return m_with->toPlainText();
}
QString HeadAblationView::withoutText() const {
    return m_without->toPlainText();
}
void HeadAblationView::setHeads(const QString& heads) {
    m_heads->setText(heads);
}
void HeadAblationView::setMaxTokens(int tokens) {
    m_tokens->setValue(tokens);
}
void HeadAblationView::setPrompt(const QString& prompt) {
    m_prompt->setText(prompt);
}

QString HeadAblationView::introText() const {
    return tr(
        "The cost of a head is the validation loss with it switched off minus the loss with every head: what "
        "the model loses without it, in nats per token.");
}

void HeadAblationView::setRun(const QString& run, const QString& checkpoint) {
    const QString ck = checkpoint.isEmpty() ? QStringLiteral("best") : checkpoint;
    if (run != m_run || ck != m_checkpoint) {  // the table and texts shown were of the one before
        if (isRunning(m_job))
            m_job->cancel();  // and so is the job under way: its answer is dropped (lookedAt())
        clearTable();
        m_summary->setText(introText());
        m_with->clear();
        m_without->clear();
        m_progress->setRange(0, 1);  // nor its "5.4 s" under another run's name
        m_progress->setValue(0);
        m_progress->setFormat(QString());
        m_progress->hide();
        clearError();  // the run before's
    }
    m_run = run;
    m_checkpoint = ck;
    m_runNote->setText(inspectedRunText(run, ck));
    m_layout = {};
    try {
        const auto c = twb::read_config_file(run.toStdString() + "/config.json", twb::RunConfig{});
        m_layout = c.model_kind == twb::ModelKind::EncoderDecoder
                       ? twb::HeadLayout{c.decoder_layers(), static_cast<int>(c.n_head), c.encoder_layers()}
                       : twb::HeadLayout{static_cast<int>(c.n_layer), static_cast<int>(c.n_head), 0};
        const int n = static_cast<int>(m_layout.all().size());
        m_every->setToolTip(tr("Switch each of the %1 heads off alone and measure the loss: %1 evaluations").arg(n));
    } catch (const std::exception&) {
    }
    showKindOfRun();
}

void HeadAblationView::clearTable() {
    m_result = twb::AblationTable{};
    m_table->setRowCount(0);
    m_figure->setEnabled(false);
    m_numbers->setEnabled(false);
}

void HeadAblationView::showKindOfRun() {
    const bool translation = m_layout.translation();
    if (translation != m_translationShown) {  // a language model's prompt is no source sentence, nor back
        const QString shown = m_prompt->text();
        m_prompt->setText(m_otherPrompt);
        m_otherPrompt = shown;
        m_translationShown = translation;
        m_with->clear();
        m_without->clear();
    }
    m_textBox->setTitle(translation ? tr("Translated text, greedy") : tr("Generated text, same prompt and seed"));
    m_heads->setPlaceholderText(
        translation ? tr("heads to switch off: enc.L.H for the encoder's, cross.L.H for cross-attention's, L.H for "
                         "the decoder's own, e.g. cross.0.*")
                    : tr("heads to switch off: LAYER.HEAD from 0, e.g. 0.1, 1.* for a whole layer"));
    m_heads->setToolTip(m_heads->placeholderText());
    m_prompt->setPlaceholderText(translation ? tr("a source sentence to translate") : tr("a prompt"));
    m_with->setPlaceholderText(translation ? tr("its translation with every head") : tr("every head"));
    m_without->setPlaceholderText(translation ? tr("its translation with the heads above off")
                                              : tr("with the heads above off"));
    m_generate->setText(translation ? tr("Translate with and without") : tr("Generate with and without"));
    for (auto* box : {m_seed, m_newTokens}) {  // a translation is greedy and ends at <eos>
        box->setEnabled(!translation);
        box->setToolTip(translation ? tr("A translation is greedy and ends by itself") : QString());
    }
}

void HeadAblationView::busyChanged(bool busy) {
    for (auto* b : {m_measure, m_every, m_generate})
        b->setEnabled(!busy);
    m_cancel->setEnabled(busy);
}

bool HeadAblationView::headsTyped(std::vector<twb::HeadRef>& heads) {
    try {
        const twb::HeadLayout any{1 << 20, 1 << 20, 0};  // the config unread: the engine checks the heads
        heads = twb::parse_heads(m_heads->text().toStdString(), m_layout.heads > 0 ? m_layout : any);
        return true;
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
        return false;
    }
}

void HeadAblationView::measureSet() {
    startTable(false);
}
void HeadAblationView::measureEveryHead() {
    startTable(true);
}

void HeadAblationView::cancel() {
    if (m_job)
        m_job->cancel();
}

void HeadAblationView::startTable(bool everyHead) {
    if (isRunning(m_job))
        return;
    if (m_run.isEmpty())
        return showError(tr("No run to ablate: train one in the Training panel or open a run folder."));
    twb::AblationOptions o;
    if (!headsTyped(o.heads))
        return;
    if (o.heads.empty() && !everyHead)
        return showError(tr("Type the heads to switch off (e.g. 0.1, 1.*), or compute the cost of every head."));
    o.every_head = everyHead;
    o.max_tokens = m_tokens->value();
    clearError();
    // The table before is not this one's: it stood under "10 of 13 evaluations" of another token count, and after
    // a Cancel as if it were the rows computed so far
    clearTable();
    m_summary->setText(everyHead ? tr("Measuring the cost of every head…") : tr("Measuring the loss…"));
    setBusy(true);
    m_progress->setRange(0, 0);
    m_progress->show();
    // What the work returned: the job service drops a cancelled job's answer, but a cancelled table holds the rows
    // computed so far
    auto answer = std::make_shared<std::optional<twb::AblationTable>>();
    auto work = [s = m_session, t = m_translator, translation = m_layout.translation(), run = m_run.toStdString(),
                 ck = m_checkpoint.toStdString(), o, answer](JobContext& ctx) {
        const twb::InspectionProgress progress = [&ctx](int done, int total) {
            ctx.setProgress(static_cast<double>(done) / total,
                            QObject::tr("%1 of %2 evaluations").arg(done).arg(total));
            return !ctx.cancelled();
        };
        if (translation) {
            t->open(run, ck);
            answer->emplace(t->ablation_table(o, progress));
        } else {
            s->open(run, ck);
            answer->emplace(s->ablation_table(o, progress));
        }
        return **answer;
    };
    m_job = jobs()->run(
        tr("Head ablation"), work, this,
        [this, of = lookedAt()](twb::AblationTable t) {
            setBusy(false);
            if (of == lookedAt()) {  // not another run's table under this one's name, nor its grid's score
                showTable(t);
                emit costsReady(t);
            }
            emit finished();
        },
        [this, of = lookedAt(), answer](const QString& e) {
            setBusy(false);
            if (of == lookedAt()) {
                m_progress->setRange(0, 1);
                if (answer->has_value() && (*answer)->cancelled)
                    showTable(**answer);  // Cancel keeps the rows so far
                else
                    showError(e);
            }
            emit finished();
        });
    connect(m_job, &Job::progressed, this, [this, of = lookedAt()](double f, const QString& text) {
        if (of != lookedAt())
            return;
        m_progress->setRange(0, 1000);
        m_progress->setValue(static_cast<int>(f * 1000));
        m_progress->setFormat(text);
    });
}

void HeadAblationView::showTable(const twb::AblationTable& t) {
    m_result = t;
    m_progress->setRange(0, 1);
    m_progress->setValue(t.cancelled ? 0 : 1);
    m_progress->setFormat(t.cancelled ? tr("cancelled") : tr("%1 s").arg(QLocale().toString(t.seconds, 'f', 1)));
    m_table->setSortingEnabled(false);
    m_table->setRowCount(0);
    auto add = [this](const QString& heads, double loss, double cost, bool withCost) {
        const int r = m_table->rowCount();
        m_table->insertRow(r);
        m_table->setItem(r, 0, new QTableWidgetItem(heads));
        m_table->setItem(r, 1, new NumberItem(loss, 4));
        m_table->setItem(r, 2, withCost ? new NumberItem(cost, 4) : new QTableWidgetItem);
    };
    add(tr("none"), t.base_loss, 0, false);
    if (!t.set.empty()) {
        QStringList names;
        for (const auto& h : t.set)
            names << QString::fromStdString(twb::to_string(h));
        const QString set = names.join(' ');
        add(t.every_head.empty() ? set : tr("%1 (the typed set)").arg(set), t.set_loss, t.set_loss - t.base_loss, true);
    }
    for (const auto& r : t.every_head)
        add(QString::fromStdString(twb::to_string(r.head)), r.loss, r.cost, true);
    m_table->setSortingEnabled(true);
    if (!t.every_head.empty())
        m_table->sortItems(2, Qt::DescendingOrder);
    m_summary->setText(
        tr("%1 loss over %2 tokens with every head: %3 nats per token.%4 Cost = loss with the head off − %3.")
            .arg(QString::fromStdString(t.split))
            .arg(t.tokens)
            .arg(QLocale().toString(t.base_loss, 'f', 4))
            .arg(t.cancelled ? tr(" Cancelled: the rows below are all that was computed.") : QString()));
    m_figure->setEnabled(true);
    m_numbers->setEnabled(true);
}

void HeadAblationView::compareText() {
    if (isRunning(m_job))
        return;
    if (m_run.isEmpty())
        return showError(tr("No run to ablate: train one in the Training panel or open a run folder."));
    std::vector<twb::HeadRef> heads;
    if (!headsTyped(heads))
        return;
    if (heads.empty())
        return showError(tr("Type the heads to switch off (e.g. 0.1, 1.*) to see the text without them."));
    clearError();
    setBusy(true);
    twb::SamplingOptions so;
    so.seed = m_seed->value();
    so.max_new_tokens = m_newTokens->value();
    auto work = [s = m_session, t = m_translator, translation = m_layout.translation(), run = m_run.toStdString(),
                 ck = m_checkpoint.toStdString(), heads, so, prompt = m_prompt->text().toStdString()](JobContext&) {
        if (translation)
            return translatedWithAndWithout(*t, run, ck, heads, prompt);
        s->open(run, ck);
        const auto ids = s->encode(prompt);
        std::pair<std::string, std::string> texts;
        s->set_ablated_heads({});
        texts.first = s->generate(ids, so).texts.front();
        s->set_ablated_heads(heads);
        try {
            texts.second = s->generate(ids, so).texts.front();
        } catch (...) {
            s->set_ablated_heads({});
            throw;
        }
        s->set_ablated_heads({});
        return texts;
    };
    m_job = jobs()->run(
        QString(), work, this,
        [this, of = lookedAt(),
         prompt = m_layout.translation() ? QString() : m_prompt->text()](std::pair<std::string, std::string> t) {
            setBusy(false);  // a translation is shown alone, a continuation after its prompt
            if (of == lookedAt()) {
                m_with->setPlainText(prompt + QString::fromStdString(t.first));
                m_without->setPlainText(prompt + QString::fromStdString(t.second));
            }
            emit finished();
        },
        [this, of = lookedAt()](const QString& e) {
            setBusy(false);
            if (of == lookedAt())
                showError(e);
            emit finished();
        });
}

bool HeadAblationView::exportNumbers(const QString& path) {
    return m_table->rowCount() > 0 && saveNumbers(
                                          path, [this] { return twb::ablation_to_json(m_result); },
                                          [this] { return twb::ablation_to_csv(m_result); });
}

void HeadAblationView::exportNumbersAsked() {
    const QString f = QFileDialog::getSaveFileName(this, tr("Export the ablation table"), QString(),
                                                   tr("CSV (*.csv);;JSON (*.json)"));
    if (!f.isEmpty() && !exportNumbers(f))
        showError(tr("Cannot write %1: check the folder exists and is writable.").arg(f));
}
