#include "ui/sampling/AttributionStrip.h"

#include "twb/session.h"
#include "ui/jobs/JobsService.h"
#include "ui/widgets/FigureFile.h"
#include "ui/widgets/TokenDisplay.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

AttributionStrip::AttributionStrip(JobsService* jobs, QWidget* parent)
    : QWidget(parent), m_jobs(jobs), m_model(std::make_shared<Model>()) {
    setObjectName("attributionStrip");
    m_title = new QLabel;
    m_title->setObjectName("attributionTitle");
    m_title->setWordWrap(true);
    m_measure = new QComboBox;
    m_measure->setObjectName("attributionMeasure");
    m_measure->addItems({tr("gradient × input"), tr("attention rollout")});
    m_measure->setToolTip(
        tr("Gradient × input: how the token's logit changes with each earlier token (blue "
           "raised it, red lowered it). Attention rollout: how much of the last position's "
           "attention, through every layer, reaches each token."));
    m_measure->setCurrentIndex(QSettings().value("sampling/attributionMeasure", 0).toInt());
    m_export = new QPushButton(tr("Export…"));
    m_export->setToolTip(tr("The strip as a picture (PNG/SVG) or its numbers (CSV/JSON)"));
    m_view = new QTextBrowser;
    m_view->setObjectName("attribution");
    m_view->setMaximumHeight(90);
    // The title has the whole width: beside the chooser and Export it was squeezed into a column of a word
    // or two a line at 150% text, which took the output's height. They stand beside the strip instead.
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(m_measure);
    buttons->addWidget(m_export);
    buttons->addStretch(1);
    auto* strip = new QHBoxLayout;
    strip->addWidget(m_view, 1);
    strip->addLayout(buttons);
    auto* col = new QVBoxLayout(this);
    col->setContentsMargins(0, 0, 0, 0);
    col->addWidget(m_title);
    col->addLayout(strip);
    connect(m_measure, &QComboBox::currentIndexChanged, this, [this](int i) {
        QSettings().setValue("sampling/attributionMeasure", i);
        render();
    });
    connect(m_export, &QPushButton::clicked, this, &AttributionStrip::exportAsked);
    hide();
}

bool AttributionStrip::exportNumbers(const QString& path) const {
    return !m_result.ids.empty() && saveNumbers(
                                        path, [this] { return twb::attribution_to_json(m_result); },
                                        [this] { return twb::attribution_to_csv(m_result); });
}

void AttributionStrip::exportAsked() {
    if (m_result.ids.empty())
        return;
    const QString error = exportFigureOrNumbers(m_view, this, tr("Export the attribution"),
                                                [this](const QString& f) { return exportNumbers(f); });
    if (!error.isEmpty())
        emit failed(error);
}

void AttributionStrip::setMeasure(int index) {
    m_measure->setCurrentIndex(index);
}

QString AttributionStrip::html() const {
    return m_view->toHtml();
}

void AttributionStrip::clear() {
    ++m_request;
    m_result = {};
    m_view->clear();
    hide();
}

void AttributionStrip::attribute(const QString& run, const QString& checkpoint, const std::vector<int32_t>& context,
                                 int target) {
    const quint64 request = ++m_request;
    show();
    m_view->clear();  // the last token's strip is not this one's (it stayed under a failure's message)
    m_title->setText(tr("Where the token came from: computing…"));
    auto work = [m = m_model, run = run.toStdString(), ck = checkpoint.isEmpty() ? "best" : checkpoint.toStdString(),
                 context, target](JobContext&) {
        std::lock_guard<std::mutex> hold(m->lock);
        m->session.open(run, ck);
        return m->session.attribute(context, target);
    };
    m_job = m_jobs->run(
        QString(), work, this,
        [this, request](twb::TokenAttribution a) {
            if (request != m_request)
                return;
            m_result = std::move(a);
            render();
            emit finished();
        },
        [this, request](const QString& e) {
            if (request != m_request)
                return;
            m_title->setText(tr("No attribution: %1").arg(e));
            emit failed(e);
        });
}

void AttributionStrip::render() {
    const auto& a = m_result;
    if (a.ids.empty())
        return;
    const bool rollout = m_measure->currentIndex() == 1;
    const auto& v = rollout ? a.rollout : a.gradient_x_input;
    double scale = 0;
    for (double x : v)
        scale = std::max(scale, std::abs(x));
    size_t top = 0;
    for (size_t i = 1; i < v.size(); ++i)
        if (std::abs(v[i]) > std::abs(v[top]))
            top = i;
    QString html;
    for (size_t i = 0; i < a.ids.size(); ++i) {
        html += QString("<span style=\"background:%1\" title=\"%2: %3\">%4</span>")
                    .arg(attributionTint(scale > 0 ? v[i] / scale : 0))
                    .arg(i + 1)  // counted from 1, as the title counts
                    .arg(v[i], 0, 'g', 4)
                    .arg(tokenHtml(QString::fromStdString(a.tokens[i])));
    }
    m_view->setHtml(html);
    // "of the N before it": the context, prompt included, not the generated tokens the side list numbers
    m_title->setText(tr("Where “%1” (p = %2 at temperature 1) came from, by %3: the most from “%4” (token %5 of the "
                        "%6 before it). Hover a token for its value.")
                         .arg(visibleToken(QString::fromStdString(a.target_text)))
                         .arg(QLocale().toString(a.target_prob, 'f', 3))
                         .arg(m_measure->currentText())
                         .arg(visibleToken(QString::fromStdString(a.tokens[top])))
                         .arg(top + 1)  // counted from 1, as "of N" reads ("token 21 of 22" was the last)
                         .arg(a.ids.size()));
}
