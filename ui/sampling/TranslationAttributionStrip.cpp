#include "ui/sampling/TranslationAttributionStrip.h"

#include "twb/run_folder.h"
#include "ui/jobs/JobsService.h"
#include "ui/widgets/FigureFile.h"
#include "ui/widgets/TokenDisplay.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

TranslationAttributionStrip::TranslationAttributionStrip(JobsService* jobs, QWidget* parent)
    : QWidget(parent), m_jobs(jobs), m_model(std::make_shared<Model>()) {
    setObjectName("translationAttributionStrip");
    m_title = new QLabel;
    m_title->setWordWrap(true);
    m_export = new QPushButton(tr("Export…"));
    m_export->setToolTip(
        tr("The strip as a picture (PNG/SVG), or every target token's attribution as numbers "
           "(CSV/JSON)"));
    m_view = new QTextBrowser;
    m_view->setObjectName("translationAttribution");
    m_view->setMaximumHeight(90);
    m_view->setToolTip(
        tr("Gradient × input: how the token's logit changes with each source token and each "
           "earlier target token (blue raised it, red lowered it)."));
    auto* top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(m_export);
    auto* col = new QVBoxLayout(this);
    col->setContentsMargins(0, 0, 0, 0);
    col->addLayout(top);
    col->addWidget(m_view);
    connect(m_export, &QPushButton::clicked, this, &TranslationAttributionStrip::exportAsked);
    hide();
}

bool TranslationAttributionStrip::exportNumbers(const QString& path) const {
    return !m_result.output_ids.empty() && saveNumbers(
                                               path, [this] { return twb::attribution_to_json(m_result); },
                                               [this] { return twb::attribution_to_csv(m_result); });
}

void TranslationAttributionStrip::exportAsked() {
    if (m_result.output_ids.empty())
        return;
    const QString error = exportFigureOrNumbers(m_view, this, tr("Export the attribution"),
                                                [this](const QString& f) { return exportNumbers(f); });
    if (!error.isEmpty())
        emit failed(error);
}

QString TranslationAttributionStrip::html() const {
    return m_view->toHtml();
}

void TranslationAttributionStrip::clear() {
    ++m_request;
    m_result = {};
    m_resultKey.clear();
    m_index = -1;
    m_view->clear();
    hide();
}

void TranslationAttributionStrip::attribute(const QString& run, const QString& checkpoint, const QString& source,
                                            const std::vector<int32_t>& target, int index) {
    const quint64 request = ++m_request;
    const QString ck = checkpoint.isEmpty() ? QStringLiteral("best") : checkpoint;
    QString key = run + '\n' + ck + '\n' + source + '\n';
    for (int32_t id : target)
        key += QString::number(id) + ' ';
    show();
    if (key == m_resultKey) {  // the same translation: another of its tokens
        m_index = index;
        render();
        emit finished();
        return;
    }
    m_view->clear();  // the last translation's strip is not this one's
    m_title->setText(tr("Where the token came from: computing…"));
    auto work = [m = m_model, run = run.toStdString(), ck = ck.toStdString(), source = source.toStdString(),
                 target](JobContext&) {
        std::lock_guard<std::mutex> hold(m->lock);
        // Open again for another run or checkpoint, or when "best"/"last" now names a newer one.
        const std::string now = twb::find_checkpoint(run, ck).string();
        if (run != m->run || now != m->checkpoint) {
            m->run.clear();
            m->translator.open(run, ck);
            m->run = run;
            m->checkpoint = now;
        }
        return m->translator.attribute(source, target);
    };
    m_job = m_jobs->run(
        QString(), work, this,
        [this, request, key, index](twb::TranslationAttribution a) {
            if (request != m_request)
                return;
            m_result = std::move(a);
            m_resultKey = key;
            m_index = index;
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

void TranslationAttributionStrip::render() {
    const auto& a = m_result;
    if (m_index < 0 || static_cast<size_t>(m_index) >= a.output_ids.size())
        return;
    const auto t = static_cast<size_t>(m_index);
    double scale = 0;
    for (size_t s = 0; s < a.source_ids.size(); ++s)
        scale = std::max(scale, std::abs(a.source(t, s)));
    for (size_t u = 0; u <= t; ++u)
        scale = std::max(scale, std::abs(a.input(t, u)));
    size_t top = 0;
    for (size_t s = 1; s < a.source_ids.size(); ++s)
        if (std::abs(a.source(t, s)) > std::abs(a.source(t, top)))
            top = s;
    const auto span = [scale](const std::string& token, double v, const QString& where) {
        return QString("<span style=\"background:%1\" title=\"%2: %3\">%4</span>")
            .arg(attributionTint(scale > 0 ? v / scale : 0))
            .arg(where)
            .arg(v, 0, 'g', 4)
            .arg(tokenHtml(QString::fromStdString(token)));
    };
    QString html = "<b>" + tr("Source") + ":</b> ";
    for (size_t s = 0; s < a.source_ids.size(); ++s)
        html += span(a.source_tokens[s], a.source(t, s), tr("source %1").arg(s));
    html += "<br><b>" + tr("Translation before it") + ":</b> ";
    for (size_t u = 0; u <= t && u < a.input_ids.size(); ++u)
        html += span(a.input_tokens[u], a.input(t, u), tr("target %1").arg(u));
    m_view->setHtml(html);
    m_title->setText(tr("Where “%1” (p = %2) came from, by gradient × input: among the source's tokens the most "
                        "from “%3”. Hover a token for its value.")
                         .arg(visibleToken(QString::fromStdString(a.output_tokens[t])))
                         .arg(QLocale().toString(a.output_prob[t], 'f', 3))
                         .arg(visibleToken(QString::fromStdString(a.source_tokens[top]))));
}
