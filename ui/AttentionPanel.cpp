#include "ui/AttentionPanel.h"

#include "ui/ErrorLabel.h"
#include "ui/HeadGrid.h"
#include "ui/Heatmap.h"
#include "ui/RunPicker.h"
#include "ui/TokenDisplay.h"

#include <qcustomplot.h>
#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>
#include <cmath>

namespace {
const char* kScoreNames[] = {"entropy (1 = uniform)", "previous-token weight", "first-token weight", "self weight"};

/// The score the score box names (0 entropy, 1 previous token, 2 first token, 3 self), per head.
const std::vector<float>& scoreOf(const twb::nn::HeadScores& s, int index) {
    switch (index) {
        case 1:
            return s.previous;
        case 2:
            return s.first;
        case 3:
            return s.diagonal;
        default:
            return s.entropy;
    }
}

QStringList labels(const std::vector<std::string>& toks) {
    QStringList l;
    for (const auto& t : toks)
        l << visibleToken(QString::fromStdString(t));
    return l;
}

/// Writes through a temporary file renamed into place, so an export never leaves half a file.
template <class F>
bool save_atomically(const QString& path, F&& write) {
    const QString tmp = path + ".tmp" + QFileInfo(path).suffix().prepend('.');
    if (!write(tmp)) {
        QFile::remove(tmp);
        return false;
    }
    QFile::remove(path);
    return QFile::rename(tmp, path);
}
}  // namespace

