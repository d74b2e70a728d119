// The logit lens drawn: stages down (the embedding, then each block), positions across, each cell the
// stage's most probable next token tinted by its probability; a cell whose top token is the model's final
// choice has an orange corner (not on the output row, which is that choice). Hover a cell for its top tokens and the
// rank of the final choice there.
#pragma once
#include "twb/inspection.h"

#include <QWidget>

class LensGrid : public QWidget {
    Q_OBJECT
public:
    explicit LensGrid(QWidget* parent = nullptr);
    void setLens(const twb::LogitLens& lens);
    const twb::LogitLens& lens() const { return m_lens; }
    QSize sizeHint() const override;
    /// The cell at a point: (stage, position), or (-1, -1).
    QPoint cellAt(const QPoint& p) const;
    /// What hovering the cell shows: its top tokens and the final choice's rank.
    QString cellText(int stage, int position) const;
    /// A stage's name as the rows show it: "embedding", "block 0", ...
    static QString stageName(int stage);
    /// The cells' text: a little smaller than the panel's.
    QFont cellFont() const;

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    /// The grid's measures, from the font (at 150% text fixed ones overlapped a cell's token and
    /// probability and cut the row names).
    struct Geometry {
        int rowLabel, header, cellW, cellH;
    };
    Geometry measure() const;
    QRect cellRect(int stage, int position) const;
    twb::LogitLens m_lens;
    Geometry m_geometry{};  // measure()'s, for the lens and font in force
};
