#include "ui/datasets/TokenizeTab.h"

#include "ui/widgets/TokenDisplay.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace {
QString q(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

/// What the histogram counts, one of it: "line" or "document", in the interface's language (it read
/// "tokener per line" in Bokmål).
QString singular(const QString& unit) {
    if (unit == "documents")
        return QCoreApplication::translate("TokenizeTab", "document");
    if (unit == "lines")
        return QCoreApplication::translate("TokenizeTab", "line");
    return unit;
}

bool fixedVocabulary(const QString& kind) {
    return kind == "char" || kind == "byte";
}
}  // namespace

QString TokenizeTab::mergesSource() const {
    return m_mergesSource->text().trimmed();
}
void TokenizeTab::setMergesSource(const QString& dir) {
    m_mergesSource->setText(dir);
}
QString TokenizeTab::mergesSample() const {
    return m_mergesSample->text();
}

void TokenizeTab::setMerges(const twb::BpeMergeInspection& r) {
    auto tokens = [](const std::vector<std::string>& ts) {
        QString h;
        const char* colours[] = {"#dbe8ff", "#ffe6c7"};
        for (size_t i = 0; i < ts.size(); ++i) {
            const QString shown = tokenHtml(q(ts[i]));
            h += QStringLiteral("<span style=\"background-color:%1\">%2</span>")
                     .arg(colours[i % 2], shown.isEmpty() ? QStringLiteral("∅") : shown);
        }
        return h;
    };
    // A merge's pieces as the vocabulary shows them (a space as ␣: "␣ + t" read as " + t"), each on its
    // tint, and the rank in a column of its own ("1h + e" ran the two together)
    auto piece = [](const std::string& t) {
        return QStringLiteral("<span style=\"background-color:#eef2f8\">%1</span>")
            .arg(visibleToken(q(t)).toHtmlEscaped());
    };
    auto merges = [&piece](const std::vector<twb::BpeMerge>& list) {
        QString h;
        for (const auto& m : list)
            h += QStringLiteral(
                     "<tr><td align=right style=\"color:#777\">%1.</td><td>%2 + %3 → <b>%4</b></td>"
                     "<td style=\"color:#777\">id %5</td></tr>")
                     .arg(m.rank)
                     .arg(piece(m.left), piece(m.right), piece(m.merged))
                     .arg(m.id);
        return h;
    };
    const QString table = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\">");
    QString html = QStringLiteral("<div style=\"font-family:monospace\">");
    html += tr("<p>%1 merges</p>").arg(r.merges);
    html += tr("<p><b>First merges</b></p>%1%2</table>").arg(table, merges(r.first));
    html += tr("<p><b>Last merges</b></p>%1%2</table>").arg(table, merges(r.last));
    html +=
        tr("<p><b>The sample, step by step</b></p>%1<tr><td>bytes</td><td>%2</td></tr>").arg(table, tokens(r.start));
    for (const auto& st : r.steps)
        html += QStringLiteral("<tr><td align=right>%1</td><td>%2</td></tr>").arg(st.merge.rank).arg(tokens(st.tokens));
    m_merges->setHtml(html + "</table></div>");
}

TokenizeTab::~TokenizeTab() {
    QSettings st;
    st.setValue("datasets/mergesSource", m_mergesSource->text());
    st.setValue("datasets/mergesSample", m_mergesSample->text());
    st.setValue("datasets/tokenizer", m_kind[0]->currentData());
    st.setValue("datasets/vocab", m_vocabSize[0]->value());
    st.setValue("datasets/compareTokenizer", m_kind[1]->currentData());
    st.setValue("datasets/compareVocab", m_vocabSize[1]->value());
    st.setValue("datasets/valFraction", m_valFraction->value());
    st.setValue("datasets/documents", m_documents->isChecked());
}

twb::TokenizerSpec TokenizeTab::tokenizerSpec(int which) const {
    twb::TokenizerSpec t;
    const QString kind = m_kind[which]->currentData().toString();
    t.kind = twb::parse_choice<twb::TokenizerKind>(kind.toStdString(), "tokenizer");
    t.vocab_size = fixedVocabulary(kind) ? 0 : m_vocabSize[which]->value();
    return t;
}