AttentionPanel::AttentionPanel(QWidget* parent) : QWidget(parent) {
    ModelWorker::registerTypes();
    m_picker = new RunPicker;
    m_modePrompt = new QRadioButton(tr("Prompt"));
    m_modeTimeline = new QRadioButton(tr("Probe timeline"));
    m_modeTimeline->setObjectName("timelineMode");
    m_modeTimeline->setToolTip(
        tr("The attention of a fixed probe prompt, captured at every evaluation while the run trained"));
    m_modePrompt->setChecked(true);
    auto* modes = new QButtonGroup(this);
    modes->addButton(m_modePrompt);
    modes->addButton(m_modeTimeline);
    m_prompt = new QPlainTextEdit;
    m_prompt->setObjectName("attentionPrompt");
    m_prompt->setMaximumHeight(70);
    m_prompt->setPlaceholderText(tr("Type a prompt, or take one from the validation text"));
    m_prompt->setPlainText(
        QSettings()
            .value("attention/prompt", "First Citizen:\nBefore we proceed any further, hear me speak.")
            .toString());
    m_show = new QPushButton(tr("Show"));
    m_show->setObjectName("showAttention");
    m_show->setToolTip(tr("Capture this prompt's attention (Ctrl+Return)"));
    m_fromVal = new QPushButton(tr("From validation text"));
    m_live = new QCheckBox(tr("Live"));
    m_live->setToolTip(tr("While this run trains, refresh the view at every new checkpoint"));
    m_live->setChecked(true);

    m_view = new QComboBox;
    m_view->addItems({tr("Head"), tr("Layer mean over heads"), tr("Rollout up to layer")});
    m_view->setToolTip(
        tr("Rollout: attention multiplied through the layers (with the residual as 0.5·I), "
           "an estimate of how much each input token reaches each position"));
    m_score = new QComboBox;
    for (const char* n : kScoreNames)
        m_score->addItem(tr(n));
    m_score->setToolTip(tr("Score drawn under each thumbnail and plotted against step in the timeline"));
    m_layerBox = new QSpinBox;
    m_headBox = new QSpinBox;
    m_layerBox->setPrefix(tr("layer "));
    m_headBox->setPrefix(tr("head "));
    auto* exportView = new QPushButton(tr("Export image…"));
    auto* exportData = new QPushButton(tr("Export weights…"));

    m_grid = new HeadGrid;
    m_gridScroll = new QScrollArea;
    auto* gridScroll = m_gridScroll;
    gridScroll->setWidget(m_grid);
    gridScroll->setWidgetResizable(false);
    gridScroll->setMinimumWidth(260);
    m_heat = new Heatmap;
    m_heat->setObjectName("attentionHeatmap");
    m_hover = new QLabel(tr("Hover the map for query, key and weight; wheel zooms, drag pans."));
    m_info = new QLabel;
    m_info->setWordWrap(true);
    m_error = new ErrorLabel;

    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setObjectName("timelineSlider");
    m_slider->setEnabled(false);
    m_slider->setToolTip(tr("Scrub through the evaluations of the run"));
    m_slider->setPageStep(1);  // a click beside the handle moves one evaluation
    m_stepLabel = new QLabel(tr("no timeline"));

    m_scorePlot = new QCustomPlot;
    m_scorePlot->xAxis->setLabel(tr("step"));
    m_scorePlot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_scorePlot->legend->setVisible(true);
    m_scorePlot->legend->setFont(QFont(font().family(), 7));

    m_posMap = new Heatmap;
    m_freqPlot = new QCustomPlot;
    m_freqPlot->setMaximumHeight(180);
    m_freqPlot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_freqPlot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    m_freqPlot->xAxis->setLabel(tr("dimension pair i"));
    m_freqPlot->yAxis->setLabel(tr("θ_i (radians per position)"));
    m_posInfo = new QLabel;
    m_posInfo->setWordWrap(true);
    auto* loadPos = new QPushButton(tr("Show positions"));

    // Layout
    auto* promptRow = new QHBoxLayout;
    auto* modeCol = new QVBoxLayout;
    modeCol->addWidget(m_modePrompt);
    modeCol->addWidget(m_modeTimeline);
    modeCol->addWidget(m_live);
    promptRow->addLayout(modeCol);
    promptRow->addWidget(m_prompt, 1);
    auto* btnCol = new QVBoxLayout;
    btnCol->addWidget(m_show);
    btnCol->addWidget(m_fromVal);
    promptRow->addLayout(btnCol);

    auto* left = new QWidget;
    auto* leftCol = new QVBoxLayout(left);
    leftCol->setContentsMargins(0, 0, 0, 0);
    auto* scoreRow = new QHBoxLayout;
    scoreRow->addWidget(new QLabel(tr("Score")));
    scoreRow->addWidget(m_score, 1);
    leftCol->addLayout(scoreRow);
    leftCol->addWidget(gridScroll, 1);

    auto* selTab = new QWidget;
    auto* selCol = new QVBoxLayout(selTab);
    auto* selRow = new QHBoxLayout;
    selRow->addWidget(m_view);
    selRow->addWidget(m_layerBox);
    selRow->addWidget(m_headBox);
    selRow->addStretch(1);
    selRow->addWidget(exportView);
    selRow->addWidget(exportData);
    selCol->addLayout(selRow);
    selCol->addWidget(m_info);
    selCol->addWidget(m_heat, 1);
    selCol->addWidget(m_hover);

    auto* posTab = new QWidget;
    auto* posCol = new QVBoxLayout(posTab);
    auto* posRow = new QHBoxLayout;
    posRow->addWidget(m_posInfo, 1);
    posRow->addWidget(loadPos);
    posCol->addLayout(posRow);
    posCol->addWidget(m_posMap, 3);
    posCol->addWidget(m_freqPlot, 1);

    m_tabs = new QTabWidget;
    m_tabs->addTab(selTab, tr("Selected"));
    m_tabs->addTab(m_scorePlot, tr("Head scores over training"));
    m_tabs->addTab(posTab, tr("Positions"));

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(left);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);

    auto* timeRow = new QHBoxLayout;
    timeRow->addWidget(new QLabel(tr("Timeline")));
    timeRow->addWidget(m_slider, 1);
    timeRow->addWidget(m_stepLabel);

    auto* col = new QVBoxLayout(this);
    col->addWidget(m_picker);
    col->addLayout(promptRow);
    col->addWidget(m_error);
    col->addWidget(split, 1);
    col->addLayout(timeRow);

    // Worker
    m_worker = new ModelWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(this, &AttentionPanel::captureRequested, m_worker, &ModelWorker::capture);
    connect(this, &AttentionPanel::positionsRequested, m_worker, &ModelWorker::loadPositions);
    connect(this, &AttentionPanel::probeRequested, m_worker, &ModelWorker::loadProbe);
    connect(this, &AttentionPanel::validationRequested, m_worker, &ModelWorker::pickValidationText);
    connect(m_worker, &ModelWorker::captured, this,
            [this](const twb::nn::AttentionCapture& c, const twb::nn::HeadScores& scores, qint64 step) {
                setBusy(false);
                if (!m_modePrompt->isChecked())
                    return;
                showCapture(c, scores, step);
                if (!c.warnings.empty())
                    emit statusMessage(QString::fromStdString(c.warnings.front()));
            });
    connect(m_worker, &ModelWorker::probeLoaded, this,
            [this](const QString& run, const twb::ProbeTimeline& t, const std::vector<twb::nn::HeadScores>& scores) {
                setBusy(false);
                if (run != m_picker->run())
                    return;
                const bool atEnd = m_timeline.empty() || m_slider->value() >= m_slider->maximum();  // follow the newest
                m_timeline = t;
                m_timelineScores = scores;
                m_probeBytes = QFileInfo(run + "/probe/attention.u8").size();
                if (t.empty()) {
                    m_slider->setEnabled(false);
                    m_stepLabel->setText(tr("no timeline"));
                    showError(
                        tr("This run has no probe timeline yet: it is written at every evaluation of runs trained by "
                           "this version (the first at step 0)."));
                    redrawScores();
                    return;
                }
                m_error->clear();
                QString probe;  // the probe's text, shown where the prompt goes
                for (const auto& tok : t.tokens)
                    probe += QString::fromStdString(tok);
                m_prompt->setPlainText(probe);
                QSignalBlocker b(m_slider);
                m_slider->setEnabled(true);
                m_slider->setRange(0, static_cast<int>(t.steps.size()) - 1);
                if (atEnd || m_slider->value() > m_slider->maximum())
                    m_slider->setValue(m_slider->maximum());
                b.unblock();
                redrawScores();
                setTimelineIndex(m_slider->value());
            });
    connect(m_worker, &ModelWorker::positionsLoaded, this, [this](const twb::nn::PositionTable& t) {
        setBusy(false);
        QStringList rows, cols;
        for (int64_t i = 0; i < t.rows; ++i)
            rows << QString::number(i);
        for (int64_t i = 0; i < t.cols; ++i)
            cols << QString::number(i);
        m_posMap->setMatrix(static_cast<int>(t.rows), static_cast<int>(t.cols), t.values, rows, cols, tr("position"),
                            QString::fromStdString(t.col_label), -1, 1, true);
        const QString kind = QString::fromStdString(t.kind);
        m_posInfo->setText(kind == "rotary"
                               ? tr("Rotary positions (RoPE): each pair of query/key dimensions i is rotated by "
                                    "position·θ_i with θ_i = 10000^(−2i/d). The map shows cos(position·θ_i); "
                                    "the plot below the frequencies.")
                           : kind == "sinusoidal"
                               ? tr("Sinusoidal positions (Vaswani et al. 2017): sin on even, cos on odd dimensions, "
                                    "wavelengths growing geometrically across the embedding.")
                               : tr("Learned positions: the rows of wpe, the position embedding table the model "
                                    "trained (values clipped to −1..1 in colour)."));
        m_freqPlot->clearGraphs();
        m_freqPlot->setVisible(!t.frequencies.empty());
        if (!t.frequencies.empty()) {
            auto* g = m_freqPlot->addGraph();
            for (size_t i = 0; i < t.frequencies.size(); ++i)
                g->addData(static_cast<double>(i), t.frequencies[i]);
            g->setLineStyle(QCPGraph::lsNone);
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
            m_freqPlot->rescaleAxes();
            m_freqPlot->xAxis->setRange(-0.5, static_cast<double>(t.frequencies.size()) - 0.5);
            m_freqPlot->yAxis->setRange(t.frequencies.back() / 2, t.frequencies.front() * 2);
            m_freqPlot->replot();
        }
    });
    connect(m_worker, &ModelWorker::validationText, this, [this](const QString& text) {
        setBusy(false);
        m_prompt->setPlainText(text);
        m_modePrompt->setChecked(true);
        showPrompt();
    });
    connect(m_worker, &ModelWorker::failed, this, [this](const QString& e) {
        setBusy(false);
        showError(e);
    });
    m_thread.start();

    connect(m_show, &QPushButton::clicked, this, [this] {
        if (m_modeTimeline->isChecked())
            showTimeline();
        else
            showPrompt();
    });
    connect(new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this), &QShortcut::activated, m_show,
            &QPushButton::click);
    connect(m_fromVal, &QPushButton::clicked, this, [this] {
        if (m_picker->run().isEmpty())
            return showError(tr("Choose a run first."));
        setBusy(true);
        emit validationRequested(m_picker->run());
    });
    connect(m_modeTimeline, &QRadioButton::toggled, this, [this](bool on) {
        m_prompt->setEnabled(!on);
        m_fromVal->setEnabled(!on);
        if (on)
            showTimeline();
        else {
            m_poll.stop();  // an idle window does not wake up
            showPrompt();
        }
    });
    connect(m_view, &QComboBox::currentIndexChanged, this, [this] {
        m_headBox->setEnabled(m_view->currentIndex() == 0);
        redraw();
    });
    connect(m_score, &QComboBox::currentIndexChanged, this, [this] {
        m_grid->setScores(currentScores(), m_score->currentText());
        redrawScores();
    });
    connect(m_layerBox, &QSpinBox::valueChanged, this, [this](int l) { select(l, m_head); });
    connect(m_headBox, &QSpinBox::valueChanged, this, [this](int h) { select(m_layer, h); });
    connect(m_grid, &HeadGrid::headClicked, this, [this](int l, int h) {
        if (h < 0)
            m_view->setCurrentIndex(1);
        else if (m_view->currentIndex() != 0)
            m_view->setCurrentIndex(0);
        select(l, h < 0 ? m_head : h);
    });
    connect(m_slider, &QSlider::valueChanged, this, &AttentionPanel::setTimelineIndex);
    connect(m_heat, &Heatmap::hovered, m_hover, &QLabel::setText);
    connect(exportView, &QPushButton::clicked, this, &AttentionPanel::exportView);
    connect(exportData, &QPushButton::clicked, this, &AttentionPanel::exportData);
    connect(loadPos, &QPushButton::clicked, this, &AttentionPanel::loadPositions);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int i) {
        if (i == 2 && m_posMap->rows() == 0 && !m_busy && !m_picker->run().isEmpty())
            loadPositions();
    });
    connect(m_picker, &RunPicker::changed, this, [this] {
        m_timeline = {};
        m_timelineScores.clear();
        m_probeBytes = -1;
        if (m_modeTimeline->isChecked())
            showTimeline();
    });
    // Runs trained elsewhere (the CLI) grow their probe too: look at its size every few seconds while
    // the timeline is shown. A stat() per tick; the file is read only when it changed.
    m_poll.setInterval(3000);
    connect(&m_poll, &QTimer::timeout, this, [this] {
        if (!m_modeTimeline->isChecked() || m_busy || m_picker->run().isEmpty() || !m_live->isChecked())
            return;
        const qint64 size = QFileInfo(m_picker->run() + "/probe/attention.u8").size();
        if (size != m_probeBytes)
            showTimeline();
    });
    m_view->setCurrentIndex(QSettings().value("attention/view", 0).toInt());
    m_score->setCurrentIndex(QSettings().value("attention/score", 0).toInt());
}

