#include "ui/inspection/LogitLensView.h"

#include "twb/session.h"
#include "twb/translation.h"
#include "ui/inspection/InspectedRun.h"
#include "ui/inspection/LensGrid.h"
#include "ui/jobs/JobsService.h"
#include "ui/widgets/FigureFile.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QVBoxLayout>

LogitLensView::LogitLensView(JobsService* jobs, QWidget* parent)
    : PanelBase(jobs, parent),
      m_session(std::make_shared<twb::ModelSession>()),
      m_translator(std::make_shared<twb::Translator>()) {
    QSettings st;
    m_prompt = new QLineEdit(st.value("lens/prompt", "The quick brown fox jumps over the lazy dog").toString());
    m_prompt->setObjectName("lensPrompt");
    m_prompt->setPlaceholderText(tr("A prompt: the lens shows every position of it"));
    m_top = new QSpinBox;
    m_top->setRange(1, 20);
    m_top->setValue(st.value("lens/top", 5).toInt());
    m_top->setPrefix(tr("top "));
    m_top->setToolTip(tr("Tokens listed on hover and exported per cell"));
    m_show = new QPushButton(tr("Show"));
    m_show->setObjectName("lensShow");
    m_show->setToolTip(tr("Look through the layers (Return)"));
    m_figure = new QPushButton(tr("Export figure…"));
    m_numbers = new QPushButton(tr("Export numbers…"));
    m_figure->setEnabled(false);
    m_numbers->setEnabled(false);
    m_grid = new LensGrid;
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_grid);
    scroll->setWidgetResizable(false);
    scroll->setBackgroundRole(QPalette::Base);  // one canvas around the grid (empty, it was a white box in a grey one)
    m_info = new QLabel(
        tr("Each row is what the model would predict if it stopped there: the final norm and the "
           "output layer applied to the residual stream after the embedding and after each block. The top row (the "
           "last block = output) is the model's own "
           "prediction; an orange corner marks a cell that already agrees with it. Hover a cell for its top "
           "tokens. For a translation run, type a source sentence: the lens looks through the decoder over the "
           "model's translation."));
    m_info->setWordWrap(true);

    auto* row = new QHBoxLayout;
    row->addWidget(m_prompt, 1);
    row->addWidget(m_top);
    row->addWidget(m_show);
    row->addWidget(m_figure);
    row->addWidget(m_numbers);
    m_runNote = new QLabel(inspectedRunText({}, {}));
    m_runNote->setObjectName("lensRun");
    auto* col = new QVBoxLayout(this);
    col->addWidget(m_runNote);
    col->addLayout(row);
    col->addWidget(errorLabel());
    m_cropNote = new QLabel;
    m_cropNote->setObjectName("lensCropNote");
    m_cropNote->setWordWrap(true);
    m_cropNote->hide();
    col->addWidget(m_cropNote);
    col->addWidget(m_info);
    col->addWidget(scroll, 1);

    connect(m_show, &QPushButton::clicked, this, &LogitLensView::show);
    connect(m_prompt, &QLineEdit::returnPressed, this, &LogitLensView::show);
    connect(m_figure, &QPushButton::clicked, this, [this] {
        const QString e = exportFigure(m_grid, this, tr("Export the logit lens"));
        if (!e.isEmpty())
            showError(e);
    });
    connect(m_numbers, &QPushButton::clicked, this, &LogitLensView::exportNumbersAsked);
}

LogitLensView::~LogitLensView() {
    QSettings st;
    st.setValue("lens/prompt", m_prompt->text().left(4000));
    st.setValue("lens/top", m_top->value());
}

void LogitLensView::setPrompt(const QString& text) {
    m_prompt->setText(text);
}

void LogitLensView::setRun(const QString& run, const QString& checkpoint) {
    const QString ck = checkpoint.isEmpty() ? QStringLiteral("best") : checkpoint;
    if (run == m_run && ck == m_checkpoint)
        return;
    m_run = run;
    m_checkpoint = ck;
    m_runNote->setText(inspectedRunText(run, ck));
    m_grid->setLens(twb::LogitLens{});  // "press Show" until the lens of this one is computed
    m_cropNote->hide();
    m_figure->setEnabled(false);
    m_numbers->setEnabled(false);
    clearError();  // the run before's
}

void LogitLensView::busyChanged(bool busy) {
    m_show->setEnabled(!busy);
}

void LogitLensView::show() {
    if (isRunning(m_job))
        return;
    if (m_run.isEmpty())
        return showError(tr("No run to look into: train one in the Training panel or open a run folder."));
    clearError();
    setBusy(true);
    m_cropNote->hide();
    struct Answer {
        twb::LogitLens lens;
        size_t tokens = 0;  // the prompt's, of which the lens shows the last block_size
    };
    auto work = [s = m_session, tr = m_translator, run = m_run.toStdString(), ck = m_checkpoint.toStdString(),
                 prompt = m_prompt->text().toStdString(), top = m_top->value()](JobContext&) {
        Answer a;
        if (twb::is_encoder_decoder_run(run)) {  // the decoder's layers over the model's translation
            tr->open(run, ck);
            a.lens = tr->logit_lens(prompt, "", top);
            a.tokens = a.lens.ids.size();
            return a;
        }
        s->open(run, ck);
        a.lens = s->logit_lens(prompt, top);
        a.tokens = s->encode(prompt).size();
        return a;
    };
    m_job = jobs()->run(
        QString(), work, this,
        [this](Answer a) {
            setBusy(false);
            const twb::LogitLens& lens = a.lens;
            // A prompt longer than the model's context was cut to its last block_size tokens without a word
            // (the Attention tab and twb lens say so)
            if (static_cast<int64_t>(a.tokens) > lens.positions) {
                m_cropNote->setText(tr("The text has %1 tokens; the lens shows the last %2 (the model's context, "
                                       "block_size).")
                                        .arg(a.tokens)
                                        .arg(lens.positions));
                m_cropNote->show();
            }
            m_grid->setLens(lens);
            m_figure->setEnabled(true);
            m_numbers->setEnabled(true);
            emit shown();
        },
        [this](const QString& e) {
            setBusy(false);
            showError(e);
        });
}

bool LogitLensView::exportNumbers(const QString& path) {
    const auto& lens = m_grid->lens();
    return lens.positions > 0 &&
           saveNumbers(
               path, [&] { return twb::lens_to_json(lens); }, [&] { return twb::lens_to_csv(lens); });
}

void LogitLensView::exportNumbersAsked() {
    const QString f = QFileDialog::getSaveFileName(this, tr("Export the lens's numbers"), QString(),
                                                   tr("CSV (*.csv);;JSON (*.json)"));
    if (!f.isEmpty() && !exportNumbers(f))
        showError(tr("Cannot write %1: check the folder exists and is writable.").arg(f));
}
