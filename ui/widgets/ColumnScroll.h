// A column of controls that scrolls up and down and is never cut at the side: at least as wide as its
// content's minimum plus the vertical scroll bar (so a bar that appears later covers no field), never
// narrower than it has been at one text size (rows shown and hidden do not make the fields jump
// sideways), measured again when the text size changes. At 150% text on a 1280x720 screen the Datasets
// panel's cleaning options were squeezed into each other and the Experiments column opened scrolled
// sideways; the Training panel's form had this logic to itself. A text size change keeps the control at
// the top of the view there (the form showed another section after each Ctrl+= or Ctrl+-).
#pragma once
#include <QPointer>
#include <QScrollArea>

class ColumnScroll : public QScrollArea {
    Q_OBJECT
public:
    /// Takes content (widget-resizable, no horizontal scroll bar).
    explicit ColumnScroll(QWidget* content, QWidget* parent = nullptr);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitWidth();
    /// The control at the top of the view, and how far the view's top is below its own, before a text
    /// size change; the view is put back there once the column is laid out at the new size.
    QPointer<QWidget> m_anchor;
    int m_anchorOffset = 0;
};