QString TokenizeTab::label(const twb::TokenizerSpec& spec) {
    return q(twb::to_string(spec.kind)) + (spec.vocab_size ? QStringLiteral(" %1").arg(spec.vocab_size) : QString());
}

void TokenizeTab::setTokenizer(int which, const QString& kind, int vocab) {
    m_kind[which]->setCurrentIndex(std::max(0, m_kind[which]->findData(kind)));
    if (vocab > 0)
        m_vocabSize[which]->setValue(vocab);
}
QString TokenizeTab::datasetName() const {
    return m_name->text();
}
void TokenizeTab::setDatasetName(const QString& name) {
    m_name->setText(name);
}
double TokenizeTab::valFraction() const {
    return m_valFraction->value();
}
void TokenizeTab::setValFraction(double f) {
    m_valFraction->setValue(f);
}
QString TokenizeTab::split() const {
    return m_split->currentData().toString();
}

QString TokenizeTab::tokenizerFrom() const {
    return m_tokenizerFrom->text().trimmed();
}
void TokenizeTab::setTokenizerFrom(const QString& dir) {
    m_tokenizerFrom->setText(dir);
}
bool TokenizeTab::documents() const {
    return m_documents->isChecked();
}
void TokenizeTab::setDocuments(bool on) {
    m_documents->setChecked(on);
}

void TokenizeTab::setAnalysis(int which, const TokenizerAnalysis& analysis) {
    (which ? m_b : m_a) = analysis;
    if (which == 0) {
        showStats();
        renderTokenPreview();
        showVocabulary();
    }
    showHistogram(which);
    if (m_a.stats.tokens && m_b.stats.tokens)
        showCompare();
}

void TokenizeTab::clearAnalysis() {
    // Other sources: the figures, bars and tokens shown were of the text before (they stayed, unmarked)
    m_a = m_b = {};
    m_stats->setText(tr("Tokenize to see statistics."));
    for (QCPBars*& bars : m_bars)
        if (bars) {
            m_hist->removePlottable(bars);
            bars = nullptr;
        }
    m_hist->legend->setVisible(false);
    m_hist->replot();
    m_tokPreview->clear();
    m_vocab->setRowCount(0);
    m_compareTable->setRowCount(0);
}

void TokenizeTab::showStats() {
    const auto& s = m_a.stats;
    QString top;
    for (size_t i = 0; i < std::min<size_t>(12, s.top_tokens.size()); ++i)
        top += QStringLiteral("“%1” ").arg(visibleToken(q(s.top_tokens[i].text)).toHtmlEscaped());
    const QLocale loc;  // counts with the thousands separators the rest of the interface uses
    auto n = [&loc](auto v) { return loc.toString(static_cast<qlonglong>(v)); };
    m_stats->setText(tr("<b>%1</b><br>%2 characters → %3 tokens<br>%4 characters per token<br>vocabulary %5 "
                        "(%6 used)<br>unknown %7%<br>train %8 · val %9 tokens<br>%10 per %11: mean %12, max %13"
                        "<br>most frequent: %14")
                         .arg(m_a.label)
                         .arg(n(s.characters), n(s.tokens))
                         .arg(QLocale().toString(s.chars_per_token, 'f', 3))
                         .arg(n(s.vocab_size), n(s.vocab_used))
                         .arg(QLocale().toString(100 * s.unk_rate, 'f', 3))
                         .arg(n(m_a.trainTokens), n(m_a.valTokens))
                         .arg(tr("tokens"), singular(q(s.length_unit)))
                         .arg(QLocale().toString(s.length_mean, 'f', 1))
                         .arg(n(s.length_max))
                         .arg(top));
    // sentencepiece's BPE and unigram keep 256 byte pieces (<0x00>…<0xFF>) for characters no piece covers: a
    // vocabulary of 500 asked held 244 pieces of text, and nothing said so. Byte fallback adds all 256 (the tab
    // shows <0x09> and <0x0A> as the tab and the newline they are, so they are not counted by their look).
    static const QRegularExpression bytePiece("^<0x[0-9A-F]{2}>$");
    if (std::any_of(m_a.tokenTexts.begin(), m_a.tokenTexts.end(),
                    [](const QString& t) { return bytePiece.match(t).hasMatch(); }))
        m_stats->setText(m_stats->text() +
                         tr("<br>%1 of the vocabulary are byte pieces (&lt;0x00&gt;…&lt;0xFF&gt;) for characters "
                            "no other piece covers")
                             .arg(n(256)));
}

