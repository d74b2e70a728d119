// Every head at a glance: a grid of thumbnails (layers down, heads across, plus each layer's mean),
// each with a score bar and value under it, so heads with distinct roles (previous-token, first-token,
// broad) stand out. Click a thumbnail to open it large.
#pragma once
#include "twb/attention.h"

#include <QImage>
#include <QWidget>
#include <vector>

class HeadGrid : public QWidget {
    Q_OBJECT
public:
    explicit HeadGrid(QWidget* parent = nullptr);
    /// scores[layer * heads + head] in 0..1 (shown as a bar and number); scoreName labels them.
    void setCapture(const twb::AttentionCapture& cap, const std::vector<float>& scores, const QString& scoreName);
    /// Replaces the scores only (the thumbnails stay).
    void setScores(const std::vector<float>& scores, const QString& scoreName);
    void setSelected(int layer, int head);  // head -1 = the layer's mean
    const std::vector<float>& scores() const { return m_scores; }
    QSize sizeHint() const override;
    /// Fits the thumbnails to a width (between 40 and 200 pixels each).
    void fitWidth(int width);

signals:
    void headClicked(int layer, int head);

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* e) override;

private:
    QRect cellRect(int layer, int col) const;
    QFont smallFont() const;  // the labels' and the scores'
    int scoreBand() const;    // under each row: the score's bar and value
    int m_layers = 0, m_heads = 0, m_cell = 84;
    std::vector<QImage> m_images;  // layer-major, heads + 1 (mean) per layer
    std::vector<float> m_scores;
    QString m_scoreName;
    int m_selLayer = 0, m_selHead = 0;
};
