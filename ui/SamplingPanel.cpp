#include "ui/SamplingPanel.h"

#include "ui/ErrorLabel.h"
#include "ui/RunPicker.h"
#include "ui/TokenDisplay.h"
#include "ui/Workspace.h"

#include <QScrollBar>

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QSettings>
#include <QShortcut>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QToolTip>
#include <QVBoxLayout>

namespace {
/// Background for a token of probability p: red (unlikely) through yellow to green (likely).
QString tint(double p) {
    if (std::isnan(p))
        return QStringLiteral("#eeeeee");  // beam search reports no per-token probability
    return QColor::fromHsvF(std::clamp(p, 0.0, 1.0) * 0.33, 0.28, 1.0).name();
}

/// A token quoted in a label or list.
QString shown(const QString& tokenText) {
    return "“" + visibleToken(tokenText) + "”";
}

struct Preset {
    const char* name;
    double temperature, top_p, rep;
    int top_k;
};
const Preset kPresets[] = {{"Custom", -1, 0, 0, 0},
                           {"Precise (greedy)", 0.0, 1.0, 1.0, 0},
                           {"Balanced", 0.8, 1.0, 1.0, 40},
                           {"Creative", 1.1, 0.95, 1.1, 0}};

QString md_cell(QString s) {
    return s.replace('|', "\\|").replace('\n', "<br>").trimmed();
}
}  // namespace