AttentionPanel::~AttentionPanel() {
    QSettings st;
    st.setValue("attention/prompt", m_prompt->toPlainText().left(4000));
    st.setValue("attention/view", m_view->currentIndex());
    st.setValue("attention/score", m_score->currentIndex());
    m_thread.quit();
    m_thread.wait();
}

void AttentionPanel::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    // First look at the panel: show the prompt at once rather than an empty view.
    if (m_cap.layers == 0 && !m_busy && lastError().isEmpty() && !m_picker->run().isEmpty() &&
        m_modePrompt->isChecked())
        showPrompt();
}

void AttentionPanel::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    m_grid->fitWidth(m_gridScroll->viewport()->width());
}

void AttentionPanel::setRun(const QString& dir) {
    m_picker->setRun(dir);
}
void AttentionPanel::setPrompt(const QString& text) {
    m_prompt->setPlainText(text);
}
void AttentionPanel::setView(View v) {
    m_view->setCurrentIndex(static_cast<int>(v));
}
void AttentionPanel::setScore(int i) {
    m_score->setCurrentIndex(i);
}

void AttentionPanel::setBusy(bool b) {
    m_busy = b;
    m_show->setEnabled(!b);
    m_fromVal->setEnabled(!b && m_modePrompt->isChecked());
}

