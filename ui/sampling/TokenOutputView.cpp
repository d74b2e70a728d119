#include "ui/sampling/TokenOutputView.h"

#include "ui/widgets/ConsoleLayout.h"
#include "ui/widgets/TokenDisplay.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QToolTip>
#include <cmath>
#include <memory>

TokenOutputView::TokenOutputView(const QString& name, const QString& alternativesName, const QString& placeholder,
                                 const QString& hint, QWidget* parent)
    : QWidget(parent), m_hint(hint) {
    m_view = new QTextBrowser;
    m_view->setObjectName(name);
    m_view->setOpenLinks(false);
    m_view->setMouseTracking(true);
    m_view->setPlaceholderText(placeholder);
    // Copy and Select all, without "Copy Link Location" of the token under the mouse: its links are the
    // view's own (tok:0:12), nothing a person can use.
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        std::unique_ptr<QMenu> menu(m_view->createStandardContextMenu());
        menu->exec(m_view->mapToGlobal(at));
    });
    // Tab leaves the text (it stepped through every token, thousands of stops); Left and Right choose the
    // token before or after the chosen one, as a click does, and Tab then reaches its alternatives.
    m_view->installEventFilter(this);
    m_alts = new QListWidget;
    m_alts->setObjectName(alternativesName);
    m_title = new QLabel(hint);
    m_title->setWordWrap(true);
    // Right above the list: centred in a height kept from a larger text size it stood halfway down a blank
    m_title->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    // The title keeps the height its text needs at its width (fitTitle): squeezed, at 150% text on a small
    // screen, it was cut at the top and bottom; the list of alternatives scrolls instead.
    m_title->installEventFilter(this);
    fitList();
    auto* box = new QHBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->addWidget(console_layout::outputWithAlternatives(m_view, m_title, m_alts));

    connect(m_view, &QTextBrowser::anchorClicked, this, [this](const QUrl& u) {
        const auto parts = u.toString().split(':');
        if (parts.size() == 3)
            emit tokenClicked(parts[1].toInt(), parts[2].toInt());
    });
    connect(m_view, &QTextBrowser::highlighted, this, &TokenOutputView::showTokenTip);
    for (auto signal : {&QListWidget::itemActivated, &QListWidget::itemClicked})
        connect(m_alts, signal, this, [this](QListWidgetItem* it) {
            emit alternativeChosen(m_selSample, m_selIndex, it->data(Qt::UserRole).toInt());
        });
}

void TokenOutputView::fitList() {
    // Four alternatives in sight at any text size (at 150% the list was one row under a tall title)
    m_alts->setMinimumHeight(m_alts->fontMetrics().height() * 4 + 2 * m_alts->frameWidth());
}

void TokenOutputView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange) {  // View → Text size: the title's height and the list's anew
        fitList();
        fitTitle();
    }
}

void TokenOutputView::fitTitle() {
    // Measured without the minimum set before: QLabel's heightForWidth is never below its minimum size, so
    // the title kept the height of the largest text size it had seen (a blank above the list back at 100%)
    const int before = m_title->minimumHeight();
    m_title->setMinimumHeight(0);
    const int h = m_title->heightForWidth(m_title->width());
    m_title->setMinimumHeight(h > 0 ? h : before);
}

bool TokenOutputView::eventFilter(QObject* watched, QEvent* e) {
    if (watched == m_title && e->type() == QEvent::Resize)
        fitTitle();
    if (watched != m_view || e->type() != QEvent::KeyPress)
        return QWidget::eventFilter(watched, e);
    const auto* k = static_cast<QKeyEvent*>(e);
    if (k->key() == Qt::Key_Tab || k->key() == Qt::Key_Backtab) {
        // QTextBrowser steps through its links on Tab whatever tabChangesFocus says: on to the next control
        focusNextPrevChild(k->key() == Qt::Key_Tab && !(k->modifiers() & Qt::ShiftModifier));
        return true;
    }
    if ((k->key() != Qt::Key_Left && k->key() != Qt::Key_Right) || k->modifiers() != Qt::NoModifier)
        return QWidget::eventFilter(watched, e);
    step(k->key() == Qt::Key_Right ? 1 : -1);
    return true;
}

void TokenOutputView::step(int by) {
    if (!m_samples || m_samples->isEmpty())
        return;
    const auto& samples = *m_samples;
    int s = m_selSample, i = m_selIndex;
    if (!token(s, i)) {  // nothing chosen: the first token, or the last one going left
        s = by > 0 ? 0 : int(samples.size()) - 1;
        i = by > 0 ? -1 : int(samples[s].size());
    }
    i += by;
    while (s >= 0 && s < samples.size() && (i < 0 || i >= samples[s].size())) {  // into the next sample
        s += by;
        if (s >= 0 && s < samples.size())
            i = by > 0 ? 0 : int(samples[s].size()) - 1;
    }
    if (!token(s, i))
        return;  // at either end
    emit tokenClicked(s, i);
    // The chosen token in sight: the cursor on its anchor, scrolled to.
    const QString href = QStringLiteral("t:%1:%2").arg(s).arg(i);
    for (QTextBlock b = m_view->document()->begin(); b.isValid(); b = b.next())
        for (auto f = b.begin(); !f.atEnd(); ++f)
            if (f.fragment().charFormat().anchorHref() == href) {
                QTextCursor c(m_view->document());
                c.setPosition(f.fragment().position());
                m_view->setTextCursor(c);
                m_view->ensureCursorVisible();
                return;
            }
}