SamplingPanel::SamplingPanel(QWidget* parent) : QWidget(parent) {
    ModelWorker::registerTypes();
    QSettings st;
    m_picker = new RunPicker;

    // Controls
    m_preset = new QComboBox;
    for (const auto& p : kPresets)
        m_preset->addItem(tr(p.name));
    m_tempSlider = new QSlider(Qt::Horizontal);
    m_tempSlider->setRange(0, 200);
    m_temp = new QDoubleSpinBox;
    m_temp->setObjectName("temperature");
    m_temp->setRange(0, 2);
    m_temp->setSingleStep(0.05);
    m_temp->setToolTip(tr("0 = greedy (always the most probable token); higher = more varied, less coherent"));
    m_topK = new QSpinBox;
    m_topK->setRange(0, 100000);
    m_topK->setSpecialValueText(tr("off"));
    m_topK->setToolTip(tr("Sample only among the k most probable tokens (0 = off)"));
    m_topP = new QDoubleSpinBox;
    m_topP->setRange(0.01, 1.0);
    m_topP->setSingleStep(0.05);
    m_topP->setToolTip(tr("Nucleus sampling: the smallest set of tokens whose probabilities reach p (1 = off)"));
    m_maxNew = new QSpinBox;
    m_maxNew->setObjectName("maxNewTokens");
    m_maxNew->setRange(1, 100000);
    m_repPen = new QDoubleSpinBox;
    m_repPen->setRange(1.0, 3.0);
    m_repPen->setSingleStep(0.05);
    m_repPen->setToolTip(tr("> 1 makes tokens already in the text less likely"));
    m_beam = new QSpinBox;
    m_beam->setObjectName("beamWidth");
    m_beam->setRange(1, 16);
    m_beam->setToolTip(tr("> 1 = beam search: deterministic, keeps this many candidate continuations"));
    m_seed = new QSpinBox;
    m_seed->setRange(0, 2147483647);
    m_randomSeed = new QCheckBox(tr("random"));
    m_samples = new QSpinBox;
    m_samples->setRange(1, 16);
    m_cache = new QCheckBox(tr("KV cache"));
    m_cache->setToolTip(tr("Reuse keys and values of earlier tokens: same text, many times faster"));

    m_temp->setValue(st.value("sampling/temperature", 0.8).toDouble());
    m_tempSlider->setValue(qRound(m_temp->value() * 100));
    m_topK->setValue(st.value("sampling/topK", 0).toInt());
    m_topP->setValue(st.value("sampling/topP", 1.0).toDouble());
    m_maxNew->setValue(st.value("sampling/maxNew", 300).toInt());
    m_repPen->setValue(st.value("sampling/repetition", 1.0).toDouble());
    m_beam->setValue(1);
    m_seed->setValue(st.value("sampling/seed", 1337).toInt());
    m_randomSeed->setChecked(st.value("sampling/randomSeed", false).toBool());
    m_samples->setValue(1);
    m_cache->setChecked(true);

    connect(m_tempSlider, &QSlider::valueChanged, this, [this](int v) {
        if (qRound(m_temp->value() * 100) != v)
            m_temp->setValue(v / 100.0);
    });
    connect(m_temp, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        QSignalBlocker b(m_tempSlider);
        m_tempSlider->setValue(qRound(v * 100));
    });
    connect(m_preset, &QComboBox::activated, this, &SamplingPanel::applyPreset);
    connect(m_randomSeed, &QCheckBox::toggled, m_seed, &QWidget::setDisabled);
    m_seed->setDisabled(m_randomSeed->isChecked());

    auto* form = new QFormLayout;
    form->addRow(tr("Preset"), m_preset);
    auto* tempRow = new QHBoxLayout;
    tempRow->addWidget(m_tempSlider, 1);
    tempRow->addWidget(m_temp);
    form->addRow(tr("Temperature"), tempRow);
    form->addRow(tr("Top-k"), m_topK);
    form->addRow(tr("Top-p"), m_topP);
    form->addRow(tr("Max new tokens"), m_maxNew);
    form->addRow(tr("Repetition penalty"), m_repPen);
    form->addRow(tr("Beam width"), m_beam);
    auto* seedRow = new QHBoxLayout;
    seedRow->addWidget(m_seed, 1);
    seedRow->addWidget(m_randomSeed);
    form->addRow(tr("Seed"), seedRow);
    form->addRow(tr("Samples"), m_samples);
    form->addRow(QString(), m_cache);
    auto* controls = new QGroupBox(tr("Decoding"));
    controls->setLayout(form);

    m_generate = new QPushButton(tr("Generate"));
    m_generate->setObjectName("generate");
    m_generate->setToolTip(tr("Generate (Ctrl+Return)"));
    m_stop = new QPushButton(tr("Stop"));
    m_stop->setObjectName("stop");
    m_stop->setToolTip(tr("Stop (Esc): ends within one token"));
    m_stop->setEnabled(false);
    m_back_ = new QPushButton(tr("◀ Back"));
    m_back_->setToolTip(tr("Return to the output before the last branch"));
    m_back_->setEnabled(false);
    auto* copy = new QPushButton(tr("Copy"));
    copy->setToolTip(tr("Copy the prompt and output as plain text"));
    m_status = new QLabel;
    m_status->setObjectName("samplingStatus");
    m_error = new ErrorLabel;

    m_prompt = new QPlainTextEdit;
    m_prompt->setObjectName("prompt");
    m_prompt->setPlaceholderText(tr("Prompt (empty = start from nothing)"));
    m_prompt->setPlainText(st.value("sampling/prompt").toString());
    m_view = new QTextBrowser;
    m_view->setObjectName("output");
    m_view->setOpenLinks(false);
    m_view->setMouseTracking(true);
    m_view->setPlaceholderText(
        tr("Generated text appears here, each token tinted by its probability "
           "(green = likely, red = unlikely). Hover a token for its alternatives; click it, "
           "then click an alternative to branch."));
    m_alts = new QListWidget;
    m_alts->setObjectName("alternatives");
    m_altTitle = new QLabel(tr("Click a generated token to see the alternatives the model weighed there."));
    m_altTitle->setWordWrap(true);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_generate);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_back_);
    buttons->addWidget(copy);
    buttons->addStretch(1);
    buttons->addWidget(m_status);

    auto* altBox = new QWidget;
    auto* altCol = new QVBoxLayout(altBox);
    altCol->setContentsMargins(0, 0, 0, 0);
    altCol->addWidget(m_altTitle);
    altCol->addWidget(m_alts, 1);

    auto* outSplit = new QSplitter(Qt::Horizontal);
    outSplit->addWidget(m_view);
    outSplit->addWidget(altBox);
    outSplit->setStretchFactor(0, 3);
    outSplit->setStretchFactor(1, 1);

    auto* genTab = new QWidget;
    auto* genCol = new QVBoxLayout(genTab);
    auto* vsplit = new QSplitter(Qt::Vertical);
    vsplit->addWidget(m_prompt);
    vsplit->addWidget(outSplit);
    vsplit->setStretchFactor(0, 1);
    vsplit->setStretchFactor(1, 4);
    genCol->addWidget(vsplit, 1);
    genCol->addLayout(buttons);
    genCol->addWidget(m_error);

    // Compare tab
    m_ckList = new QListWidget;
    m_ckList->setObjectName("compareCheckpoints");
    m_ckList->setToolTip(tr("Columns: tick checkpoints of this run, or the best checkpoint of other runs"));
    m_temps = new QLineEdit(st.value("sampling/compareTemps", "0.5, 1.0").toString());
    m_temps->setToolTip(tr("One row per temperature, comma-separated (0 = greedy)"));
    m_compareBtn = new QPushButton(tr("Compare"));
    m_compareBtn->setObjectName("compare");
    auto* exportMd = new QPushButton(tr("Export Markdown…"));
    m_table = new QTableWidget;
    m_table->setObjectName("compareTable");
    m_table->setWordWrap(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* cmpTab = new QWidget;
    auto* cmpRow = new QHBoxLayout(cmpTab);
    auto* cmpLeft = new QVBoxLayout;
    cmpLeft->addWidget(new QLabel(tr("Columns")));
    cmpLeft->addWidget(m_ckList, 1);
    cmpLeft->addWidget(new QLabel(tr("Temperatures")));
    cmpLeft->addWidget(m_temps);
    cmpLeft->addWidget(m_compareBtn);
    cmpLeft->addWidget(exportMd);
    cmpRow->addLayout(cmpLeft);
    cmpRow->addWidget(m_table, 1);

    // History tab
    m_history = new QListWidget;
    m_history->setObjectName("history");
    m_historyText = new QPlainTextEdit;
    m_historyText->setReadOnly(true);
    auto* useHist = new QPushButton(tr("Use this prompt"));
    auto* exportOut = new QPushButton(tr("Export…"));
    auto* histTab = new QWidget;
    auto* histRow = new QHBoxLayout(histTab);
    histRow->addWidget(m_history, 1);
    auto* histRight = new QVBoxLayout;
    histRight->addWidget(m_historyText, 1);
    auto* histBtns = new QHBoxLayout;
    histBtns->addWidget(useHist);
    histBtns->addWidget(exportOut);
    histBtns->addStretch(1);
    histRight->addLayout(histBtns);
    histRow->addLayout(histRight, 2);

    m_tabs = new QTabWidget;
    m_tabs->addTab(genTab, tr("Generate"));
    m_tabs->addTab(cmpTab, tr("Compare checkpoints"));
    m_tabs->addTab(histTab, tr("History"));

    auto* left = new QVBoxLayout;
    left->addWidget(controls);
    left->addStretch(1);
    auto* body = new QHBoxLayout;
    body->addLayout(left);
    body->addWidget(m_tabs, 1);
    auto* col = new QVBoxLayout(this);
    col->addWidget(m_picker);
    col->addLayout(body, 1);

    // Worker
    m_worker = new ModelWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(this, &SamplingPanel::generateRequested, m_worker, &ModelWorker::generate);
    connect(this, &SamplingPanel::compareRequested, m_worker, &ModelWorker::compare);
    connect(this, &SamplingPanel::historyRequested, m_worker, &ModelWorker::loadHistory);
    connect(m_worker, &ModelWorker::token, this, [this](quint64 id, const UiToken& t) {
        if (id != m_requestId)
            return;
        while (m_out.samples.size() <= t.sample)
            m_out.samples.append(QVector<UiToken>{});
        m_out.samples[t.sample].append(t);
        ++m_streamed;
        if (!m_renderTimer.isActive())
            m_renderTimer.start();
    });
    connect(m_worker, &ModelWorker::generated, this, [this](const GenerateResult& r) {
        if (r.id != m_requestId)
            return;
        if (m_out.promptIds.empty())
            m_out.promptIds = r.promptIds;
        setBusy(false);
        render();
        m_status->setText(tr("%1 tokens · %2 tok/s · step %3%4")
                              .arg(r.generated)
                              .arg(r.tokensPerS, 0, 'f', 1)
                              .arg(r.step)
                              .arg(r.cancelled ? tr(" · stopped") : QString()));
        if (!r.warnings.isEmpty()) {
            m_status->setText(m_status->text() + " · " + r.warnings.join("; "));
            emit statusMessage(r.warnings.join("; "));
        }
        emit historyRequested(m_picker->run());
    });
    connect(m_worker, &ModelWorker::compareCell, this,
            [this](int row, int c, const QString& header, const QString& text) {
                m_table->setHorizontalHeaderItem(c, new QTableWidgetItem(header));
                m_table->setItem(row, c, new QTableWidgetItem(text));
            });
    connect(m_worker, &ModelWorker::compareFinished, this, [this](bool cancelled) {
        setBusy(false);
        m_status->setText(cancelled ? tr("comparison stopped") : tr("comparison done"));
    });
    connect(m_worker, &ModelWorker::historyLoaded, this, [this](const QString& run, const QJsonArray& entries) {
        if (run != m_picker->run())
            return;
        m_historyEntries = entries;
        m_history->clear();
        for (int i = entries.size() - 1; i >= 0; --i) {
            const auto e = entries[i].toObject();
            QString p = e["prompt"].toString().left(40).replace('\n', "↵");
            auto* item = new QListWidgetItem(tr("%1 · step %2 · T=%3 · %4")
                                                 .arg(e["time"].toString().replace('T', ' '))
                                                 .arg(e["checkpoint_step"].toInteger())
                                                 .arg(e["options"].toObject()["temperature"].toDouble())
                                                 .arg(p));
            item->setData(Qt::UserRole, i);
            m_history->addItem(item);
        }
    });
    connect(m_worker, &ModelWorker::failed, this, [this](const QString& e) {
        setBusy(false);
        showError(e);
    });
    m_thread.start();

    m_renderTimer.setSingleShot(true);
    m_renderTimer.setInterval(50);  // batch streamed tokens: at most 20 re-renders a second
    connect(&m_renderTimer, &QTimer::timeout, this, &SamplingPanel::render);

    connect(m_generate, &QPushButton::clicked, this, &SamplingPanel::generate);
    connect(m_stop, &QPushButton::clicked, this, &SamplingPanel::stop);
    connect(m_back_, &QPushButton::clicked, this, &SamplingPanel::back);
    connect(copy, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(m_out.promptText + outputText(0));
        emit statusMessage(tr("Output copied"));
    });
    connect(m_compareBtn, &QPushButton::clicked, this, &SamplingPanel::runCompare);
    connect(exportMd, &QPushButton::clicked, this, &SamplingPanel::exportMarkdown);
    connect(new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this), &QShortcut::activated, this,
            &SamplingPanel::generate);
    connect(new QShortcut(QKeySequence(Qt::Key_Escape), this), &QShortcut::activated, this, &SamplingPanel::stop);
    connect(m_view, &QTextBrowser::anchorClicked, this, [this](const QUrl& u) {
        const auto parts = u.toString().split(':');
        if (parts.size() == 3)
            showAlternatives(parts[1].toInt(), parts[2].toInt());
    });
    connect(m_view, &QTextBrowser::highlighted, this, [this](const QUrl& u) {
        const auto parts = u.toString().split(':');
        if (parts.size() != 3)
            return QToolTip::hideText();
        const int s = parts[1].toInt(), i = parts[2].toInt();
        if (s >= m_out.samples.size() || i >= m_out.samples[s].size())
            return;
        const UiToken& t = m_out.samples[s][i];
        QString tip =
            std::isnan(t.prob)
                ? tr("<b>%1</b><br>beam search: no per-token probabilities").arg(shown(t.text).toHtmlEscaped())
                : tr("<b>%1</b> p = %2<br>").arg(shown(t.text).toHtmlEscaped()).arg(t.prob, 0, 'f', 3);
        for (int k = 0; k < t.altIds.size(); ++k)
            tip += QStringLiteral("%1 &nbsp; %2<br>")
                       .arg(t.altProbs[k], 0, 'f', 3)
                       .arg(shown(t.altTexts[k]).toHtmlEscaped());
        QToolTip::showText(QCursor::pos(), tip, m_view);
    });
    connect(m_alts, &QListWidget::itemActivated, this, [this](QListWidgetItem* it) {
        if (m_selSample == 0)
            branch(m_selIndex, it->data(Qt::UserRole).toInt());
    });
    connect(m_alts, &QListWidget::itemClicked, this, [this](QListWidgetItem* it) {
        if (m_selSample == 0)
            branch(m_selIndex, it->data(Qt::UserRole).toInt());
    });
    connect(m_history, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* it) {
        if (!it)
            return m_historyText->clear();
        const auto e = m_historyEntries[it->data(Qt::UserRole).toInt()].toObject();
        QString text = e["prompt"].toString();
        const auto outs = e["outputs"].toArray();
        for (int k = 0; k < outs.size(); ++k)
            text += (outs.size() > 1 ? tr("\n--- sample %1 ---\n").arg(k + 1) : QString()) + outs[k].toString();
        m_historyText->setPlainText(text);
    });
    connect(useHist, &QPushButton::clicked, this, [this] {
        if (auto* it = m_history->currentItem())
            setPrompt(m_historyEntries[it->data(Qt::UserRole).toInt()].toObject()["prompt"].toString());
        m_tabs->setCurrentIndex(0);
    });
    connect(exportOut, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getSaveFileName(this, tr("Export text"), QString(), tr("Text (*.txt)"));
        if (f.isEmpty())
            return;
        QSaveFile out(f);
        if (!out.open(QIODevice::WriteOnly) || out.write(m_historyText->toPlainText().toUtf8()) < 0 || !out.commit())
            showError(tr("Cannot write %1").arg(f));
    });
    connect(m_picker, &RunPicker::changed, this, [this] {
        fillCompareChoices();
        emit historyRequested(m_picker->run());
    });
    fillCompareChoices();
    emit historyRequested(m_picker->run());
}