void AttentionPanel::showError(const QString& e) {
    m_error->setText(e);
    emit statusMessage(e);
}

void AttentionPanel::showPrompt() {
    if (m_busy)
        return;
    if (m_picker->run().isEmpty())
        return showError(tr("No run to look into: train one in the Training panel or open a run folder (…)."));
    m_error->clear();
    setBusy(true);
    emit captureRequested(AttentionRequest{m_picker->run(), m_picker->checkpoint(), m_prompt->toPlainText()});
}

void AttentionPanel::showTimeline() {
    if (m_picker->run().isEmpty())
        return showError(tr("Choose a run to see its probe timeline."));
    if (!m_modeTimeline->isChecked()) {
        QSignalBlocker b(m_modeTimeline);
        m_modeTimeline->setChecked(true);
        m_prompt->setEnabled(false);
    }
    m_error->clear();
    setBusy(true);
    m_poll.start();
    emit probeRequested(m_picker->run());
}

void AttentionPanel::setTimelineIndex(int i) {
    if (m_timeline.empty() || i < 0 || i >= static_cast<int>(m_timeline.steps.size()))
        return;
    m_stepLabel->setText(tr("step %1 (%2 of %3)").arg(m_timeline.steps[i]).arg(i + 1).arg(m_timeline.steps.size()));
    showCapture(m_timeline.at(static_cast<size_t>(i)), m_timelineScores[static_cast<size_t>(i)], m_timeline.steps[i]);
    moveStepLine();
}