void TokenizeTab::showVocabulary() {
    m_vocab->setSortingEnabled(false);
    m_vocab->setRowCount(m_a.tokenTexts.size());
    for (int i = 0; i < m_a.tokenTexts.size(); ++i) {
        m_vocab->setItem(i, 0, new QTableWidgetItem(visibleToken(m_a.tokenTexts[i])));
        auto* id = new QTableWidgetItem;
        id->setData(Qt::DisplayRole, i);
        m_vocab->setItem(i, 1, id);
        auto* c = new QTableWidgetItem;
        c->setData(Qt::DisplayRole, static_cast<qulonglong>(m_a.counts[static_cast<size_t>(i)]));
        m_vocab->setItem(i, 2, c);
    }
    m_vocab->horizontalHeader()->setSortIndicator(1, Qt::AscendingOrder);  // by id, as the tokenizer numbers
    m_vocab->setSortingEnabled(true);
    filterVocab(m_vocabSearch->text());
}

void TokenizeTab::showHistogram(int which) {
    // One histogram per tokenizer: a new analysis replaces its own bars and keeps the other's.
    const auto& a = which ? m_b : m_a;
    const auto& s = a.stats;
    if (m_bars[which])
        m_hist->removePlottable(m_bars[which]);
    auto* bars = m_bars[which] = new QCPBars(m_hist->xAxis, m_hist->yAxis);
    // The last bin also holds the longest 1% (the bins span the 99th percentile): each tokenizer's legend
    // entry says so, since the axis ends where the bins do.
    QString last;
    const size_t bins = s.length_counts.size();
    if (bins > 0 && s.length_bin_edges.size() == bins + 1 &&
        static_cast<double>(s.length_max) >= s.length_bin_edges[bins])
        last = tr(" (the last bar: %1 to %2)").arg(s.length_bin_edges[bins - 1]).arg(s.length_max);
    bars->setName((which ? tr("B: %1").arg(a.label) : tr("A: %1").arg(a.label)) + last);
    bars->setPen(Qt::NoPen);
    bars->setBrush(which ? QColor(230, 120, 30, 120) : QColor(40, 90, 200, 150));
    for (size_t i = 0; i + 1 < s.length_bin_edges.size() && i < s.length_counts.size(); ++i) {
        const double lo = s.length_bin_edges[i], hi = s.length_bin_edges[i + 1];
        bars->addData((lo + hi) / 2, static_cast<double>(s.length_counts[i]));
        bars->setWidth(std::max(1.0, hi - lo));
    }
    m_hist->xAxis->setLabel(tr("tokens per %1").arg(singular(q(s.length_unit))));
    m_hist->legend->setVisible(true);
    placeLegend();
}

bool TokenizeTab::eventFilter(QObject* watched, QEvent* e) {
    if (watched == m_hist && e->type() == QEvent::Resize && m_hist->legend->visible())
        QMetaObject::invokeMethod(this, &TokenizeTab::placeLegend, Qt::QueuedConnection);
    return QWidget::eventFilter(watched, e);
}

