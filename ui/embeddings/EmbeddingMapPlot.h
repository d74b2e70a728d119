// The embedding map: tokens as points on the top two principal components of their embeddings
// (twb::EmbeddingMap), the most frequent few labelled, hover names the token under the mouse, wheel
// zooms and drag pans. It only draws; the panel asks the worker for the map.
#pragma once
#include "twb/embeddings.h"

#include <qcustomplot.h>

class EmbeddingMapPlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit EmbeddingMapPlot(QWidget* parent = nullptr);
    /// Shows a map; the first `labelled` points (the most frequent) get a text label.
    void setMap(const twb::EmbeddingMap& map, int labelled = 15);
    const twb::EmbeddingMap& map() const { return m_map; }
    /// Index of the point nearest to a widget position within `radius` pixels, or -1.
    int pointAt(const QPointF& pos, double radius = 10) const;
    /// What hovering point i says: the token, its id and count.
    QString describe(int i) const;
    /// How many labels are drawn: one that would cover a more frequent token's is left out (at this zoom).
    int shownLabels() const;

signals:
    /// The text for the point under the mouse (empty when none).
    void hovered(const QString& text);

protected:
    void mouseMoveEvent(QMouseEvent* e) override;

private:
    /// Hides each label that would overlap one before it (the labels go most frequent first), after
    /// every layout: a zoom or a resize changes which ones fit ("and", "you", "the" were drawn over
    /// each other where the points crowd).
    void spaceLabels();
    twb::EmbeddingMap m_map;
    QVector<QCPItemText*> m_labels;
    int m_hover = -1;
};
