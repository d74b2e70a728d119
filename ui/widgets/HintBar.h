// A line of hint text with its buttons: on one row where the hint fits beside them, else the hint on a
// row of its own above them. The layout follows the width and the font only, never the text shown, so
// a hint that changes under the mouse (the attention map's "query 't' (12) → key 'a' (3): 0.3421") does
// not move what it describes. At 150% text on 1280x720 the attention map's hint shared a row with its
// two export buttons and was cut to "Hover the map for query".
#pragma once
#include <QWidget>

class QGridLayout;
class QLabel;

class HintBar : public QWidget {
    Q_OBJECT
public:
    /// hint: the label whose text changes; widest: the longest text it is expected to show (its room is
    /// judged by that); buttons: at the right, in order.
    HintBar(QLabel* hint, const QString& widest, const QList<QWidget*>& buttons, QWidget* parent = nullptr);
    /// Whether the hint has a row of its own.
    bool stacked() const { return m_stacked; }
    /// The hint as painted: whole, or cut with "…" to its room.
    QString shownHint() const;

protected:
    /// Paints the hint with "…" where it is cut (it ended mid-word, "drag pano").
    bool eventFilter(QObject* watched, QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    void arrange();
    QLabel* m_hint;
    QString m_widest;
    QList<QWidget*> m_buttons;
    QGridLayout* m_grid;
    bool m_stacked = false;
};