SamplingPanel::~SamplingPanel() {
    if (m_cancel)
        *m_cancel = true;
    QSettings st;
    st.setValue("sampling/temperature", m_temp->value());
    st.setValue("sampling/topK", m_topK->value());
    st.setValue("sampling/topP", m_topP->value());
    st.setValue("sampling/maxNew", m_maxNew->value());
    st.setValue("sampling/repetition", m_repPen->value());
    st.setValue("sampling/seed", m_seed->value());
    st.setValue("sampling/randomSeed", m_randomSeed->isChecked());
    st.setValue("sampling/prompt", m_prompt->toPlainText().left(4000));
    st.setValue("sampling/compareTemps", m_temps->text());
    m_thread.quit();
    m_thread.wait();
}

void SamplingPanel::setRun(const QString& dir) {
    m_picker->setRun(dir);
}
void SamplingPanel::setPrompt(const QString& text) {
    m_prompt->setPlainText(text);
}
void SamplingPanel::setTemperature(double t) {
    m_temp->setValue(t);
}
void SamplingPanel::setMaxTokens(int n) {
    m_maxNew->setValue(n);
}
void SamplingPanel::setSamples(int n) {
    m_samples->setValue(n);
}
void SamplingPanel::setSeed(qint64 seed) {
    m_randomSeed->setChecked(seed < 0);
    if (seed >= 0)
        m_seed->setValue(static_cast<int>(seed));
}

