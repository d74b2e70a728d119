// The Attention panel's "Positions" tab: the model's positional encoding as a heatmap (learned wpe
// rows, the sinusoidal table, or cos of the rotary angles) with a sentence on what it shows, and for
// rotary positions the frequency of each dimension pair. The table comes from the model worker.
#pragma once
#include "twb/session.h"

#include <QWidget>

class Heatmap;
class QCustomPlot;
class QLabel;

class PositionsView : public QWidget {
    Q_OBJECT
public:
    explicit PositionsView(QWidget* parent = nullptr);
    void setTable(const twb::PositionTable& table);
    /// Another run chosen: the table shown was the one before's.
    void clear();
    Heatmap* map() const { return m_map; }
    bool isEmpty() const;

signals:
    /// "Show positions" was clicked.
    void loadClicked();

protected:
    /// A larger text size: the map's least height grows with it.
    void changeEvent(QEvent* e) override;

private:
    Heatmap* m_map;
    QCustomPlot* m_freqPlot;
    QLabel* m_info;
};