void TokenizeTab::placeLegend() {
    // It sat top right, over the peak when most lines are long. Placed for the plot's size of the moment:
    // the axes as the bars need them, the entries on one line each to start with.
    if (!m_bars[0] && !m_bars[1])
        return;
    m_hist->rescaleAxes();
    m_hist->yAxis->setRangeLower(0);
    for (QCPBars* bars : m_bars)
        if (bars)
            bars->setName(bars->name().replace(QStringLiteral("\n("), QStringLiteral(" (")));
    m_hist->replot();  // lays the plot out: the legend's size and the axis rect are known after it
    const QRect area = m_hist->axisRect()->rect();
    // A legend wider than the plot was cut at its side (at 110% and 150% text): each entry's note about the
    // last bar goes on a line of its own.
    if (m_hist->legend->outerRect().width() > area.width()) {
        for (QCPBars* bars : m_bars)
            if (bars)
                bars->setName(bars->name().replace(QStringLiteral(" ("), QStringLiteral("\n(")));
        m_hist->replot();
    }
    // The legend's room with the inset's margins: from the axis's top to under it, and from its side in.
    const QRect placed = m_hist->legend->outerRect();
    const QSize legend(placed.width() + (placed.top() - area.top()), placed.bottom() - area.top() + 2);
    const double legendBottom = m_hist->yAxis->pixelToCoord(area.top() + legend.height());
    auto tallestUnder = [&](bool right) {  // the highest bar under the legend's place in that corner
        const int x0 = right ? area.right() - legend.width() : area.left();
        const double k0 = m_hist->xAxis->pixelToCoord(x0), k1 = m_hist->xAxis->pixelToCoord(x0 + legend.width());
        double tallest = 0;
        for (QCPBars* bars : m_bars)
            if (bars)
                for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
                    if (it->key + bars->width() / 2 >= k0 && it->key - bars->width() / 2 <= k1)
                        tallest = std::max(tallest, it->value);
        return tallest;
    };
    const double right = tallestUnder(true), left = tallestUnder(false);
    const bool onRight = right < legendBottom || right <= left;
    m_hist->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | (onRight ? Qt::AlignRight : Qt::AlignLeft));
    const double tallest = onRight ? right : left;
    const double share = area.height() > 0 ? double(legend.height()) / area.height() : 0;
    if (tallest >= legendBottom && share < 0.8)  // raise the top until the bars stay below the legend
        m_hist->yAxis->setRangeUpper(tallest / (1 - share) * 1.05);
    m_hist->replot();
}

void TokenizeTab::showCompare() {
    struct Row {
        QString name;
        std::function<QString(const TokenizerAnalysis&)> f;
    };
    const std::vector<Row> rows = {
        {tr("tokenizer"), [](auto& a) { return a.label; }},
        {tr("tokens"), [](auto& a) { return QLocale().toString(static_cast<qulonglong>(a.stats.tokens)); }},
        {tr("tokens per character"),
         [](auto& a) {
             return QLocale().toString(a.stats.tokens / std::max(1.0, double(a.stats.characters)), 'f', 4);
         }},
        {tr("characters per token"), [](auto& a) { return QLocale().toString(a.stats.chars_per_token, 'f', 3); }},
        {tr("vocabulary"), [](auto& a) { return QLocale().toString(static_cast<qlonglong>(a.stats.vocab_size)); }},
        {tr("vocabulary used"), [](auto& a) { return QLocale().toString(static_cast<qlonglong>(a.stats.vocab_used)); }},
        {tr("unknown rate"), [](auto& a) { return QLocale().toString(100 * a.stats.unk_rate, 'f', 3) + "%"; }},
        {tr("mean sequence length"), [](auto& a) { return QLocale().toString(a.stats.length_mean, 'f', 1); }},
        {tr("longest sequence"),
         [](auto& a) { return QLocale().toString(static_cast<qulonglong>(a.stats.length_max)); }},
    };
    m_compareTable->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        m_compareTable->setItem(r, 0, new QTableWidgetItem(rows[r].name));
        m_compareTable->setItem(r, 1, new QTableWidgetItem(rows[r].f(m_a)));
        m_compareTable->setItem(r, 2, new QTableWidgetItem(rows[r].f(m_b)));
    }
}

void TokenizeTab::renderTokenPreview() {
    QString html = QStringLiteral("<div style=\"white-space:pre-wrap;font-family:monospace\">");
    const char* colours[] = {"#dbe8ff", "#ffe6c7"};
    for (size_t i = 0; i < m_a.previewIds.size(); ++i) {
        const int id = m_a.previewIds[i];
        const QString t = id < m_a.tokenTexts.size() ? m_a.tokenTexts[id] : QString();
        const QString shown = tokenHtml(t);
        html += QStringLiteral("<a href=\"id:%1\" style=\"text-decoration:none;color:#000;background-color:%2\">%3</a>")
                    .arg(id)
                    .arg(colours[i % 2], shown.isEmpty() ? QStringLiteral("∅") : shown);
    }
    m_tokPreview->setHtml(html + "</div>");
}

void TokenizeTab::filterVocab(const QString& text) {
    for (int r = 0; r < m_vocab->rowCount(); ++r)
        m_vocab->setRowHidden(r, !text.isEmpty() && !m_vocab->item(r, 0)->text().contains(text, Qt::CaseInsensitive));
}