void SamplingPanel::applyPreset(int index) {
    if (index <= 0 || index >= static_cast<int>(std::size(kPresets)))
        return;
    const auto& p = kPresets[index];
    m_temp->setValue(p.temperature);
    m_topP->setValue(p.top_p);
    m_topK->setValue(p.top_k);
    m_repPen->setValue(p.rep);
    m_beam->setValue(1);
}

twb::nn::SamplingOptions SamplingPanel::options() const {
    twb::nn::SamplingOptions o;
    o.temperature = m_temp->value();
    o.top_k = m_topK->value();
    o.top_p = m_topP->value();
    o.max_new_tokens = m_maxNew->value();
    o.repetition_penalty = m_repPen->value();
    o.beam_width = m_beam->value();
    o.num_samples = m_beam->value() > 1 ? 1 : m_samples->value();
    o.seed = m_randomSeed->isChecked() ? static_cast<int64_t>(QRandomGenerator::global()->bounded(1 << 30))
                                       : m_seed->value();
    o.use_kv_cache = m_cache->isChecked();
    o.alternatives = 8;
    return o;
}

void SamplingPanel::setBusy(bool busy) {
    m_busy = busy;
    m_generate->setEnabled(!busy);
    m_compareBtn->setEnabled(!busy);
    m_stop->setEnabled(busy);
    m_back_->setEnabled(!busy && !m_back.isEmpty());
    m_picker->setEnabled(!busy);
}

