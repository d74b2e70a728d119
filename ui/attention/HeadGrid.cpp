#include "ui/attention/HeadGrid.h"

#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <cmath>

namespace {
constexpr int kLabel = 28, kGap = 6;

QImage thumbnail(const twb::AttentionCapture& c, const std::vector<float>& m) {
    const int T = static_cast<int>(c.length), K = static_cast<int>(c.keys());
    QImage img(K, T, QImage::Format_RGB32);
    for (int q = 0; q < T; ++q) {
        auto* line = reinterpret_cast<QRgb*>(img.scanLine(q));
        for (int k = 0; k < K; ++k) {
            if (c.causal() && k > q) {
                line[k] = qRgb(236, 236, 236);  // masked future
                continue;
            }
            // sqrt makes weak but real patterns visible next to near-one weights
            const double v = std::sqrt(std::clamp<double>(m[static_cast<size_t>(q) * K + k], 0.0, 1.0));
            line[k] =
                qRgb(static_cast<int>(255 - 245 * v), static_cast<int>(255 - 215 * v), static_cast<int>(255 - 150 * v));
        }
    }
    return img;
}
}  // namespace

HeadGrid::HeadGrid(QWidget* parent) : QWidget(parent) {
    resize(sizeHint());
}

void HeadGrid::setCapture(const twb::AttentionCapture& cap, const std::vector<float>& scores, const QString& name) {
    m_layers = static_cast<int>(cap.layers);
    m_heads = static_cast<int>(cap.heads);
    m_scores = scores;
    m_scoreName = name;
    m_images.clear();
    const size_t map = static_cast<size_t>(cap.length * cap.keys());  // one head's weights
    for (int l = 0; l < m_layers; ++l) {
        for (int h = 0; h < m_heads; ++h) {
            std::vector<float> w(cap.weights.begin() + static_cast<long>(((l * m_heads) + h) * map),
                                 cap.weights.begin() + static_cast<long>(((l * m_heads) + h + 1) * map));
            m_images.push_back(thumbnail(cap, w));
        }
        m_images.push_back(thumbnail(cap, twb::mean_over_heads(cap, l)));
    }
    updateGeometry();
    update();
}

void HeadGrid::setScores(const std::vector<float>& scores, const QString& name) {
    m_scores = scores;
    m_scoreName = name;
    update();
}

QFont HeadGrid::smallFont() const {
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.8));
    return small;
}

int HeadGrid::scoreBand() const {
    return 8 + QFontMetrics(smallFont()).height();  // the bar, then its value: 16 px cut the caption at 150%
}

void HeadGrid::fitWidth(int width) {
    const int c = std::clamp((width - kLabel) / std::max(1, m_heads + 1) - kGap, 40, 200);
    if (c == m_cell)
        return;
    m_cell = c;
    resize(sizeHint());
    update();
}

void HeadGrid::setSelected(int layer, int head) {
    m_selLayer = layer;
    m_selHead = head;
    update();
}

QSize HeadGrid::sizeHint() const {
    if (m_layers == 0)
        return {240, 120};
    return {kLabel + (m_heads + 1) * (m_cell + kGap), kLabel + m_layers * (m_cell + scoreBand() + kGap) + scoreBand()};
}

QRect HeadGrid::cellRect(int layer, int col) const {
    return {kLabel + col * (m_cell + kGap), kLabel + layer * (m_cell + scoreBand() + kGap), m_cell, m_cell};
}

void HeadGrid::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (m_layers == 0) {
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("Choose a run and show a prompt to see every head."));
        return;
    }
    p.setFont(smallFont());
    const int text = scoreBand() - 8;
    for (int h = 0; h <= m_heads; ++h)
        p.drawText(QRect(cellRect(0, h).left(), 0, m_cell, kLabel), Qt::AlignCenter,
                   h < m_heads ? tr("head %1").arg(h) : tr("mean"));
    for (int l = 0; l < m_layers; ++l) {
        const QRect r0 = cellRect(l, 0);
        p.setPen(palette().text().color());
        p.save();
        p.translate(kLabel / 2, r0.center().y());
        p.rotate(-90);
        p.drawText(QRect(-m_cell / 2, -kLabel / 2, m_cell, kLabel), Qt::AlignCenter, tr("layer %1").arg(l));
        p.restore();
        for (int h = 0; h <= m_heads; ++h) {
            const QRect r = cellRect(l, h);
            p.drawImage(r, m_images[static_cast<size_t>(l * (m_heads + 1) + h)]);
            const bool sel = l == m_selLayer && (h == m_heads ? m_selHead < 0 : h == m_selHead);
            p.setPen(QPen(sel ? QColor(230, 80, 0) : QColor(160, 160, 160), sel ? 3 : 1));
            p.drawRect(r.adjusted(0, 0, -1, -1));
            if (h < m_heads && static_cast<size_t>(l * m_heads + h) < m_scores.size()) {
                const float s = m_scores[static_cast<size_t>(l * m_heads + h)];
                const QRect bar(r.left(), r.bottom() + 3, static_cast<int>(m_cell * std::clamp(s, 0.f, 1.f)), 5);
                p.fillRect(QRect(r.left(), r.bottom() + 3, m_cell, 5), QColor(225, 225, 225));
                p.fillRect(bar, QColor::fromHsvF(0.08 + 0.5 * (1 - std::clamp(s, 0.f, 1.f)), 0.8, 0.85));
                p.setPen(palette().text().color());
                p.drawText(QRect(r.left(), r.bottom() + 8, m_cell, text), Qt::AlignRight | Qt::AlignVCenter,
                           QLocale().toString(s, 'f', 2));  // "0,32" in Bokmål, as the line above
            }
        }
    }
    p.setPen(palette().text().color());
    p.drawText(QRect(0, height() - text, width(), text), Qt::AlignLeft | Qt::AlignVCenter,
               tr("bars: %1").arg(m_scoreName));
}

void HeadGrid::mousePressEvent(QMouseEvent* e) {
    for (int l = 0; l < m_layers; ++l)
        for (int h = 0; h <= m_heads; ++h)
            if (cellRect(l, h).contains(e->position().toPoint())) {
                setSelected(l, h == m_heads ? -1 : h);
                emit headClicked(l, h == m_heads ? -1 : h);
                return;
            }
}