void AttentionPanel::runUpdated(const QString& run) {
    if (run != m_picker->run() || !m_live->isChecked())
        return;
    m_picker->refresh();
    if (m_modeTimeline->isChecked())
        showTimeline();
    else if (!m_busy && m_cap.length > 0) {
        m_picker->setCheckpoint("last");
        showPrompt();
    }
}

std::vector<float> AttentionPanel::currentScores() const {
    return scoreOf(m_scores, m_score->currentIndex());
}

void AttentionPanel::showCapture(const twb::nn::AttentionCapture& cap, const twb::nn::HeadScores& scores, qint64 step) {
    m_cap = cap;
    m_step = step;
    m_scores = scores;
    m_grid->setCapture(m_cap, currentScores(), m_score->currentText());
    QSignalBlocker b1(m_layerBox), b2(m_headBox);
    m_layerBox->setRange(0, std::max<int>(0, static_cast<int>(cap.layers) - 1));
    m_headBox->setRange(0, std::max<int>(0, static_cast<int>(cap.heads) - 1));
    m_layer = std::min<int>(m_layer, static_cast<int>(cap.layers) - 1);
    m_head = std::min<int>(m_head, static_cast<int>(cap.heads) - 1);
    m_layerBox->setValue(m_layer);
    m_headBox->setValue(m_head);
    redraw();
}