void SamplingPanel::showError(const QString& text) {
    m_error->setText(text);
    emit statusMessage(text);
}

void SamplingPanel::generate() {
    if (m_busy)
        return;
    if (m_picker->run().isEmpty())
        return showError(tr("No run to sample from: train one in the Training panel or open a run folder (…)."));
    m_error->clear();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    GenerateRequest r;
    r.id = ++m_requestId;
    r.run = m_picker->run();
    r.checkpoint = m_picker->checkpoint();
    r.prompt = m_prompt->toPlainText();
    r.options = options();
    r.cancel = m_cancel;
    m_out = Output{};
    m_out.promptText = r.prompt;
    m_out.label = tr("generated");
    m_back.clear();
    m_selSample = m_selIndex = -1;
    m_alts->clear();
    m_streamed = 0;
    m_clock.start();
    setBusy(true);
    m_status->setText(tr("loading…"));
    render();
    emit generateRequested(r);
}

void SamplingPanel::stop() {
    if (m_cancel)
        *m_cancel = true;
}

void SamplingPanel::branch(int index, int alt) {
    if (m_busy || m_out.samples.isEmpty() || index < 0 || index >= m_out.samples[0].size())
        return;
    const UiToken& at = m_out.samples[0][index];
    if (alt < 0 || alt >= at.altIds.size())
        return;
    Output next;
    next.promptText = m_out.promptText;
    next.promptIds = m_out.promptIds;
    next.samples = {m_out.samples[0].mid(0, index)};
    UiToken chosen = at;
    chosen.id = at.altIds[alt];
    chosen.text = at.altTexts[alt];
    chosen.prob = at.altProbs[alt];
    next.samples[0].append(chosen);
    next.label = tr("branch at token %1: %2 → %3").arg(index).arg(shown(at.text), shown(chosen.text));
    GenerateRequest r;
    r.id = ++m_requestId;
    r.run = m_picker->run();
    r.checkpoint = m_picker->checkpoint();
    r.ids = next.promptIds;
    for (const UiToken& t : next.samples[0])
        r.ids.push_back(t.id);
    r.prompt = m_out.promptText;
    r.options = options();
    r.options.num_samples = 1;
    r.options.max_new_tokens = std::max(1, m_maxNew->value() - static_cast<int>(next.samples[0].size()));
    r.note = next.label;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    r.cancel = m_cancel;
    m_back.append(m_out);
    m_out = next;
    m_selSample = m_selIndex = -1;
    m_alts->clear();
    m_altTitle->setText(next.label);
    m_streamed = 0;
    m_clock.start();
    setBusy(true);
    render();
    emit generateRequested(r);
}

