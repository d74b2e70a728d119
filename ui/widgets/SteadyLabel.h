// A word-wrapped label for a line that changes many times a second (training's step line, its last
// evaluation): its height never shrinks back while it counts, so a line that wraps now and then (at 125%
// text "ETA 0:41" wrapped, "ETA 0:9" did not) does not move the plots below it up and down. reset()
// lets it shrink again, when what it reports starts over.
#pragma once
#include <QLabel>
#include <map>

class SteadyLabel : public QLabel {
    Q_OBJECT
public:
    using QLabel::QLabel;
    int heightForWidth(int width) const override;
    /// Forgets the heights it has had: the next text takes the height it needs.
    void reset();

protected:
    void changeEvent(QEvent* e) override;

private:
    mutable std::map<int, int> m_tallest;  // by width: the tallest this label has been at it
};