void AttentionPanel::select(int layer, int head) {
    if (m_cap.layers == 0)
        return;
    m_layer = std::clamp(layer, 0, static_cast<int>(m_cap.layers) - 1);
    m_head = std::clamp(head, 0, static_cast<int>(m_cap.heads) - 1);
    QSignalBlocker b1(m_layerBox), b2(m_headBox);
    m_layerBox->setValue(m_layer);
    m_headBox->setValue(m_head);
    redraw();
}

void AttentionPanel::redraw() {
    if (m_cap.layers == 0)
        return;
    const int T = static_cast<int>(m_cap.length);
    const auto v = static_cast<View>(m_view->currentIndex());
    m_grid->setSelected(m_layer, v == View::Head ? m_head : -1);
    m_grid->fitWidth(m_gridScroll->viewport()->width());
    m_grid->resize(m_grid->sizeHint());
    std::vector<float> m;
    QString what;
    if (v == View::Head) {
        m.assign(m_cap.weights.begin() + static_cast<long>((m_layer * m_cap.heads + m_head) * T * T),
                 m_cap.weights.begin() + static_cast<long>((m_layer * m_cap.heads + m_head + 1) * T * T));
        const auto& s = m_scores;
        const size_t i = static_cast<size_t>(m_layer * m_cap.heads + m_head);
        what = tr("layer %1 head %2 · entropy %3 · previous token %4 · first token %5")
                   .arg(m_layer)
                   .arg(m_head)
                   .arg(s.entropy[i], 0, 'f', 2)
                   .arg(s.previous[i], 0, 'f', 2)
                   .arg(s.first[i], 0, 'f', 2);
    } else if (v == View::LayerMean) {
        m = twb::nn::mean_over_heads(m_cap, m_layer);
        what = tr("layer %1, mean over %2 heads").arg(m_layer).arg(m_cap.heads);
    } else {
        m = twb::nn::attention_rollout(m_cap, m_layer);
        what = tr("rollout through layers 0–%1").arg(m_layer);
    }
    for (int q = 0; q < T; ++q)
        for (int k = q + 1; k < T; ++k)
            m[static_cast<size_t>(q) * T + k] = NAN;  // the masked future stays blank
    const QStringList lab = labels(m_cap.tokens);
    m_heat->setMatrix(T, T, m, lab, lab, tr("query"), tr("key"), 0, 1);
    m_info->setText(tr("%1 · step %2 · %3 tokens").arg(what).arg(m_step).arg(T));
}

void AttentionPanel::redrawScores() {
    m_scorePlot->clearGraphs();
    m_scorePlot->clearItems();
    m_stepLine = nullptr;  // deleted with the items
    const int idx = m_score->currentIndex();
    m_scorePlot->yAxis->setLabel(m_score->currentText());
    if (m_timelineScores.empty()) {
        m_scorePlot->replot();
        return;
    }
    const int L = static_cast<int>(m_timeline.layers), H = static_cast<int>(m_timeline.heads);
    for (int l = 0; l < L; ++l)
        for (int h = 0; h < H; ++h) {
            auto* g = m_scorePlot->addGraph();
            g->setName(tr("L%1 H%2").arg(l).arg(h));
            g->setPen(QPen(
                QColor::fromHsvF(static_cast<double>(l) / std::max(1, L), 0.8, 0.35 + 0.6 * h / std::max(1, H)), 1.5));
            for (size_t i = 0; i < m_timelineScores.size(); ++i) {
                const auto& v = scoreOf(m_timelineScores[i], idx);
                g->addData(static_cast<double>(m_timeline.steps[i]), v[static_cast<size_t>(l * H + h)]);
            }
        }
    m_stepLine = new QCPItemStraightLine(m_scorePlot);
    m_stepLine->setPen(QPen(Qt::gray, 1, Qt::DashLine));
    m_stepLine->point1->setCoords(static_cast<double>(m_step), 0);
    m_stepLine->point2->setCoords(static_cast<double>(m_step), 1);
    m_scorePlot->rescaleAxes();
    m_scorePlot->yAxis->setRange(0, 1.02);
    m_scorePlot->legend->setVisible(L * H <= 24);
    m_scorePlot->replot();
}