void SamplingPanel::back() {
    if (m_busy || m_back.isEmpty())
        return;
    m_out = m_back.takeLast();
    m_selSample = m_selIndex = -1;
    m_alts->clear();
    m_altTitle->setText(m_back.isEmpty() ? tr("Back at the original output.") : m_out.label);
    setBusy(false);
    render();
}

QString SamplingPanel::outputText(int sample) const {
    QString s;
    if (sample < m_out.samples.size())
        for (const UiToken& t : m_out.samples[sample])
            s += t.text;
    return s;
}

void SamplingPanel::render() {
    QElapsedTimer took;
    took.start();
    QString html = QStringLiteral("<div style=\"white-space:pre-wrap; font-family:monospace\">");
    for (int s = 0; s < std::max<qsizetype>(1, m_out.samples.size()); ++s) {
        if (m_out.samples.size() > 1)
            html += tr("<p style=\"color:#666\">— sample %1 —</p>").arg(s + 1);
        html += QStringLiteral("<span style=\"color:#555\">%1</span>").arg(tokenHtml(m_out.promptText));
        if (s >= m_out.samples.size())
            break;
        const auto& toks = m_out.samples[s];
        for (int i = 0; i < toks.size(); ++i) {
            const bool sel = s == m_selSample && i == m_selIndex;
            html += QStringLiteral(
                        "<a href=\"t:%1:%2\" style=\"text-decoration:none;color:#000;background-color:%3%4\">%5</a>")
                        .arg(s)
                        .arg(i)
                        .arg(tint(toks[i].prob), sel ? QStringLiteral(";font-weight:bold;color:#0040c0") : QString(),
                             toks[i].text.isEmpty() ? QStringLiteral("·") : tokenHtml(toks[i].text));
        }
    }
    html += "</div>";
    const int scroll = m_view->verticalScrollBar() ? m_view->verticalScrollBar()->value() : 0;
    const bool atEnd = m_view->verticalScrollBar()->value() >= m_view->verticalScrollBar()->maximum() - 4;
    m_view->setHtml(html);
    m_view->verticalScrollBar()->setValue(atEnd && m_busy ? m_view->verticalScrollBar()->maximum() : scroll);
    if (m_busy && m_clock.isValid()) {
        const double sec = std::max(1e-3, m_clock.elapsed() / 1000.0);
        m_status->setText(tr("%1 tokens · %2 tok/s").arg(m_streamed).arg(m_streamed / sec, 0, 'f', 1));
    }
    m_back_->setEnabled(!m_busy && !m_back.isEmpty());
    // A long output costs more to lay out: keep re-rendering under ~25% of the UI thread's time.
    m_renderTimer.setInterval(std::clamp(static_cast<int>(took.elapsed()) * 4, 50, 1000));
}