QString TokenOutputView::shown(const QString& tokenText) {
    return "“" + visibleToken(tokenText) + "”";
}

const UiToken* TokenOutputView::token(int sample, int index) const {
    if (!m_samples || sample < 0 || index < 0 || sample >= m_samples->size() || index >= (*m_samples)[sample].size())
        return nullptr;
    return &(*m_samples)[sample][index];
}

void TokenOutputView::render(bool follow) {
    static const QVector<QVector<UiToken>> none;
    const auto& samples = m_samples ? *m_samples : none;
    QString html = QStringLiteral("<div style=\"white-space:pre-wrap; font-family:monospace\">");
    for (int s = 0; s < std::max<qsizetype>(1, samples.size()); ++s) {
        if (samples.size() > 1)
            html += tr("<p style=\"color:#666\">— sample %1 —</p>").arg(s + 1);
        if (!m_prefix.isEmpty())
            html += QStringLiteral("<span style=\"color:#555\">%1</span>").arg(m_prefix);
        if (s >= samples.size())
            break;
        const auto& toks = samples[s];
        for (int i = 0; i < toks.size(); ++i) {
            const bool sel = s == m_selSample && i == m_selIndex;
            html += QStringLiteral(
                        "<a href=\"t:%1:%2\" style=\"text-decoration:none;color:#000;background-color:%3%4\">%5</a>")
                        .arg(s)
                        .arg(i)
                        .arg(probabilityTint(toks[i].prob),
                             sel ? QStringLiteral(";font-weight:bold;color:#0040c0") : QString(),
                             toks[i].text.isEmpty() ? QStringLiteral("·") : tokenHtml(toks[i].text));
        }
    }
    html += "</div>";
    QScrollBar* bar = m_view->verticalScrollBar();
    const int scroll = bar->value();
    const bool atEnd = bar->value() >= bar->maximum() - 4;
    m_view->setHtml(html);
    bar->setValue(atEnd && follow ? bar->maximum() : scroll);
}

void TokenOutputView::setTitle(const QString& text) {
    m_title->setText(text);
    fitTitle();
}

void TokenOutputView::clearSelection() {
    m_selSample = m_selIndex = -1;
    m_alts->clear();
}

void TokenOutputView::select(int sample, int index, const QString& title, int drawable) {
    const UiToken* t = token(sample, index);
    if (!t)
        return;
    m_selSample = sample;
    m_selIndex = index;
    m_alts->clear();
    m_title->setText(title);
    fitTitle();
    // Top-k or top-p keeps the first `drawable` alternatives and shares their probability out again: what
    // the sampler draws each of them with (the list's figures are before the cut).
    double kept = 0;
    if (drawable >= 0 && drawable < t->altIds.size())
        for (int k = 0; k < drawable; ++k)
            kept += t->altProbs[k];
    for (int k = 0; k < t->altIds.size(); ++k) {
        auto* it =
            new QListWidgetItem(QStringLiteral("%L1  %2").arg(t->altProbs[k], 5, 'f', 3).arg(shown(t->altTexts[k])));
        it->setData(Qt::UserRole, k);
        it->setBackground(QColor(probabilityTint(t->altProbs[k])));
        if (t->altIds[k] == t->id) {
            QFont f = it->font();
            f.setBold(true);
            it->setFont(f);
        }
        if (drawable >= 0 && k >= drawable) {  // offered as a branch, but never a draw of these settings
            it->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
            it->setBackground(QBrush());
            it->setToolTip(
                tr("Outside top-k or top-p: the sampler never draws it at these settings; a click still "
                   "continues from it"));
        } else if (kept > 0) {
            it->setToolTip(tr("Drawn with p = %1 at these settings: top-k or top-p keeps %2 of the probability "
                              "and shares it out among what it keeps")
                               .arg(QLocale().toString(t->altProbs[k] / kept, 'f', 3))
                               .arg(QLocale().toString(kept, 'f', 3)));
        }
        m_alts->addItem(it);
    }
    render();
}

void TokenOutputView::showTokenTip(const QUrl& link) {
    const auto parts = link.toString().split(':');
    if (parts.size() != 3)
        return QToolTip::hideText();
    const UiToken* t = token(parts[1].toInt(), parts[2].toInt());
    if (!t)
        return;
    QString tip =
        std::isnan(t->prob)
            ? tr("<b>%1</b><br>beam search: no per-token probabilities").arg(shown(t->text).toHtmlEscaped())
            : tr("<b>%1</b> p = %2<br>").arg(shown(t->text).toHtmlEscaped()).arg(QLocale().toString(t->prob, 'f', 3));
    for (int k = 0; k < t->altIds.size(); ++k)
        tip += QStringLiteral("%1 &nbsp; %2<br>")
                   .arg(QLocale().toString(t->altProbs[k], 'f', 3))
                   .arg(shown(t->altTexts[k]).toHtmlEscaped());
    QToolTip::showText(QCursor::pos(), tip, m_view);
}
