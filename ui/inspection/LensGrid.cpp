#include "ui/inspection/LensGrid.h"
#include "ui/widgets/TokenDisplay.h"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

namespace {
QString shown(const std::string& token) {
    return visibleToken(QString::fromUtf8(token.data(), static_cast<qsizetype>(token.size())));
}

/// White to a mid blue by probability (sqrt: small probabilities stay visible; dark text stays readable).
QColor tint(double p) {
    const double v = std::sqrt(std::clamp(p, 0.0, 1.0));
    return QColor::fromRgbF(1 - 0.55 * v, 1 - 0.35 * v, 1 - 0.08 * v);
}
}  // namespace

LensGrid::LensGrid(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setObjectName("lensGrid");
    m_geometry = measure();
}

void LensGrid::setLens(const twb::LogitLens& lens) {
    m_lens = lens;
    m_geometry = measure();  // the row names' width depends on the stages
    resize(sizeHint());
    updateGeometry();
    update();
}

QFont LensGrid::cellFont() const {
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    return small;
}

LensGrid::Geometry LensGrid::measure() const {
    // At 100% text these are the sizes the grid always had (104, 22, 58, 30 pixels); larger text grows them.
    const QFontMetrics fm(cellFont());
    int label = 0;
    for (int s = 0; s < std::max<int64_t>(m_lens.stages, 1); ++s)
        label = std::max(
            label, fm.horizontalAdvance(s == m_lens.stages - 1 ? tr("%1 = output").arg(stageName(s)) : stageName(s)));
    return {std::max(104, label + 12), std::max(22, fm.height() + 6),
            std::max(58, fm.horizontalAdvance(QStringLiteral("0.00")) + 24), std::max(30, 2 * fm.height() + 4)};
}

void LensGrid::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange) {
        m_geometry = measure();
        resize(sizeHint());
        updateGeometry();
    }
}

QSize LensGrid::sizeHint() const {
    const Geometry& g = m_geometry;
    return {g.rowLabel + static_cast<int>(std::max<int64_t>(m_lens.positions, 4)) * g.cellW + 4,
            g.header + static_cast<int>(std::max<int64_t>(m_lens.stages, 2)) * g.cellH + 4};
}

QRect LensGrid::cellRect(int stage, int position) const {
    // The last stage (the model's output) on top, as the residual stream rises through the blocks.
    const Geometry& g = m_geometry;
    const int row = static_cast<int>(m_lens.stages) - 1 - stage;
    return {g.rowLabel + position * g.cellW, g.header + row * g.cellH, g.cellW - 1, g.cellH - 1};
}

QPoint LensGrid::cellAt(const QPoint& p) const {
    const Geometry& g = m_geometry;
    if (p.x() < g.rowLabel || p.y() < g.header)
        return {-1, -1};
    const int pos = (p.x() - g.rowLabel) / g.cellW, row = (p.y() - g.header) / g.cellH;
    if (pos >= m_lens.positions || row >= m_lens.stages)
        return {-1, -1};
    return {static_cast<int>(m_lens.stages) - 1 - row, pos};
}

QString LensGrid::stageName(int stage) {
    // LogitLens::stage_name's, in the interface's language
    return stage == 0 ? tr("embedding") : tr("block %1").arg(stage - 1);
}

QString LensGrid::cellText(int stage, int position) const {
    if (stage < 0 || stage >= m_lens.stages || position < 0 || position >= m_lens.positions)
        return {};
    const size_t i = static_cast<size_t>(stage * m_lens.positions + position);
    QString s = tr("%1, after “%2” (position %3)")
                    .arg(stageName(stage))
                    .arg(shown(m_lens.tokens[static_cast<size_t>(position)]))
                    .arg(position);
    for (const auto& t : m_lens.at(stage, position))
        s += QString("\n  %L1  %2").arg(t.prob, 6, 'f', 3).arg(shown(t.text));
    const int finalId = m_lens.final_ids[static_cast<size_t>(position)];
    const auto& top = m_lens.at(static_cast<int64_t>(m_lens.stages) - 1, position);
    const auto it = std::find_if(top.begin(), top.end(), [&](const twb::TokenProb& t) { return t.id == finalId; });
    s += tr("\nthe model's choice “%1”: rank %2 here, p = %3")
             .arg(it != top.end() ? shown(it->text) : QString::number(finalId))
             .arg(m_lens.final_rank[i] + 1)
             .arg(QLocale().toString(m_lens.final_prob[i], 'f', 3));
    return s;
}

void LensGrid::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (m_lens.positions == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Type a prompt and press Show"));
        return;
    }
    p.setFont(cellFont());
    const Geometry& g = m_geometry;
    for (int t = 0; t < m_lens.positions; ++t) {  // the input tokens across the top
        p.setPen(palette().color(QPalette::Text));
        p.drawText(
            QRect(g.rowLabel + t * g.cellW, 0, g.cellW - 1, g.header), Qt::AlignCenter,
            p.fontMetrics().elidedText(shown(m_lens.tokens[static_cast<size_t>(t)]), Qt::ElideRight, g.cellW - 4));
    }
    for (int s = 0; s < m_lens.stages; ++s) {
        const QRect first = cellRect(s, 0);
        p.setPen(palette().color(QPalette::Text));
        // the top row is the model's own prediction: named so, as the help above says
        const QString name = stageName(s);
        p.drawText(QRect(2, first.top(), g.rowLabel - 6, g.cellH), Qt::AlignVCenter | Qt::AlignRight,
                   s == m_lens.stages - 1 ? tr("%1 = output").arg(name) : name);
        for (int t = 0; t < m_lens.positions; ++t) {
            const auto& top = m_lens.at(s, t).front();
            const QRect r = cellRect(s, t);
            p.fillRect(r, tint(top.prob));
            p.setPen(Qt::black);
            p.drawText(r.adjusted(2, 1, -2, -r.height() / 2), Qt::AlignCenter,
                       p.fontMetrics().elidedText(shown(top.text), Qt::ElideRight, g.cellW - 6));
            p.drawText(r.adjusted(2, r.height() / 2, -2, -1), Qt::AlignCenter, QLocale().toString(top.prob, 'f', 2));
            // already the model's final choice (not marked on the output row, the final choice itself: every cell
            // of it had the corner, which said nothing)
            if (s + 1 < m_lens.stages && top.id == m_lens.final_ids[static_cast<size_t>(t)]) {
                const QPolygon corner({r.topRight(), r.topRight() + QPoint(-9, 0), r.topRight() + QPoint(0, 9)});
                p.setPen(Qt::NoPen);
                p.setBrush(QColor(230, 120, 0));
                p.drawPolygon(corner);
                p.setBrush(Qt::NoBrush);
            }
        }
    }
}

bool LensGrid::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const QPoint c = cellAt(he->pos());
        const QString text = cellText(c.x(), c.y());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(he->globalPos(), text, this);
        return true;
    }
    return QWidget::event(e);
}