void SamplingPanel::showAlternatives(int sample, int index) {
    if (sample >= m_out.samples.size() || index >= m_out.samples[sample].size())
        return;
    m_selSample = sample;
    m_selIndex = index;
    const UiToken& t = m_out.samples[sample][index];
    m_alts->clear();
    if (t.altIds.isEmpty()) {
        m_altTitle->setText(tr("Token %1 %2: beam search keeps whole sequences, so it reports no per-token "
                               "alternatives. Sample (beam width 1) to branch.")
                                .arg(index)
                                .arg(shown(t.text)));
        return render();
    }
    m_altTitle->setText(sample == 0 ? tr("Token %1 %2 (p = %3). Click an alternative to continue from it:")
                                          .arg(index)
                                          .arg(shown(t.text))
                                          .arg(t.prob, 0, 'f', 3)
                                    : tr("Token %1 of sample %2 %3 (p = %4). Branching works on sample 1.")
                                          .arg(index)
                                          .arg(sample + 1)
                                          .arg(shown(t.text))
                                          .arg(t.prob, 0, 'f', 3));
    for (int k = 0; k < t.altIds.size(); ++k) {
        auto* it =
            new QListWidgetItem(QStringLiteral("%1  %2").arg(t.altProbs[k], 5, 'f', 3).arg(shown(t.altTexts[k])));
        it->setData(Qt::UserRole, k);
        it->setBackground(QColor(tint(t.altProbs[k])));
        if (t.altIds[k] == t.id)
            it->setFont([&] {
                QFont f = it->font();
                f.setBold(true);
                return f;
            }());
        m_alts->addItem(it);
    }
    render();
}

void SamplingPanel::fillCompareChoices() {
    // Refilled whenever checkpoints appear (during training too): ticks the user set stay as they were.
    QHash<QString, Qt::CheckState> before;
    for (int i = 0; i < m_ckList->count(); ++i) {
        const auto* it = m_ckList->item(i);
        before[it->data(Qt::UserRole).toString() + '|' + it->data(Qt::UserRole + 1).toString()] = it->checkState();
    }
    const bool sameRun = m_ckList->count() > 0 && m_ckList->item(0)->data(Qt::UserRole).toString() == m_picker->run();
    m_ckList->clear();
    const QString run = m_picker->run();
    if (run.isEmpty())
        return;
    const auto steps = m_picker->steps();
    auto state = [&](const QString& r, const QString& which, Qt::CheckState fallback) {
        return sameRun ? before.value(r + '|' + which, fallback) : fallback;
    };
    for (int i = 0; i < steps.size(); ++i) {
        auto* it = new QListWidgetItem(tr("step %1").arg(steps[i]));
        it->setData(Qt::UserRole, run);
        it->setData(Qt::UserRole + 1, QString::number(steps[i]));
        // the last four by default
        it->setCheckState(state(run, QString::number(steps[i]), i >= steps.size() - 4 ? Qt::Checked : Qt::Unchecked));
        m_ckList->addItem(it);
    }
    for (const QString& other : Workspace::runs()) {
        if (other == run)
            continue;
        auto* it = new QListWidgetItem(tr("%1 · best").arg(QFileInfo(other).fileName()));
        it->setData(Qt::UserRole, other);
        it->setData(Qt::UserRole + 1, QStringLiteral("best"));
        it->setCheckState(state(other, QStringLiteral("best"), Qt::Unchecked));
        m_ckList->addItem(it);
    }
}

