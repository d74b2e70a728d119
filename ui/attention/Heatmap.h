// A labelled heatmap (QCustomPlot QCPColorMap): rows down the side, columns across, token strings as
// tick labels (whitespace made visible; every n-th, n chosen so no two overlap), a colour scale, NaN cells
// transparent (the masked future of causal attention), hover read-out and tooltip with the full tokens,
// zoom and pan, PNG/SVG export.
#pragma once
#include <QStringList>
#include <QWidget>
#include <vector>

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;

class Heatmap : public QWidget {
    Q_OBJECT
public:
    explicit Heatmap(QWidget* parent = nullptr);
    /// values[row * cols + col]; NaN = not shown. zmin == zmax = fit to the data.
    void setMatrix(int rows, int cols, const std::vector<float>& values, const QStringList& rowLabels,
                   const QStringList& colLabels, const QString& rowTitle, const QString& colTitle, double zmin = 0,
                   double zmax = 0, bool diverging = false);
    void clear();
    float value(int row, int col) const;
    int rows() const { return m_rows; }
    int cols() const { return m_cols; }
    /// Read-out for a cell ("query 'a' (3) → key 'b' (1): 0.412").
    QString describe(int row, int col) const;
    bool savePng(const QString& path);
    bool saveSvg(const QString& path);
    QCustomPlot* plot() const { return m_plot; }

signals:
    /// The cell under the mouse described, or "" when the mouse has left the map.
    void hovered(const QString& text);
    /// The map was double-clicked (the Attention panel enlarges it).
    void doubleClicked();

protected:
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    QCustomPlot* m_plot;
    QCPColorMap* m_map;
    QCPColorScale* m_scale;
    int m_rows = 0, m_cols = 0;
    std::vector<float> m_values;
    QStringList m_rowLabels, m_colLabels;
    QString m_rowTitle, m_colTitle;
};