void AttentionPanel::moveStepLine() {
    if (!m_stepLine)
        return;
    m_stepLine->point1->setCoords(static_cast<double>(m_step), 0);
    m_stepLine->point2->setCoords(static_cast<double>(m_step), 1);
    m_scorePlot->replot(QCustomPlot::rpQueuedReplot);
}

void AttentionPanel::loadPositions() {
    if (m_picker->run().isEmpty())
        return showError(tr("Choose a run first."));
    setBusy(true);
    emit positionsRequested(m_picker->run(), m_picker->checkpoint());
}

bool AttentionPanel::exportJson(const QString& path) const {
    QJsonObject o;
    o["step"] = m_step;
    o["layers"] = static_cast<qint64>(m_cap.layers);
    o["heads"] = static_cast<qint64>(m_cap.heads);
    QJsonArray toks, layers;
    for (const auto& t : m_cap.tokens)
        toks.append(QString::fromStdString(t));
    o["tokens"] = toks;
    const int64_t T = m_cap.length;
    for (int64_t l = 0; l < m_cap.layers; ++l) {
        QJsonArray heads;
        for (int64_t h = 0; h < m_cap.heads; ++h) {
            QJsonArray rows;
            for (int64_t q = 0; q < T; ++q) {
                QJsonArray row;
                for (int64_t k = 0; k <= q; ++k)
                    row.append(static_cast<double>(m_cap.at(l, h, q, k)));
                rows.append(row);
            }
            heads.append(rows);
        }
        layers.append(heads);
    }
    o["weights"] = layers;  // [layer][head][query][key <= query]
    return save_atomically(path, [&](const QString& tmp) {
        QFile f(tmp);
        return f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(o).toJson(QJsonDocument::Compact)) > 0;
    });
}

bool AttentionPanel::exportCsv(const QString& path) const {
    return save_atomically(path, [&](const QString& tmp) {
        QFile f(tmp);
        if (!f.open(QIODevice::WriteOnly))
            return false;
        QTextStream out(&f);
        out << "layer,head,query,key,query_token,key_token,weight\n";
        auto quote = [](QString s) { return "\"" + s.replace('"', "\"\"") + "\""; };
        for (int64_t l = 0; l < m_cap.layers; ++l)
            for (int64_t h = 0; h < m_cap.heads; ++h)
                for (int64_t q = 0; q < m_cap.length; ++q)
                    for (int64_t k = 0; k <= q; ++k)
                        out << l << ',' << h << ',' << q << ',' << k << ','
                            << quote(QString::fromStdString(m_cap.tokens[q])) << ','
                            << quote(QString::fromStdString(m_cap.tokens[k])) << ',' << m_cap.at(l, h, q, k) << '\n';
        return out.status() == QTextStream::Ok;
    });
}

void AttentionPanel::exportView() {
    const QString f =
        QFileDialog::getSaveFileName(this, tr("Export view"), QString(), tr("PNG image (*.png);;SVG (*.svg)"));
    if (f.isEmpty())
        return;
    const bool svg = f.endsWith(".svg", Qt::CaseInsensitive);
    if (!save_atomically(f, [&](const QString& tmp) { return svg ? m_heat->saveSvg(tmp) : m_heat->savePng(tmp); }))
        showError(tr("Cannot write %1: check the folder exists and is writable.").arg(f));
}

void AttentionPanel::exportData() {
    if (m_cap.layers == 0)
        return showError(tr("Nothing to export yet: show a prompt first."));
    const QString f =
        QFileDialog::getSaveFileName(this, tr("Export weights"), QString(), tr("JSON (*.json);;CSV (*.csv)"));
    if (f.isEmpty())
        return;
    const bool ok = f.endsWith(".csv", Qt::CaseInsensitive) ? exportCsv(f) : exportJson(f);
    if (!ok)
        showError(tr("Cannot write %1: check the folder exists and is writable.").arg(f));
}

QString AttentionPanel::lastError() const {
    return m_error->error();
}