void SamplingPanel::setCompare(const QList<qint64>& steps, const QVector<double>& temperatures) {
    for (int i = 0; i < m_ckList->count(); ++i) {
        auto* it = m_ckList->item(i);
        const bool mine = it->data(Qt::UserRole).toString() == m_picker->run();
        it->setCheckState(mine && steps.contains(it->data(Qt::UserRole + 1).toLongLong()) ? Qt::Checked
                                                                                          : Qt::Unchecked);
    }
    QStringList t;
    for (double v : temperatures)
        t << QString::number(v);
    m_temps->setText(t.join(", "));
}

void SamplingPanel::runCompare() {
    if (m_busy)
        return;
    CompareRequest r;
    for (int i = 0; i < m_ckList->count(); ++i) {
        auto* it = m_ckList->item(i);
        if (it->checkState() == Qt::Checked)
            r.columns.append({it->data(Qt::UserRole).toString(), it->data(Qt::UserRole + 1).toString()});
    }
    for (const QString& part : m_temps->text().split(',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const double t = part.trimmed().toDouble(&ok);
        if (!ok || t < 0 || t > 5)
            return showError(
                tr("Temperatures: '%1' is not a number between 0 and 5; write e.g. 0, 0.8, 1.2").arg(part.trimmed()));
        r.temperatures.append(t);
    }
    if (r.columns.isEmpty())
        return showError(tr("Tick at least one checkpoint (or run) to compare."));
    if (r.temperatures.isEmpty())
        return showError(tr("Give at least one temperature, e.g. 0.8."));
    m_error->clear();
    r.prompt = m_prompt->toPlainText();
    r.baseRun = m_picker->run();
    r.options = options();  // one seed for every cell, so only the checkpoint and temperature differ
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    r.cancel = m_cancel;
    m_table->clear();
    m_table->setColumnCount(static_cast<int>(r.columns.size()));
    m_table->setRowCount(static_cast<int>(r.temperatures.size()));
    QStringList rows;
    for (double t : r.temperatures)
        rows << (t == 0 ? tr("greedy") : tr("T = %1").arg(t));
    m_table->setVerticalHeaderLabels(rows);
    m_status->setText(tr("comparing (seed %1)…").arg(r.options.seed));
    setBusy(true);
    emit compareRequested(r);
}

QString SamplingPanel::compareMarkdown() const {
    QString md = tr("Prompt: `%1`\n\n| |").arg(QString(m_prompt->toPlainText()).replace('\n', "\\n"));
    for (int c = 0; c < m_table->columnCount(); ++c)
        md += " " + md_cell(m_table->horizontalHeaderItem(c) ? m_table->horizontalHeaderItem(c)->text() : QString()) +
              " |";
    md += "\n|---|";
    for (int c = 0; c < m_table->columnCount(); ++c)
        md += "---|";
    md += "\n";
    for (int r = 0; r < m_table->rowCount(); ++r) {
        md +=
            "| " + md_cell(m_table->verticalHeaderItem(r) ? m_table->verticalHeaderItem(r)->text() : QString()) + " |";
        for (int c = 0; c < m_table->columnCount(); ++c)
            md += " " + md_cell(m_table->item(r, c) ? m_table->item(r, c)->text() : QString()) + " |";
        md += "\n";
    }
    return md;
}

void SamplingPanel::exportMarkdown() {
    const QString f = QFileDialog::getSaveFileName(this, tr("Export comparison"), QString(), tr("Markdown (*.md)"));
    if (f.isEmpty())
        return;
    QSaveFile out(f);
    if (!out.open(QIODevice::WriteOnly) || out.write(compareMarkdown().toUtf8()) < 0 || !out.commit())
        return showError(tr("Cannot write %1: check the folder exists and is writable.").arg(f));
    emit statusMessage(tr("Comparison written to %1").arg(f));
}

QString SamplingPanel::lastError() const {
    return m_error->error();
}
